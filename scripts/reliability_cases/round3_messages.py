"""Issue 19, "Messages the team had to decode": what the server and the gate commands say, checked
on the wire and from the command line (default flags, bundled contracts, loopback only)."""

import json
import subprocess

from .harness import REPO, Results, Server, exchange, fetch, status_of

COMMAND_TIMEOUT = 30


def run(results: Results, binary):
    server = Server(binary)
    try:
        trailing_slash_is_called_one(results, server.port)
        match_rules_show_the_value_the_request_had(results, server.port)
        multipart_without_closing_dashes_says_so(results, server.port)
        allow_lists_head(results, server.port)
        journal_problem_carries_the_nearest_reason(results, server.port)
    finally:
        server.stop()
    coverage_on_an_empty_journal_fails(results, binary)
    command_line_messages(results, binary)


def trailing_slash_is_called_one(results: Results, port: int):
    status, _, body = fetch(port, "GET", "/v1/categories/")
    nearest = json.loads(body).get("nearest", []) if status == 404 else []
    first = nearest[0] if nearest else {}
    results.check(first.get("contract") == "categories"
                  and first.get("reason") == "trailing slash: the contract's path is /v1/categories",
                  "messages: trailing slash named", f"{status} {body[:300]!r}")


def match_rules_show_the_value_the_request_had(results: Results, port: int):
    body = json.dumps({"access_token": "t", "intent": "signup"}).encode()
    status, _, answer = fetch(port, "PUT", "/v1/facebook/access_token", body, {"Content-Type": "application/json"})
    error = json.loads(answer).get("error", "") if status == 404 else ""
    results.check('facebook_signup wants json.intent = "register", the request has "signup"' in error,
                  "messages: match rule and value", f"{status} {answer[:300]!r}")
    status, _, answer = fetch(port, "PUT", "/v1/facebook/access_token", body, {"Content-Type": "text/plain"})
    error = json.loads(answer).get("error", "") if status == 404 else ""
    results.check("came with Content-Type: text/plain, so it was not read as JSON" in error,
                  "messages: JSON body without its Content-Type", f"{status} {answer[:300]!r}")


def multipart_without_closing_dashes_says_so(results: Results, port: int):
    body = (b'--XyZ\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\n'
            b"Content-Type: image/jpeg\r\n\r\n\xff\xd8jpeg\r\n--XyZ\r\n")
    head = (f"POST /v1/projects/42/updates/draft/images HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            f"Authorization: token t\r\nContent-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: {len(body)}\r\n\r\n")
    outcome, received = exchange(port, head.encode() + body)
    results.check(outcome == "answer" and status_of(received) == 400
                  and b'the body ended without its closing \\"--XyZ--\\"' in received,
                  "messages: multipart without its closing --", f"{outcome} {received[-300:]!r}")


def allow_lists_head(results: Results, port: int):
    status, headers, _ = fetch(port, "DELETE", "/v1/users/self")
    results.check(status == 405 and headers.get("allow") == "GET, HEAD", "messages: Allow lists HEAD", f"{status} {headers}")
    status, _, _ = fetch(port, "HEAD", "/v1/categories")
    results.check(status == 200, "messages: HEAD is served on a GET route", f"{status}")


def journal_problem_carries_the_nearest_reason(results: Results, port: int):
    fetch(port, "GET", "/v1/projects/42/backer/2001")
    _, _, body = fetch(port, "GET", "/__mockapi/requests?unmatched")
    problems = [entry.get("problem") or "" for entry in json.loads(body)]
    results.check(any("(nearest backing: segment 4 is \"backer\"" in problem for problem in problems),
                  "messages: journal 404 problem names the nearest contract", f"{problems[-3:]}")


def coverage_on_an_empty_journal_fails(results: Results, binary):
    server = Server(binary)
    try:
        base = f"http://127.0.0.1:{server.port}"
        empty = command(binary, ["coverage", "--base-url", base])
        results.check(empty.returncode == 1 and "no requests reached the server: is the client pointed at it?" in empty.stdout,
                      "messages: coverage fails on an empty journal", f"{empty.returncode} {empty.stdout[-300:]!r}")
        fetch(server.port, "GET", "/v1/categories")
        one = command(binary, ["coverage", "--base-url", base])
        results.check(one.returncode == 0, "messages: coverage passes once a request came", f"{one.returncode} {one.stdout[-300:]!r}")
    finally:
        server.stop()


def command_line_messages(results: Results, binary):
    dead = command(binary, ["verify", "--base-url", "http://127.0.0.1:9"])
    results.check(dead.returncode == 2 and dead.stderr == "mockapi verify: http://127.0.0.1:9 does not answer: connection refused\n",
                  "messages: verify on a dead --base-url", f"{dead.returncode} {dead.stderr!r}")
    as_json = command(binary, ["verify", "--base-url", "http://127.0.0.1:9", "--format", "json"])
    try:
        error = json.loads(as_json.stdout).get("error")
    except ValueError:
        error = None
    results.check(as_json.returncode == 2 and error == "http://127.0.0.1:9 does not answer: connection refused",
                  "messages: verify --format json on unusable input", f"{as_json.returncode} {as_json.stdout!r}")
    for port in ["-1", "70000"]:
        bad = command(binary, ["serve", "--port", port])
        results.check(bad.returncode == 64 and bad.stderr.startswith("Error: --port must be 0 to 65535"),
                      f"messages: --port {port}", f"{bad.returncode} {bad.stderr[:200]!r}")


def command(binary, arguments: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([str(binary), *arguments], cwd=REPO, capture_output=True, text=True, timeout=COMMAND_TIMEOUT)
