"""Once the tables are known: who starts at which wind, and which number each table gets.

Both only reorder what the search decided, so they never add a repeat or a conflict.  How:
docs/seating.md, "Winds and table numbers".
"""

from __future__ import annotations

import math
import random
from itertools import permutations

from .search import choose

ORDERS = tuple(permutations(range(4)))
#: Rounds with more free tables than this are renumbered by exchanges, not exact assignment.
LARGEST_ASSIGNMENT = 40
#: Exchanges the local search over all rounds tries, per table of the rounds numbered ...
EXCHANGES_PER_TABLE = 400
#: ... and in all (about a second).
MOST_EXCHANGES = 60_000


def _best_order(table: list[int], counts: list[list[int]], rng: random.Random) -> list[int]:
    best, options = None, []
    for i, order in enumerate(ORDERS):
        cost = sum(counts[table[k]][wind] for wind, k in enumerate(order))
        if best is None or cost < best:
            best, options = cost, [i]
        elif cost == best:
            options.append(i)
    return [table[k] for k in ORDERS[choose(rng, options)]]


def _imbalance(counts: list[int]) -> int:
    return max(0, max(counts) - min(counts) - 1)


def assign_winds(  # noqa: C901 - greedy pass, descent and sideways moves share the counts
    rounds: list[list[list[int]]], counts: list[list[int]], rng: random.Random
) -> list[list[list[int]]]:
    """Each table reordered E, S, W, N; `counts[player][wind]` holds earlier starts, is updated.

    After the greedy pass and the descent, a player whose winds still differ by two or more is
    usually one link of a chain that only sideways moves (same sum of squares) can shift along:
    tables with such a player are re-seated at random among their best orders for a while,
    keeping the fairest seating seen.
    """
    seated: list[list[list[int]]] = []
    for tables in rounds:
        seated_round = []
        for table in tables:
            order = _best_order(table, counts, rng)
            for wind, p in enumerate(order):
                counts[p][wind] += 1
            seated_round.append(order)
        seated.append(seated_round)

    def reseat(r: int, i: int, sideways: bool) -> bool:
        order = seated[r][i]
        for wind, p in enumerate(order):
            counts[p][wind] -= 1
        now = sum(counts[p][wind] for wind, p in enumerate(order))
        better = _best_order(order, counts, rng)
        cost = sum(counts[p][wind] for wind, p in enumerate(better))
        moved = cost < now or (sideways and cost == now and better != order)
        if moved:
            seated[r][i] = order = better
        for wind, p in enumerate(order):
            counts[p][wind] += 1
        return moved

    places = [(r, i) for r, tables in enumerate(seated) for i in range(len(tables))]
    for _ in range(20):
        if not any([reseat(r, i, False) for r, i in places]):
            break
    players = {p for tables in rounds for table in tables for p in table}
    best = sum(_imbalance(counts[p]) for p in players)
    best_seating = [[order[:] for order in tables] for tables in seated]
    for _ in range(200):
        if best == 0:
            break
        for r, i in places:
            if any(_imbalance(counts[p]) for p in seated[r][i]):
                reseat(r, i, True)
        now = sum(_imbalance(counts[p]) for p in players)
        if now < best:
            best = now
            best_seating = [[order[:] for order in tables] for tables in seated]
    for tables, best_tables in zip(seated, best_seating, strict=True):
        for order, best_order in zip(tables, best_tables, strict=True):
            for wind, p in enumerate(order):
                counts[p][wind] -= 1
            for wind, p in enumerate(best_order):
                counts[p][wind] += 1
    return best_seating


