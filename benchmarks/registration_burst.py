"""A burst of registrations on a tournament's public page: does the cap hold, and nothing fail?

Makes a tournament taking registrations at once with a cap (`registration-burst`, made anew
each run) in the benchmark database, starts gunicorn on 127.0.0.1 with the production settings
(DEBUG off; several workers and threads, so the registrations really run side by side), then
CLIENTS threads send REGISTRATIONS registrations between them as browsers do: each reads the
form (for its CSRF cookie and token) and posts it. Each client comes from its own address (the
server is told it is behind one proxy, and each client names its address in X-Forwarded-For),
so the throttle of 10 registrations an address an hour does not stop the burst. Prints how many
were accepted against the cap, how many wait, how many answers were 5xx and the time taken.

    .venv/bin/python benchmarks/registration_burst.py

Environment: BENCH_DATABASE_URL (default postgres://root@127.0.0.1:5432/mcr_bench, created
when missing), BENCH_PORT (default 8812), CLIENTS (20), REGISTRATIONS (100), CAP (40),
WORKERS (4), THREADS (4). Nothing leaves 127.0.0.1; every loop is bounded.
"""

from __future__ import annotations

import http.client
import os
import re
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _server import HOST, start_server, stop_server  # noqa: E402
from bench_database import database_url, ensure_database, setup_django  # noqa: E402

SLUG = "registration-burst"
PATH = f"/t/{SLUG}/register/"
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def number(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


PORT = number("BENCH_PORT", 8812)
CLIENTS = number("CLIENTS", 20)
REGISTRATIONS = number("REGISTRATIONS", 100)
CAP = number("CAP", 40)
WORKERS = number("WORKERS", 4)
THREADS = number("THREADS", 4)
TIMEOUT = 60  # seconds for one answer


def make_tournament() -> None:
    from django.contrib.auth import get_user_model

    from tournament.models import Tournament
    from tournament.services.registrations import update_settings
    from tournament.services.tournaments import create_tournament

    Tournament.objects.filter(slug=SLUG).delete()
    organiser, _ = get_user_model().objects.get_or_create(username="burst-organiser")
    tournament = create_tournament(
        organiser=organiser, name="Registration burst", slug=SLUG, public=True
    )
    update_settings(tournament, actor=organiser, registration="instant", registration_cap=CAP)


def register(client: int, numbers: list[int], statuses: Counter[int], lock: threading.Lock):
    """Client `client` registers the players `numbers` one after another."""
    address = f"10.{client // 250}.{client % 250}.1"
    forwarded = {"X-Forwarded-For": address}
    for player in numbers:
        connection = http.client.HTTPConnection(HOST, PORT, timeout=TIMEOUT)
        try:
            connection.request("GET", PATH, headers=forwarded)
            page = connection.getresponse()
            body = page.read().decode()
            cookie = next(
                (value.split(";")[0] for name, value in page.getheaders()
                 if name.lower() == "set-cookie" and value.startswith("csrftoken=")),
                "",
            )  # fmt: skip
            token = TOKEN.search(body)
            if page.status != 200 or token is None:
                status = page.status if page.status != 200 else 0
            else:
                form = {
                    "csrfmiddlewaretoken": token.group(1),
                    "family_name": f"Burst{player:04d}",
                    "given_name": f"Client{client}",
                    "country": "",
                    "club": "",
                    "team": "",
                    "ema_number": "",
                    "contact": "",
                    "website": "",
                }
                headers = {
                    **forwarded,
                    "Content-Type": "application/x-www-form-urlencoded",
                    "Cookie": cookie,
                }
                connection.request("POST", PATH, body=urlencode(form), headers=headers)
                answer = connection.getresponse()
                answer.read()
                status = answer.status
        except OSError:
            status = -1  # no answer at all
        finally:
            connection.close()
        with lock:
            statuses[status] += 1


def main() -> None:
    url = database_url()
    ensure_database(url)
    setup_django(url)
    make_tournament()

    from django.db import connection

    from tournament.models import Registration, Tournament

    connection.close()  # gunicorn's workers use the database now
    os.environ["PROXY_COUNT"] = "1"  # each client names its address in X-Forwarded-For
    server = start_server(port=PORT, database_url=url, workers=WORKERS, threads=THREADS)
    statuses: Counter[int] = Counter()
    lock = threading.Lock()
    shares = [list(range(client, REGISTRATIONS, CLIENTS)) for client in range(CLIENTS)]
    threads = [
        threading.Thread(target=register, args=(client, share, statuses, lock))
        for client, share in enumerate(shares)
    ]
    started = time.perf_counter()
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=TIMEOUT * 2 * (REGISTRATIONS // CLIENTS + 1))
        elapsed = time.perf_counter() - started
    finally:
        stop_server(server)
    tournament = Tournament.objects.get(slug=SLUG)
    by_status = Counter(tournament.registrations.values_list("status", flat=True))
    accepted = by_status[Registration.Status.ACCEPTED]
    players = tournament.players.count()
    errors = sum(count for status, count in statuses.items() if status >= 500)
    print(f"{REGISTRATIONS} registrations from {CLIENTS} concurrent clients, cap {CAP}")
    print(f"  accepted: {accepted} (cap {CAP}; players in the field: {players})")
    print(f"  waiting:  {by_status[Registration.Status.WAITING]}")
    print(f"  answers:  {dict(sorted(statuses.items()))} (302: registered)")
    print(f"  5xx:      {errors}; no answer: {statuses[-1]}")
    print(f"  time:     {elapsed:.2f} s ({REGISTRATIONS / elapsed:.1f} registrations/s)")
    if accepted != min(CAP, REGISTRATIONS) or players != accepted or errors:
        raise SystemExit("The cap did not hold exactly, or the server failed.")


if __name__ == "__main__":
    main()
