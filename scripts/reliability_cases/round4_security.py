"""Issue 30 (hardening round 4) and issue 27.1: what the proxy, the gates, the admin endpoint,
`diff --rev`, `$ref` files, TLS files and signals must never do. Every server here is on loopback:
small Python HTTP servers in this process stand for the backend and for a foreign host."""

import http.server
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from .harness import REPO, Results, Server, exchange, header_of, request, status_of


class Loopback:
    """An HTTP server on 127.0.0.1 in a thread of this process that notes every request it gets
    and answers `status` with `headers`."""

    def __init__(self, name: str, status: int = 200, headers: dict[str, str] | None = None):
        self.seen: list[str] = []
        seen, answer_headers = self.seen, headers or {}

        class Handler(http.server.BaseHTTPRequestHandler):
            def answer(self):
                seen.append(f"{self.command} {self.path}")
                body = f"{name} {self.path}\n".encode()
                self.send_response(status)
                for key, value in answer_headers.items():
                    self.send_header(key, value)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = do_OPTIONS = answer

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def run(results: Results, binary):
    open_proxy(results, binary)


# 30.1: the client's request target never names the host the proxy connects to.
def foreign_targets(port: int) -> list[str]:
    return [
        f"@127.0.0.1:{port}/admin.txt",
        f"%40127.0.0.1:{port}/admin.txt",
        f"x@127.0.0.1:{port}/admin.txt",
        f"http://127.0.0.1:{port}/admin.txt",
        f"127.0.0.1:{port}",
        f"\\\\127.0.0.1:{port}/admin.txt",
        f"/\\127.0.0.1:{port}/admin.txt",
    ]


def open_proxy(results: Results, binary):
    backend, foreign = Loopback("backend"), Loopback("foreign")
    try:
        server = Server(binary, ["--proxy-unmatched", backend.url])
        try:
            proxy_checks(results, "proxy", server.port, backend, foreign)
        finally:
            server.stop()
        folder = Path(tempfile.mkdtemp(prefix="reliability-open-proxy-"))
        process = subprocess.Popen([str(binary), "record", "--target", backend.url, "--port", "0", "--quiet", "--out", str(folder / "out")],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            port = int(process.stdout.readline().split("127.0.0.1:")[1].split(" ")[0])
            proxy_checks(results, "record", port, backend, foreign)
        finally:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            shutil.rmtree(folder, ignore_errors=True)
    finally:
        backend.stop()
        foreign.stop()


def proxy_checks(results: Results, label: str, port: int, backend: Loopback, foreign: Loopback):
    for target in foreign_targets(foreign.port):
        outcome, received = exchange(port, request("GET", target), finish=False)
        results.check(status_of(received) == 400, f"open proxy ({label}): GET {target} is refused with 400",
                      f"{outcome} {received[:160]!r}")
    results.check(foreign.seen == [], f"open proxy ({label}): the foreign server received nothing", f"{foreign.seen}")
    exchange(port, request("GET", f"//127.0.0.1:{foreign.port}/admin.txt"), finish=False)
    results.check(foreign.seen == [], f"open proxy ({label}): //host:port/… is a path on the backend", f"{foreign.seen}")
    foreign.seen.clear()
    outcome, received = exchange(port, request("GET", "/plain/@127.0.0.1:1/x?q=1"), finish=False)
    results.check(status_of(received) == 200 and b"backend /plain/@127.0.0.1:1/x?q=1" in received,
                  f"open proxy ({label}): an origin-form path with @ still reaches the backend",
                  f"{outcome} {received[-160:]!r} backend saw {backend.seen[-3:]}")
