"""How entering a hand and reading the standings scale with the size of a tournament.

    .venv/bin/python benchmarks/tournament_scale.py [--sizes 16 160 1600] [--samples 20]
        [--presets mcr jt wa] [--checkout PATH ...]

For each rule preset (MCR, Japanese Transitional, Wilmington) and field size it builds, in a
PostgreSQL database of its own (`mcr_bench`, created when missing; set BENCH_DATABASE_URL to use
another), a tournament with two finished rounds of complete games (16 deals, each won by a
player who does not deal, so the deal passes as under MCR) and a third round in play with no
deals yet. The finished rounds are
written with bulk inserts (fast set-up; the hands are valid and their payments come from the
settlement code). Then it measures, with the database's query log:

- entering hand 1 at `--samples` different tables of round 3 through the service
  (`record_deal`) and, when the pages exist, through the referee page and the JSON API;
- computing the standings (`selectors.standings`), rendering the public standings page, and
  the JSON standings of the API; the page and the API again as the first request after a
  change (the tournament's LiveVersion number moved before each, untimed), since between
  changes the standings are kept (tournament.reads.standings_cache);
- the public page of round 3 (the one in play, which refreshes itself) and of round 1 (finished,
  every table with its results).

It prints the median time in milliseconds and the number of SQL queries for each; the query
counts should not grow with the field. For the pages and the API it also prints the size of
the answer as the client gets it when it accepts gzip (`wire`), and its text uncompressed
(`plain`) and gzipped at level 6 (`gzip`): what compression could save where the answer is
sent uncompressed. Each address is asked as a browser (or a program) first asks it, without a
query string: the answer's default size is what is measured.

`--checkout PATH` (repeatable) runs the same measurements against the code of other checkouts
of the project, each in a process of its own and a database of its own (the benchmark's
database name with `_` and the checkout's folder name added), one after the other, and then
prints, for each row, the milliseconds of every checkout and their ratio to the first one:
`--checkout /tmp/base --checkout .` compares a base commit with this one in one run.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# The code measured: this checkout, or the one named by BENCH_CHECKOUT (see --checkout).
REPO = Path(os.environ.get("BENCH_CHECKOUT") or HERE.parent).resolve()
if os.environ.get("BENCH_CHECKOUT"):
    # An editable install of the project (pip install -e) finds its packages before sys.path
    # does: drop its finder so that the checkout's own code is imported.
    sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in type(f).__name__.lower()]
sys.path.insert(0, str(REPO))
sys.path.insert(1, str(HERE))

from bench_database import database_url, ensure_database, setup_django  # noqa: E402

# bench_database puts this checkout first on the path: the one measured goes before it.
sys.path.insert(0, str(REPO))

PRESETS = {"mcr": "mcr", "jt": "japanese-transitional", "wa": "wilmington-12-tile"}


def build(size: int, key: str = "mcr"):
    """A tournament of `size` players under the preset `key`: rounds 1-2 finished, round 3 in
    play, nothing entered."""
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone

    from scoring.engine import get_preset
    from scoring.engine.settlement import WIN, Win, deal_payments
    from scoring.engine.settlement import Deal as EngineDeal
    from tournament.models import Deal, Player, Round, Seat, Table, Tournament

    slug = f"bench-{key}-{size}"
    Tournament.objects.filter(slug=slug).delete()
    user, _ = get_user_model().objects.get_or_create(
        username="bench", defaults={"is_superuser": True}
    )
    user.is_superuser = True
    user.save()
    preset = get_preset(PRESETS[key])
    now = timezone.now()
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=f"Bench {key} {size}",
            slug=slug,
            public=True,
            preset=preset.key,
            seat_rotation="none",
        )
        tournament.organisers.add(user)
        players = Player.objects.bulk_create(
            Player(tournament=tournament, key=str(n), name=f"Player {n}")
            for n in range(1, size + 1)
        )
        for number in (1, 2, 3):
            round = Round.objects.create(
                tournament=tournament, number=number, status="finished" if number < 3 else "playing"
            )
            tables = Table.objects.bulk_create(
                Table(
                    round=round,
                    number=t,
                    ended_at=now if number < 3 else None,
                    confirmed_at=now if number < 3 else None,  # finished rounds count
                )
                for t in range(1, size // 4 + 1)
            )
            # A simple rotation so that the rounds differ: player p moves by p*number.
            order = sorted(range(size), key=lambda p: (p * (2 * number + 1)) % size)
            seats = Seat.objects.bulk_create(
                Seat(table=tables[i // 4], round=round, player=players[order[i]],
                     starting_wind="ESWN"[i % 4])
                for i in range(size)
            )  # fmt: skip
            if number == 3:
                continue
            hands = []
            scores = [0] * size
            for t, table in enumerate(tables):
                for n in range(1, 17):
                    wind_round, dealer = divmod(n - 1, 4)
                    winner = (dealer + 1 + (n + t) % 3) % 4  # never the dealer: the deal passes
                    discarder = None if n % 3 == 0 else (winner + 1 + n % 3) % 4
                    if discarder == winner:
                        discarder = None
                    fan = 8 + (n * 7 + t) % 17
                    value = fan * preset.value_step + preset.least_value
                    deal = EngineDeal(
                        WIN, dealer, (Win(winner, fan if preset.counts_fan else value),), discarder
                    )
                    pays = deal_payments(deal, preset)
                    for i, points in enumerate(pays):
                        scores[4 * t + i] += points
                    hands.append(Deal(
                        table=table, number=n, result="win",
                        prevailing_wind="ESWN"[wind_round], dealer="ESWN"[dealer],
                        winner=seats[4 * t + winner],
                        discarder=None if discarder is None else seats[4 * t + discarder],
                        fan=fan if preset.counts_fan else None, flowers=0,
                        value=None if preset.counts_fan else value,
                        east_points=pays[0], south_points=pays[1],
                        west_points=pays[2], north_points=pays[3], entered_by=user,
                    ))  # fmt: skip
            Deal.objects.bulk_create(hands, batch_size=2000)
            for seat, score in zip(seats, scores, strict=True):
                seat.score = score
            Seat.objects.bulk_update(seats, ["score"], batch_size=2000)
    return tournament, user


Row = tuple[str, float, int, "Sizes | None"]
Sizes = tuple[int, int, int]  # wire, plain, gzip (bytes)


def measure(action, samples: int, prepare=None) -> tuple[float, int, Sizes | None]:
    """Median milliseconds, the query count of the last call of `action(i)`, and the sizes of
    the answer it returned (None when it returns none); `prepare(i)`, untimed, before each."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times = []
    queries = 0
    response = None
    for i in range(samples):
        if prepare is not None:
            prepare(i)
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            response = action(i)
            times.append((time.perf_counter() - start) * 1000)
        queries = len(captured.captured_queries)
    answered = hasattr(response, "content") and hasattr(response, "status_code")
    return statistics.median(times), queries, sizes(response) if answered else None


