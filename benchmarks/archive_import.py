"""How long importing a large archive takes.

    .venv/bin/python benchmarks/archive_import.py [--players 1000] [--rounds 10] [--services]
        [--profile]

It writes, in memory, the archive (version 2) of an MCR tournament of `--players` players and
`--rounds` finished rounds, every game played in full (16 hands, each won for 8 fan by a player
who does not deal, on a discard or self-drawn, every game sheet confirmed), then imports it
into a PostgreSQL database of its own (`mcr_bench`, created when missing; set
BENCH_DATABASE_URL to use another) and prints:

- the size of the document (players, rounds, tables, hands, and its JSON text in MB);
- the time to read the document into the schema (`parse`) and to import it whole
  (`import_tournament`, which parses it again, builds each round's games in memory with the
  services' checks and writes them in bulk), with the number of SQL queries, the hands
  imported per second and the queries per table. `--services` imports hand by hand through
  the services instead (`bulk=False`, the only path before the bulk one): about 18 queries a
  hand, so keep the archive small. Each time is given as elapsed and
  as this process' CPU time (the database server's work is only in the first): on a loaded
  machine the elapsed time says little.

The imported tournament is deleted at the end. `--profile` prints the 25 functions that took
longest (cumulative) under cProfile.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_database import database_url, ensure_database, setup_django  # noqa: E402

SLUG = "bench-archive"
HANDS = 16


def archive(players: int, rounds: int) -> dict[str, Any]:
    """The document: players "1".."n"; in round r, table t seats the players of a shifted
    pattern so that tables change from round to round."""
    keys = [str(number) for number in range(1, players + 1)]
    rounds_data = []
    for r in range(1, rounds + 1):
        order = keys[r - 1 :] + keys[: r - 1]  # a different four at each table each round
        tables = []
        for t in range(players // 4):
            seated = [order[t + offset * (players // 4)] for offset in range(4)]
            hands = []
            for number in range(1, HANDS + 1):
                dealer = (number - 1) // 4 % 4  # MCR: the dealer passes every hand
                winner = (dealer + 1 + number % 3) % 4
                discarder = None if number % 4 == 0 else (winner + 1) % 4
                hands.append(
                    {
                        "number": number,
                        "result": "win",
                        "winner": seated[winner],
                        "discarder": None if discarder is None else seated[discarder],
                        "fan": 8 + number % 5,
                    }
                )
            tables.append(
                {
                    "number": t + 1,
                    "seats": dict(zip("ESWN", seated, strict=True)),
                    "hands": hands,
                    "ended_at": "2025-05-01T12:00:00+00:00",
                    "confirmed_at": "2025-05-01T12:05:00+00:00",
                }
            )
        rounds_data.append({"number": r, "status": "finished", "tables": tables})
    return {
        "format": "mcr-tournament-archive",
        "version": 2,
        "tournament": {"name": "Benchmark Open", "slug": SLUG, "preset": "mcr"},
        "players": [{"key": key, "name": f"Player {key}"} for key in keys],
        "rounds": rounds_data,
    }


class QueryCounter:
    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        self.count += 1
        return execute(sql, params, many, context)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--services", action="store_true", help="hand by hand (bulk=False)")
    parser.add_argument("--profile", action="store_true")
    options = parser.parse_args()
    if options.players % 4:
        parser.error("--players must be a multiple of four")

    url = database_url()
    ensure_database(url)
    setup_django(url)
    from django.contrib.auth import get_user_model
    from django.db import connection

    from tournament.archive import import_tournament, parse
    from tournament.models import Deal, Tournament

    Tournament.objects.filter(slug=SLUG).delete()
    actor, _ = get_user_model().objects.get_or_create(username="bench")

    document = archive(options.players, options.rounds)
    text = json.dumps(document)
    tables = sum(len(round["tables"]) for round in document["rounds"])
    print(
        f"archive: {options.players} players, {options.rounds} rounds, {tables} tables, "
        f"{tables * HANDS} hands; {len(text.encode()) / 1e6:.1f} MB of JSON"
    )

    started, cpu = time.perf_counter(), time.process_time()
    parse(json.loads(text))
    print(
        f"parse (JSON text to the schema's models): {time.perf_counter() - started:.2f} s "
        f"({time.process_time() - cpu:.2f} s of this process' CPU)"
    )

    counter = QueryCounter()
    profiler = cProfile.Profile() if options.profile else None
    started, cpu = time.perf_counter(), time.process_time()
    with connection.execute_wrapper(counter):
        if profiler:
            profiler.enable()
        tournament = import_tournament(json.loads(text), actor=actor, bulk=not options.services)
        if profiler:
            profiler.disable()
    elapsed, used = time.perf_counter() - started, time.process_time() - cpu
    hands = Deal.objects.filter(table__round__tournament=tournament).count()
    print(
        f"import ({'services, hand by hand' if options.services else 'bulk'}): "
        f"{elapsed:.1f} s ({used:.1f} s of this process' CPU), "
        f"{counter.count:,} SQL queries, {hands:,} hands "
        f"({hands / elapsed:,.0f} hands/s, {counter.count / max(hands, 1):.2f} queries a hand, "
        f"{counter.count / max(tables, 1):.1f} a table)"
    )
    tournament.delete()
    if profiler:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()
