"""Search stored base tables for tournament/seating/stored_layers.py (3m + 1 players, m rounds).

A developer's tool, not part of the app: it needs OR-Tools (`pip install ortools` into any
environment; the app does not depend on it).  It places the values 1 .. m - 1 of Z_m, each in
one layer, at (m - 1) / 4 tables so that the tables hold one pair of every class (see the
module), checks the developed design and prints the tables in the module's notation:

    python scripts/find_layer_round.py M [--seed S] [--seconds T]

For m = 33 (100 players) an earlier version of this model (the same constraints, its variables
made in another order) found the stored tables with seed 2 in 436 s on one core; with seed 1 it
found nothing in 600 s.  Expect minutes, and try other seeds or more time.  Smaller m: m = 13
takes under a second, m = 21 half a minute.
"""

from __future__ import annotations

import argparse
import sys
from itertools import combinations
from pathlib import Path

from ortools.sat.python import cp_model

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _cpsat import solve as run  # noqa: E402

from tournament.seating import stored_layers as module  # noqa: E402


def pair_class(m: int, u: int, v: int, step: int) -> tuple[int, int]:
    """Values u < v with v's layer `step` above u's (mod 3)."""
    d = (v - u) % m
    if step == 0:
        return 0, min(d, m - d)
    return 1, d if step == 1 else (-d) % m


def solve(m: int, seed: int, seconds: float) -> str | None:
    tables = (m - 1) // 4
    values = range(1, m)
    model = cp_model.CpModel()
    at = {(v, t): model.NewBoolVar(f"at{v}_{t}") for v in values for t in range(tables)}
    layer = {(v, i): model.NewBoolVar(f"layer{v}_{i}") for v in values for i in range(3)}
    for v in values:
        model.AddExactlyOne(at[v, t] for t in range(tables))
        model.AddExactlyOne(layer[v, i] for i in range(3))
    for t in range(tables):
        model.Add(sum(at[v, t] for v in values) == 4)
    model.Add(at[1, 0] == 1)  # tables are unordered, and layers may be rotated
    model.Add(layer[1, 0] == 1)
    classes: dict[tuple[int, int], list] = {}
    for u, v in combinations(values, 2):
        shared = []
        for t in range(tables):
            both = model.NewBoolVar("")
            model.AddBoolAnd([at[u, t], at[v, t]]).OnlyEnforceIf(both)
            model.AddBoolOr([at[u, t].Not(), at[v, t].Not()]).OnlyEnforceIf(both.Not())
            shared.append(both)
        together = model.NewBoolVar("")
        model.Add(sum(shared) == together)
        for step in range(3):
            layered = []
            for i in range(3):
                pair = model.NewBoolVar("")
                j = (i + step) % 3
                model.AddBoolAnd([layer[u, i], layer[v, j]]).OnlyEnforceIf(pair)
                model.AddBoolOr([layer[u, i].Not(), layer[v, j].Not()]).OnlyEnforceIf(pair.Not())
                layered.append(pair)
            stepped = model.NewBoolVar("")
            model.Add(sum(layered) == stepped)
            meets = model.NewBoolVar("")
            model.AddBoolAnd([together, stepped]).OnlyEnforceIf(meets)
            model.AddBoolOr([together.Not(), stepped.Not()]).OnlyEnforceIf(meets.Not())
            classes.setdefault(pair_class(m, u, v, step), []).append(meets)
    for members in classes.values():
        model.AddExactlyOne(members)
    solver = run(model, seed, seconds)
    if solver is None:
        return None
    found = []
    for t in range(tables):
        entries = [
            f"{next(i for i in range(3) if solver.Value(layer[v, i]))}.{v}"
            for v in values
            if solver.Value(at[v, t])
        ]
        found.append(" ".join(entries))
    return " | ".join(found)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("m", type=int, help="the group Z_m, m = 1 (mod 4): 3m + 1 players")
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=1800)
    options = parser.parse_args()
    if options.m < 5 or options.m % 4 != 1:
        parser.error("m must be 1 modulo 4 and at least 5")
    text = solve(options.m, options.seed, options.seconds)
    if text is None:
        return 1
    module.BASE_TABLES = {**module.BASE_TABLES, options.m: text}
    module.stored_layers_and_a_point.cache_clear()
    if module.stored_layers_and_a_point(options.m) is None:
        print("the developed rounds have a repeat", file=sys.stderr)
        return 1
    print(f'    {options.m}: "{text}",')
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
