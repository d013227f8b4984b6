"""The seating engine on synthetic fields: quality figures and time.

    .venv/bin/python benchmarks/seating.py [--clubs 10] [--seed 1] [--effort 1.0]

For 16, 32, 36, 48, 64, 100, 200 and 300 players over 7 and 10 rounds, and over the most
repeat-free rounds known to exist where that is known (player i in club i mod 10, clubs kept
apart softly), prints a plain-text table: the repeat-free bound floor((n - 1) / 3),
the most repeat-free rounds known to exist ("?" where only the bound is known, see
seating_sweep.py), the algebraic design the engine starts from (with its number of repeat-free
rounds), repeats (extra meetings), club conflicts, wind imbalance, table-number repeats, and the
CPU seconds and wall seconds of one `generate` call in a process pinned to one core.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from seating_sweep import known_maximum  # noqa: E402

from tournament.domain import seating  # noqa: E402

SIZES = (16, 32, 36, 48, 64, 100, 200, 300)
ROUNDS = (7, 10)
TARGET = (200, 10, 10.0)  # 200 players over 10 rounds within 10 seconds


def pin_to_one_core() -> str:
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity)"
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return f"pinned to CPU {cpu}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clubs", type=int, default=10, help="0 for no clubs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--effort", type=float, default=1.0)
    args = parser.parse_args()
    print(f"seating benchmark, {pin_to_one_core()}, seed {args.seed}, {args.clubs} clubs")
    header = (
        f"{'players':>7} {'rounds':>6} {'bound':>5} {'known':>5}  {'design':<56} {'repeats':>7} "
        f"{'clubs':>5} {'winds':>5} {'tables':>6} {'cpu s':>6} {'wall s':>6}"
    )
    print(header)
    print("-" * len(header))
    verdict = None
    for players in SIZES:
        most, known = known_maximum(players)
        # The most repeat-free rounds known to exist, too (200 players: unknown).
        counts = sorted({*ROUNDS, most}) if known else ROUNDS
        for rounds in counts:
            field = [
                seating.Entrant(key=str(i), club=f"club {i % args.clubs}" if args.clubs else "")
                for i in range(1, players + 1)
            ]
            cpu, wall = time.process_time(), time.perf_counter()
            result = seating.generate(field, rounds, seed=args.seed, effort=args.effort)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            named = seating.best_design(players, rounds)
            design = f"{named[0]} ({len(named[1])})" if named else "-"
            f = result.figures
            most, known = known_maximum(players)
            known_text = f"{most}{'' if known else '?'}"
            bound = seating.repeat_free_bound(players)
            print(
                f"{players:>7} {rounds:>6} {bound:>5} {known_text:>5}  "
                f"{design:<56} {f.repeats:>7} {f.club_conflicts:>5} {f.wind_imbalance:>5} "
                f"{f.table_repeats:>6} {cpu:>6.2f} {wall:>6.2f}",
                flush=True,
            )
            if (players, rounds) == TARGET[:2]:
                verdict = cpu <= TARGET[2]
    print(
        f"target: {TARGET[0]} players over {TARGET[1]} rounds in at most {TARGET[2]:g} s "
        f"of one core: {'met' if verdict else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
