"""Issue 12's bad inputs and a mutation fuzz pass, against a server with small limits."""

import random
import socket
import time
from concurrent.futures import ThreadPoolExecutor

from .harness import (HEADER_TIMEOUT, MAX_BODY, MAX_JSON, Results, Server, exchange, expect_status, header_of,
                      multipart, request, status_of)

FUZZ_COUNT = 3000
FUZZ_SEED = 12


def run(results: Results, binary, fuzz_count: int = FUZZ_COUNT, fuzz_seed: int = FUZZ_SEED):
    server = Server(binary, ["--max-body-bytes", str(MAX_BODY), "--max-json-bytes", str(MAX_JSON),
                             "--header-timeout", str(HEADER_TIMEOUT), "--max-connections-per-ip", "64"])
    try:
        replay_known_bad_inputs(results, server.port)
        fuzz(results, server.port, fuzz_count, fuzz_seed)
        results.check(server.alive(), "server still running", f"exited with {server.process.returncode}")
        expect_status(results, server.port, "good GET afterwards", request("GET", "/v1/categories"), 200)
    finally:
        server.stop()


def replay_known_bad_inputs(results: Results, port: int):
    args = "&".join(["category_ids[]=1"] * 500)
    expect_status(results, port, "500 query arguments", request("GET", f"/v1/discover?{args}"), 200)
    args = "&".join(["category_ids[]=1"] * 5000)
    expect_status(results, port, "5000 query arguments (85 KB target)", request("GET", f"/v1/discover?{args}"), 414)
    expect_status(results, port, "%00 in the path", request("GET", "/v1/activities%00/evil"), 404)
    answer = expect_status(results, port, "%2F in the path", request("GET", "/v1/projects/1%2Fbackers%2F2"), 200)
    results.check(header_of(answer, "Mockapi-Contract") == "project_by_slug", "%2F is not a separator",
                  f"contract {header_of(answer, 'Mockapi-Contract')}")
    content_type, body = multipart("a;b.png")
    expect_status(results, port, "quoted filename with ';'",
                  request("POST", "/v1/projects/1/updates/draft/images",
                          {"Content-Type": content_type, "Content-Length": str(len(body))}, body), 200)
    content_type, body = multipart("a.png", part_headers_padding=20_000)
    expect_status(results, port, "20 KB part headers in one read",
                  request("POST", "/v1/projects/1/updates/draft/images",
                          {"Content-Type": content_type, "Content-Length": str(len(body))}, body), 400)
    expect_status(results, port, "Prefer: code=abc", request("GET", "/v1/categories", {"Prefer": "code=abc"}), 422)
    json_headers = {"Content-Type": "application/json", "Authorization": "token a"}
    expect_status(results, port, "two different Content-Length values",
                  request("PUT", "/v1/projects/1/backers/2", {**json_headers, "Content-Length": "2\r\nContent-Length: 5"}, b"{}"), 400)
    expect_status(results, port, "unknown Transfer-Encoding",
                  request("PUT", "/v1/projects/1/backers/2", {**json_headers, "Transfer-Encoding": "gzip"}, b"{}"), 501,
                  finish=False, timeout=2)
    expect_status(results, port, "HTTP/1.1 without Host", request("GET", "/v1/categories", host=False), 400)
    expect_status(results, port, "Content-Length of 2^63",
                  request("PUT", "/v1/projects/1/backers/2", {**json_headers, "Content-Length": str(2**63)}, b"{}"), 413)
    chunk = b"%x\r\n%s\r\n" % (16 * 1024, b"a" * 16 * 1024)
    expect_status(results, port, "chunked body over --max-body-bytes",
                  request("POST", "/v1/projects/1/star", {"Transfer-Encoding": "chunked"}, chunk * 5 + b"0\r\n\r\n"), 413)
    expect_status(results, port, "chunked body that never ends",
                  request("POST", "/v1/projects/1/star", {"Transfer-Encoding": "chunked"}, chunk * 12), 413, finish=False)
    big_json = b'{"amount": 1, "reward_id": 2, "x": "' + b"j" * MAX_JSON + b'"}'
    expect_status(results, port, "JSON body over --max-json-bytes",
                  request("PUT", "/v1/projects/1/backers/2", {**json_headers, "Content-Length": str(len(big_json))}, big_json), 413)

    # Slowloris: headers trickle in forever; the header deadline must cut the connection.
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(b"GET /v1/categories HTTP/1.1\r\nHost: x\r\n")
    opened = time.monotonic()
    cut = False
    sock.settimeout(0.25)
    while time.monotonic() - opened < HEADER_TIMEOUT + 3 and not cut:
        try:
            cut = sock.recv(1) == b""
        except socket.timeout:
            try:
                sock.sendall(b"X-Slow: 1\r\n")
            except OSError:
                cut = True
        except OSError:
            cut = True
    sock.close()
    results.check(cut, "headers trickling past --header-timeout are cut off", "connection still open")

    # Many idle connections from one address: the per-IP limit keeps a slot for everyone else.
    hogs = []
    for _ in range(80):
        hog = socket.create_connection(("127.0.0.1", port))
        hog.sendall(b"GET / HTTP/1.1\r\n")
        hogs.append(hog)
    expect_status(results, port, "another address gets in past 80 idle connections from one",
                  request("GET", "/v1/categories"), 200, source="127.0.0.2")
    for hog in hogs:
        hog.close()


