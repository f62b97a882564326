"""Issue 30 item 6 (and issue 27's "streamed answers are buffered whole"): `serve --proxy-unmatched`
and `record` pass a backend's answer body on as it arrives, with a fixed buffer per connection,
so a client that reads slowly slows the backend instead of filling the server's memory; the first
byte comes at once; a backend that fails or goes quiet after the head closes the client's
connection rather than hang it; `record --max-recorded-body-bytes` keeps a bounded part of each
body and says which it cut. The backend is in this process, on loopback, making its bytes on the
fly; the load is bounded (about 1.1 GB through loopback, under a minute)."""

import json
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

from .harness import LoopbackBackend, Results, Server, exchange, request, status_of

MIB = 1024 * 1024
BIG = 512 * MIB
BLOCK = b"0123456789abcdef" * 4096  # 64 KiB


class GeneratingBackend(LoopbackBackend):
    """`GET /bytes/N`: N bytes with Content-Length; `/chunked/N`: N bytes chunked; `/cut`: says
    1,000 bytes, sends 10 and closes; `/quiet`: says 1,000 bytes, sends 10 and waits 20 s."""

    def __init__(self):
        super().__init__(backlog=64)

    def serve(self, connection: socket.socket):
        connection.settimeout(30)
        try:
            head = b""
            while b"\r\n\r\n" not in head:
                chunk = connection.recv(65536)
                if not chunk:
                    return
                head += chunk
            method, target = head.split(b" ")[:2]
            path = target.decode()
            if path.startswith("/bytes/"):
                left = int(path.split("/")[2])
                connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: %d\r\n\r\n" % left)
                while left > 0 and method != b"HEAD":
                    piece = BLOCK[:min(left, len(BLOCK))]
                    connection.sendall(piece)
                    left -= len(piece)
            elif path.startswith("/chunked/"):
                left = int(path.split("/")[2])
                connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n")
                while left > 0:
                    piece = BLOCK[:min(left, len(BLOCK))]
                    connection.sendall(b"%x\r\n%s\r\n" % (len(piece), piece))
                    left -= len(piece)
                connection.sendall(b"0\r\n\r\n")
            elif path in ("/cut", "/quiet"):
                connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n0123456789")
                if path == "/quiet":
                    time.sleep(20)
            connection.close()
        except OSError:
            pass


def peak_mb(pid: int) -> int:
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmHWM"):
            return int(line.split()[1]) // 1024
    return 0


def read_until_closed(sock: socket.socket, limit: float) -> tuple[str, bytes]:
    """What came before the server closed, or ("open", …) when it was still open after `limit` s."""
    sock.settimeout(limit)
    received = b""
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return "closed", received
            received += chunk
    except socket.timeout:
        return "open", received
    except OSError:
        return "closed", received


def run(results: Results, binary):
    backend = GeneratingBackend()
    try:
        proxying(results, binary, backend)
        recording(results, binary, backend)
    finally:
        backend.stop()


