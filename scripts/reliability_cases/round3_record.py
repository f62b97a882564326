"""Issue 18: forwarding to a real backend (`serve --proxy-unmatched`, `record`) never starves the
mock, never hangs a client, forwards bodies byte for byte and keeps its admin endpoint guarded.
The backend is the tests' stand-in (capture-backend.py), plus sockets that accept and never answer."""

import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from .harness import REPO, Results, Server, exchange, expect_status, header_of, request, status_of

RESOURCES = REPO / "Tests" / "MockAPIImportTests" / "Resources"
AUTH = {"Authorization": "token 5f1b2c3d4e", "X-Client-Version": "5.2.0"}


class Backend:
    def __init__(self):
        self.process = subprocess.Popen([sys.executable, str(RESOURCES / "capture-backend.py"), str(RESOURCES / "mobile-capture.har")],
                                        stdout=subprocess.PIPE, text=True)
        self.url = self.process.stdout.readline().strip().replace("listening on ", "")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


class Silent:
    """A port that accepts connections and never answers."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(256)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"

    def stop(self):
        self.sock.close()


def run(results: Results, binary):
    backend = Backend()
    try:
        proxying(results, binary, backend)
        recording(results, binary, backend)
    finally:
        backend.stop()
    silent_backend(results, binary)


def proxying(results: Results, binary, backend: Backend):
    server = Server(binary, ["--proxy-unmatched", backend.url, "--threads", "2", "--max-body-bytes", "65536"])
    try:
        received = expect_status(results, server.port, "record: unmatched GET proxied",
                                 request("GET", "/v1/config", AUTH), 200)
        results.check(header_of(received, "X-Backend") == "capture-backend", "record: the backend's answer comes back",
                      repr(received[:200]))
        results.check(header_of(received, "Mockapi-Contract") is None, "record: a proxied answer names no contract")
        expect_status(results, server.port, "record: a contract route is still the mock's",
                      request("GET", "/v1/users/42"), 200)

        # A chunked body reaches the backend as the same bytes (it answers 400 otherwise).
        body = b'{"body":"Backed!"}'
        chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
        expect_status(results, server.port, "record: a chunked JSON body is forwarded byte for byte",
                      request("POST", "/v1/projects/42/comments",
                              dict(AUTH, **{"Content-Type": "application/json", "Transfer-Encoding": "chunked"}), chunked), 201)
        boundary = "Boundary-7MA4YWxkTrZu0gW"
        upload = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"image\"; filename=\"cover.jpg\"\r\n"
                  f"Content-Type: image/jpeg\r\n\r\nJFIF-fake-cover-bytes-abcdef\r\n--{boundary}--\r\n").encode()
        expect_status(results, server.port, "record: a multipart upload is forwarded byte for byte",
                      request("POST", "/v1/projects/42/updates/draft/images",
                              dict(AUTH, **{"Content-Type": f"multipart/form-data; boundary={boundary}",
                                            "Content-Length": str(len(upload))}), upload), 200)
        expect_status(results, server.port, "record: a body over --max-body-bytes is refused, not forwarded",
                      request("POST", "/v1/nowhere", {"Content-Length": "70000"}, b"x" * 70000), 413)

        # 64 requests parked on a slow backend; the mock still answers at once.
        slow = [threading.Thread(target=exchange, args=(server.port, request("GET", "/__sleep/1500")), kwargs={"timeout": 8})
                for _ in range(64)]
        for thread in slow:
            thread.start()
        time.sleep(0.3)
        started = time.monotonic()
        for _ in range(20):
            outcome, received = exchange(server.port, request("GET", "/v1/categories"), timeout=3)
            if status_of(received) != 200:
                break
        elapsed = time.monotonic() - started
        results.check(elapsed < 1.0, "record: 64 requests waiting on a slow backend starve no contract answer",
                      f"20 contract requests took {elapsed:.2f} s")
        for thread in slow:
            thread.join()

        # More requests than the 16 exchanges at once: the rest wait holding no thread, so the
        # server's timers (a delayed contract answer) still fire on time, and every one is answered.
        outcomes = []
        queued = [threading.Thread(target=lambda: outcomes.append(status_of(exchange(server.port, request("GET", "/__sleep/300"),
                                                                                      finish=False, timeout=15)[1])))
                  for _ in range(100)]
        for thread in queued:
            thread.start()
        time.sleep(0.2)
        started = time.monotonic()
        expect_status(results, server.port, "record: a delayed contract answer while 100 wait on the backend",
                      request("GET", "/v1/categories", {"Prefer": "delay=200"}), 200, finish=False)
        elapsed = time.monotonic() - started
        results.check(elapsed < 0.8, "record: the delay timer fires on time while the backend queue is full", f"{elapsed:.2f} s")
        for thread in queued:
            thread.join()
        results.check(outcomes.count(200) == 100, "record: all 100 queued backend requests answered", f"{sorted(outcomes, key=str)}")

        # Clients that leave while the backend thinks: their slots come back.
        for _ in range(50):
            sock = socket.create_connection(("127.0.0.1", server.port))
            sock.sendall(request("GET", "/__sleep/800"))
            sock.close()
        time.sleep(1.5)
        expect_status(results, server.port, "record: clients that left a proxied request leave the server serving",
                      request("GET", "/v1/categories"), 200)
        results.check(server.alive(), "record: the proxying server is still running")
    finally:
        server.stop()


def recording(results: Results, binary, backend: Backend):
    folder = Path(tempfile.mkdtemp(prefix="reliability-record-"))
    process = subprocess.Popen([str(binary), "record", "--target", backend.url, "--port", "0", "--quiet", "--out", str(folder / "out")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        port = int(process.stdout.readline().split("127.0.0.1:")[1].split(" ")[0])
        expect_status(results, port, "record: the save endpoint refuses a foreign Host",
                      request("POST", "/__mockapi/record/save", {"Host": "evil.example"}, host=False), 403)
        rng = random.Random(18)
        for _ in range(300):  # paths the capture lacks: the backend's 404s are recorded too
            segments = "/".join(rng.choice(["v1", "x", str(rng.randint(0, 99999)), "%41", "a.b", ""]) for _ in range(rng.randint(1, 6)))
            exchange(port, request(rng.choice(["GET", "DELETE", "POST"]), "/" + segments), timeout=3)
        for path in ("/v1/users/self", "/v1/projects/42"):
            expect_status(results, port, f"record: GET {path} recorded", request("GET", path, AUTH), 200)
        # Not half-closed: a client that sends a FIN while waiting is taken as gone.
        received = expect_status(results, port, "record: save after 302 odd requests",
                                 request("POST", "/__mockapi/record/save"), 200, finish=False)
        results.check(b"written to" in received, "record: the save says what it wrote", repr(received[-200:]))
        lint = subprocess.run([str(binary), "lint", "--contracts", str(folder / "out/contracts"), "--fixtures", str(folder / "out/fixtures")],
                              capture_output=True, text=True)
        results.check(lint.returncode == 0, "record: the recorded set lints", lint.stderr[-300:])
        process.terminate()
        process.wait(timeout=15)
        results.check(process.returncode == 0, "record: stops cleanly on SIGTERM and saves", f"exit {process.returncode}")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        shutil.rmtree(folder, ignore_errors=True)


def silent_backend(results: Results, binary):
    silent = Silent()
    server = Server(binary, ["--proxy-unmatched", silent.url, "--proxy-timeout", "2"])
    try:
        started = time.monotonic()
        received = expect_status(results, server.port, "record: a backend that never answers gets 504",
                                 request("GET", "/v1/anything"), 504, finish=False)
        results.check(time.monotonic() - started < 4, "record: within --proxy-timeout", f"{time.monotonic() - started:.1f} s")
        results.check(b"did not answer" in received, "record: the 504 says why", repr(received[-200:]))
        expect_status(results, server.port, "record: contracts answer while the backend is silent", request("GET", "/v1/users/42"), 200)
    finally:
        server.stop()
        silent.stop()
    down = Server(binary, ["--proxy-unmatched", "http://127.0.0.1:9"])
    try:
        expect_status(results, down.port, "record: a backend that is down gets 502", request("GET", "/v1/anything"), 502)
    finally:
        down.stop()
