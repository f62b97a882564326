"""Issue 30, items 9 and 12: `verify-backend --timeout` against hostile answers (a 1 B/s head, a
1 B/s body, a 2 GB body, 20,000 headers) ends each exchange within the timeout (a body or head past
its bound at once, cut and reported) and holds bounded memory; and a JSON number beyond a double's range in a request body is refused with its path.
The hostile backend is a raw-socket server on 127.0.0.1 in this process; what it sends is made
as it goes and stops as soon as the client leaves."""

import json
import os
import re
import resource
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from .harness import LoopbackBackend, Results, Server, exchange, run_bounded, signal_and_wait, status_of

HUGE = 2 << 30  # what the 2 GB answer announces; zeros are made only while the client reads


class HostileBackend(LoopbackBackend):
    """Answers by path: /slow-head trickles its status line and headers at 1 B/s, /slow-body its
    body at 1 B/s, /huge announces 2 GB and sends zeros, /many-headers sends 20,000 headers."""

    def __init__(self):
        self.sent_huge = 0
        super().__init__(backlog=16)

    def serve(self, connection: socket.socket):
        connection.settimeout(30)
        try:
            head = b""
            while b"\r\n\r\n" not in head and len(head) < 65536:
                chunk = connection.recv(4096)
                if not chunk:
                    return
                head += chunk
            path = head.split(b" ", 2)[1].decode()
            json_head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
            if path == "/slow-head":
                for byte in json_head + b"Content-Length: 2\r\n\r\n{}":
                    if self.stopped.wait(1):
                        return
                    connection.sendall(bytes([byte]))
            elif path == "/slow-body":
                body = b'{"ok": true}' + b" " * 100
                connection.sendall(json_head + f"Content-Length: {len(body)}\r\n\r\n".encode())
                for byte in body:
                    if self.stopped.wait(1):
                        return
                    connection.sendall(bytes([byte]))
            elif path == "/huge":
                connection.sendall(json_head + f"Content-Length: {HUGE}\r\n\r\n".encode() + b"[")
                block = b"0," * 32768
                sent = 0
                while sent < HUGE and not self.stopped.is_set():
                    connection.sendall(block)  # raises once the client has gone
                    sent += len(block)
                    self.sent_huge = max(self.sent_huge, sent)
            elif path == "/huge-chunked":
                # No length announced: the cut can only come as the bytes arrive.
                connection.sendall(json_head + b"Transfer-Encoding: chunked\r\n\r\n")
                block = b"0," * 32768
                frame = b"%x\r\n" % len(block) + block + b"\r\n"
                sent = 0
                while sent < HUGE and not self.stopped.is_set():
                    connection.sendall(frame)
                    sent += len(block)
                    self.sent_huge = max(self.sent_huge, sent)
            elif path == "/many-headers":
                headers = b"".join(b"X-Filler-%d: %d\r\n" % (index, index) for index in range(20000))
                connection.sendall(json_head + headers + b"Content-Length: 2\r\n\r\n{}")
            else:
                connection.sendall(json_head + b"Content-Length: 2\r\n\r\n{}")
        except OSError:
            pass  # the client left: the answer ends with it
        finally:
            connection.close()


def run(results: Results, binary):
    hostile_backend(results, binary)
    number_beyond_double(results, binary)
    descriptor_limit(results, binary)


def contract_folder(folder: Path, paths: list[str]) -> tuple[Path, Path]:
    contracts, fixtures = folder / "contracts", folder / "fixtures"
    contracts.mkdir(parents=True)
    fixtures.mkdir()
    (fixtures / "ok.json").write_text('{"ok": true}')
    for path in paths:
        name = path.strip("/").replace("-", "_")
        contract = {"name": name, "request": {"method": "GET", "path": path},
                    "responses": {"default": {"status": 200, "fixture": "ok.json"}}}
        (contracts / f"{name}.json").write_text(json.dumps(contract))
    return contracts, fixtures


