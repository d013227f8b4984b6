"""Repeats the seating engine leaves, field size by field size.

    .venv/bin/python benchmarks/seating_sweep.py [--seed 1] [--clubs 0] [--jobs 1]
        [--largest 300] [--full-up-to 64] [--maximum]

For every field n = 16, 20, ..., `--largest` and 7 and 10 rounds, for n up to `--full-up-to`
every round count from 11 to the most repeat-free rounds known to exist, and with `--maximum`
every field at that most (where it is known and above 10), prints
n, the rounds, that maximum (marked "?" where only the bound floor((n - 1) / 3) is known), the
design the engine starts from, repeats, table-number repeats and the CPU seconds of one
`generate` call.  Then it lists every run with repeats although a repeat-free seating of that
many rounds is known to exist.

What is known (n a multiple of four):
- n = 4 (mod 12): a resolvable (n, 4, 1) design exists for every such n (Hanani,
  Ray-Chaudhuri and Wilson), so (n - 1) / 3 rounds.
- n = 0 (mod 12), n >= 24: a resolvable 4-GDD of type 3^(n/3) exists (groups of three that
  never meet, everyone else once), so n / 3 - 1 rounds, the bound.
- n = 8 (mod 12): the bound (n - 2) / 3 needs a resolvable 4-GDD of type 2^(n/2).  32 players
  over 10 rounds are known (Aguado's solution of the social golfer problem); for the others we
  take what the engine constructs as known and mark the bound with "?".
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournament.domain import seating  # noqa: E402
from tournament.domain.seating.schedule import LARGEST_CONSTRUCTION  # noqa: E402

ROUNDS = (7, 10)


def known_maximum(players: int) -> tuple[int, bool]:
    """(rounds, known): the most repeat-free rounds known to exist, or the bound when unknown."""
    bound = seating.repeat_free_bound(players)
    if players % 12 == 4 or (players % 12 == 0 and players >= 24) or players == 32:
        return bound, True
    named = seating.best_design(players) if players <= LARGEST_CONSTRUCTION else None
    built = len(named[1]) if named else 0
    return (bound, True) if built >= bound else (bound, False)


def constructed(players: int) -> int:
    named = seating.best_design(players) if players <= LARGEST_CONSTRUCTION else None
    return len(named[1]) if named else 0


def run(task: tuple[int, int, int, int]) -> tuple[int, int, str, int, int, float]:
    players, rounds, seed, clubs = task
    field = [
        seating.Entrant(key=str(i), club=f"club {i % clubs}" if clubs else "")
        for i in range(1, players + 1)
    ]
    cpu = time.process_time()
    result = seating.generate(field, rounds, seed=seed)
    cpu = time.process_time() - cpu
    f = result.figures
    return players, rounds, result.construction or "-", f.repeats, f.table_repeats, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clubs", type=int, default=0, help="player i in club i mod K")
    parser.add_argument("--jobs", type=int, default=1, help="processes (seconds stay per run)")
    parser.add_argument("--largest", type=int, default=300)
    parser.add_argument("--full-up-to", type=int, default=64)
    parser.add_argument(
        "--maximum", action="store_true", help="every field at the most rounds known, too"
    )
    args = parser.parse_args()
    tasks = []
    for players in range(16, args.largest + 1, 4):
        most, known = known_maximum(players)
        counts = set(ROUNDS)
        if players <= args.full_up_to:
            counts |= set(range(11, most + 1))
        if args.maximum and known and most > max(ROUNDS):
            counts.add(most)
        tasks += [(players, rounds, args.seed, args.clubs) for rounds in sorted(counts)]
    print(
        f"seating sweep, seed {args.seed}, {args.clubs or 'no'} clubs, {args.jobs} process(es), "
        f"{os.cpu_count()} CPUs"
    )
    header = (
        f"{'players':>7} {'rounds':>6} {'max':>4}  {'design':<52} {'repeats':>7} "
        f"{'tables':>6} {'cpu s':>6}"
    )
    print(header)
    print("-" * len(header))
    missed = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for players, rounds, design, repeats, tables, cpu in pool.map(run, tasks):
            most, known = known_maximum(players)
            mark = "" if known else "?"
            print(
                f"{players:>7} {rounds:>6} {most:>3}{mark:1}  {design:<52} {repeats:>7} "
                f"{tables:>6} {cpu:>6.2f}",
                flush=True,
            )
            if repeats and known and rounds <= most:
                missed.append((players, rounds, repeats, constructed(players)))
    print()
    if not missed:
        print("zero repeats wherever a repeat-free seating is known to exist")
    for players, rounds, repeats, built in missed:
        print(
            f"{players} players over {rounds} rounds: {repeats} repeats, although a repeat-free "
            f"seating exists (the engine constructs {built} rounds)"
        )


if __name__ == "__main__":
    main()