SEEDS = [
    request("GET", "/v1/categories"),
    request("GET", "/v1/discover?category_ids[]=1&sort=popular&page=2"),
    request("GET", "/v1/projects/42/backers/2001"),
    request("PUT", "/v1/projects/1/backers/2", {"Content-Type": "application/json", "Authorization": "token a",
                                                "Content-Length": "30"}, b'{"amount": 45, "reward_id": 9}'),
    request("POST", "/v1/projects/1/updates/draft/images",
            {"Content-Type": multipart("a.png")[0], "Content-Length": str(len(multipart("a.png")[1]))}, multipart("a.png")[1]),
    request("POST", "/v1/projects/1/star", {"Transfer-Encoding": "chunked"}, b"4\r\nabcd\r\n0\r\n\r\n"),
    request("GET", "/__mockapi/routes"),
]
TOKENS = [b"\r\n", b"\r\n\r\n", b"\x00", b"%", b"%00", b"%2F", b"?", b"&", b"=", b";", b":", b" ", b"\"",
          b"Content-Length: 99999999999999999999\r\n", b"Transfer-Encoding: chunked\r\n", b"Host: y\r\n",
          b"\xff\xfe", b"HTTP/1.1", b"GET ", b"-1", b"ffffffffffffffff\r\n"]


def mutate(rng: random.Random, seed: bytes) -> bytes:
    data = bytearray(seed)
    for _ in range(rng.randint(1, 4)):
        choice = rng.random()
        position = rng.randint(0, len(data))
        if choice < 0.25 and data:
            data[min(position, len(data) - 1)] = rng.randint(0, 255)
        elif choice < 0.45:
            data[position:position] = rng.choice(TOKENS)
        elif choice < 0.6:
            del data[position:position + rng.randint(1, 16)]
        elif choice < 0.7:
            data = data[:position]
        elif choice < 0.8 and data:
            start = rng.randint(0, len(data) - 1)
            data[position:position] = data[start:start + rng.randint(1, 64)] * rng.randint(1, 50)
        else:
            data[position:position] = bytes(rng.randint(0, 255) for _ in range(rng.randint(1, 32)))
    return bytes(data)


def fuzz(results: Results, port: int, count: int, seed: int):
    rng = random.Random(seed)
    cases = [mutate(rng, rng.choice(SEEDS)) for _ in range(count)]

    def one(case: bytes):
        outcome, received = exchange(port, case)
        ok = outcome == "closed" or (outcome == "answer" and status_of(received) is not None)
        results.check(ok, "fuzz", f"{outcome} {received[:60]!r} for {case[:120]!r}")

    with ThreadPoolExecutor(max_workers=16) as pool:
        list(pool.map(one, cases))


