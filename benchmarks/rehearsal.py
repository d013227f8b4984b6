"""How long a dress rehearsal of a whole event takes, and that deleting it leaves no row.

    .venv/bin/python benchmarks/rehearsal.py [--players 100] [--rounds 7] [--cut 16]
        [--cut-after 5] [--consolation] [--preset mcr|japanese-transitional|wilmington-12-tile]
        [--seed 1]

It makes a tournament of `--players` players and `--rounds` planned rounds, with a final stage
of the best `--cut` players after round `--cut-after` (half their points carried over; the
others stop, or play a consolation stage with `--consolation`; `--cut 0`: no final stage), in a
PostgreSQL
database of its own (`mcr_bench`, created when missing; BENCH_DATABASE_URL names another),
plays its dress rehearsal through in this process (tournament/services/rehearsal.py, as the
background thread would), and prints:

- the rehearsal's size: rounds, games, deals entered, penalties;
- who made the cut, when there is one;
- its time, elapsed and as this process' CPU time (the database server's work is only in the
  first), and the deals entered per second;
- the rows of every model of the project before the rehearsal, after it and after deleting
  it: the last must equal the first but for the real tournament's two audit entries (the
  rehearsal made, then deleted).

The real tournament is deleted at the end.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_database import database_url, ensure_database, setup_django  # noqa: E402

SLUG = "bench-rehearsal"
COUNTRIES = ("SE", "DE", "FR", "NL", "CN", "JP", "DK", "IT", "PL", "HU", "GB", "ES")


def row_counts() -> dict[str, int]:
    from django.apps import apps

    return {
        model.__name__: model.objects.count()
        for model in apps.get_app_config("tournament").get_models()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--preset", default="mcr")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cut", type=int, default=16)
    parser.add_argument("--cut-after", type=int, default=5)
    parser.add_argument("--consolation", action="store_true")
    options = parser.parse_args()

    url = database_url()
    ensure_database(url)
    setup_django(url)
    from django.conf import settings
    from django.contrib.auth import get_user_model

    from tournament.models import Cut, Deal, Penalty, Table, Tournament
    from tournament.services.players import add_player
    from tournament.services.rehearsal import delete_rehearsal, start_rehearsal
    from tournament.services.tournaments import create_tournament

    settings.SEATING_JOBS_INLINE = True  # play in this process, as the thread would
    Tournament.objects.filter(slug__startswith=SLUG).delete()
    user, _created = get_user_model().objects.get_or_create(username="bench-organiser")
    tournament = create_tournament(
        organiser=user,
        name="Bench Rehearsal",
        slug=SLUG,
        preset=options.preset,
        planned_rounds=options.rounds,
    )
    if options.cut:
        tournament.cut_after_round = options.cut_after
        tournament.cut_size = options.cut
        tournament.carry_over = "1/2"
        tournament.consolation = options.consolation
        tournament.save()
    for number in range(1, options.players + 1):
        add_player(
            tournament=tournament,
            key=str(number),
            name=f"Player {number}",
            country=COUNTRIES[number % len(COUNTRIES)],
        )
    before = row_counts()

    started, cpu = time.perf_counter(), time.process_time()
    rehearsal = start_rehearsal(tournament, actor=user, seed=options.seed)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    copy = rehearsal.copy
    deals = Deal.objects.filter(table__round__tournament=copy).count()
    print(
        f"rehearsal of {options.players} players, {options.rounds} rounds, {options.preset}, "
        + (f"a cut to {options.cut} after round {options.cut_after}: " if options.cut else "")
        + f"{rehearsal.get_status_display()} {rehearsal.message}".rstrip()
    )
    print(
        f"  {copy.rounds.count()} rounds, "
        f"{Table.objects.filter(round__tournament=copy).count()} games, {deals} deals, "
        f"{Penalty.objects.filter(table__round__tournament=copy).count()} penalties"
    )
    print(
        f"  elapsed {elapsed:.1f} s, this process' CPU {cpu:.1f} s, "
        f"{deals / elapsed:.0f} deals a second"
    )
    cut = Cut.objects.filter(tournament=copy).first()
    if cut is not None:
        print(f"  the cut after round {cut.after_round}: {cut.finalists.count()} finalists")
    during = row_counts()

    started = time.perf_counter()
    delete_rehearsal(rehearsal, actor=user)
    print(f"  deleting it: {time.perf_counter() - started:.2f} s")
    after = row_counts()
    print(f"  {'rows':<22}{'before':>9}{'during':>9}{'after':>9}")
    for name in sorted(before):
        if before[name] or during[name] or after[name]:
            print(f"  {name:<22}{before[name]:>9}{during[name]:>9}{after[name]:>9}")
    left = {
        name: after[name] - before[name]
        for name in before
        if after[name] != before[name] and name != "AuditEntry"
    }
    audit = after["AuditEntry"] - before["AuditEntry"]
    print(f"  rows left behind: {left or 'none'} (audit entries of the real tournament: {audit})")
    tournament.delete()


if __name__ == "__main__":
    main()