# 30.9: --timeout bounds each whole exchange; a body past the bound is cut and reported, not held.
def hostile_backend(results: Results, binary):
    folder = Path(tempfile.mkdtemp(prefix="reliability-hostile-backend-"))
    backend = HostileBackend()
    timeout = 3
    try:
        paths = ["/slow-head", "/slow-body", "/huge", "/huge-chunked", "/many-headers"]
        contracts, fixtures = contract_folder(folder, paths)
        for path in paths:
            code, output, seconds, peak = run_bounded(
                [str(binary), "verify-backend", "--contracts", str(contracts), "--fixtures", str(fixtures),
                 "--base-url", backend.url, "--timeout", str(timeout), "--contract", path.strip("/").replace("-", "_")], 60)
            # The trickles end at the timeout; the others at once, never by the timeout (Foundation:
            # 20,000 headers 2.8 s, a chunked 2 GB body now 0.2 s, now 5.2 s and "no answer").
            slow = path in ("/slow-head", "/slow-body")
            results.check(code is not None and seconds < (timeout + 2 if slow else 2),
                          f"hostile backend {path}: verify-backend --timeout {timeout} ends "
                          + ("within the timeout" if slow else "at once"),
                          f"exit {code} after {seconds:.1f} s: {output[-300:]!r}")
            # libcurl reads only as fast as its callback takes the bytes: an announced length past the
            # bound ends the exchange before the body is read, a chunked body stops at 16 MiB, a head at
            # 1,000 lines. (Foundation read ahead of the delegate that cut: 88 MB to 1.4 GB chunked
            # alone, 0.5 to 1.2 GB beside the others.)
            results.check(peak < 300, f"hostile backend {path}: verify-backend's memory stays bounded",
                          f"peak {peak} MB after {seconds:.1f} s")
            if path in ("/huge", "/huge-chunked"):
                results.check(code == 1 and "body is longer than 16777216 bytes; cut there and not checked" in output,
                              f"hostile backend {path}: the 2 GB body is cut and reported", f"exit {code}: {output[-400:]!r}")
            if path == "/many-headers":
                # It answered: a failed check (exit 1) naming the bound, not "no answer" (exit 2).
                results.check(code == 1 and "more than 1000 header lines" in output,
                              f"hostile backend {path}: the head is cut at 1,000 lines and reported at once",
                              f"exit {code} after {seconds:.1f} s: {output[-400:]!r}")
            if path in ("/slow-head", "/slow-body"):
                # Exit 2 when the run's only contract got no answer ("does not answer"), 1 when one among others.
                results.check(code in (1, 2) and f"not complete within --timeout {timeout} s" in output and seconds >= timeout - 0.5,
                              f"hostile backend {path}: reported as no answer at the timeout", f"exit {code} after {seconds:.1f} s: {output[-400:]!r}")
        # Every hostile answer at once (the default concurrency of 4) beside a plain answer: the
        # fast ones end at once and free their slots, so the whole run is one timeout, memory
        # bounded, and the plain answer is checked. (Foundation: 6.8 to 7.3 s and 0.5 to 1.2 GB with
        # --timeout 3, 11.4 s with 5; the chunked 2 GB timed out instead of being cut.)
        together = paths + ["/ok"]
        contracts, fixtures = contract_folder(folder / "all", together)
        code, output, seconds, peak = run_bounded(
            [str(binary), "verify-backend", "--contracts", str(contracts), "--fixtures", str(fixtures),
             "--base-url", backend.url, "--timeout", str(timeout)], 60)
        results.check(code == 1 and seconds < timeout + 2 and peak < 300,
                      "hostile backend: every hostile answer and a plain one end within one timeout, memory bounded",
                      f"exit {code} after {seconds:.1f} s, peak {peak} MB: {output[-400:]!r}")
        results.check(output.count("cut there and not checked") == 3 and output.count("not complete within") == 2,
                      "hostile backend: together, each answer is cut or timed out as alone", output[-1200:])
        results.check("PASS ok" in output or "ok " in output and "→ 200" in output,
                      "hostile backend: the plain answer beside them is checked", output[-800:])
    finally:
        backend.stop()
        shutil.rmtree(folder, ignore_errors=True)


