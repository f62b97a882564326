"""Issue 16's importer cases: `mockapi import` on small hostile documents generated here, each
bounded in time; what the importer keeps must serve."""

import json
import subprocess
import tempfile
import time
from pathlib import Path

from .harness import Results, Server, expect_status, request

IMPORT_TIMEOUT = 20  # seconds; each of these used to run for ever or fail the whole import


def run(results: Results, binary):
    with tempfile.TemporaryDirectory(prefix="mockapi-round3-import-") as scratch:
        folder = Path(scratch)
        openapi_cases(results, binary, folder)
        har_case(results, binary, folder)


def import_file(binary, kind: str, source: Path, out: Path):
    """(exit status, stdout, stderr, seconds), or None when it did not end within IMPORT_TIMEOUT."""
    started = time.monotonic()
    try:
        done = subprocess.run([str(binary), "import", kind, str(source), "--out", str(out)],
                              capture_output=True, text=True, timeout=IMPORT_TIMEOUT)
    except subprocess.TimeoutExpired:
        return None
    return done.returncode, done.stdout, done.stderr, time.monotonic() - started


def expect_import(results: Results, name: str, outcome, status: int, stderr_has: str):
    if outcome is None:
        results.check(False, name, f"did not end within {IMPORT_TIMEOUT} s")
        return
    code, _, stderr, seconds = outcome
    results.check(code == status and stderr_has in stderr, name,
                  f"exit {code} after {seconds:.1f} s, expected {status} and {stderr_has!r} in {stderr[-300:]!r}")


def alias_bomb(key: str, indent: str) -> str:
    lines = [f"{key}:", f"{indent}a0: &a0 [" + ",".join(['"lol"'] * 9) + "]"]
    lines += [f"{indent}a{level}: &a{level} [" + ",".join([f"*a{level - 1}"] * 9) + "]" for level in range(1, 9)]
    return "\n".join(lines) + "\n"


def openapi_cases(results: Results, binary, folder: Path):
    head = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\n"
    documents = {
        "alias bomb in an x- extension": (head + "paths: {}\n" + alias_bomb("x-bomb", "  "), 2, "aliases of &a"),
        "alias bomb in an example": (head + "paths:\n  /a:\n    get:\n      responses:\n        '200':\n"
                                     "          description: ok\n          content:\n            application/json:\n"
                                     "              example:\n" + alias_bomb("                laughs", "                  "),
                                     2, "aliases of &a"),
        "nesting 300 levels deep": (head + "paths: {}\nx-deep: " + "[" * 300 + "]" * 300 + "\n", 2, "nested more than 128 levels deep"),
        "YAML syntax error": (head + "paths:\n  /a: b: c\n", 2, ":4:8: mapping values are not allowed in this context"),
    }
    schemas = {f"S{i}": {"type": "object", "properties": {
        f"p{j}": {"type": "string"} if i == 10 else {"$ref": f"#/components/schemas/S{i + 1}"} for j in range(12)}}
        for i in range(11)}
    fan_out = {"openapi": "3.1.0", "info": {"title": "fan", "version": "1"}, "components": {"schemas": schemas},
               "paths": {"/a": {"get": {"operationId": "getA", "responses": {"200": {"description": "ok", "content": {
                   "application/json": {"schema": {"$ref": "#/components/schemas/S0"}}}}}}}}}
    documents["11 schemas of 12 properties each $ref-ing the next"] = (
        json.dumps(fan_out), 0, "the example made up from the schema stops: it reached 10000 values")
    for index, (name, (text, status, stderr_has)) in enumerate(documents.items()):
        source = folder / f"doc{index}.{'json' if text.startswith('{') else 'yaml'}"
        source.write_text(text)
        expect_import(results, f"import openapi: {name}", import_file(binary, "openapi", source, folder / f"out{index}"),
                      status, stderr_has)


def har_case(results: Results, binary, folder: Path):
    def entry(url: str, status: int) -> dict:
        return {"request": {"method": "GET", "url": url},
                "response": {"status": status, "content": {"mimeType": "application/json", "text": '{"ok": true}'}}}
    long_path = "/".join(f"s{i % 10}" for i in range(5000))
    har = {"log": {"entries": [entry("https://api.example/v1/odd", 99999), entry(f"https://api.example/{long_path}", 200),
                               entry("https://api.example/v1/items", 200)]}}
    source = folder / "capture.har"
    source.write_text(json.dumps(har))
    out = folder / "har-out"
    outcome = import_file(binary, "har", source, out)
    expect_import(results, "import har: status 99999 skipped", outcome, 0, "$.log.entries[0]: status 99999 is not an HTTP status")
    expect_import(results, "import har: 5,000-segment URL skipped", outcome, 0, "$.log.entries[1]: path")
    if outcome is None or outcome[0] != 0:
        return
    server = Server(binary, ["--contracts", str(out / "contracts"), "--fixtures", str(out / "fixtures")])
    try:
        expect_status(results, server.port, "the rest of the HAR import serves", request("GET", "/v1/items"), 200)
    finally:
        server.stop()
