"""One way for every script to start a server and know it by its PID: `mockapi serve` (or
`record`) on port 0, its address read from its listening line, stopped with SIGTERM.

    from mockapi_server import MockapiServer
    with MockapiServer(binary, ["--contracts", folder, "--quiet"]) as server:
        fetch(server.url + "/__mockapi/routes")

`ListeningProcess` is the same for any server that prints its address first (the bench's C
reference). Scripts under scripts/bench/ put scripts/ on sys.path to import this.
"""

import re
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MOCKAPI_LISTENING = r"mockapi listening on (https?://\S+:(\d+))"


class ServerDidNotStart(Exception):
    """The command ended, or printed no listening line, in time; the message has its stderr."""


class ListeningProcess:
    """`command` started at once; ready when its first stdout line matches `pattern`, whose first
    group is the base URL and second the port. Stderr goes to `log` (a temporary file unless
    given), so a chatty server never blocks on a full pipe and a failed start can quote it."""

    def __init__(self, command, pattern, *, cwd=REPO, env=None, log=None, start_timeout=60.0):
        self.command = [str(part) for part in command]
        self.started_at = time.monotonic()
        self.own_log = log is None  # a temporary file, removed at stop
        self.log = Path(log) if log else Path(tempfile.mkstemp(prefix="server-", suffix=".log")[1])
        with self.log.open("wb") as stderr:
            self.process = subprocess.Popen(self.command, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                            stdout=subprocess.PIPE, stderr=stderr)
        line = self._first_line(start_timeout)
        match = re.search(pattern, line)
        if not match:
            self.process.kill()
            self.process.wait()
            tail = self.log.read_text(errors="replace")[-2000:]
            self._forget_log()
            raise ServerDidNotStart(f"{Path(self.command[0]).name} did not print its listening line "
                                    f"(got {line.strip()!r}); stderr:\n{tail}")
        self.url, self.port = match.group(1), int(match.group(2))
        self.first_line = line.rstrip("\n")
        # Later stdout is drained, unread, for the same reason as stderr goes to a file.
        threading.Thread(target=self.process.stdout.read, daemon=True).start()

    def _first_line(self, timeout):
        line = []
        reader = threading.Thread(target=lambda: line.append(self.process.stdout.readline()), daemon=True)
        reader.start()
        reader.join(timeout)
        return line[0].decode(errors="replace") if line else ""

    @property
    def pid(self):
        return self.process.pid

    def alive(self):
        return self.process.poll() is None

    def stop(self, timeout=10.0):
        """SIGTERM, then waits; the exit status, or None when it had to be killed."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            status = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            status = None
        self._forget_log()
        return status

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self._forget_log()

    def _forget_log(self):
        if self.own_log:
            self.log.unlink(missing_ok=True)

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.stop()


class MockapiServer(ListeningProcess):
    """`BINARY serve --port 0` plus `flags` (`command="record"` for a recorder)."""

    def __init__(self, binary, flags=(), *, command="serve", **options):
        super().__init__([binary, command, "--port", "0", *flags], MOCKAPI_LISTENING, **options)