# 30.12: a request body's number beyond a double's range is refused, naming its path (it was read
# as infinity, and an echo wrote it back as null).
def number_beyond_double(results: Results, binary):
    folder = Path(tempfile.mkdtemp(prefix="reliability-big-number-"))
    try:
        contracts, fixtures = folder / "contracts", folder / "fixtures"
        contracts.mkdir()
        fixtures.mkdir()
        (fixtures / "ok.json").write_text('{"ok": true}')
        contract = {"name": "orders", "request": {"method": "POST", "path": "/orders",
                                                   "json": {"total": {"type": "number"}}},
                    "responses": {"default": {"status": 201, "fixture": "ok.json"}}}
        (contracts / "orders.json").write_text(json.dumps(contract))
        server = Server(binary, ["--contracts", str(contracts), "--fixtures", str(fixtures)])
        try:
            # 422: the body is JSON, but not one the contract can take (as every other body violation).
            for body, expected in ((b'{"total": 1e400}', 422), (b'{"total": 1.5e300}', 201)):
                request = (b"POST /orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                           b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body)) + body
                outcome, received = exchange(server.port, request)
                results.check(outcome == "answer" and status_of(received) == expected,
                              f"request body {body[:30]!r}: answered {expected}", f"{outcome} {received[:300]!r}")
                if expected == 422:
                    results.check(b"beyond a 64-bit float" in received and b"$.total" in received,
                                  "request body 1e400: the refusal names the number and its path", repr(received[-400:]))
        finally:
            server.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# 30.10: out of file descriptors, the server waits instead of spinning (99 % of a core with
# --threads 8 under `ulimit -n 64`: a worker with no connection of its own retried accept for ever).
def descriptor_limit(results: Results, binary):
    def started(soft: int, hard: int) -> tuple[subprocess.Popen, int]:
        process = subprocess.Popen(
            [str(binary), "serve", "--port", "0", "--quiet", "--threads", "8"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard)))
        line = process.stdout.readline().decode()
        return process, int(re.search(r"127\.0\.0\.1:(\d+)", line).group(1))

    def cpu_seconds(pid: int) -> float:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    process, port = started(64, 64)
    clients = []
    try:
        for _ in range(80):  # past the 64 descriptors, each with half a request
            client = socket.create_connection(("127.0.0.1", port), timeout=2)
            client.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            clients.append(client)
        time.sleep(0.5)
        before = cpu_seconds(process.pid)
        time.sleep(2)
        busy = (cpu_seconds(process.pid) - before) / 2
        results.check(busy < 0.2, "descriptor limit: past it, the server waits instead of spinning", f"{busy:.0%} of a core over 2 s")
        for client in clients:
            client.close()
        clients = []
        # The backlog still holds connections its clients closed: libmicrohttpd accepts and drops
        # those first, and a worker still at its share may close a new one, so try for 5 s.
        for _ in range(10):
            time.sleep(0.5)
            outcome, received = exchange(port, b"GET /__mockapi/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            if status_of(received) == 200:
                break
        results.check(status_of(received) == 200, "descriptor limit: once clients leave, a new one is answered", f"{outcome} {received[:80]!r}")
    finally:
        for client in clients:
            client.close()
        code = signal_and_wait(process)
        _, errors = process.communicate()
    results.check("the descriptor limit (ulimit -n 64) leaves room for" in errors.decode() and code == 0,
                  "descriptor limit: serve says how many connections it leaves room for", errors.decode()[-300:])

    # A soft limit below what --max-connections needs is raised toward the hard limit, as servers do.
    process, port = started(64, 4096)
    try:
        limits = Path(f"/proc/{process.pid}/limits").read_text()
        soft = int(re.search(r"Max open files\s+(\d+)", limits).group(1))
        results.check(soft > 1024, "descriptor limit: a low soft limit is raised toward the hard one", f"soft limit now {soft}")
    finally:
        signal_and_wait(process)
        _, errors = process.communicate()
    results.check("descriptor limit" not in errors.decode(), "descriptor limit: no warning once it fits", errors.decode()[-300:])
