"""Algebraic seatings in which no two players ever meet twice.

A design here is a tuple of rounds; a round is a tuple of tables; a table is a tuple of four
points 0 .. n - 1.  Every round seats every point once, and two points share a table in at most
one round.  Players are given points later (see ``renaming``).

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
- Cyclic starter (q odd, 7 <= q <= 31): one round fixed by Z_q and the q translates of a base
  round whose pairs all have different differences, found by a small seeded search: q + 1
  rounds, one more than four groups.  36 players over 10 rounds, 44 over 12, 60 over 16.
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


#: The base-round search for the cyclic construction runs for fields up to 4 * 31 players.
LARGEST_STARTER_GROUP = 31


@cache
def best_design(players: int, rounds: int | None = None) -> tuple[str, Design] | None:
    """A construction for `players` with its name: the first with at least `rounds` rounds, in
    the order affine geometry, four groups, cyclic starter (the only one that searches);
    without `rounds`, or if none has that many, the one with the most rounds.

    None when no construction applies (the local search seats such fields).
    """
    if players < 4 or players % 4:
        return None
    candidates: list[tuple[str, Design]] = []
    dimension = _power_of_four(players)
    if dimension is not None:
        candidates.append((f"AG({dimension},4)", affine_geometry(dimension)))
    q = players // 4
    groups = four_groups(q)
    if groups is not None:
        candidates.append((f"four groups of {q}", groups))
    most = max((len(design) for _, design in candidates), default=0)
    if (
        (rounds is None or most < rounds)
        and q + 1 > most
        and 7 <= q <= LARGEST_STARTER_GROUP
        and q % 2
    ):
        starter = cyclic_starter(q)
        if starter is not None:
            candidates.append((f"cyclic starter over Z{q}", starter))
    if not candidates:
        return None
    if rounds is not None:
        for named in candidates:
            if len(named[1]) >= rounds:
                return named
    return max(candidates, key=lambda named: len(named[1]))


def cyclic_starter(group_size: int, *, steps: int = 30_000, restart: int = 500) -> Design | None:
    """q + 1 repeat-free rounds for 4q players, q odd, from a base round developed over Z_q.

    Points (i, x), i in 0..3, x in Z_q.  One round is fixed by the translations x -> x + g: the
    tables {(0, u), (1, u), (2, u), (3, u)}.  The other q rounds are the translates B + g of
    one base round B.  A pair (i, x), (j, y) has the difference class (i, j, y - x) (for i = j,
    up to sign); translating keeps the class, and the q pairs of a class are the translates of
    one another.  So the q + 1 rounds are free of repeats exactly when the 6q pairs of B have
    distinct classes, none of them (i, j, 0) (used by the fixed round).  B is found by a tabu
    search on swaps of two points, restarted from a new random round every `restart` steps;
    the seed is fixed, so the design is always the same.  None if `steps` are not enough.
    """
    q = group_size
    if q < 5 or q % 2 == 0:
        return None
    base = _starter_round(q, steps=steps, restart=restart)
    if base is None:
        return None
    fixed = tuple(tuple(i * q + u for i in range(4)) for u in range(q))
    developed = tuple(
        tuple(
            tuple((p // q) * q + (p % q + g) % q for p in table)  # type: ignore[misc]
            for table in base
        )
        for g in range(q)
    )
    return (fixed, *developed)


def _starter_round(q: int, *, steps: int, restart: int) -> list[list[int]] | None:
    import random

    rng = random.Random(q)
    n = 4 * q

    def difference_class(p: int, r: int) -> int:
        i, x = divmod(p, q)
        j, y = divmod(r, q)
        if i > j:
            i, j, x, y = j, i, y, x
        if i < j:
            return (i * 4 + j) * q + (y - x) % q
        d = (y - x) % q
        return 16 * q + i * q + min(d, q - d)

    klass = [[difference_class(p, r) if p != r else -1 for r in range(n)] for p in range(n)]
    room = [1] * (20 * q)
    for i in range(4):
        for j in range(i + 1, 4):
            room[(i * 4 + j) * q] = 0  # the fixed round's classes
    for step in range(steps):
        if step % restart == 0:
            order = list(range(n))
            rng.shuffle(order)
            tables = [order[4 * t : 4 * t + 4] for t in range(q)]
            where = [0] * n
            count = [0] * (20 * q)
            for t, table in enumerate(tables):
                for k, p in enumerate(table):
                    where[p] = t
                    for r in table[k + 1 :]:
                        count[klass[p][r]] += 1
            excess = sum(max(0, c - room[k]) for k, c in enumerate(count))
            best = excess
            tabu: dict[tuple[int, int], int] = {}
        if excess == 0:
            return tables
        bad = [
            p
            for table in tables
            for p in table
            if any(count[klass[p][r]] > room[klass[p][r]] for r in table if r != p)
        ]
        move = None
        ties = 0
        for p in rng.sample(bad, min(6, len(bad))):
            row_p = klass[p]
            mates_p = [x for x in tables[where[p]] if x != p]
            for r in range(n):
                if where[r] == where[p]:
                    continue
                row_r = klass[r]
                mates_r = [y for y in tables[where[r]] if y != r]
                removed = [row_p[x] for x in mates_p] + [row_r[y] for y in mates_r]
                added = [row_r[x] for x in mates_p] + [row_p[y] for y in mates_r]
                delta = 0
                for k in removed:
                    if count[k] > room[k]:
                        delta -= 1
                    count[k] -= 1
                for k in added:
                    if count[k] >= room[k]:
                        delta += 1
                    count[k] += 1
                for k in removed:
                    count[k] += 1
                for k in added:
                    count[k] -= 1
                if tabu.get((p, r), -1) > step and excess + delta >= best:
                    continue
                if move is None or delta < move[0]:
                    move, ties = (delta, p, r, removed, added), 1
                elif delta == move[0]:
                    ties += 1
                    if rng.randrange(ties) == 0:
                        move = (delta, p, r, removed, added)
        if move is None:
            continue
        delta, p, r, removed, added = move
        tp, tr = where[p], where[r]
        tables[tp][tables[tp].index(p)] = r
        tables[tr][tables[tr].index(r)] = p
        where[p], where[r] = tr, tp
        for k in removed:
            count[k] -= 1
        for k in added:
            count[k] += 1
        excess += delta
        best = min(best, excess)
        tabu[p, r] = tabu[r, p] = step + 3 + rng.randrange(8)
    return None