def number_tables(
    rounds: list[list[list[int]]],
    *,
    given: list[list[int] | None],
    pinned: list[int | None],
    counts: list[list[int]],
    rng: random.Random,
    tries: int = 8,
) -> list[list[int]]:
    """Table numbers (from 1) for every round's tables, in the order of the tables.

    `given[r]` fixes round r's numbers (a round seated by standing); `counts[player][number - 1]`
    holds earlier rounds' tables and is updated.  The aim is few returns to a table number:
    the sum over players and numbers of C(times there, 2).  The best of `tries` numberings
    (each greedy, then improved round by round with exact assignments) is kept.
    """
    best = None
    for _ in range(tries):
        trial = [row[:] for row in counts]
        numbered, free = _numbering(rounds, given, pinned, trial, rng)
        score = sum(c * (c - 1) // 2 for row in trial for c in row)
        if best is None or score < best[0]:
            best = (score, numbered, free, trial)
        if score == 0:
            break
    assert best is not None
    score, numbered, free, trial = best
    if score:
        numbered = _exchange_numbers(rounds, numbered, free, trial, rng)
    for row, trial_row in zip(counts, trial, strict=True):
        row[:] = trial_row
    return numbered


def _exchange_numbers(  # noqa: C901 - annealing: step, acceptance and best seen share state
    rounds: list[list[list[int]]],
    numbered: list[list[int]],
    free: list[list[int]],
    counts: list[list[int]],
    rng: random.Random,
) -> list[list[int]]:
    """Lower the returns to a table number by exchanging two free tables' numbers in a round.

    Each step takes a free table with a player who returns to its number and the best exchange
    for it in its round: taken when it does not make things worse, or now and then when it
    does (less often as the search goes on), never back at once.  Returns the best numbering
    seen and leaves its counts in `counts`.
    """
    places = [(r, t) for r, tables in enumerate(free) if len(tables) > 1 for t in tables]
    if not places:
        return numbered
    numbered = [numbers[:] for numbers in numbered]
    score = sum(c * (c - 1) // 2 for row in counts for c in row)
    best_score, best = score, [numbers[:] for numbers in numbered]
    steps = min(MOST_EXCHANGES, EXCHANGES_PER_TABLE * len(places))
    last_moved: dict[tuple[int, int], int] = {}
    step = 0
    while step < steps and best_score:
        step += 1
        r, t = places[rng.randrange(len(places))]
        tables, numbers = rounds[r], numbered[r]
        a = numbers[t] - 1
        if all(counts[p][a] < 2 for p in tables[t]):
            continue
        best_delta, partner, ties = None, -1, 0
        for u in free[r]:
            if u == t or last_moved.get((r, u), -1) >= step - 2:
                continue
            b = numbers[u] - 1
            delta = sum(counts[p][b] - counts[p][a] + 1 for p in tables[t]) + sum(
                counts[p][a] - counts[p][b] + 1 for p in tables[u]
            )
            if best_delta is None or delta < best_delta:
                best_delta, partner, ties = delta, u, 1
            elif delta == best_delta:
                ties += 1
                if rng.randrange(ties) == 0:
                    partner = u
        if best_delta is None:
            continue
        heat = 1.0 - step / steps
        if best_delta > 0 and rng.random() >= math.exp(-best_delta / (0.6 * heat + 1e-9)):
            continue
        u, b = partner, numbers[partner] - 1
        for p in tables[t]:
            counts[p][a] -= 1
            counts[p][b] += 1
        for p in tables[u]:
            counts[p][b] -= 1
            counts[p][a] += 1
        numbers[t], numbers[u] = b + 1, a + 1
        last_moved[r, t] = last_moved[r, u] = step
        score += best_delta
        if score < best_score:
            best_score, best = score, [numbers[:] for numbers in numbered]
    # Put the counts back to the best numbering.
    for tables, now, kept in zip(rounds, numbered, best, strict=True):
        for table, number, best_number in zip(tables, now, kept, strict=True):
            if number != best_number:
                for p in table:
                    counts[p][number - 1] -= 1
                    counts[p][best_number - 1] += 1
    return best


def _numbering(
    rounds: list[list[list[int]]],
    given: list[list[int] | None],
    pinned: list[int | None],
    counts: list[list[int]],
    rng: random.Random,
) -> tuple[list[list[int]], list[list[int]]]:
    numbered: list[list[int]] = []
    free_by_round: list[list[int]] = []
    for r, tables in enumerate(rounds):
        given_numbers = given[r]
        if given_numbers is not None:
            numbers = list(given_numbers)
            free: list[int] = []
        else:
            numbers, free = _first_numbers(tables, pinned, counts, rng)
        for number, table in zip(numbers, tables, strict=True):
            for p in table:
                counts[p][number - 1] += 1
        numbered.append(numbers)
        free_by_round.append(free)
    _improve_numbers(rounds, numbered, free_by_round, counts)
    return numbered, free_by_round


def _improve_numbers(
    rounds: list[list[list[int]]],
    numbered: list[list[int]],
    free_by_round: list[list[int]],
    counts: list[list[int]],
) -> None:
    """Renumber each round's free tables, a round at a time, while that lowers the returns to a
    table number (at most ten passes); `numbered` and `counts` are updated in place."""
    for _ in range(10):
        changed = False
        for tables, numbers, free in zip(rounds, numbered, free_by_round, strict=True):
            if len(free) < 2:
                continue
            for t in free:
                for p in tables[t]:
                    counts[p][numbers[t] - 1] -= 1
            now = sum(counts[p][numbers[t] - 1] for t in free for p in tables[t])
            if now and len(free) <= LARGEST_ASSIGNMENT:
                choices = [numbers[t] for t in free]
                cost = [[sum(counts[p][c - 1] for p in tables[t]) for c in choices] for t in free]
                matched = cheapest_assignment(cost)
                if sum(cost[i][j] for i, j in enumerate(matched)) < now:
                    for i, t in enumerate(free):
                        numbers[t] = choices[matched[i]]
                    changed = True
            elif now:
                changed |= _swap_numbers(tables, numbers, free, counts)
            for t in free:
                for p in tables[t]:
                    counts[p][numbers[t] - 1] += 1
        if not changed:
            break


def _swap_numbers(
    tables: list[list[int]], numbers: list[int], free: list[int], counts: list[list[int]]
) -> bool:
    """Exchange two tables' numbers while that lowers the cost (the round's own seats out)."""

    def cost(t: int, number: int) -> int:
        return sum(counts[p][number - 1] for p in tables[t])

    changed = False
    for i, t in enumerate(free):
        if not cost(t, numbers[t]):
            continue
        for u in free[i + 1 :]:
            now = cost(t, numbers[t]) + cost(u, numbers[u])
            if cost(t, numbers[u]) + cost(u, numbers[t]) < now:
                numbers[t], numbers[u] = numbers[u], numbers[t]
                changed = True
    return changed


def cheapest_assignment(cost: list[list[int]]) -> list[int]:
    """For a square cost matrix, the column of each row in a cheapest perfect matching.

    The Hungarian method with potentials, O(n^3).
    """
    n = len(cost)
    INF = float("inf")
    u: list[float] = [0] * (n + 1)
    v: list[float] = [0] * (n + 1)
    match = [0] * (n + 1)  # match[column] = row, 1-based; 0 = free
    way = [0] * (n + 1)
    for row in range(1, n + 1):
        match[0] = row
        column = 0
        least = [INF] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[column] = True
            r = match[column]
            delta, next_column = INF, 0
            for j in range(1, n + 1):
                if not used[j]:
                    reduced = cost[r - 1][j - 1] - u[r] - v[j]
                    if reduced < least[j]:
                        least[j], way[j] = reduced, column
                    if least[j] < delta:
                        delta, next_column = least[j], j
            for j in range(n + 1):
                if used[j]:
                    u[match[j]] += delta
                    v[j] -= delta
                else:
                    least[j] -= delta
            column = next_column
            if match[column] == 0:
                break
        while column:
            previous = way[column]
            match[column] = match[previous]
            column = previous
    result = [0] * n
    for j in range(1, n + 1):
        result[match[j] - 1] = j - 1
    return result


def _first_numbers(
    tables: list[list[int]],
    pinned: list[int | None],
    counts: list[list[int]],
    rng: random.Random,
) -> tuple[list[int], list[int]]:
    """Greedy numbers for one round, and the tables free to take another number."""
    numbers = [0] * len(tables)
    free_tables = []
    for t, table in enumerate(tables):
        pins = [pin for pin in (pinned[p] for p in table) if pin is not None]
        if pins:
            numbers[t] = pins[0] + 1
        else:
            free_tables.append(t)
    taken = set(numbers)
    free_numbers = [n for n in range(1, len(tables) + 1) if n not in taken]
    order = free_tables[:]
    rng.shuffle(order)
    for t in order:
        best, options = None, []
        for i, number in enumerate(free_numbers):
            c = sum(counts[p][number - 1] for p in tables[t])
            if best is None or c < best:
                best, options = c, [i]
            elif c == best:
                options.append(i)
        numbers[t] = free_numbers.pop(choose(rng, options))
    return numbers, free_tables
