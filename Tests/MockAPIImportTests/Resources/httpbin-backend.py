"""httpbin (PyPI, a backend nobody here wrote) under gunicorn on 127.0.0.1, a free port.

Prints `listening on http://127.0.0.1:PORT` once it accepts connections; stops on SIGTERM or SIGINT.
Usage: python3 httpbin-backend.py [--drift-file FILE]

With `--drift-file`, FILE is read on every request: when it names a drift of `httpbin_drifts.py`,
that one answer is changed as a backend drifting from its contract would change it.
"""
import logging
import signal
import sys

# A test's child may inherit a mask that blocks these: the test stops us with them.
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
logging.disable(logging.WARNING)  # httpbin's "flasgger is not installed" note

from gunicorn.app.base import BaseApplication  # noqa: E402
from httpbin import app  # noqa: E402


def ready(server):
    host, port = server.LISTENERS[0].sock.getsockname()[:2]
    print(f"listening on http://{host}:{port}", flush=True)


class Backend(BaseApplication):
    def load_config(self):
        for key, value in {
            "bind": "127.0.0.1:0",
            "workers": 1,
            "threads": 4,
            "worker_class": "gthread",
            "loglevel": "warning",
            "accesslog": None,
            "control_socket_disable": True,
            "graceful_timeout": 2,
            "when_ready": ready,
        }.items():
            self.cfg.set(key, value)

    def __init__(self, drift_file=None):
        self.drift_file = drift_file
        super().__init__()

    def load(self):
        if self.drift_file is None:
            return app
        from httpbin_drifts import Drifting  # beside this file
        return Drifting(app, self.drift_file)


if __name__ == "__main__":
    drift_file = sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == "--drift-file" else None
    sys.argv = sys.argv[:1]  # gunicorn reads its own arguments otherwise
    Backend(drift_file).run()