def proxying(results: Results, binary, backend: GeneratingBackend):
    server = Server(binary, ["--proxy-unmatched", backend.url, "--proxy-timeout", "2"])
    try:
        pid = server.process.pid
        at_start = peak_mb(pid)

        # Four clients ask for 512 MiB each and read slowly, then not at all.
        clients, firsts = [], []
        for _ in range(4):
            sock = socket.create_connection(("127.0.0.1", server.port))
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
            sock.settimeout(15)
            started = time.monotonic()
            sock.sendall(request("GET", f"/bytes/{BIG}"))
            first = sock.recv(1)
            firsts.append(time.monotonic() - started if first else 99.0)
            clients.append(sock)
        results.check(max(firsts) < 1.0, "proxy: the first byte of a 512 MiB answer comes at once",
                      f"first bytes after {', '.join(f'{s:.2f}' for s in firsts)} s")
        ending = time.monotonic() + 1.5
        while time.monotonic() < ending:
            for sock in clients:
                sock.recv(16384)
            time.sleep(0.02)
        time.sleep(1.5)  # none reads now: a buffering proxy would hold all four answers
        grown = peak_mb(pid) - at_start
        results.check(grown < 100, "proxy: four slow readers of 512 MiB answers cost the server little memory",
                      f"peak RSS grew by {grown} MB")

        # One of them reads to the end: every byte comes, and memory stays where it was.
        sock, received, started = clients[0], 0, time.monotonic()
        sock.settimeout(15)
        while True:
            chunk = sock.recv(1 << 20)
            if not chunk:
                break
            received += len(chunk)
            if received >= BIG:
                break
        for other in clients:
            other.close()
        results.check(received >= BIG - 2 * MIB, "proxy: a 512 MiB answer arrives whole",
                      f"{received} bytes in {time.monotonic() - started:.1f} s")
        grown = peak_mb(pid) - at_start
        results.check(grown < 100, "proxy: reading a 512 MiB answer through costs the server little memory",
                      f"peak RSS grew by {grown} MB")

        # A chunked answer passes through chunked, every byte.
        outcome, answer = exchange(server.port, request("GET", "/chunked/3000000"), finish=False, timeout=10)
        body = answer.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in answer else b""
        results.check(status_of(answer) == 200 and b"Transfer-Encoding: chunked" in answer and body.endswith(b"0\r\n\r\n")
                      and len(body) > 3000000, "proxy: a chunked answer passes through whole", f"{outcome} {len(body)} bytes")

        # The backend breaks its word after the head: the client's connection is closed, not left hanging.
        for path, limit, name in (("/cut", 2.0, "closes mid-body"), ("/quiet", 5.0, "goes quiet past --proxy-timeout mid-body")):
            sock = socket.create_connection(("127.0.0.1", server.port))
            started = time.monotonic()
            sock.sendall(request("GET", path))
            how, received = read_until_closed(sock, limit + 3)
            took = time.monotonic() - started
            sock.close()
            results.check(how == "closed" and status_of(received) == 200 and took < limit + 1,
                          f"proxy: a backend that {name}: the client's connection is closed", f"{how} after {took:.1f} s, {received[-40:]!r}")

        # Clients that leave mid-answer free their exchange: later requests are answered at once.
        for _ in range(20):
            sock = socket.create_connection(("127.0.0.1", server.port))
            sock.sendall(request("GET", f"/bytes/{BIG}"))
            sock.recv(1000)
            sock.close()
        time.sleep(1.0)
        started = time.monotonic()
        statuses = [status_of(exchange(server.port, request("GET", "/bytes/1000"), finish=False, timeout=5)[1]) for _ in range(20)]
        results.check(statuses == [200] * 20 and time.monotonic() - started < 3,
                      "proxy: 20 clients that left 512 MiB answers leave the proxy serving", f"{statuses}")
        threads = len(list(Path(f"/proc/{pid}/task").iterdir()))
        results.check(threads < 40, "proxy: their forwarding threads are not left waiting", f"{threads} threads")
        results.check(server.alive(), "proxy: the server is still running")
    finally:
        server.stop()


def recording(results: Results, binary, backend: GeneratingBackend):
    folder = Path(tempfile.mkdtemp(prefix="reliability-stream-"))
    process = subprocess.Popen([str(binary), "record", "--target", backend.url, "--port", "0", "--quiet", "--out", str(folder / "out"),
                                "--max-recorded-body-bytes", "1000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        if "127.0.0.1:" not in line:
            results.check(False, "record: --max-recorded-body-bytes is a flag", (line + process.stderr.read())[-300:])
            return
        port = int(line.split("127.0.0.1:")[1].split(" ")[0])
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/bytes/300000", timeout=10) as answer:
            body = answer.read()
        results.check(len(body) == 300000, "record: a body past --max-recorded-body-bytes still reaches the client whole", f"{len(body)}")
        save = urllib.request.Request(f"http://127.0.0.1:{port}/__mockapi/record/save", method="POST")
        saved = json.loads(urllib.request.urlopen(save, timeout=10).read()).get("saved", "")
        results.check("cut short" in saved and "GET /bytes/300000 (300000 bytes, 1000 kept)" in saved,
                      "record: the save names the body it cut", saved[-300:])
        fixtures = [path for path in (folder / "out" / "fixtures").rglob("*") if path.is_file()]
        results.check([path.stat().st_size for path in fixtures] == [1000], "record: the fixture keeps the first 1000 bytes",
                      f"{[(p.name, p.stat().st_size) for p in fixtures]}")
    finally:
        process.terminate()
        _, stderr = process.communicate(timeout=15)
        results.check("its fixture keeps the first 1000 (--max-recorded-body-bytes)" in stderr,
                      "record: stderr says which answer was cut", stderr[-300:])
        shutil.rmtree(folder, ignore_errors=True)
