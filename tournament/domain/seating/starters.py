"""Designs developed from one base round found by a seeded search at run time.

``develop`` moves a base round by the translations of Z_m; the cyclic starters (4q players,
q odd) and the three layers with three points (24 to 60 players) search for their base round.
docs/seating.md, "Developing a base round", "Cyclic starters" and "Three layers and three
points".
"""

from __future__ import annotations

import random

# The points at a table: four of them, which `is_repeat_free` checks (a design is built from
# generators, whose length the type cannot carry).
Table = tuple[int, ...]
Round = tuple[Table, ...]
Design = tuple[Round, ...]

#: The cyclic starter's search runs for groups up to 31 (124 players).
LARGEST_STARTER_GROUP = 31
#: The three-layer search is quick up to m = 19 (60 players) and slow beyond.
LARGEST_LAYER = 19


def is_repeat_free(design: Design, players: int) -> bool:
    """Every round seats every point once at tables of four, and no pair meets twice."""
    met: set[tuple[int, int]] = set()
    for round_ in design:
        if sorted(p for table in round_ for p in table) != list(range(players)):
            return False
        for table in round_:
            if len(table) != 4:
                return False
            for k, p in enumerate(table):
                for r in table[k + 1 :]:
                    pair = (p, r) if p < r else (r, p)
                    if pair in met:
                        return False
                    met.add(pair)
    return True


def _excess_delta(count: list[int], room: list[int], removed: list[int], added: list[int]) -> int:
    """How the total excess over `room` changes when `removed` pairs go and `added` come."""
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
    return delta


