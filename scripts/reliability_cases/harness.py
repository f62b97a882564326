"""What every reliability case shares: a `mockapi serve` known by its PID, raw exchanges on
loopback, and the pass/fail tally."""

import http.client
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(REPO / "scripts"))
from mockapi_server import MockapiServer, ServerDidNotStart  # noqa: E402
HEADER_TIMEOUT = 2          # --header-timeout given to the server, seconds
MAX_BODY = 64 * 1024        # --max-body-bytes, small so over-limit bodies are quick to send
MAX_JSON = 4 * 1024         # --max-json-bytes
ANSWER_TIMEOUT = 5.0        # seconds a request may take before it counts as unanswered


def run_bounded(command: list[str], limit: float) -> tuple[int | None, str, float, int]:
    """Runs `command` to its end, or kills it at `limit` seconds: its exit status (None when killed),
    stdout and stderr together, the seconds it took, and the peak RSS in MB of that child alone."""
    started = time.monotonic()
    log = tempfile.TemporaryFile()
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    killer = threading.Timer(limit, process.kill)
    killer.start()
    _, status, usage = os.wait4(process.pid, 0)
    killer.cancel()
    process.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.monotonic() - started
    log.seek(0)
    output = log.read().decode(errors="replace")
    code = None if seconds >= limit else process.returncode
    return code, output, seconds, usage.ru_maxrss // 1024


def signal_and_wait(process: subprocess.Popen, number: int = signal.SIGTERM, limit: float = 15) -> int:
    """Sends `number` and waits up to `limit` seconds for the end, then kills: the exit status."""
    process.send_signal(number)
    try:
        return process.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        process.kill()
        return process.wait()


class Server:
    """`mockapi serve --port 0 --quiet` plus `flags` on the bundled contracts, known by its PID."""

    def __init__(self, binary: Path, flags: list[str] | None = None, env: dict[str, str] | None = None):
        try:
            self.server = MockapiServer(binary, ["--quiet", *(flags or [])], env=env)
        except ServerDidNotStart as error:
            raise SystemExit(f"reliability: mockapi did not start: {error}") from None
        self.port = self.server.port
        self.process = self.server.process

    def alive(self) -> bool:
        return self.server.alive()

    def stop(self):
        self.server.stop()


def exchange(port: int, data: bytes, *, finish: bool = True, source: str = "127.0.0.1",
             timeout: float = ANSWER_TIMEOUT) -> tuple[str, bytes]:
    """Sends `data` on a fresh connection and reads until the server closes.

    Returns ("answer", bytes) when a response arrived, ("closed", b"") for a close without one,
    ("hung", bytes) when neither happened in time. `finish` half-closes after sending, so an
    incomplete request ends at once instead of waiting out the header deadline.
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((source, 0))
    sock.settimeout(timeout)
    received = b""
    deadline = time.monotonic() + timeout
    try:
        sock.connect(("127.0.0.1", port))
        try:
            sock.sendall(data)
            if finish:
                sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # the server answered and closed early; what it said is still readable
        while time.monotonic() < deadline:
            try:
                chunk = sock.recv(65536)
            except socket.timeout:
                break
            except ConnectionResetError:
                return ("answer" if received else "closed", received)
            if not chunk:
                return ("answer" if received else "closed", received)
            received += chunk
        return ("hung", received)
    finally:
        sock.close()


def status_of(received: bytes) -> int | None:
    if not received.startswith(b"HTTP/1."):
        return None
    try:
        return int(received.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return None


def header_of(received: bytes, name: str) -> str | None:
    head = received.split(b"\r\n\r\n", 1)[0].decode("latin-1")
    for line in head.split("\r\n")[1:]:
        key, _, value = line.partition(":")
        if key.strip().lower() == name.lower():
            return value.strip()
    return None


def request(method: str, target: str, headers: dict[str, str] | None = None, body: bytes = b"",
            host: bool = True, version: str = "HTTP/1.1") -> bytes:
    lines = [f"{method} {target} {version}"]
    if host:
        lines.append("Host: 127.0.0.1")
    lines.append("Connection: close")
    for name, value in (headers or {}).items():
        lines.append(f"{name}: {value}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def multipart(filename: str, part_headers_padding: int = 0) -> tuple[str, bytes]:
    boundary = "reliability-boundary"
    padding = f"X-Pad: {'p' * part_headers_padding}\r\n" if part_headers_padding else ""
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"image\"; filename=\"{filename}\"\r\n"
            f"Content-Type: image/png\r\n{padding}\r\n").encode() + b"\x89PNG data" + f"\r\n--{boundary}--\r\n".encode()
    return f"multipart/form-data; boundary={boundary}", body


class LoopbackBackend:
    """A raw-socket backend on 127.0.0.1, port 0, in this process: each connection is handed to
    `serve(connection)` on a thread of its own. Subclasses set their own state before calling
    `super().__init__()`, since connections may arrive as soon as it returns; `stopped` is set by
    `stop()`, for answers that trickle."""

    def __init__(self, backlog: int = 32):
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(backlog)
        self.port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.stopped = threading.Event()
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while not self.stopped.is_set():
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.serve, args=(connection,), daemon=True).start()

    def serve(self, connection: socket.socket):
        raise NotImplementedError

    def stop(self):
        self.stopped.set()
        self.listener.close()


class Results:
    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.lock = threading.Lock()

    def check(self, ok: bool, name: str, detail: str = ""):
        with self.lock:
            if ok:
                self.passed += 1
            else:
                self.failed += 1
                print(f"FAIL {name}: {detail}", flush=True)


def expect_status(results: Results, port: int, name: str, data: bytes, status: int, **kwargs) -> bytes:
    outcome, received = exchange(port, data, **kwargs)
    got = status_of(received)
    results.check(outcome == "answer" and got == status, name, f"expected {status}, got {outcome} {received[:80]!r}")
    return received




def fetch(port: int, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
          timeout: float = 5) -> tuple[int, dict[str, str], bytes]:
    """One well-formed request through http.client (a second HTTP implementation): status,
    headers by lowercased name, and the body (de-chunked)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, {name.lower(): value for name, value in response.getheaders()}, response.read()
    finally:
        connection.close()
