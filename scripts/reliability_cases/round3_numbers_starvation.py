"""Issue 16, items 1 and 4-7: hostile numbers in every input, and one local process trying to
starve the others (delays held by clients that left, slow bodies, trickles of a large fixture,
many large JSON bodies at once). Everything on the default flags, unless a case is about a flag."""

import json
import os
import random
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from .harness import REPO, Results, Server, exchange, expect_status, request, status_of

# Numbers that once crashed `serve` (a Double or a large Int converted with a trapping conversion).
HOSTILE_DELAYS = ["inf", "infinity", "-inf", "nan", "1e300", "1e16", "9.3e15", "0-1e300", "1e300-1e301",
                  "lognormal:1:1000", "lognormal:1e300:1", "lognormal:inf:0", "-1", "0x10", "", "5-1", "1e-400"]
HOSTILE_INTEGERS = ["-1", "0", "1e300", "inf", "nan", "5000000000", "10000000000000", "99999999999999999999",
                    "-9223372036854775808", "9223372036854775807", "18446744073709551616", "0x10", ""]
NUMERIC_FLAGS = ["--timeout", "--header-timeout", "--max-body-bytes", "--max-json-bytes", "--max-buffered-bytes",
                 "--min-body-rate", "--max-connections", "--max-connections-per-ip", "--threads", "--journal-size",
                 "--journal-bytes", "--max-delay", "--delay", "--port"]
CRASH_CODES = {-4, -6, -11, 132, 134, 139}   # SIGILL, SIGABRT, SIGSEGV as a signal or a shell status


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def run(results: Results, binary):
    numbers_in_requests(results, binary)
    numbers_in_flags(results, binary)
    numbers_in_contracts(results, binary)
    server = Server(binary)
    try:
        delayed_clients_that_leave(results, server)
        slow_bodies(results, server)
        many_large_json_bodies(results, server)
        results.check(server.alive(), "round3: server still running after the starvation cases",
                      f"exited with {server.process.returncode}")
    finally:
        server.stop()
    trickles_share_one_body(results, binary)
    clients_that_leave_free_their_slots(results, binary)


def numbers_in_requests(results: Results, binary):
    """Every hostile Prefer delay is a 422 naming the range; a seeded fuzz of numeric-looking
    values never crashes (with --max-delay 50 any value accepted waits at most 50 ms)."""
    server = Server(binary, ["--max-delay", "50"])
    try:
        for value in HOSTILE_DELAYS + ["51", "0-51", "60000"]:
            received = expect_status(results, server.port, f"Prefer: delay={value}",
                                     request("GET", "/v1/categories", {"Prefer": f"delay={value}"}), 422)
            results.check(b"0 to 50 ms" in received, f"Prefer: delay={value} names the range", repr(received[-200:]))
        rng = random.Random(16)
        pieces = ["1", "9", "0", ".", "e", "E", "-", "+", "300", "inf", "nan", "lognormal:", ":", "1e3", "99999999999999999999"]
        for _ in range(300):
            value = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 6)))
            outcome, received = exchange(server.port, request("GET", "/v1/categories", {"Prefer": f"delay={value}"}), timeout=2)
            results.check(outcome == "answer" and status_of(received) in (200, 422), "Prefer delay fuzz",
                          f"delay={value}: {outcome} {received[:60]!r}")
        for header in ["fault=hang, delay=inf", "code=99999999999999999999", "code=-1", "example=x, delay=1e309"]:
            outcome, received = exchange(server.port, request("GET", "/v1/categories", {"Prefer": header}), timeout=2)
            results.check(outcome == "answer" and status_of(received) == 422, f"Prefer: {header}", f"{outcome} {received[:60]!r}")
        results.check(server.alive(), "numeric Prefer values: server still running", f"exited with {server.process.returncode}")
    finally:
        server.stop()


