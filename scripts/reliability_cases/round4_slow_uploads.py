"""Issue 30, item 10: uploads trickling just above `--min-body-rate` must not hold every slot.
Every client here is on 127.0.0.1, as in the issue, so a per-address limit alone would lock out
the good client too: the server keeps a quarter of the slots (of the address's and of the whole
server's) out of reach of slow bodies, ending the slowest beyond that with a 503. Small limits
(16 connections) keep each case to a few seconds and a few dozen connections."""

import socket
import threading
import time
from pathlib import Path

from .harness import Results, Server, exchange, header_of, request, status_of

SLOTS = 16               # the limit filled by slow uploads in each case
RATE_FLOOR = 1024        # --min-body-rate, bytes per second
TRICKLE = 170            # bytes each upload sends every 0.1 s: 1.7 KB/s, just above the floor
DECLARED = 512 * 1024    # each upload's Content-Length: hours at that rate


def run(results: Results, binary: Path):
    # The address's limit is the one filled (the case: 256 of 256 from 127.0.0.1).
    fill_slots(results, binary, "per address", ["--max-connections-per-ip", str(SLOTS)])
    # The server's own limit, with the address allowed more than the server has.
    fill_slots(results, binary, "whole server", ["--max-connections", str(SLOTS), "--max-connections-per-ip", "64"])


def fill_slots(results: Results, binary: Path, label: str, limits: list[str]):
    server = Server(binary, ["--min-body-rate", str(RATE_FLOOR), "--max-json-bytes", str(DECLARED),
                             "--max-body-bytes", str(DECLARED), "--threads", "2", *limits])
    head = request("PUT", "/v1/projects/1/backers/2", {"Content-Type": "application/json", "Authorization": "token a",
                                                        "Content-Length": str(DECLARED)}).replace(b"Connection: close\r\n", b"")
    uploads: list[socket.socket] = []
    stop = threading.Event()

    def trickle():
        while not stop.wait(0.1):
            for upload in uploads:
                try:
                    upload.send(b" " * TRICKLE)
                except OSError:
                    pass

    trickler = threading.Thread(target=trickle)
    try:
        for _ in range(SLOTS):
            try:
                upload = socket.create_connection(("127.0.0.1", server.port), timeout=2)
                upload.sendall(head + b"[")
                uploads.append(upload)
            except OSError:
                break
        trickler.start()
        # Past the rate's grace (2 s from the headers) every upload counts as a slow body; a GET
        # from the same address must get its answer within a few seconds, however many tries it takes.
        time.sleep(1.5)
        started = time.monotonic()
        answered, tries, last = False, 0, ""
        while not answered and time.monotonic() - started < 4:
            tries += 1
            outcome, received = exchange(server.port, request("GET", "/v1/categories"), timeout=1)
            answered = status_of(received) == 200
            last = f"{outcome} {received[:40]!r}"
            if not answered:
                time.sleep(0.1)
        waited = time.monotonic() - started
        results.check(answered, f"round4: a GET is answered beside {len(uploads)} slow uploads filling the {label} limit",
                      f"{tries} tries in {waited:.1f} s, last {last}")
        print(f"reliability: {label}: GET {'answered' if answered else 'NOT answered'} after {waited:.2f} s "
              f"({tries} tries) beside {len(uploads)} slow uploads")
    finally:
        stop.set()
        if trickler.is_alive():
            trickler.join()
    # The uploads ended: by a 503 with Retry-After (the slowest, beyond the share) or not yet.
    refused, still_open, other = 0, 0, []
    for upload in uploads:
        upload.settimeout(0.2)
        try:
            received = upload.recv(4096)
            if status_of(received) == 503 and header_of(received, "Retry-After") and received.endswith(b"}\n"):
                head_part, _, body = received.partition(b"\r\n\r\n")
                if int(header_of(received, "Content-Length") or -1) == len(body):
                    refused += 1
                    continue
            other.append(received[:60])
        except socket.timeout:
            still_open += 1
        except OSError as error:
            other.append(repr(error))
        finally:
            upload.close()
    # A quarter of the slots kept: the uploads beyond three quarters were ended, the rest left alone.
    share = SLOTS - SLOTS // 4
    results.check(refused >= len(uploads) - share and still_open >= share - 1,
                  f"round4: the slowest uploads beyond the share ({label}) get a 503 with Retry-After; the others go on",
                  f"{refused} refused, {still_open} still open, other {other[:3]}")
    print(f"reliability: {label}: {refused} uploads ended with a 503, {still_open} still open")
    results.check(server.alive(), f"round4: server alive after the slow uploads ({label})")
    server.stop()
