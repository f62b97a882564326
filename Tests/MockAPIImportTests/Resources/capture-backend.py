#!/usr/bin/env python3
"""A stand-in for the real API of a HAR capture, for `mockapi record` tests and the benchmark.

    capture-backend.py CAPTURE.har [PORT [PREFIX]]

Listens on 127.0.0.1 (port 0 by default) and prints "listening on http://127.0.0.1:PORT". Each
request gets the answer the capture recorded for the same method, path and query (in recorded
order when one was asked several times: a poll), with the capture's host replaced by this
server's address, as the real API would link to itself. A request whose body is not byte for byte
the recorded one, or which lacks a recorded header value, gets 400 saying what differs: the test
of what a proxy forwards. Anything not in the capture gets 404. GET /__received lists every
request it was sent ([method, path, body]): the test of what a client sent."""
import json, signal, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

# A launcher may hand down blocked signals (a test runner that waits for them itself): unblock them.
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
capture = json.load(open(sys.argv[1]))
port = int(sys.argv[2]) if len(sys.argv) > 2 else 0
# A third argument mounts the API under a path prefix (`/api`): /api/v1/x answers /v1/x.
prefix = sys.argv[3] if len(sys.argv) > 3 else ""
answers, lock = {}, threading.Lock()
# Every request but these /__ ones, as [method, path, body]: what a client sent (GET /__received).
received = []
hosts = set()
for entry in capture["log"]["entries"]:
    request = entry["request"]
    url = urlsplit(request["url"])
    hosts.add(f"{url.scheme}://{url.netloc}")
    key = (request["method"], url.path + ("?" + url.query if url.query else ""))
    answers.setdefault(key, []).append(entry)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in two writes: without this, delayed ACKs add 40 ms to every answer.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def answer(self, status, body, content_type="application/json"):
        self.send_response(status)
        if body:
            self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("X-Backend", "capture-backend")
        self.end_headers()
        if self.command != "HEAD":
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client (or the proxy in front) gave up waiting

    def answer_bytes(self, count):
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(count))
        self.end_headers()
        block = b"0123456789abcdef" * 4096
        try:
            while count > 0 and self.command != "HEAD":
                piece = block[:min(count, len(block))]
                self.wfile.write(piece)
                count -= len(piece)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if self.path == "/__received":
            with lock:
                return self.answer(200, json.dumps(received).encode())
        if not self.path.startswith("/__"):
            with lock:
                received.append([self.command, self.path, body.decode("utf-8", "replace")])
        if self.path == "/__headers":  # what arrived, for tests of what a proxy passes on
            return self.answer(200, json.dumps([[k, v] for k, v in self.headers.items()]).encode())
        if self.path.startswith("/__bytes/"):  # a large answer made on the fly, for tests of who holds it
            return self.answer_bytes(int(self.path.split("/")[2]))
        if self.path.startswith("/__sleep/"):  # a slow backend, for tests of who waits
            time.sleep(int(self.path.split("/")[2]) / 1000)
            return self.answer(200, b"slept", "text/plain")
        path = self.path[len(prefix):] if prefix and self.path.startswith(prefix) else self.path
        if prefix and path == self.path:
            return self.answer(404, json.dumps({"error": f"outside {prefix}: {self.path}"}).encode())
        with lock:
            queue = answers.get((self.command, path))
            entry = None
            if queue:
                entry = queue.pop(0) if len(queue) > 1 else queue[0]
        if entry is None:
            return self.answer(404, json.dumps({"error": f"not in the capture: {self.command} {self.path}"}).encode())
        recorded = entry["request"]
        expected = (recorded.get("postData") or {}).get("text", "").encode()
        if body != expected:
            return self.answer(400, json.dumps({"error": "the body differs from the recorded one",
                                                "got": body.decode("utf-8", "replace")[:200]}).encode())
        for header in recorded.get("headers", []):
            if header["name"].lower() in ("authorization", "x-client-version", "content-type") and self.headers.get(header["name"]) != header["value"]:
                return self.answer(400, json.dumps({"error": f"header {header['name']} differs: {self.headers.get(header['name'])!r}"}).encode())
        content = entry["response"].get("content") or {}
        text = content.get("text") or ""
        me = f"http://127.0.0.1:{self.server.server_address[1]}{prefix}"
        for host in hosts:
            text = text.replace(host, me)
        self.answer(entry["response"]["status"], text.encode(), content.get("mimeType", "application/json"))

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = handle_any


server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
server.daemon_threads = True
print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
try:
    server.serve_forever()
except KeyboardInterrupt:
    pass
