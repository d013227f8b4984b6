"""Local search for who shares a table in the rounds being generated.

A tabu search on swaps of two players of one round, against repeats (weighted so that they
spread out) and separations.  The objective, the move and when it stops: docs/seating.md,
"The local search".
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

REPEAT_WEIGHT = 100
SOFT_WEIGHT = 1
#: The search gives up after this many steps without a new best, per table up to eight.
STALE_STEPS_PER_TABLE = 1_000
#: ... or after 1 / PATIENCE of its budget without a new best.
PATIENCE = 4

Rounds = list[list[list[int]]]


def choose(rng: random.Random, options: Sequence[int]) -> int:
    return options[rng.randrange(len(options))] if len(options) > 1 else options[0]


def repeat_cost(meetings: list[list[int]]) -> int:
    """REPEAT_WEIGHT * sum over pairs of C(m, 2)."""
    total = 0
    for p, row in enumerate(meetings):
        for m in row[p + 1 :]:
            if m > 1:
                total += m * (m - 1) // 2
    return REPEAT_WEIGHT * total


def greedy_rounds(
    *,
    rounds: int,
    tables: int,
    weights: list[list[int]],
    meetings: list[list[int]],
    pinned: list[int | None],
    rng: random.Random,
) -> Rounds:
    """Seat the rounds one after another, each player at the open table that costs least."""
    n = len(weights)
    cost = [
        [w + REPEAT_WEIGHT * m for w, m in zip(wr, mr, strict=True)]
        for wr, mr in zip(weights, meetings, strict=True)
    ]
    free = [p for p in range(n) if pinned[p] is None]
    result: Rounds = []
    for _ in range(rounds):
        seating: list[list[int]] = [[] for _ in range(tables)]
        for p in range(n):
            pin = pinned[p]
            if pin is not None:
                seating[pin].append(p)
        rng.shuffle(free)
        for p in free:
            row = cost[p]
            best, options = None, []
            for t, table in enumerate(seating):
                if len(table) < 4:
                    c = sum(row[x] for x in table)
                    if best is None or c < best:
                        best, options = c, [t]
                    elif c == best:
                        options.append(t)
            table = seating[choose(rng, options)]
            for x in table:
                cost[p][x] += REPEAT_WEIGHT
                cost[x][p] += REPEAT_WEIGHT
            table.append(p)
        result.append(seating)
    return result


class TabuSearch:
    """Improve `rounds` (changed in place) against fixed `meetings` from the other rounds."""

    def __init__(
        self,
        *,
        rounds: Rounds,
        weights: list[list[int]],
        meetings: list[list[int]],
        movable: list[bool],
        rng: random.Random,
        budget: int,
        lower_bound: int,
        progress: Callable[[int, int, int], None] | None = None,
    ) -> None:
        self.rounds = rounds
        self.weights = weights
        self.fixed_meetings = meetings
        self.movable = movable
        self.rng = rng
        self.budget = budget
        self.lower_bound = lower_bound
        self.progress = progress
        self.n = len(weights)
        self.tables = len(rounds[0]) if rounds else 0
        self.evaluations = 0
        self._rebuild()
        self.best_cost = self.cost
        self.best_rounds = [[table[:] for table in r] for r in rounds]

    # -- state -------------------------------------------------------------------------------

    def _rebuild(self) -> None:
        """Positions, the C matrix, the objective and the bad tables, from `self.rounds`."""
        n = self.n
        meetings = [row[:] for row in self.fixed_meetings]
        for r in self.rounds:
            for table in r:
                for i, p in enumerate(table):
                    for q in table[i + 1 :]:
                        meetings[p][q] += 1
                        meetings[q][p] += 1
        self.pos = [[0] * n for _ in self.rounds]
        for s, r in enumerate(self.rounds):
            for t, table in enumerate(r):
                for p in table:
                    self.pos[s][p] = t
        self.C = [
            [w + REPEAT_WEIGHT * m for w, m in zip(wr, mr, strict=True)]
            for wr, mr in zip(self.weights, meetings, strict=True)
        ]
        pair_weight = 0
        for r in self.rounds:
            for table in r:
                for i, p in enumerate(table):
                    for q in table[i + 1 :]:
                        pair_weight += self.weights[p][q]
        self.cost = pair_weight + repeat_cost(meetings)
        self.bad: list[int] = []
        self.bad_index: dict[int, int] = {}
        for s, r in enumerate(self.rounds):
            for t in range(len(r)):
                self._mark(s * self.tables + t)

    def _is_bad(self, code: int) -> bool:
        s, t = divmod(code, self.tables)
        table = self.rounds[s][t]
        C, movable = self.C, self.movable
        for i in range(3):
            p = table[i]
            row = C[p]
            for q in table[i + 1 :]:
                if row[q] > REPEAT_WEIGHT and (movable[p] or movable[q]):
                    return True
        return False

    def _mark(self, code: int) -> None:
        bad, index = self.bad, self.bad_index
        if self._is_bad(code):
            if code not in index:
                index[code] = len(bad)
                bad.append(code)
        elif code in index:
            at = index.pop(code)
            last = bad.pop()
            if last != code:
                bad[at] = last
                index[last] = at

    def is_hard_free(self, hard_weight: int) -> bool:
        return all(
            self.weights[p][q] < hard_weight
            for r in self.best_rounds
            for table in r
            for i, p in enumerate(table)
            for q in table[i + 1 :]
        )

    # -- moves -------------------------------------------------------------------------------

    def _swap(self, s: int, a: int, b: int) -> None:
        pos, C = self.pos[s], self.C
        ta, tb = pos[a], pos[b]
        A, B = self.rounds[s][ta], self.rounds[s][tb]
        others_a = [x for x in A if x != a]
        others_b = [y for y in B if y != b]
        touched = []
        for x in others_a:
            C[a][x] -= REPEAT_WEIGHT
            C[x][a] -= REPEAT_WEIGHT
            C[b][x] += REPEAT_WEIGHT
            C[x][b] += REPEAT_WEIGHT
            touched += [(a, x), (b, x)]
        for y in others_b:
            C[b][y] -= REPEAT_WEIGHT
            C[y][b] -= REPEAT_WEIGHT
            C[a][y] += REPEAT_WEIGHT
            C[y][a] += REPEAT_WEIGHT
            touched += [(a, y), (b, y)]
        A[A.index(a)] = b
        B[B.index(b)] = a
        pos[a], pos[b] = tb, ta
        T = self.tables
        codes = {s * T + ta, s * T + tb}
        for other, positions in enumerate(self.pos):
            if other != s:
                for p, q in touched:
                    if positions[p] == positions[q]:
                        codes.add(other * T + positions[p])
        for code in sorted(codes):
            self._mark(code)

    def _best_swap(self, s: int, a: int, iteration: int, tabu: list[list[int]]) -> tuple | None:
        """(delta, b) of the best allowed swap for player a in round s, ties broken at random."""
        C, movable, rng = self.C, self.movable, self.rng
        ta = self.pos[s][a]
        seating = self.rounds[s]
        Ca = C[a]
        x1, x2, x3 = (x for x in seating[ta] if x != a)
        base = 6 * REPEAT_WEIGHT - Ca[x1] - Ca[x2] - Ca[x3]
        aspiration = self.best_cost - self.cost
        tabu_s = tabu[s]
        a_tabu = tabu_s[a] > iteration
        best_delta, best_b, ties = None, -1, 0
        evaluated = 0
        for tb, B in enumerate(seating):
            if tb == ta:
                continue
            y0, y1, y2, y3 = B
            a_to_b = Ca[y0] + Ca[y1] + Ca[y2] + Ca[y3]
            for b in B:
                if not movable[b]:
                    continue
                Cb = C[b]
                delta = (
                    base
                    + Cb[x1]
                    + Cb[x2]
                    + Cb[x3]
                    + a_to_b
                    - Ca[b]
                    - (Cb[y0] + Cb[y1] + Cb[y2] + Cb[y3])
                )
                evaluated += 1
                if (a_tabu or tabu_s[b] > iteration) and delta >= aspiration:
                    continue
                if best_delta is None or delta < best_delta:
                    best_delta, best_b, ties = delta, b, 1
                elif delta == best_delta:
                    ties += 1
                    if rng.randrange(ties) == 0:
                        best_b = b
        self.evaluations += evaluated
        return None if best_delta is None else (best_delta, best_b)

    def _perturb(self, swaps: int) -> None:
        self.rounds[:] = [[table[:] for table in r] for r in self.best_rounds]
        for s, r in enumerate(self.rounds):
            for t, table in enumerate(r):
                for p in table:
                    self.pos[s][p] = t
        rng = self.rng
        free = [p for p in range(self.n) if self.movable[p]]
        if self.tables > 1 and len(free) > 1:
            for _ in range(swaps):
                s = rng.randrange(len(self.rounds))
                a, b = rng.sample(free, 2)
                if self.pos[s][a] != self.pos[s][b]:
                    ta, tb = self.pos[s][a], self.pos[s][b]
                    A, B = self.rounds[s][ta], self.rounds[s][tb]
                    A[A.index(a)] = b
                    B[B.index(b)] = a
                    self.pos[s][a], self.pos[s][b] = tb, ta
        self._rebuild()

    # -- the search --------------------------------------------------------------------------

    def _candidates(self, sample: int) -> list[tuple[int, int]]:
        """(round, player) to try moving: one player of a bad pair from each of some bad tables."""
        rng, movable, C = self.rng, self.movable, self.C
        bad = self.bad
        codes = bad if len(bad) <= sample else rng.sample(bad, sample)
        found = []
        for code in codes:
            s, t = divmod(code, self.tables)
            table = self.rounds[s][t]
            involved = [
                p
                for p in table
                if movable[p] and any(C[p][q] > REPEAT_WEIGHT for q in table if q != p)
            ]
            if involved:
                found.append((s, choose(rng, involved)))
        return found

    def run(self) -> Rounds:
        """Each step makes the best allowed swap for a sample of players in bad pairs."""
        rng = self.rng
        sample = min(30, 3 * self.tables)
        stale = STALE_STEPS_PER_TABLE * min(8, self.tables)
        tabu = [[0] * self.n for _ in self.rounds]
        iteration = last_gain = last_best = perturbations = 0
        gain_at = 0  # evaluations when the best last improved
        report_at = 0
        while (
            self.best_cost > self.lower_bound
            and self.bad
            and self.evaluations < self.budget
            and self.evaluations - gain_at <= self.budget // PATIENCE
            and iteration - last_best <= stale
        ):
            iteration += 1
            if self.progress and self.evaluations >= report_at:
                self.progress(self.evaluations, self.budget, self.best_cost)
                report_at = self.evaluations + max(1, self.budget // 50)
            best = None
            ties = 0
            for s, a in self._candidates(sample):
                found = self._best_swap(s, a, iteration, tabu)
                if found is None:
                    continue
                if best is None or found[0] < best[0]:
                    best, ties = (found[0], s, a, found[1]), 1
                elif found[0] == best[0]:
                    ties += 1
                    if rng.randrange(ties) == 0:
                        best = (found[0], s, a, found[1])
            if best is None:
                continue
            delta, s, a, b = best
            self._swap(s, a, b)
            self.cost += delta
            tabu[s][a] = iteration + 2 + rng.randrange(5)
            tabu[s][b] = iteration + 2 + rng.randrange(5)
            if self.cost < self.best_cost:
                self.best_cost = self.cost
                self.best_rounds = [[table[:] for table in r] for r in self.rounds]
                last_gain = last_best = iteration
                gain_at = self.evaluations
            elif iteration - last_gain > 300:
                perturbations += 1
                self._perturb(3)
                tabu = [[0] * self.n for _ in self.rounds]
                last_gain = iteration
        if self.progress:
            self.progress(self.evaluations, self.budget, self.best_cost)
        self.rounds[:] = self.best_rounds
        return self.rounds
