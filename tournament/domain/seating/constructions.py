"""Seatings in which no two players ever meet twice, and the choice among them.

A design here is a tuple of rounds; a round is a tuple of tables; a table is a tuple of four
points 0 .. n - 1.  Every round seats every point once, and two points share a table in at most
one round.  Players are given points later (see ``renaming``).

Built here: affine geometries AG(m, 4), four groups, three layers over GF(q) and a point, and
mirrored layers over Z_m with a point or three points.  ``best_design`` chooses among these and
the designs of ``starters``, ``stored_layers``, ``inflation`` and ``sixteen_pairs``.  How each
design works and which field sizes it seats: docs/seating.md, "Designs".
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, product

from .exact_cover import exact_cover
from .fields import FiniteField, prime_power, ring_with_four_units_apart
from .inflation import FIVE_GROUP_SIZES, five_groups, inflate
from .sixteen_pairs import PLAYERS as SIXTEEN_PAIRS_PLAYERS
from .sixteen_pairs import sixteen_pairs
from .starters import (
    LARGEST_STARTER_GROUP,
    Design,
    Table,
    cyclic_starter,
    develop,
    is_repeat_free,
    three_layers_and_three_points,
)
from .stored_layers import stored_layers_and_a_point, stored_layers_and_three_points

#: The exact-cover search for mirrored layers gives up after this many choices.
MOST_MIRRORED_CHOICES = 50_000
#: Mirrored layers with three points try at most this many choices of the fixed points' values.
MOST_MIRRORED_TRIES = 20
#: The pairs of layers i < j.
LAYER_PAIRS = ((0, 1), (0, 2), (1, 2))


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
    """The four-groups design on 4 * group_size points, or None without a suitable ring: one
    table of four inflated by q (see ``inflation``), then the groups seated side by side."""
    q = group_size
    if ring_with_four_units_apart(q) is None:
        return None
    inner = None
    if q % 4 == 0:
        named = best_design(q)
        # Without a design on q points, any one split of each group into tables still works.
        inner = named[1] if named else (tuple(tuple(range(x, x + 4)) for x in range(0, q, 4)),)
    return inflate((((0, 1, 2, 3),),), 4, q, inner)


def _power_of_four(n: int) -> int | None:
    dimension = 0
    while n > 1 and n % 4 == 0:
        n //= 4
        dimension += 1
    return dimension if n == 1 and dimension >= 1 else None


@cache
def best_design(  # noqa: C901 - one branch per construction, in the documented order
    players: int, rounds: int | None = None
) -> tuple[str, Design] | None:
    """A construction for `players` with its name: the first with at least `rounds` rounds, in
    the order affine geometry, four groups, three layers and a point (over GF(q), or over Z_m
    from stored tables, or mirrored over Z_m when those fall short of the bound), three layers
    and three points from stored tables, then the ones only tried when those fall short of
    `rounds`: three layers with three points searched at run time, inflated designs, mirrored
    layers with three points, sixteen pairs, cyclic starters.  Without `rounds`, or if none has
    that many, the one with the most rounds.

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
    layers = three_layers_and_a_point((players - 1) // 3) if players % 12 == 4 else None
    if layers is not None:
        candidates.append((f"three layers over GF({len(layers)})", layers))
    stored = stored_layers_and_a_point((players - 1) // 3) if players % 12 == 4 else None
    if stored is not None:
        candidates.append((f"three layers over Z{len(stored)} and a point", stored))

    def reach(count: int | None) -> bool:
        return count is not None and any(len(design) >= count for _, design in candidates)

    def short() -> bool:
        return not reach(rounds)

    if players % 12 == 4 and not reach((players - 1) // 3):
        mirrored = mirrored_layers_and_a_point((players - 1) // 3)
        if mirrored is not None:
            candidates.append((f"mirrored layers over Z{len(mirrored)} and a point", mirrored))

    stored_three = stored_layers_and_three_points(players // 3 - 1) if players % 12 == 0 else None
    if stored_three is not None:
        candidates.append((f"three layers over Z{len(stored_three)}", stored_three))
    if short() and players % 12 == 0:
        searched = three_layers_and_three_points(players)
        if searched is not None:
            candidates.append((f"three layers over Z{len(searched)}", searched))
    if short() and players % 12 == 0:
        inflated = best_inflation(players)
        if inflated is not None:
            candidates.append(inflated)
    if short() and players % 12 == 0:
        three = mirrored_layers_and_three_points(players // 3 - 1)
        if three is not None:
            candidates.append((f"mirrored layers over Z{len(three)} and three points", three))
    if short() and players == SIXTEEN_PAIRS_PLAYERS:
        paired = sixteen_pairs()
        if paired is not None:
            candidates.append(("sixteen pairs", paired))
    if short() and 7 <= q <= LARGEST_STARTER_GROUP and q % 2:
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


def best_inflation(players: int) -> tuple[str, Design] | None:
    """The longest inflated design for `players` (see ``inflation``), or None.

    Tried: five groups of 3k (k in FIVE_GROUP_SIZES) by q = players / 15k, then each group of
    3kq seated by a design on 3kq players; and a three-layer design with three points on
    players / q points by q (q a multiple of four, at least 8), then each group of 3q seated
    by a design on 3q players.
    """
    found: list[tuple[str, Design]] = []
    for k in FIVE_GROUP_SIZES:
        if players % (15 * k) or (inner := best_design(players // 5)) is None:
            continue
        q = players // (15 * k)
        master = five_groups(k)
        design = inflate(master, 15 * k, q, inner[1]) if master is not None else None
        if design is not None:
            by = f" by {q}" if q > 1 else ""
            found.append((f"five groups of {3 * k}{by}, then {inner[0]}", design))
    for q in range(8, players // 24 + 1, 4):
        if players % (3 * q) or (players // (3 * q)) % 4:
            continue
        master_named = best_design(players // q)
        inner = best_design(3 * q)
        if master_named is None or inner is None:
            continue
        design = inflate(master_named[1], players // q, q, inner[1])
        if design is not None:
            found.append((f"{master_named[0]} by {q}, then {inner[0]}", design))
    return max(found, key=lambda named: len(named[1]), default=None)


@cache
def mirrored_layers_and_a_point(m: int) -> Design | None:
    """The resolvable (3m + 1, 4, 1) design over Z_m (mirrored tables found by an exact-cover
    search; docs/seating.md, "Mirrored layers over Z_m and a point"), or None if m is not 1
    modulo 4 or the search gives up.  Points: (x, i) is i * m + x, P is 3m."""
    if m < 5 or m % 4 != 1:
        return None
    mirrored = _mirrored_tables(m, (0, 0, 0))
    if mirrored is None:
        return None
    return develop([(3 * m, 0, m, 2 * m), *mirrored], m, 3 * m + 1)


@cache
def mirrored_layers_and_three_points(m: int) -> Design | None:
    """m repeat-free rounds for 3m + 3 players (m = 3 mod 4, at least 19), everyone missing
    two others, from mirrored tables over Z_m; None for other m or if the search gives up.
    Points: (x, i) is i * m + x, P0, P1, P2 are 3m, 3m + 1, 3m + 2.

    The three points sit with (0, i), (c_i, i) and (-c_i, i); the c's are tried in order among
    those that pass a test of squares modulo m (docs/seating.md, "Mirrored layers over Z_m and
    three points").
    """
    if m < 19 or m % 4 != 3:
        return None
    half = (m - 1) // 2
    squares = 3 * sum(d * d for d in range(1, half + 1))
    tried = 0
    for c1, c2 in combinations(range(2, half + 1), 2):
        for c in ((1, c1, c2), (1, c1, -c2)):
            if (2 * (c[0] * c[1] + c[1] * c[2] + c[0] * c[2]) - squares) % m:
                continue
            mirrored = _mirrored_tables(m, c)
            if mirrored is not None:
                fixed: list[Table] = [
                    (3 * m, 0, m, 2 * m),
                    (3 * m + 1, c[0] % m, m + c[1] % m, 2 * m + c[2] % m),
                    (3 * m + 2, -c[0] % m, m + -c[1] % m, 2 * m + -c[2] % m),
                ]
                return develop(fixed + mirrored, m, 3 * m + 3)
            tried += 1
            if tried == MOST_MIRRORED_TRIES:
                return None
    return None


def _mirrored_tables(m: int, skip: tuple[int, int, int]) -> list[Table] | None:
    """Tables {(a, i), (-a, i), (b, j), (-b, j)} for layers i < j in which layer i's a's take
    every value 1 .. (m - 1) / 2 once except +-skip[i], and the differences +-(b - a) and
    +-(b + a) across layers i and j every value of Z_m once except 0 and +-(skip[j] -
    skip[i]); None if the exact-cover search gives up or there is no such set."""
    half = (m - 1) // 2
    taken = {(i, min(c % m, -c % m)) for i, c in enumerate(skip) if c % m}
    held = {(i, j, d % m) for i, j in LAYER_PAIRS for d in (skip[j] - skip[i], skip[i] - skip[j])}
    options = {}
    for i, j in LAYER_PAIRS:
        for a, b in product(range(1, half + 1), repeat=2):
            differences = {(b - a) % m, (-b - a) % m, (b + a) % m, (a - b) % m}
            if (
                len(differences) == 4
                and 0 not in differences
                and (i, a) not in taken
                and (j, b) not in taken
                and not any((i, j, d) in held for d in differences)
            ):
                options[i, j, a, b] = [("layer", i, a), ("layer", j, b)] + [
                    ("across", i, j, d) for d in sorted(differences)
                ]
    chosen = exact_cover(options, MOST_MIRRORED_CHOICES)
    if chosen is None:
        return None
    return [(i * m + a, i * m + m - a, j * m + b, j * m + m - b) for i, j, a, b in sorted(chosen)]


def three_layers_and_a_point(q: int) -> Design | None:
    """The resolvable (3q + 1, 4, 1) design over GF(q) (docs/seating.md, "Three layers over
    GF(q) and a point"), or None unless q is a prime power that is 1 modulo 4.  Points: (x, i)
    is i * q + x, P is 3q."""
    if q < 5 or q % 4 != 1 or prime_power(q) is None:
        return None
    field = FiniteField(q)
    add, mul = field.add, field.mul
    negative = [add[a].index(0) for a in range(q)]
    inverse = [0] + [mul[a].index(1) for a in range(1, q)]
    for w in (x for x in range(q) if mul[x][x] == negative[1]):
        c = mul[add[w][negative[1]]][inverse[add[w][1]]]
        for r01, r02, r12 in product((c, inverse[c]), repeat=3):
            # Layer 2 gets r02 w M from A_02 and r12 w r01 M from A_12: they must be the two
            # halves of GF(q)*, that is z M = w M for z = r12 r01 / r02.
            z = mul[mul[r12][r01]][inverse[r02]]
            half = _layer_split(field, negative, mul[z][inverse[w]], w)
            if half is None:
                continue
            a01 = sorted({min(a, negative[a]) for a in half})
            base: list[Table] = [(3 * q, 0, q, 2 * q)]
            layer_pairs = ((1, r01, 0, 1), (w, r02, 0, 2), (mul[w][r01], r12, 1, 2))
            for scale, r, i, j in layer_pairs:
                for a in (mul[scale][a] for a in a01):
                    b = mul[r][a]
                    base.append((i * q + a, i * q + negative[a], j * q + b, j * q + negative[b]))
            design = tuple(
                tuple(
                    tuple(p if p == 3 * q else p - p % q + add[p % q][g] for p in table)
                    for table in base
                )
                for g in range(q)
            )
            if is_repeat_free(design, 3 * q + 1):
                return design
    return None


def _layer_split(field: FiniteField, negative: list[int], keep: int, w: int) -> set[int] | None:
    """A set M with M = -M = keep * M whose multiple w M is the rest of GF(q)*, or None.

    M is a union of orbits of the group generated by `keep` and -1, one of each pair of orbits
    O and w O; that fails when some orbit meets its own multiple by w.
    """
    mul = field.mul
    half: set[int] = set()
    rest: set[int] = set()
    for g in range(1, field.order):
        if g in half or g in rest:
            continue
        orbit: set[int] = set()
        frontier = [g]
        while frontier:
            h = frontier.pop()
            if h not in orbit:
                orbit.add(h)
                frontier += [mul[h][keep], negative[h]]
        image = {mul[h][w] for h in orbit}
        if orbit & image or image & half:
            return None
        half |= orbit
        rest |= image
    return half