def sizes(response) -> Sizes:
    """Bytes of `response` as sent, its text uncompressed, and that text gzipped (level 6)."""
    wire = response.content
    plain = gzip.decompress(wire) if response.get("Content-Encoding") == "gzip" else wire
    return len(wire), len(plain), len(gzip.compress(plain, compresslevel=6))


def fetch(client, path: str, **headers):
    """GET `path` as a browser that accepts gzip; the answer, which must be 200."""
    response = client.get(path, HTTP_ACCEPT_ENCODING="gzip, deflate", **headers)
    assert response.status_code == 200, (path, response.status_code)
    return response


def path_exists(path: str) -> bool:
    from django.urls import Resolver404, resolve

    try:
        resolve(path)
    except Resolver404:
        return False
    return True


def run(size: int, samples: int, key: str = "mcr") -> list[Row]:
    from django.test import Client

    from tournament.models import Table
    from tournament.reads import selectors
    from tournament.services import DealInput, record_deal

    tournament, user = build(size, key)
    worth = {"fan": 8} if tournament.rules.counts_fan else {"value": 60}
    tables = list(Table.objects.filter(round__tournament=tournament, round__number=3)
                  .order_by("number").prefetch_related("seats__player"))  # fmt: skip
    samples = min(samples, len(tables) // 3)
    rows = []

    def by_service(i: int) -> None:
        table = tables[i]
        east = next(seat.player for seat in table.seats.all() if seat.starting_wind == "E")
        record_deal(
            table=table,
            number=1,
            deal=DealInput(result="win", winner=east, **worth),
            entered_by=user,
        )

    rows.append(("enter a hand (service)", *measure(by_service, samples)))

    client = Client()
    client.force_login(user)
    slug = tournament.slug
    referee_path = f"/referee/{slug}/3/{{table}}/"
    if path_exists(referee_path.format(table=1)):
        from django.urls import reverse

        def by_page(i: int) -> None:
            table = tables[samples + i]
            url = reverse("referee:table", args=[slug, 3, table.number])
            client.get(url)

        rows.append(("referee table page (GET)", *measure(by_page, samples)))
    api_path = f"/api/tournaments/{slug}/rounds/3/tables/{{table}}/hands"
    if path_exists(api_path.format(table=1)):

        def by_api(i: int) -> None:
            table = tables[2 * samples + i]
            east = next(seat.player for seat in table.seats.all() if seat.starting_wind == "E")
            response = client.post(
                api_path.format(table=table.number),
                {"number": 1, "result": "win", "winner": east.key, "discarder": None, **worth},
                content_type="application/json",
            )  # fmt: skip
            assert response.status_code in (200, 201), response.content[:300]

        rows.append(("enter a hand (JSON API)", *measure(by_api, samples)))

    rows.append(("standings (selector)", *measure(lambda i: selectors.standings(tournament), 5)))
    # The public pages and the API as a visitor reads them (not logged in).
    visitor = Client()
    public = f"/t/{slug}/standings/"
    if path_exists(public):
        rows.append(("standings page (HTML)", *measure(lambda i: fetch(visitor, public), 5)))
    api_standings = f"/api/tournaments/{slug}/standings"
    if path_exists(api_standings):
        rows.append(("standings (JSON API)", *measure(lambda i: fetch(visitor, api_standings), 5)))
    # The first request after a change: what a checkout that keeps the standings between
    # changes (tournament.reads.standings_cache) computes anew. Without that, every request is one.
    try:
        from tournament.services.live import note_change
    except ImportError:
        note_change = None

    def change(i: int) -> None:
        if note_change is not None:
            note_change(tournament.pk)

    if path_exists(public):
        rows.append(("standings page, after change", *measure(
            lambda i: fetch(visitor, public), 5, change)))  # fmt: skip
    if path_exists(api_standings):
        rows.append(("standings API, after change", *measure(
            lambda i: fetch(visitor, api_standings), 5, change)))  # fmt: skip
    for number in (3, 1):
        page = f"/t/{slug}/rounds/{number}/"
        if path_exists(page):
            rows.append(
                (f"round {number} page (HTML)", *measure(lambda i, p=page: fetch(visitor, p), 5))
            )
    api_round = f"/api/tournaments/{slug}/rounds/3"
    if path_exists(api_round):
        rows.append(("round 3 (JSON API)", *measure(lambda i: fetch(visitor, api_round), 5)))
    return rows


def kb(count: int) -> str:
    return f"{count / 1000:.1f} kB"


def report(key: str, sizes_run: list[int], results: dict[int, list[Row]]) -> None:
    print(f"{PRESETS[key]}")
    print(f"{'':28}" + "".join(f"{size:>8} players      " for size in sizes_run))
    names = [row[0] for row in results[sizes_run[0]]]
    for index, name in enumerate(names):
        cells = "".join(
            f"{results[size][index][1]:>10.1f} ms {results[size][index][2]:>4} q  "
            for size in sizes_run
        )
        print(f"{name:28}{cells}")
    print("answer sizes: wire (as sent to a client accepting gzip) / plain / gzip level 6")
    for index, name in enumerate(names):
        if results[sizes_run[0]][index][3] is None:
            continue
        cells = "".join(
            "  " + " / ".join(kb(n) for n in results[size][index][3])  # type: ignore[union-attr]
            for size in sizes_run
        )
        print(f"{name:28}{cells}")
    print()


def suffixed(url: str, suffix: str) -> str:
    """The database URL `url` with `suffix` added to the database's name."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=parts.path.rstrip("/") + suffix))


def compare(args: argparse.Namespace) -> None:
    """Run this script on each checkout in a process of its own; print the times side by side."""
    base_url = database_url()
    found: list[tuple[str, dict]] = []
    for checkout in args.checkout:
        path = Path(checkout).resolve()
        url = suffixed(base_url, "_" + path.name.replace("-", "_").replace(".", "_"))
        env = dict(os.environ, BENCH_CHECKOUT=str(path), BENCH_DATABASE_URL=url)
        command = [sys.executable, __file__, "--json", "--samples", str(args.samples),
                   "--sizes", *map(str, args.sizes), "--presets", *args.presets]  # fmt: skip
        print(f"== {path} ({url})", flush=True)
        done = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
        print(done.stderr, end="", flush=True)
        found.append((path.name, json.loads(done.stdout)))
    names = [name for name, _ in found]
    for key in args.presets:
        for size in args.sizes:
            print(f"{PRESETS[key]}, {size} players: median ms (queries), ratio to {names[0]}")
            first = found[0][1][key][str(size)]
            for index, row in enumerate(first):
                cells = []
                for _, result in found:
                    other = result[key][str(size)][index]
                    assert other[0] == row[0], "the checkouts measure different rows"
                    ratio = other[1] / row[1] if row[1] else float("nan")
                    wire = f" {kb(other[3][0]):>9}" if other[3] else ""
                    cells.append(f"{other[1]:>9.1f} ms ({other[2]:>3} q){wire} x{ratio:.3f}")
                print(f"  {row[0]:28}" + "   ".join(cells))
            print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[16, 160, 1600])
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--presets", nargs="+", choices=list(PRESETS), default=list(PRESETS))
    parser.add_argument("--checkout", action="append", default=[], help="compare checkouts")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    if args.checkout:
        compare(args)
        return
    url = database_url()
    ensure_database(url)
    setup_django(url)
    every = {}
    for key in args.presets:
        results = {size: run(size, args.samples, key) for size in args.sizes}
        every[key] = results
        if not args.json:
            report(key, args.sizes, results)
    if args.json:
        print(json.dumps(every))


if __name__ == "__main__":
    main()
