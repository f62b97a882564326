"""Drifts planted in httpbin's answers: each is one way a real backend moves away from the contract
an app was built against, on one path of scripts/backend-session's session.

`Drifting(app, file)` wraps httpbin's WSGI app; on every request it reads `file` and, when it names
a drift whose path and method match, changes that answer. Each drift says which recorded contract
it breaks, so a checker knows what must fail, and that nothing else may.
"""

import json
from pathlib import Path


def _json_edit(edit):
    """A body change on JSON: `edit` takes the parsed body and returns the new one."""
    def change(status, headers, body):
        return status, headers, json.dumps(edit(json.loads(body))).encode()
    return change


def _rename(old, new):
    def edit(value):
        value[new] = value.pop(old)
        return value
    return edit


def _slides(edit):
    def change(value):
        value["slideshow"]["slides"] = edit(value["slideshow"]["slides"])
        return value
    return change


def _without(name):
    def change(status, headers, body):
        return status, [(key, value) for key, value in headers if key.lower() != name.lower()], body
    return change


def _status(code, reason):
    def change(status, headers, body):
        return f"{code} {reason}", headers, body
    return change


def _typed(content_type):
    def change(status, headers, body):
        return status, [(key, content_type if key.lower() == "content-type" else value) for key, value in headers], body
    return change


def _challenge(status, headers, body):
    return "401 UNAUTHORIZED", [("WWW-Authenticate", "Bearer"), ("Content-Type", "application/json")], b'{"error": "login required"}'


def _with_body(status, headers, body):
    return "200 OK", [("Content-Type", "application/json")], b'{"status": "done"}'


def _html(status, headers, body):
    return status, [(key, "text/html; charset=utf-8" if key.lower() == "content-type" else value) for key, value in headers], b"<html>maintenance</html>"


# name: (method, path, query or None, the contract it breaks, the change)
DRIFTS = {
    "key-renamed": ("GET", "/json", None, "get_json", _json_edit(_rename("slideshow", "slide_show"))),
    "boolean-as-string": ("GET", "/bearer", None, "get_bearer", _json_edit(lambda value: {**value, "authenticated": "true"})),
    "key-removed": ("GET", "/ip", None, "get_ip", _json_edit(lambda value: {})),
    "value-null": ("GET", "/user-agent", None, "get_user_agent", _json_edit(lambda value: {"user-agent": None})),
    "array-as-object": ("GET", "/json", None, "get_json", _json_edit(_slides(lambda slides: {"first": slides[0]}))),
    "element-key-renamed": ("GET", "/json", None, "get_json",
                            _json_edit(_slides(lambda slides: [{**{k: v for k, v in s.items() if k != "title"}, "name": s["title"]} for s in slides]))),
    "server-error": ("GET", "/headers", None, "get_headers", _status(500, "INTERNAL SERVER ERROR")),
    "redirect-permanent": ("GET", "/absolute-redirect/1", None, "get_absolute_redirect_id", _status(301, "MOVED PERMANENTLY")),
    "xml-as-text": ("GET", "/xml", None, "get_xml", _typed("text/plain")),
    "no-content-has-body": ("GET", "/status/204", None, "get_status_204", _with_body),
    "created-as-ok": ("POST", "/status/201", None, "post_status_id", _status(200, "OK")),
    "login-required": ("GET", "/get", None, "get_get", _challenge),
    "cookie-not-set": ("GET", "/cookies/set", None, "get_cookies_set", _without("Set-Cookie")),
    "location-dropped": ("GET", "/relative-redirect/1", None, "get_relative_redirect_id", _without("Location")),
    "json-as-html": ("GET", "/anything/search", None, "get_anything_search", _html),
}


class Drifting:
    def __init__(self, app, drift_file):
        self.app, self.drift_file = app, Path(drift_file)

    def __call__(self, environ, start_response):
        name = self.drift_file.read_text().strip() if self.drift_file.exists() else ""
        drift = DRIFTS.get(name)
        if drift is None or environ["REQUEST_METHOD"] != drift[0] or environ["PATH_INFO"] != drift[1] \
                or (drift[2] is not None and environ.get("QUERY_STRING", "") != drift[2]):
            return self.app(environ, start_response)
        captured = {}

        def capture(status, headers, exc_info=None):
            captured["status"], captured["headers"] = status, headers
            return lambda data: None

        body = b"".join(self.app(environ, capture))
        status, headers, body = drift[4](captured["status"], captured["headers"], body)
        headers = [(key, value) for key, value in headers if key.lower() != "content-length"]
        start_response(status, headers + [("Content-Length", str(len(body)))])
        return [body]
