"""Search the base rounds of tournament/domain/seating/sixteen_pairs.py again (32 players, 10
rounds).

A developer's tool, not part of the app: it needs OR-Tools (`pip install -e '.[design]'`, or
`pip install ortools` into any environment; the app does not depend on it).  It states the
reduced model of that module as a CP-SAT model, with the order-3 turn of the pairs, solves it,
checks the developed rounds and prints them in the module's notation:

    python tools/seating_designs/find_sixteen_pairs.py [--seed S] [--seconds T]
"""

from __future__ import annotations

import argparse
import sys
from itertools import combinations
from pathlib import Path

from ortools.sat.python import cp_model

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository, for tournament

from _cpsat import solve as run  # noqa: E402

from tournament.domain.seating import sixteen_pairs as module  # noqa: E402

PAIRS = 16
BLOCKS = 4


def solve(seed: int, seconds: float) -> list[str] | None:
    bases = len(module.BASE_ROUNDS)
    turns = [range(module.TURNED)] * (bases - 1) + [range(1)]
    model = cp_model.CpModel()
    inside = [
        [[model.NewBoolVar(f"in{r}_{x}_{b}") for b in range(BLOCKS)] for x in range(PAIRS)]
        for r in range(bases)
    ]
    bit = [[model.NewBoolVar(f"bit{r}_{x}") for x in range(PAIRS)] for r in range(bases)]
    together = {}
    differ = {}
    for r in range(bases):
        for x in range(PAIRS):
            model.AddExactlyOne(inside[r][x])
        for b in range(BLOCKS):
            model.Add(sum(inside[r][x][b] for x in range(PAIRS)) == 4)
        model.Add(inside[r][0][0] == 1)  # blocks are unordered: pair 0 opens block 0
        model.Add(bit[r][0] == 0)  # a block and its mirror: pair 0 has bit 0
        for x, y in combinations(range(PAIRS), 2):
            shared = []
            for b in range(BLOCKS):
                both = model.NewBoolVar("")
                model.AddBoolAnd([inside[r][x][b], inside[r][y][b]]).OnlyEnforceIf(both)
                model.AddBoolOr([inside[r][x][b].Not(), inside[r][y][b].Not()]).OnlyEnforceIf(
                    both.Not()
                )
                shared.append(both)
            same_block = model.NewBoolVar("")
            model.Add(sum(shared) == same_block)
            unequal = model.NewBoolVar("")
            model.AddBoolXOr([bit[r][x], bit[r][y], unequal.Not()])
            mixed = model.NewBoolVar("")
            model.AddBoolAnd([same_block, unequal]).OnlyEnforceIf(mixed)
            model.AddBoolOr([same_block.Not(), unequal.Not()]).OnlyEnforceIf(mixed.Not())
            together[r, x, y] = same_block
            differ[r, x, y] = mixed
    meets: dict[tuple[int, int], list] = {}
    mixes: dict[tuple[int, int], list] = {}
    for r in range(bases):
        for k in turns[r]:
            for x, y in combinations(range(PAIRS), 2):
                key = tuple(sorted((module.turn(x, k), module.turn(y, k))))
                meets.setdefault(key, []).append(together[r, x, y])
                mixes.setdefault(key, []).append(differ[r, x, y])
    for key in meets:  # two rounds together, once with equal bits and once with different
        model.Add(sum(meets[key]) == 2)
        model.Add(sum(mixes[key]) == 1)
    solver = run(model, seed, seconds)
    if solver is None:
        return None
    texts = []
    for r in range(bases):
        blocks = []
        for b in range(BLOCKS):
            members = [x for x in range(PAIRS) if solver.Value(inside[r][x][b])]
            blocks.append(" ".join(f"{x}{chr(39) * solver.Value(bit[r][x])}" for x in members))
        texts.append(" | ".join(blocks))
    return texts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=300)
    options = parser.parse_args()
    texts = solve(options.seed, options.seconds)
    if texts is None:
        return 1
    module.BASE_ROUNDS = tuple(texts)
    module.sixteen_pairs.cache_clear()
    if module.sixteen_pairs() is None:
        print("the developed rounds have a repeat", file=sys.stderr)
        return 1
    print("\n".join(f'    "{text}",' for text in texts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
