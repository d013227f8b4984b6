"""Larger designs from smaller ones: every point of a group design q times, and five groups of 3k.

A group design's points fall into groups of one size that never meet, while points of
different groups meet exactly once.  The constructions, and the sizes they reach:
docs/seating.md, "Inflation and five groups".
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import combinations, product

from .exact_cover import exact_cover
from .fields import ring_with_four_units_apart
from .starters import Design, Round, Table, is_repeat_free

Element = tuple[int, int]

#: Five groups of 3k for these k (60 and 120 points); k = 12 defeats the short searches here.
FIVE_GROUP_SIZES = (4, 8)
#: The exact-cover search for the fixed points' tables gives up after this many choices.
MOST_CHOICES = 100_000


@cache
def five_groups(k: int) -> Design | None:
    """The group design on 15k points with five groups of 3k and 4k rounds (docs/seating.md,
    "Inflation and five groups"), or None (k not in FIVE_GROUP_SIZES, or the searches gave
    up)."""
    if k not in FIVE_GROUP_SIZES:
        return None
    elements = [(a, b) for a in range(4) for b in range(k)]

    def add(x: Element, y: Element) -> Element:
        return ((x[0] + y[0]) % 4, (x[1] + y[1]) % k)

    def sub(x: Element, y: Element) -> Element:
        return ((x[0] - y[0]) % 4, (x[1] - y[1]) % k)

    subgroup = {(a, b) for a in (0, 2) for b in range(0, k, 2)}  # twice every element
    blocks = _difference_family(elements, subgroup, sub, k // 4)
    if blocks is None:
        return None
    seated = {e for block in blocks for e in block}
    rest = [e for e in elements if e not in seated]
    options = {}
    for a, b, c in product(rest, repeat=3):
        ab, bc, ac = sub(b, a), sub(c, b), sub(c, a)
        if ab not in subgroup and bc not in subgroup and ac not in subgroup:
            options[a, b, c] = [("a", a), ("b", b), ("c", c), ("ab", ab), ("bc", bc), ("ac", ac)]
    triples = exact_cover(options, MOST_CHOICES)
    if triples is None:
        return None
    index = {e: i for i, e in enumerate(elements)}
    size = 4 * k

    def point(g: Element, layer: int) -> int:
        return layer * size + index[g]

    rounds = []
    for t in elements:
        tables: list[Table] = [
            tuple(point(add(g, t), layer) for g in block) for layer in range(3) for block in blocks
        ]
        for f, (a, b, c) in enumerate(sorted(triples)):
            tables.append(
                (3 * size + f, point(add(a, t), 0), point(add(b, t), 1), point(add(c, t), 2))
            )
        rounds.append(tuple(tables))
    design = tuple(rounds)
    return design if is_repeat_free(design, 15 * k) else None


def _difference_family(
    elements: list[Element],
    subgroup: set[Element],
    sub: Callable[[Element, Element], Element],
    count: int,
) -> list[tuple[Element, ...]] | None:
    """`count` disjoint 4-subsets whose 12 * count differences are the elements outside
    `subgroup`, each once; backtracking, each block starting at the first unused element."""
    blocks: list[tuple[Element, ...]] = []
    used: set[Element] = set()
    seated: set[Element] = set()

    def place(i: int) -> bool:
        if i == count:
            return True
        free = [e for e in elements if e not in seated]
        first = free[0]
        for others in combinations(free[1:], 3):
            block = (first, *others)
            differences = [sub(x, y) for x in block for y in block if x != y]
            if len(set(differences)) < 12 or any(d in subgroup or d in used for d in differences):
                continue
            blocks.append(block)
            used.update(differences)
            seated.update(block)
            if place(i + 1):
                return True
            blocks.pop()
            used.difference_update(differences)
            seated.difference_update(block)
        return False

    return blocks if place(0) else None


def groups_of(design: Design, points: int) -> list[list[int]] | None:
    """The groups of a group design: the classes of points that never meet, when those are
    equal in size and every two points of different classes meet (once, as the design is
    repeat-free); None otherwise."""
    never = [set(range(points)) for _ in range(points)]
    for round_ in design:
        for table in round_:
            for p in table:
                never[p].difference_update(table)
                never[p].add(p)
    groups = sorted({tuple(sorted(members)) for members in never})
    if sum(len(group) for group in groups) != points or len({len(g) for g in groups}) != 1:
        return None
    return [list(group) for group in groups]


def inflate(master: Design, points: int, q: int, inner: Design | None) -> Design | None:
    """The inflation of the group design `master` (on `points` points) by q, followed by the
    rounds of `inner` (a design on one group's g q players) for every group side by side.

    q = 1 keeps `master` as it is.  None without a ring of order q, if `master` is no group
    design, or if the result had a repeat (it cannot, but it is checked)."""
    groups = groups_of(master, points)
    if groups is None:
        return None
    rounds: list[Round] = []
    if q == 1:
        rounds += master
    else:
        ring = ring_with_four_units_apart(q)
        if ring is None:
            return None
        lambdas = [ring.constant(i) for i in range(4)]
        for master_round in master:
            for v in range(q):
                shifts = [ring.mul[lam][v] for lam in lambdas]
                rounds.append(
                    tuple(
                        tuple(table[i] * q + ring.add[u][shifts[i]] for i in range(4))
                        for table in master_round
                        for u in range(q)
                    )
                )
    members = [[p * q + x for p in group for x in range(q)] for group in groups]
    for inner_round in inner or ():
        rounds.append(
            tuple(tuple(copies[k] for k in table) for copies in members for table in inner_round)
        )
    design = tuple(rounds)
    return design if is_repeat_free(design, points * q) else None
