"""Algebraic seatings in which no two players ever meet twice.

A design here is a tuple of rounds; a round is a tuple of tables; a table is a tuple of four
points 0 .. n - 1.  Every round seats every point once, and two points share a table in at most
one round.  Players are given points later (see ``search.assign_points``).

- Affine geometry AG(m, 4): the points of GF(4)^m, the lines as tables and each class of
  parallel lines as a round.  4^m players, (4^m - 1) / 3 rounds, which is the most possible: every
  pair meets exactly once.  16 players over 5 rounds, 64 over 21, 256 over 85.
- Four groups of q (a resolvable transversal design): points (i, x) with i in 0..3 and x in a
  ring R of q elements where 0, 1, 2, 3 differ by units (any product of fields of order at
  least 4).  Round v seats, for every u in R, the table {(i, u + i*v) : i = 0..3}.  Two points of
  different groups meet exactly once over the q rounds; points of one group never meet, so when
  q is itself a multiple of four a design on q points seats all four groups side by side for
  extra rounds (one at least).  36 players over 9 rounds, 100 over 25, 80 over 20 + 5, 32 over
  8 + 1, 128 over 32 + 9.
"""

from __future__ import annotations

from functools import cache

from .fields import FiniteField, ring_with_four_units_apart

Table = tuple[int, int, int, int]
Round = tuple[Table, ...]
Design = tuple[Round, ...]


def repeat_free_bound(players: int) -> int:
    """At most floor((n - 1) / 3) rounds can be free of repeats: each round uses three partners."""
    return max(0, (players - 1) // 3)


def affine_geometry(dimension: int) -> Design:
    """The parallel classes of lines of AG(dimension, 4)."""
    if dimension < 1:
        raise ValueError("the dimension of an affine geometry is at least 1")
    field = FiniteField(4)
    size = 4**dimension

    def coordinates(point: int) -> list[int]:
        return [(point >> (2 * i)) & 3 for i in range(dimension)]

    def point(vector: list[int]) -> int:
        return sum(c << (2 * i) for i, c in enumerate(vector))

    # One direction per class of parallel lines: the nonzero vectors whose last nonzero
    # coordinate is 1 (every line's direction is a multiple of exactly one of them).
    directions = [v for v in map(coordinates, range(1, size)) if [c for c in v if c][-1] == 1]
    rounds = []
    for direction in directions:
        steps = [[field.mul[t][c] for c in direction] for t in range(4)]
        seated = [False] * size
        tables = []
        for start in range(size):
            if seated[start]:
                continue
            base = coordinates(start)
            line = tuple(
                point([field.add[b][s] for b, s in zip(base, step, strict=True)]) for step in steps
            )
            for p in line:
                seated[p] = True
            tables.append(line)
        rounds.append(tuple(tables))
    return tuple(rounds)


def four_groups(group_size: int) -> Design | None:
    """The four-groups design on 4 * group_size points, or None without a suitable ring."""
    ring = ring_with_four_units_apart(group_size)
    if ring is None:
        return None
    q = group_size
    lambdas = [ring.constant(i) for i in range(4)]
    rounds = []
    for v in range(q):
        shifts = [ring.mul[lam][v] for lam in lambdas]
        rounds.append(
            tuple(
                tuple(i * q + ring.add[u][shifts[i]] for i in range(4))  # type: ignore[misc]
                for u in range(q)
            )
        )
    if q % 4 == 0:
        inner = best_design(q)
        # Without a design on q points, any one split of each group into tables still works.
        trivial = (tuple(tuple(range(x, x + 4)) for x in range(0, q, 4)),)
        for inner_round in inner[1] if inner else trivial:
            rounds.append(
                tuple(
                    tuple(i * q + x for x in table)  # type: ignore[misc]
                    for i in range(4)
                    for table in inner_round
                )
            )
    return tuple(rounds)


def _power_of_four(n: int) -> int | None:
    dimension = 0
    while n > 1 and n % 4 == 0:
        n //= 4
        dimension += 1
    return dimension if n == 1 and dimension >= 1 else None


@cache
def best_design(players: int) -> tuple[str, Design] | None:
    """The construction with the most repeat-free rounds for `players`, with its name.

    None when no construction applies (the local search seats such fields).
    """
    if players < 4 or players % 4:
        return None
    candidates: list[tuple[str, Design]] = []
    dimension = _power_of_four(players)
    if dimension is not None:
        candidates.append((f"AG({dimension},4)", affine_geometry(dimension)))
    groups = four_groups(players // 4)
    if groups is not None:
        candidates.append((f"four groups of {players // 4}", groups))
    if not candidates:
        return None
    return max(candidates, key=lambda named: len(named[1]))
