"""generate(): check the input, seat the rounds still to seat, and describe the result."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from . import checks
from .constructions import best_design
from .metrics import measure
from .model import (
    ATTRIBUTES,
    Entrant,
    Progress,
    RoundSeating,
    Seating,
    SeatingError,
    Separation,
    Separations,
    TableSeating,
)
from .placement import assign_winds, number_tables
from .renaming import rename_players
from .search import REPEAT_WEIGHT, SOFT_WEIGHT, Rounds, TabuSearch, greedy_rounds

#: Swaps evaluated by the local search at effort 1.0 (about two seconds of one core).
SEARCH_BUDGET = 6_000_000
#: The search for the fewest repeats starts afresh at most this many times.
MOST_STARTS = 4
#: Larger fields are seated by the search alone: renaming the players of a large design to keep
#: clubs apart takes longer, and the designs are only measured up to here (a design for 268
#: players over 89 rounds takes about 20 s of one core; the search alone leaves 2,124 repeats).
LARGEST_CONSTRUCTION = 300


def generate(
    players: Sequence[Entrant],
    rounds: int,
    *,
    frozen: Sequence[RoundSeating] = (),
    separations: Separations = Separations(),  # noqa: B008 - frozen dataclass
    by_standing: Mapping[int, Sequence[str]] | None = None,
    seed: int = 0,
    effort: float = 1.0,
    progress: Callable[[Progress], None] | None = None,
) -> Seating:
    """Seat `players` in every round 1..`rounds` that is not in `frozen`.

    - `frozen`: rounds already played or published; returned unchanged, and their meetings and
      starting winds count (players no longer in the field may appear in them).
    - `separations`: club, country and team each off, soft or hard.
    - `by_standing`: round number -> player keys best first; that round seats the first four at
      table 1, the next four at table 2 and so on.  Players missing from the order (substitutes
      are never ranked) come last, in field order; keys not in the field are ignored.
    - `seed`: the same input and seed give the same seating.
    - `effort`: scales the search budget (1.0: a few seconds at most).
    - `progress`: called now and then with a `Progress`; it may raise to abandon the run.

    Raises SeatingError (with a `code`) for input that cannot be seated; a field that is not a
    multiple of four gets code "substitutes_needed" and `substitutes` set.
    """
    field = list(players)
    checks.check_rounds(rounds)
    checks.check_effort(effort)
    kept = checks.check_frozen(frozen, rounds)
    checks.check_field(field)
    n = len(field)
    tables = n // 4
    index = {p.key: i for i, p in enumerate(field)}
    pinned = checks.check_pins(field, tables)
    checks.check_hard_separation_possible(field, separations, tables)
    standing = checks.check_standing(by_standing or {}, rounds, kept, field, index)

    weights, hard_weight = pair_weights(field, separations, rounds)
    meetings = [[0] * n for _ in range(n)]
    for round_ in kept.values():
        for table in round_.tables:
            _meet(meetings, [index[k] for k in table.seats if k in index])

    standing_tables = {}
    for number, order in standing.items():
        groups = [order[i : i + 4] for i in range(0, n, 4)]
        checks.check_standing_round(number, groups, field, weights, hard_weight, pinned)
        standing_tables[number] = groups
        for group in groups:
            _meet(meetings, group)

    to_seat = [number for number in range(1, rounds + 1) if number not in kept]
    searched = [number for number in to_seat if number not in standing_tables]
    rng = random.Random(seed)
    construction = ""
    grouping: Rounds = []

    def report(stage: str) -> Callable[[int, int, int], None] | None:
        if progress is None:
            return None
        return lambda done, total, cost: progress(Progress(stage, done, total, cost))

    if searched:
        bound = lower_bound(meetings, field, separations, tables, len(searched))
        held = [p for p in pinned if p is not None]
        search, construction = _search(
            rounds=len(searched),
            weights=weights,
            hard_weight=hard_weight,
            meetings=meetings,
            pinned=pinned,
            bound=bound,
            # Renaming players keeps who meets whom, so it only helps when no other round
            # (frozen or by standing) ties players to earlier meetings.
            can_rename=not kept and not standing_tables and len(set(held)) == len(held),
            rng=rng,
            effort=effort,
            report=report,
        )
        grouping = search.rounds
        if not search.is_hard_free(hard_weight):
            raise SeatingError(
                "No seating was found that keeps apart every "
                + " and every ".join(a for a in ATTRIBUTES if separations.of(a) is Separation.HARD)
                + " as required; make one of them a soft separation, or try another seed.",
                code="hard_separation",
            )

    by_number: dict[int, list[list[int]]] = dict(zip(searched, grouping, strict=True))
    by_number.update(standing_tables)
    seated = _place(field, index, kept, by_number, to_seat, standing_tables, pinned, rng)
    all_rounds = tuple(sorted([*kept.values(), *seated], key=lambda r: r.number))
    if progress:
        progress(Progress("done", 1, 1, 0))
    return Seating(
        rounds=all_rounds,
        figures=measure(all_rounds, field),
        generated=tuple(to_seat),
        construction=construction,
    )


def _meet(meetings: list[list[int]], group: Sequence[int]) -> None:
    for i, p in enumerate(group):
        for q in group[i + 1 :]:
            meetings[p][q] += 1
            meetings[q][p] += 1


def pair_weights(
    field: list[Entrant], separations: Separations, rounds: int
) -> tuple[list[list[int]], int]:
    """The weight of seating two players together, and the weight meaning "never"."""
    n = len(field)
    tables = n // 4
    # More than any seating without a hard conflict can cost in total.
    hard = 1 + (REPEAT_WEIGHT * rounds + 3 * SOFT_WEIGHT) * 6 * tables * rounds
    weights = [[0] * n for _ in range(n)]
    for attribute in ATTRIBUTES:
        separation = separations.of(attribute)
        if separation is Separation.OFF:
            continue
        weight = hard if separation is Separation.HARD else SOFT_WEIGHT
        members: dict[str, list[int]] = {}
        for i, player in enumerate(field):
            value = getattr(player, attribute)
            if value:
                members.setdefault(value, []).append(i)
        for group in members.values():
            for p in group:
                row = weights[p]
                for q in group:
                    if q != p:
                        row[q] += weight
    return weights, hard


def _even_pairs(count: int, bins: int) -> int:
    """Fewest pairs sharing a bin when `count` items go into `bins` bins."""
    q, r = divmod(count, bins)
    return r * (q + 1) * q // 2 + (bins - r) * q * (q - 1) // 2


def lower_bound(
    meetings: list[list[int]],
    field: list[Entrant],
    separations: Separations,
    tables: int,
    rounds: int,
) -> tuple[int, int]:
    """(repeat part, soft part) that no seating of `rounds` more rounds can go below.

    Repeats: the new meetings poured into the pairs that have met least (water filling).
    Conflicts: every club (country, team) spread evenly over the tables in every round.
    """
    n = len(field)
    levels = Counter(meetings[p][q] for p in range(n) for q in range(p + 1, n))
    remaining = 6 * tables * rounds
    heights = sorted(levels)
    final: Counter[int] = Counter()
    level, width, i = heights[0], levels[heights[0]], 1
    while remaining:
        room = width * (heights[i] - level) if i < len(heights) else None
        if room is not None and remaining >= room:
            remaining -= room
            level = heights[i]
            width += levels[level]
            i += 1
            continue
        full, part = divmod(remaining, width)
        final[level + full + 1] += part
        final[level + full] += width - part
        width = remaining = 0
    final[level] += width
    for height in heights[i:]:
        final[height] += levels[height]
    repeat_part = REPEAT_WEIGHT * sum(count * m * (m - 1) // 2 for m, count in final.items())
    soft_part = 0
    for attribute in ATTRIBUTES:
        if separations.of(attribute) is Separation.SOFT:
            sizes = Counter(getattr(p, attribute) for p in field if getattr(p, attribute))
            soft_part += sum(_even_pairs(size, tables) for size in sizes.values())
    return repeat_part, SOFT_WEIGHT * soft_part * rounds


def _search(
    *,
    rounds: int,
    weights: list[list[int]],
    hard_weight: int,
    meetings: list[list[int]],
    pinned: list[int | None],
    bound: tuple[int, int],
    can_rename: bool,
    rng: random.Random,
    effort: float,
    report: Callable[[str], Callable[[int, int, int], None] | None],
) -> tuple[TabuSearch, str]:
    """Who sits together in the searched rounds, and the design it started from.

    1. Start from an algebraic design (players given to its points so as to keep separated
       pairs apart) or from a greedy seating.
    2. Search for the fewest repeats, hard separations kept, soft ones ignored, restarting
       from fresh greedy seatings while the budget lasts; rename.
    3. Search again counting a soft conflict like a repeat (the search moves best when both
       are on one scale); rename.
    4. From the better of the two (by the final weights), search with repeats first.
    A design that already has enough repeat-free rounds skips steps 2 and 3.
    """
    n = len(weights)
    tables = n // 4
    budget = max(1, int(SEARCH_BUDGET * effort))
    movable = [p is None for p in pinned]

    def improve(
        start: Rounds, scale: int, lowest: int, stage: str, restart: bool = False
    ) -> TabuSearch:
        """Search from `start` with soft weights times `scale`; with `restart`, spend what
        is left of the budget when it stalls on fresh greedy starts, keeping the best."""
        if scale == 0:
            scaled = [[w if w >= hard_weight else 0 for w in row] for row in weights]
        else:
            scaled = [[w if w >= hard_weight else w * scale for w in row] for row in weights]
        best, spent = None, 0
        for _ in range(MOST_STARTS if restart else 1):
            search = TabuSearch(
                rounds=start,
                weights=scaled if scale != 1 else weights,
                meetings=meetings,
                movable=movable,
                rng=rng,
                budget=budget - spent,
                lower_bound=lowest,
                progress=report(stage),
            )
            if search.cost > lowest:
                search.run()
            spent += search.evaluations
            if best is None or search.best_cost < best.best_cost:
                best = search
            # No bad table left means nothing in these rounds can get better.
            if best.best_cost <= lowest or not search.bad or spent >= budget:
                break
            start = greedy_rounds(
                rounds=rounds,
                tables=tables,
                weights=scaled,
                meetings=meetings,
                pinned=pinned,
                rng=rng,
            )
        assert best is not None
        return best

    def rename(start: Rounds) -> Rounds:
        if not can_rename:
            return start
        return rename_players(start, weights, hard_weight, pinned, bound[1], rng, effort) or start

    start: Rounds | None = None
    construction = ""
    complete = False
    if can_rename and n <= LARGEST_CONSTRUCTION and (named := best_design(n, rounds)):
        order = list(range(len(named[1])))
        rng.shuffle(order)
        design = [[list(table) for table in named[1][order[r % len(order)]]] for r in range(rounds)]
        start = rename_players(
            design, weights, hard_weight, pinned, bound[1], rng, effort, shuffle=True
        )
        if start is not None:
            construction = named[0]
            complete = rounds <= len(named[1])
    if start is None:
        start = greedy_rounds(
            rounds=rounds, tables=tables, weights=weights, meetings=meetings, pinned=pinned, rng=rng
        )
    candidates = [start]
    if not complete:
        first = rename(improve(_copy(start), 0, bound[0], "repeats", restart=True).rounds)
        candidates = [first]
        if any(0 < w < hard_weight for row in weights for w in row):
            lowest = bound[0] + REPEAT_WEIGHT * bound[1]
            mixed = improve(_copy(first), REPEAT_WEIGHT, lowest, "separation")
            candidates.append(rename(mixed.rounds))

    def cost(rounds: Rounds) -> int:
        return TabuSearch(
            rounds=_copy(rounds),
            weights=weights,
            meetings=meetings,
            movable=movable,
            rng=rng,
            budget=0,
            lower_bound=0,
        ).cost

    best = min(candidates, key=cost)
    return improve(best, 1, bound[0] + bound[1], "final"), construction


def _copy(rounds: Rounds) -> Rounds:
    return [[table[:] for table in r] for r in rounds]


def _place(
    field: list[Entrant],
    index: dict[str, int],
    kept: dict[int, RoundSeating],
    by_number: dict[int, list[list[int]]],
    to_seat: list[int],
    standing_tables: dict[int, list[list[int]]],
    pinned: list[int | None],
    rng: random.Random,
) -> list[RoundSeating]:
    """Winds and table numbers for the seated rounds, as RoundSeating values."""
    n = len(field)
    tables = n // 4
    wind_counts = [[0] * 4 for _ in range(n)]
    number_counts = [[0] * tables for _ in range(n)]
    for round_ in kept.values():
        for table in round_.tables:
            for wind, key in enumerate(table.seats):
                if key in index:
                    wind_counts[index[key]][wind] += 1
                    if table.number <= tables:
                        number_counts[index[key]][table.number - 1] += 1
    ordered = assign_winds([by_number[number] for number in to_seat], wind_counts, rng)
    given = [
        checks.standing_numbers(seated, pinned) if number in standing_tables else None
        for number, seated in zip(to_seat, ordered, strict=True)
    ]
    all_numbers = number_tables(ordered, given=given, pinned=pinned, counts=number_counts, rng=rng)
    result = []
    for number, seated, numbers in zip(to_seat, ordered, all_numbers, strict=True):
        result.append(
            RoundSeating(
                number=number,
                tables=tuple(
                    sorted(
                        (
                            TableSeating.of(table_number, (field[p].key for p in table))
                            for table_number, table in zip(numbers, seated, strict=True)
                        ),
                        key=lambda t: t.number,
                    )
                ),
            )
        )
    return result