def run_briefly(arguments: list[str], env: dict[str, str] | None = None) -> tuple[int | None, str]:
    """Runs mockapi; one that is still serving after a second was accepted: stopped, code None."""
    process = subprocess.Popen(arguments, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        _, err = process.communicate(timeout=1.5)
        return process.returncode, err
    except subprocess.TimeoutExpired:
        process.terminate()
        process.communicate(timeout=10)
        return None, ""


def numbers_in_flags(results: Results, binary):
    """Each numeric flag and MOCKAPI_PORT with hostile values: refused with the flag named (or
    accepted), never a crash."""
    for flag in NUMERIC_FLAGS:
        values = HOSTILE_DELAYS if flag == "--delay" else HOSTILE_INTEGERS
        for value in values:
            code, err = run_briefly([str(binary), "serve", "--port", "0", "--quiet", flag, value] if flag != "--port"
                                    else [str(binary), "serve", "--quiet", flag, value])
            ok = code is None or (code not in CRASH_CODES and code != 0 and flag.lstrip("-").split("-")[0] in err.lower())
            results.check(ok, f"serve {flag} {value!r}", f"exit {code}: {err.strip()[:160]}")
    for value in ["99999", "-1", "1e9", "inf"]:
        code, err = run_briefly([str(binary), "serve", "--quiet"], env={**os.environ, "MOCKAPI_PORT": value})
        results.check(code not in CRASH_CODES and code is not None and "MOCKAPI_PORT" in err,
                      f"MOCKAPI_PORT={value}", f"exit {code}: {err.strip()[:160]}")
    code, err = run_briefly([str(binary), "serve", "--port", "0", "--delay", "70000"])
    results.check(code == 2 and "--max-delay" in err, "--delay above --max-delay exits 2 naming --max-delay", f"exit {code}: {err[:160]}")


def numbers_in_contracts(results: Results, binary):
    """A response `delay` out of range is a load error with the file and JSON path, from lint and serve."""
    with tempfile.TemporaryDirectory() as folder:
        contracts = Path(folder) / "contracts"
        shutil.copytree(REPO / "contracts", contracts)
        target = contracts / "categories" / "categories.json"
        original = target.read_text()
        for delay in ["1e300", "-5", "3600001", '{"min": 0, "max": 1e300}', '{"median": 100, "sigma": 1000}']:
            target.write_text(original.replace('"status": 200,', f'"status": 200, "delay": {delay},', 1))
            for command in (["lint"], ["serve", "--port", "0"]):
                code, err = run_briefly([str(binary), *command, "--contracts", str(contracts), "--fixtures", str(REPO / "fixtures")])
                results.check(code not in CRASH_CODES and code not in (None, 0) and "categories.json" in err
                              and "$.responses.default.delay" in err,
                              f"contract delay {delay} ({command[0]})", f"exit {code}: {err.strip()[:200]}")


def delayed_clients_that_leave(results: Results, server: Server):
    """300 connections waiting on a long delay, closed at once: their slots are free again within
    a second or two, and no other client from the same address was ever refused."""
    hogs = []
    for _ in range(200):
        hog = socket.create_connection(("127.0.0.1", server.port))
        hog.sendall(request("GET", "/v1/categories", {"Prefer": "delay=60000"}).replace(b"Connection: close\r\n", b""))
        hogs.append(hog)
    expect_status(results, server.port, "a probe is served beside 200 delayed connections", request("GET", "/v1/categories"), 200)
    for hog in hogs:
        hog.close()
    time.sleep(1.5)
    # The per-IP limit is 256: if the 200 closed connections still held their slots, most of these would be refused.
    again = []
    refused = 0
    for _ in range(200):
        hog = socket.create_connection(("127.0.0.1", server.port))
        hog.sendall(request("GET", "/v1/categories", {"Prefer": "delay=60000"}).replace(b"Connection: close\r\n", b""))
        again.append(hog)
    time.sleep(0.3)
    for hog in again:
        hog.setblocking(False)
        try:
            if hog.recv(1) == b"":
                refused += 1
        except BlockingIOError:
            pass
        except OSError:
            refused += 1
    results.check(refused == 0, "closed delayed connections free their slots within 1.5 s", f"{refused} of 200 new connections refused")
    for hog in again:
        hog.close()
    time.sleep(1)


def slow_bodies(results: Results, server: Server):
    """slowhttptest -B: 300 connections opened at 50 a second, each sending one body byte every
    2 s. Each is cut (408) once the minimum body rate is missed; probes from the same address
    are served all along."""
    slow = []
    stop = threading.Event()
    probe_failures = []

    def probe():
        while not stop.is_set():
            outcome, received = exchange(server.port, request("GET", "/v1/categories"), timeout=3)
            if status_of(received) != 200:
                probe_failures.append(f"{outcome} {received[:40]!r}")
            time.sleep(0.1)

    def poke_all():
        for open_one in slow:
            try:
                open_one.send(b" ")
            except OSError:
                pass

    prober = threading.Thread(target=probe)
    prober.start()
    head = request("PUT", "/v1/projects/1/backers/2", {"Content-Type": "application/json", "Authorization": "token a",
                                                        "Content-Length": "4096"}).replace(b"Connection: close\r\n", b"")
    started = time.monotonic()
    try:
        for index in range(300):
            connection = socket.create_connection(("127.0.0.1", server.port))
            connection.sendall(head + b"{")
            slow.append(connection)
            if index % 50 == 49:
                time.sleep(1)
                poke_all()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            time.sleep(0.5)
            poke_all()
    finally:
        stop.set()
        prober.join()
    answers = 0
    for connection in slow:
        connection.settimeout(0.2)
        try:
            if connection.recv(64).startswith(b"HTTP/1.1 408"):
                answers += 1
        except OSError:
            pass
        connection.close()
    results.check(not probe_failures, "probes from the same address are served beside 300 slow bodies",
                  f"{len(probe_failures)} failed: {probe_failures[:3]}")
    results.check(answers >= 290, "slow bodies are answered 408 and closed", f"{answers} of 300 got a 408 in {time.monotonic() - started:.1f} s")


def many_large_json_bodies(results: Results, server: Server):
    """1,100 connections from five loopback addresses each declaring a 1 MB JSON body: the
    buffered total stays within --max-buffered-bytes (the rest get 503), and the memory comes
    back once they close."""
    baseline = rss_mb(server.process.pid)
    body = b'{"amount": 1, "reward_id": 2, "x": "' + b"j" * 1_000_000
    head = request("PUT", "/v1/projects/1/backers/2", {"Content-Type": "application/json", "Authorization": "token a",
                                                        "Content-Length": str(len(body) + 2)}).replace(b"Connection: close\r\n", b"")
    held, refused = [], 0
    for index in range(1100):
        connection = socket.socket()
        connection.bind((f"127.0.0.{index % 5 + 1}", 0))
        connection.connect(("127.0.0.1", server.port))
        connection.settimeout(2)
        try:
            connection.sendall(head + body)   # all but the closing '"}': the server holds it
        except OSError:
            pass
        held.append(connection)
    time.sleep(0.5)
    peak = rss_mb(server.process.pid)
    for connection in held:
        connection.setblocking(False)
        try:
            if connection.recv(64).startswith(b"HTTP/1.1 503"):
                refused += 1
        except (BlockingIOError, OSError):
            pass
        connection.close()
    time.sleep(1)
    after = rss_mb(server.process.pid)
    results.check(peak - baseline < 200, "1,100 held 1 MB JSON bodies stay within the buffer budget",
                  f"RSS {baseline:.0f} MB -> {peak:.0f} MB")
    results.check(refused >= 900, "bodies past --max-buffered-bytes get 503", f"{refused} of 1100")
    results.check(after - baseline < 100, "memory comes back after the bodies close", f"RSS {baseline:.0f} -> {peak:.0f} -> {after:.0f} MB")
    expect_status(results, server.port, "a JSON PUT is served once the bodies have gone",
                  request("PUT", "/v1/projects/1/backers/2", {"Content-Type": "application/json", "Authorization": "token a",
                                                               "Content-Length": "30"}, b'{"amount": 45, "reward_id": 9}'), 200)


def trickles_share_one_body(results: Results, binary):
    """150 `fault=trickle` connections to a 20 MB fixture: memory stays flat (each used to copy it)."""
    with tempfile.TemporaryDirectory() as folder:
        contracts, fixtures = Path(folder) / "contracts", Path(folder) / "fixtures"
        contracts.mkdir()
        fixtures.mkdir()
        (fixtures / "big.json").write_text(json.dumps({"items": ["x" * 1000] * 20_000}))
        (contracts / "big.json").write_text(json.dumps({"name": "big", "request": {"method": "GET", "path": "/big"},
                                                         "responses": {"default": {"status": 200, "fixture": "big.json"}}}))
        server = Server(binary, ["--contracts", str(contracts), "--fixtures", str(fixtures)])
        try:
            baseline = rss_mb(server.process.pid)
            connections = []
            for _ in range(150):
                connection = socket.create_connection(("127.0.0.1", server.port))
                connection.sendall(request("GET", "/big", {"Prefer": "fault=trickle"}))
                connections.append(connection)
            time.sleep(1.5)
            peak = rss_mb(server.process.pid)
            for connection in connections:
                connection.close()
            results.check(peak - baseline < 150, "150 trickles of a 20 MB fixture share its bytes", f"RSS {baseline:.0f} -> {peak:.0f} MB")
            time.sleep(1)
            expect_status(results, server.port, "served after the trickles", request("GET", "/big"), 200, timeout=10)
            results.check(server.alive(), "trickles: server still running", f"exited with {server.process.returncode}")
        finally:
            server.stop()


def wrk_binary() -> str:
    """wrk, which `scripts/setup` installs (`scripts/test` runs it first)."""
    found = shutil.which("wrk")
    if not found:
        raise SystemExit("reliability: wrk is missing: run ./scripts/setup (it installs it with apt-get)")
    return found


def clients_that_leave_free_their_slots(results: Results, binary):
    """A thousand clients that leave at once (wrk's connections at the end of a run) must not hold
    the server's slots: libmicrohttpd 0.9.75 on epoll misses some of their FINs, and at the
    connection limit nobody was served until the idle timeout (measured: 29 s in 3 of 6 tries).
    With --header-timeout 0 and --min-body-rate 0 the watchdog's search for clients that have
    gone is all that frees them; it looks every 20 ms once nine tenths of the slots are held.
    wrk is the client because it leaves the way that shows the bug (a Python client did not)."""
    wrk = wrk_binary()
    server = Server(binary, ["--max-connections-per-ip", "1024", "--header-timeout", "0", "--min-body-rate", "0"])
    try:
        waits = []
        for _ in range(4):
            subprocess.run([wrk, "-t2", "-c1000", "-d1s", f"http://127.0.0.1:{server.port}/v1/activities"],
                           capture_output=True, timeout=60)
            started = time.monotonic()
            kind, received = exchange(server.port, request("GET", "/v1/activities"), timeout=10)
            waits.append(round(time.monotonic() - started, 3) if status_of(received) == 200 else f"{kind} {status_of(received)}")
        results.check(all(isinstance(wait, float) and wait < 1.0 for wait in waits),
                      "round3: after 1,000 clients leave at once, a new one is answered within 1 s (4 tries)",
                      f"seconds per try: {waits}")
    finally:
        server.stop()
