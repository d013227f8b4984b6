"""Giving players other places in a seating: who meets whom stays the same up to names.

So repeats stay as they are, while players to keep apart can be moved onto pairs that never
meet.  When it is used: docs/seating.md, "Giving players to points".
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .search import Rounds, choose

#: Point exchanges evaluated per renaming at effort 1.0.
RENAME_BUDGET = 40_000
#: Renaming gives up after this many steps without a new best.
STALE_RENAMES = 300


def assign_points(  # noqa: C901 - a local search: moves, cost and restarts share its state
    *,
    design: Sequence[Sequence[Sequence[int]]],
    weights: list[list[int]],
    rng: random.Random,
    budget: int,
    lower_bound: int,
    shuffle: bool = True,
) -> list[int]:
    """Which player takes each point of a seating: player_at[point].

    Giving players other points keeps who-meets-whom the same up to names, so the repeats stay
    as they are; this assignment also keeps apart the pairs with a weight (same club and so on)
    by a tabu search on swaps of two players' points.  It starts from a random assignment, or
    from the identity when not `shuffle`, and returns the best seen.
    """
    n = len(weights)
    player_at = list(range(n))
    if shuffle:
        rng.shuffle(player_at)
    mates: list[list[tuple[int, ...]]] = []
    for r in design:
        row: list[tuple[int, ...]] = [()] * n
        for table in r:
            for point in table:
                row[point] = tuple(x for x in table if x != point)
        mates.append(row)

    def total() -> int:
        return sum(
            weights[player_at[p]][player_at[q]]
            for r in design
            for table in r
            for i, p in enumerate(table)
            for q in table[i + 1 :]
        )

    cost = total()
    best_cost, best = cost, player_at[:]
    point_of = [0] * n
    for point, player in enumerate(player_at):
        point_of[player] = point
    tabu = [0] * n
    evaluations = iteration = 0
    last_best = 0
    while (
        best_cost > lower_bound and evaluations < budget and iteration - last_best <= STALE_RENAMES
    ):
        iteration += 1
        conflicted = [
            player_at[p]
            for r in design
            for table in r
            for i, p in enumerate(table)
            for q in table[i + 1 :]
            if weights[player_at[p]][player_at[q]]
        ]
        if not conflicted:
            break
        allowed = [p for p in conflicted if tabu[p] <= iteration] or conflicted
        a = choose(rng, allowed)
        pa = point_of[a]
        Wa = weights[a]
        best_delta, best_b, ties = None, -1, 0
        for b in range(n):
            if b == a:
                continue
            pb = point_of[b]
            Wb = weights[b]
            delta = 0
            for row in mates:
                ma = row[pa]
                if pb in ma:
                    continue
                for x in ma:
                    px = player_at[x]
                    delta += Wb[px] - Wa[px]
                for y in row[pb]:
                    py = player_at[y]
                    delta += Wa[py] - Wb[py]
            evaluations += 1
            if tabu[b] > iteration and cost + delta >= best_cost:
                continue
            if best_delta is None or delta < best_delta:
                best_delta, best_b, ties = delta, b, 1
            elif delta == best_delta:
                ties += 1
                if rng.randrange(ties) == 0:
                    best_b = b
        if best_delta is None:
            continue
        b = best_b
        pb = point_of[b]
        player_at[pa], player_at[pb] = b, a
        point_of[a], point_of[b] = pb, pa
        cost += best_delta
        tabu[a] = iteration + 2 + rng.randrange(6)
        tabu[b] = iteration + 2 + rng.randrange(6)
        if cost < best_cost:
            best_cost, best, last_best = cost, player_at[:], iteration
    return best


def rename_players(
    rounds: Rounds,
    weights: list[list[int]],
    hard_weight: int,
    pinned: list[int | None],
    soft_bound: int,
    rng: random.Random,
    effort: float,
    *,
    shuffle: bool = False,
) -> Rounds | None:
    """`rounds` with players exchanged to keep weighted pairs apart; held players' tables
    moved to their numbers.  None if two held players end up at one table."""
    n = len(weights)
    fitting = [row[:] for row in weights]
    held = [p for p in range(n) if pinned[p] is not None]
    for p in held:
        for q in held:
            if p != q:
                fitting[p][q] += hard_weight
    player_at = list(range(n))
    if any(any(row) for row in fitting):
        player_at = assign_points(
            design=rounds,
            weights=fitting,
            rng=rng,
            budget=max(1, int(RENAME_BUDGET * effort)),
            lower_bound=soft_bound,
            shuffle=shuffle,
        )
    elif shuffle:
        rng.shuffle(player_at)
    renamed: Rounds = []
    for r in rounds:
        seating: list[list[int] | None] = [None] * len(r)
        rest = []
        for table in r:
            players = [player_at[point] for point in table]
            pins = [pin for pin in (pinned[p] for p in players) if pin is not None]
            if len(pins) > 1:
                return None
            if pins:
                seating[pins[0]] = players
            else:
                rest.append(players)
        renamed.append([table if table is not None else rest.pop() for table in seating])
    return renamed
