"""What a live poll of the standings costs when nothing changed, with and without the ETag.

    .venv/bin/python benchmarks/live_polls.py [--players 400] [--polls 200]

Builds the tournament of tournament_scale.py (rounds 1-2 finished, round 3 in play) with
`--players` players in the benchmark database (see bench_database.py), then times `--polls`
htmx polls of the public standings fragment through Django's test client, in one process:

- rendered: the polls as they were before conditional requests (no If-None-Match), each one
  computing and rendering the standings;
- 304: the same polls sending back the ETag of the first answer, as the browser does;
- 404: an unknown tournament's standings, the floor a request costs in this application.

It prints the total and per-poll milliseconds, the bytes of each answer and the ratios. Then,
for when something changed, it times the fragment rendered with every player on one page
(`?per_page=` the field) against the JSON API's standings of the same players, and prints
their ratio (the goal of issue 20: at most 3).

Then a table's live fragment after each hand of a game (round 3's games entered hand by hand,
`--polls` hands in all): drawn for a first viewer, sent kept to a second, 304 with the ETag.

Last, the same three timings (rendered, 304, 404) for the polls of the pages behind a login:
the organiser's board of round 3, the projector's clock and panel, and a referee's live part
of table 1 (each with its user logged in; the 404 is an unknown tournament's page of the same
kind, after the same login).
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_database import database_url, ensure_database, setup_django  # noqa: E402

HTMX = {"HX-Request": "true"}


def timed(polls: int, get) -> tuple[float, int, int]:
    """Total milliseconds of `polls` calls of `get`, the last status and body size."""
    start = time.perf_counter()
    for _ in range(polls):
        response = get()
    elapsed = (time.perf_counter() - start) * 1000
    return elapsed, response.status_code, len(response.content)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--polls", type=int, default=200)
    args = parser.parse_args()
    url = database_url()
    ensure_database(url)
    setup_django(url)

    from django.test import Client
    from django.urls import reverse
    from tournament_scale import build

    logging.getLogger("django.request").setLevel(logging.ERROR)  # not a line per 404

    tournament, _ = build(args.players)
    client = Client()
    standings = reverse("public:standings", args=[tournament.slug])
    missing = reverse("public:standings", args=["no-such-tournament"])
    etag = client.get(standings, headers=HTMX)["ETag"]

    rows = {
        "rendered": timed(args.polls, lambda: client.get(standings, headers=HTMX)),
        "304": timed(
            args.polls, lambda: client.get(standings, headers={**HTMX, "If-None-Match": etag})
        ),
        "404": timed(args.polls, lambda: client.get(missing, headers=HTMX)),
    }
    print(f"{args.polls} polls of the standings fragment, {args.players} players, nothing changed")
    for name, (total, status, size) in rows.items():
        print(
            f"{name:10} {total:9.0f} ms in all {total / args.polls:8.2f} ms a poll  "
            f"status {status}  {size:>7} bytes"
        )
    rendered, conditional, floor = (rows[name][0] for name in ("rendered", "304", "404"))
    print(f"304 / rendered: {conditional / rendered:.4f}  ({rendered / conditional:.0f}x faster)")
    print(f"304 / 404:      {conditional / floor:.2f}")

    # Something changed: every poll renders. The whole field on one page, as the API gives it.
    whole = f"{standings}?per_page={args.players}"
    api = reverse("tournament_api:standings", args=[tournament.slug])
    changed = {
        "fragment": timed(args.polls, lambda: client.get(whole, headers=HTMX)),
        "api": timed(args.polls, lambda: client.get(api)),
    }
    print(f"{args.polls} polls of all {args.players} standings, something changed")
    for name, (total, status, size) in changed.items():
        print(
            f"{name:10} {total:9.0f} ms in all {total / args.polls:8.2f} ms a poll  "
            f"status {status}  {size:>7} bytes"
        )
    fragment, json_api = changed["fragment"][0], changed["api"][0]
    print(f"fragment / API: {fragment / json_api:.2f}  (goal: at most 3)")

    table_after_each_hand(tournament, args.polls)
    insiders(tournament, args.polls)


def table_after_each_hand(tournament, polls: int) -> None:
    """A table's live fragment when its game moved on: games of round 3 entered hand by hand
    (not timed), and after each hand its table's fragment asked for by a first viewer (drawn
    and kept), a second (the kept fragment) and the first again with its ETag (304), as the
    four players of a table poll it. `polls` hands in all, 16 a table."""
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import reverse

    from tournament.models import Round, Table
    from tournament.services import DealInput, record_deal

    entered_by = get_user_model().objects.filter(is_superuser=True).first() or (
        get_user_model().objects.create_superuser("bench-admin", password="unused")
    )
    round = Round.objects.get(tournament=tournament, number=3)
    tables = Table.objects.filter(round=round, hands__isnull=True).order_by("number")
    times: dict[str, list[float]] = {"drawn": [], "kept": [], "304": []}
    sizes = 0
    for table in tables[: max(1, polls // 16)]:
        seats = sorted(table.seats.select_related("player"), key=lambda seat: seat.index)
        url = reverse("public:table", args=[tournament.slug, 3, table.number])
        for number in range(1, 17):
            winner = seats[(number + table.number) % 4].player
            discarder = None if number % 3 == 0 else seats[(number + 1) % 4].player
            if discarder == winner:
                discarder = None
            record_deal(
                table=table,
                number=number,
                deal=DealInput(
                    result="win", winner=winner, discarder=discarder, fan=8 + number % 9
                ),
                entered_by=entered_by,
            )
            for name, headers in (("drawn", HTMX), ("kept", HTMX)):
                start = time.perf_counter()
                response = Client().get(url, headers=headers)
                times[name].append((time.perf_counter() - start) * 1000)
                assert response.status_code == 200, response.status_code
            sizes += len(response.content)
            etag = {**HTMX, "If-None-Match": response["ETag"]}
            start = time.perf_counter()
            response = Client().get(url, headers=etag)
            times["304"].append((time.perf_counter() - start) * 1000)
            assert response.status_code == 304, response.status_code
    count = len(times["drawn"])
    print(
        f"{count} hands entered at {count // 16} tables of round 3, "
        "each table's fragment asked for after each"
    )
    for name, values in times.items():
        print(f"table {name:6} {sum(values) / count:8.2f} ms a poll")
    print(f"table fragment {sizes // count} bytes on average")


def insiders(tournament, polls: int) -> None:
    """Time the board's, the projector's and the referee screen's polls: rendered, 304, 404."""
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import reverse

    from tournament.models import Round, Table

    users = get_user_model().objects
    organiser = users.filter(username="bench-organiser").first() or users.create_user(
        "bench-organiser", password="unused"
    )
    referee = users.filter(username="bench-referee").first() or users.create_user(
        "bench-referee", password="unused"
    )
    tournament.organisers.add(organiser)
    round = Round.objects.get(tournament=tournament, number=3)
    Table.objects.get(round=round, number=1).referees.add(referee)
    slug = tournament.slug
    pages = [
        ("board", organiser, "organiser:board", [3], {}),
        ("projector clock", organiser, "public:projector", [], {"HX-Target": "pj-clock"}),
        ("projector panel", organiser, "public:projector", [], {"HX-Target": "pj-panel"}),
        ("referee", referee, "referee:live", [3, 1], {}),
    ]
    print(f"{polls} polls of each page behind a login, nothing changed")
    for name, user, view, args, more in pages:
        client = Client()
        client.force_login(user)
        url = reverse(view, args=[slug, *args])
        missing = reverse(view, args=["no-such-tournament", *args])
        time_page(name, client, url, missing, {**HTMX, **more}, polls)


def time_page(name: str, client, url: str, missing: str, headers: dict, polls: int) -> None:
    """Print the rendered, 304 and 404 timings of `polls` polls of `url` by `client`."""
    etag = client.get(url, headers=headers)["ETag"]
    rows = {
        "rendered": timed(polls, lambda: client.get(url, headers=headers)),
        "304": timed(polls, lambda: client.get(url, headers={**headers, "If-None-Match": etag})),
        "404": timed(polls, lambda: client.get(missing, headers=headers)),
    }
    for row, (total, status, size) in rows.items():
        print(f"{name:16} {row:9} {total / polls:8.2f} ms a poll  status {status}  {size:>7} bytes")
    rendered, conditional, floor = (rows[row][0] for row in ("rendered", "304", "404"))
    print(
        f"{name:16} 304 / rendered: {conditional / rendered:.3f}  "
        f"304 / 404: {conditional / floor:.2f}"
    )


if __name__ == "__main__":
    main()
