"""Issue 16, "Losing nothing": the journal under its byte budget keeps the newest requests in one
unbroken run and tells a paging reader what it lost; `serve --watch` survives its folder being
deleted and made again, and reloads under edits that never pause."""

import http.client
import json
import shutil
import tempfile
import threading
import time
from pathlib import Path

from .harness import REPO, Results, Server, fetch

JOURNAL_BYTES = 8 * 1024 * 1024
CLIENTS = 16
REQUESTS_PER_CLIENT = 500
PADDING = 4000  # one header value under the journal's 4 KiB cut, so only the byte budget limits


def run(results: Results, binary):
    journal_under_byte_pressure(results, binary)
    watch_survives_a_recreated_folder(results, binary)


def journal_under_byte_pressure(results: Results, binary):
    server = Server(binary, ["--journal-bytes", str(JOURNAL_BYTES)])
    try:
        def client():
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
            for _ in range(REQUESTS_PER_CLIENT):
                connection.request("GET", "/v1/categories", headers={"X-Padding": "p" * PADDING})
                connection.getresponse().read()
            connection.close()
        threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        total = CLIENTS * REQUESTS_PER_CLIENT

        # Page through it as `mockapi coverage` does: since=cursor, limit=1000.
        ids, header_bytes, evicted_told, first_id = [], 0, 0, None
        cursor = 0
        while True:
            status, headers, entries = journal_page(server.port, f"since={cursor}&limit=1000")
            if status != 200:
                results.check(False, "journal pages read", f"status {status}")
                return
            if first_id is None:
                first_id = int(headers.get("mockapi-journal-first-id", "0"))
            evicted_told += int(headers.get("mockapi-journal-evicted", "-1"))
            ids += [entry["id"] for entry in entries]
            header_bytes += sum(len(name) + len(value) for entry in entries for name, value in entry["headers"].items())
            if len(entries) < 1000:
                break
            cursor = entries[-1]["id"]

        results.check(bool(ids) and ids[-1] == total, "journal keeps the newest request", f"last id {ids[-1:]} of {total}")
        results.check(ids == list(range(total - len(ids) + 1, total + 1)), "journal ids are one unbroken run",
                      f"{len(ids)} kept, {len(set(range(ids[0], total + 1)) - set(ids)) if ids else 0} missing inside")
        results.check(header_bytes >= JOURNAL_BYTES * 0.7, "journal uses its whole byte budget",
                      f"{header_bytes / 1e6:.2f} MB of headers kept of {JOURNAL_BYTES / 1e6:.2f} MB ({len(ids)} entries)")
        results.check(header_bytes <= JOURNAL_BYTES, "journal stays within its byte budget", f"{header_bytes} bytes of headers kept")
        results.check(bool(ids) and first_id == ids[0], "Mockapi-Journal-First-Id is the oldest id held",
                      f"header {first_id}, oldest {ids[:1]}")
        results.check(bool(ids) and evicted_told == ids[0] - 1, "a reader from since=0 is told what was evicted",
                      f"told {evicted_told}, missing {ids[0] - 1 if ids else '?'}")
        _, headers, _ = journal_page(server.port, f"since={ids[0] - 1}&limit=0")
        results.check(headers.get("mockapi-journal-evicted") == "0", "a reader from the oldest id held is told nothing was evicted",
                      f"told {headers.get('mockapi-journal-evicted')}")
    finally:
        server.stop()


def journal_page(port: int, query: str) -> tuple[int, dict[str, str], list]:
    status, headers, body = fetch(port, "GET", f"/__mockapi/requests?{query}", timeout=30)
    return status, headers, json.loads(body) if status == 200 else []


def category_body(port: int) -> str:
    try:
        return fetch(port, "GET", "/v1/categories/34")[2].decode()
    except OSError:
        return ""


def category(name: str) -> str:
    return json.dumps({"id": 34, "name": name, "slug": "games/tabletop-games", "parent_id": 12, "projects_count": 118})


def eventually(seconds: float, condition) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def watch_survives_a_recreated_folder(results: Results, binary):
    root = Path(tempfile.mkdtemp(prefix="mockapi-watch-"))
    contracts, fixtures = root / "contracts", root / "fixtures"
    shutil.copytree(REPO / "contracts", contracts)
    shutil.copytree(REPO / "fixtures", fixtures)
    server = Server(binary, ["--watch", "--contracts", str(contracts), "--fixtures", str(fixtures)])
    try:
        results.check("Tabletop Games" in category_body(server.port), "watch: the copy serves", category_body(server.port)[:80])
        # What a branch switch or a regenerate does.
        shutil.rmtree(fixtures)
        time.sleep(0.3)
        shutil.copytree(REPO / "fixtures", fixtures)
        time.sleep(0.3)
        (fixtures / "categories" / "category.json").write_text(category("Board Games"))
        results.check(eventually(5, lambda: "Board Games" in category_body(server.port)),
                      "watch: an edit after rm -rf and copy is served within 5 s", category_body(server.port)[:80])

        # A writer that never pauses for the quiet period: every 100 ms for up to 5 s. The watcher
        # reloads at most 1 s into a burst; a reload that reads a half-written file keeps the old
        # table and the next one is due 1 s later, so 5 s (as above) leaves room on a loaded machine.
        stop = threading.Event()

        def writer():
            edit = 0
            while not stop.is_set():
                edit += 1
                (fixtures / "categories" / "category.json").write_text(category(f"Card Games {edit}"))
                time.sleep(0.1)
        thread = threading.Thread(target=writer)
        thread.start()
        try:
            seen = eventually(5, lambda: "Card Games" in category_body(server.port))
        finally:
            stop.set()
            thread.join()
        results.check(seen, "watch: edits every 100 ms reload before they stop", category_body(server.port)[:80])
        results.check(server.alive(), "watch: server still running", f"exited with {server.process.returncode}")
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