def cyclic_starter(group_size: int, *, steps: int = 30_000, restart: int = 500) -> Design | None:
    """q + 1 repeat-free rounds for 4q players, q odd (docs/seating.md, "Cyclic starters");
    None if `steps` are not enough or q is even or below 5."""
    q = group_size
    if q < 5 or q % 2 == 0:
        return None
    base = _starter_round(q, steps=steps, restart=restart)
    if base is None:
        return None
    fixed = tuple(tuple(i * q + u for i in range(4)) for u in range(q))
    developed = tuple(
        tuple(tuple((p // q) * q + (p % q + g) % q for p in table) for table in base)
        for g in range(q)
    )
    return (fixed, *developed)


def _starter_round(  # noqa: C901 - a local search: moves, cost and restarts share its state
    q: int, *, steps: int, restart: int
) -> list[list[int]] | None:
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
    tables: list[list[int]] = []
    where = [0] * n
    count: list[int] = []
    excess = best = 0
    tabu: dict[tuple[int, int], int] = {}
    for step in range(steps):
        if step % restart == 0:
            order = list(range(n))
            rng.shuffle(order)
            tables = [order[4 * t : 4 * t + 4] for t in range(q)]
            count = [0] * (20 * q)
            for t, table in enumerate(tables):
                for k, p in enumerate(table):
                    where[p] = t
                    for r in table[k + 1 :]:
                        count[klass[p][r]] += 1
            excess = sum(max(0, c - room[k]) for k, c in enumerate(count))
            best = excess
            tabu = {}
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
                delta = _excess_delta(count, room, removed, added)
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


def three_layers_and_three_points(
    players: int, *, steps: int = 200_000, restart: int = 3_000
) -> Design | None:
    """players / 3 - 1 repeat-free rounds for a multiple of 12 from 24 to 60 (docs/seating.md,
    "Three layers and three points"); None for other sizes or if `steps` are not enough."""
    if players % 12 or not 24 <= players <= 3 * LARGEST_LAYER + 3:
        return None
    m = players // 3 - 1
    placed = _layer_round(m, seed=players, steps=steps, restart=restart)
    if placed is None:
        return None
    x, label = placed

    def point(layer: int, value: int) -> int:
        return layer * m + value

    base: list[Table] = []
    for turn in range(3):  # the rotation s applied 0, 1 and 2 times
        base.append((3 * m + turn, *(point((k + turn) % 3, x[k]) for k in range(3))))
        for first in range(3, m, 4):
            base.append(tuple(point((label[s] + turn) % 3, x[s]) for s in range(first, first + 4)))

    return develop(base, m, players)


def develop(base: list[Table], m: int, players: int) -> Design | None:
    """The m rounds moved from `base` by Z_m on three layers: round g moves point i * m + x to
    i * m + (x + g) % m and keeps the points from 3m on; None if two points meet twice."""
    design = tuple(
        tuple(
            tuple(p if p >= 3 * m else p - p % m + (p % m + g) % m for p in table) for table in base
        )
        for g in range(m)
    )
    return design if is_repeat_free(design, players) else None


def _layer_round(  # noqa: C901 - a local search: moves, cost and restarts share its state
    m: int, *, seed: int, steps: int, restart: int
) -> tuple[list[int], list[int]] | None:
    """The placed tables of a three-layer base round: slot s holds the point (label[s], x[s]);
    slots 0, 1, 2 sit with P0 at layers 0, 1, 2, and slots 3 + 4t .. 6 + 4t form table t.

    The values x are a permutation of Z_m.  Moves: exchange two slots' values, or give a slot
    of an ordinary table another layer.  The cost counts pairs beyond a class's room.
    """
    rng = random.Random(seed)
    # klass[layer difference][value difference]; class 0 and class m (the groups) get no room.
    klass = [[0] * m for _ in range(3)]
    for d in range(m):
        klass[0][d] = min(d, m - d)
        klass[1][d] = m + d
        klass[2][d] = m + (-d) % m
    room = [1] * (2 * m)
    room[0] = room[m] = 0
    mates = [[t for t in range(3) if t != s] for s in range(3)]
    table_of = [0, 0, 0]
    for first in range(3, m, 4):
        for s in range(first, first + 4):
            mates.append([t for t in range(first, first + 4) if t != s])
            table_of.append(first)
    x = list(range(m))
    label = [0] * m
    count: list[int] = []
    excess = best = 0
    tabu: dict[tuple[int, int], int] = {}

    def pair_class(s: int, t: int, layer: int, value: int) -> int:
        """The class of slot t with slot s moved to (layer, value)."""
        return klass[(label[t] - layer) % 3][(x[t] - value) % m]

    for step in range(steps):
        if step % restart == 0:
            rng.shuffle(x)
            label = [0, 1, 2] + [rng.randrange(3) for _ in range(m - 3)]
            count = [0] * (2 * m)
            for s in range(m):
                for t in mates[s]:
                    if t > s:
                        count[pair_class(s, t, label[s], x[s])] += 1
            excess = sum(max(0, c - r) for c, r in zip(count, room, strict=True))
            best = excess
            tabu = {}
        if excess == 0:
            return x, label
        bad = [
            s
            for s in range(m)
            if any(count[c] > room[c] for c in (pair_class(s, t, label[s], x[s]) for t in mates[s]))
        ]
        move = None
        ties = 0
        for s in rng.sample(bad, min(4, len(bad))):
            old_s = [pair_class(s, u, label[s], x[s]) for u in mates[s]]
            options = []
            for t in range(m):
                if table_of[t] == table_of[s]:
                    continue
                removed = old_s + [pair_class(t, u, label[t], x[t]) for u in mates[t]]
                added = [pair_class(s, u, label[s], x[t]) for u in mates[s]] + [
                    pair_class(t, u, label[t], x[s]) for u in mates[t]
                ]
                options.append(((s, t), removed, added))
            if s >= 3:
                for layer in range(3):
                    if layer != label[s]:
                        added = [pair_class(s, u, layer, x[s]) for u in mates[s]]
                        options.append(((s, -1 - layer), old_s, added))
            for key, removed, added in options:
                delta = _excess_delta(count, room, removed, added)
                if tabu.get(key, -1) > step and excess + delta >= best:
                    continue
                if move is None or delta < move[0]:
                    move, ties = (delta, key, removed, added), 1
                elif delta == move[0]:
                    ties += 1
                    if rng.randrange(ties) == 0:
                        move = (delta, key, removed, added)
        if move is None:
            continue
        delta, (s, t), removed, added = move
        if t >= 0:
            x[s], x[t] = x[t], x[s]
            tabu[s, t] = tabu[t, s] = step + 3 + rng.randrange(8)
        else:
            tabu[s, -1 - label[s]] = step + 3 + rng.randrange(8)
            label[s] = -1 - t
        for k in removed:
            count[k] -= 1
        for k in added:
            count[k] += 1
        excess += delta
        best = min(best, excess)
    return None
