"""Input checks for generate(): each problem is a SeatingError with a code and a plain message."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from .model import (
    ATTRIBUTES,
    MAX_SUBSTITUTES,
    Entrant,
    RoundSeating,
    SeatingError,
    Separation,
    Separations,
    TableSeating,
    substitutes_needed,
)


def check_rounds(rounds: int) -> None:
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise SeatingError(
            f"The number of rounds must be a whole number of at least 1, not {rounds!r}.",
            code="bad_rounds",
        )


def check_effort(effort: float) -> None:
    if isinstance(effort, bool) or not isinstance(effort, int | float) or not effort > 0:
        raise SeatingError(
            f"The effort must be a number above 0, not {effort!r}.", code="bad_effort"
        )


def check_field(field: list[Entrant]) -> None:
    for player in field:
        if not isinstance(player, Entrant):
            raise SeatingError(f"Not a player entry: {player!r}.", code="bad_player")
        if not isinstance(player.key, str) or not player.key:
            raise SeatingError(f"Every player needs a key, not {player.key!r}.", code="bad_player")
    twice = [key for key, count in Counter(p.key for p in field).items() if count > 1]
    if twice:
        raise SeatingError(
            f"Player {twice[0]} is in the field more than once.", code="duplicate_player"
        )
    if len(field) < 4:
        raise SeatingError(
            f"A table needs four players; the field has {len(field)}.", code="too_few_players"
        )
    missing = substitutes_needed(len(field))
    if missing:
        raise SeatingError(
            f"{len(field)} players do not fill tables of four: add {missing} "
            f"substitute{'s' if missing > 1 else ''} (EMA allows up to {MAX_SUBSTITUTES}).",
            code="substitutes_needed",
            substitutes=missing,
        )


def check_frozen(frozen: Sequence[RoundSeating], rounds: int) -> dict[int, RoundSeating]:
    kept: dict[int, RoundSeating] = {}
    for round_ in frozen:
        if not isinstance(round_, RoundSeating):
            raise SeatingError(f"Not a round seating: {round_!r}.", code="bad_frozen_round")
        if not 1 <= round_.number <= rounds:
            raise SeatingError(
                f"Frozen round {round_.number} is not one of rounds 1 to {rounds}.",
                code="bad_frozen_round",
            )
        if round_.number in kept:
            raise SeatingError(f"Round {round_.number} is frozen twice.", code="bad_frozen_round")
        numbers = [table.number for table in round_.tables]
        keys = round_.players()
        if (
            any(not isinstance(t, TableSeating) or len(t.seats) != 4 for t in round_.tables)
            or any(not isinstance(n, int) or n < 1 for n in numbers)
            or len(set(numbers)) != len(numbers)
        ):
            raise SeatingError(
                f"Frozen round {round_.number} needs distinct table numbers from 1 and four "
                "seats at every table.",
                code="bad_frozen_round",
            )
        twice = [key for key, count in Counter(keys).items() if count > 1]
        if twice:
            raise SeatingError(
                f"Player {twice[0]} sits twice in frozen round {round_.number}.",
                code="bad_frozen_round",
            )
        kept[round_.number] = round_
    return kept


def check_pins(field: list[Entrant], tables: int) -> list[int | None]:
    """The 0-based table each player is held at, or None."""
    pinned: list[int | None] = []
    for player in field:
        number = player.fixed_table
        if number is None:
            pinned.append(None)
            continue
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= tables:
            raise SeatingError(
                f"Player {player.key} is held at table {number!r}, but the tables are numbered "
                f"1 to {tables}.",
                code="bad_fixed_table",
            )
        pinned.append(number - 1)
    crowded = [t for t, count in Counter(p for p in pinned if p is not None).items() if count > 4]
    if crowded:
        raise SeatingError(
            f"More than four players are held at table {crowded[0] + 1}.", code="bad_fixed_table"
        )
    return pinned


def check_hard_separation_possible(
    field: list[Entrant], separations: Separations, tables: int
) -> None:
    for attribute in ATTRIBUTES:
        if separations.of(attribute) is not Separation.HARD:
            continue
        sizes = Counter(getattr(p, attribute) for p in field if getattr(p, attribute))
        for value, size in sizes.items():
            if size > tables:
                raise SeatingError(
                    f"The {size} players of {attribute} {value!r} cannot sit apart at "
                    f"{tables} tables; make {attribute} separation soft.",
                    code="hard_separation",
                )
        held: dict[tuple[int, str], str] = {}
        for player in field:
            value = getattr(player, attribute)
            if player.fixed_table is not None and value:
                other = held.setdefault((player.fixed_table, value), player.key)
                if other != player.key:
                    raise SeatingError(
                        f"Players {other} and {player.key} of {attribute} {value!r} are both "
                        f"held at table {player.fixed_table}, so they cannot sit apart.",
                        code="hard_separation",
                    )


def check_standing(
    by_standing: Mapping[int, Sequence[str]],
    rounds: int,
    kept: Mapping[int, RoundSeating],
    field: list[Entrant],
    index: dict[str, int],
) -> dict[int, list[int]]:
    """For each round seated by standing, the field in that order (unranked players last)."""
    orders = {}
    for number, ranking in by_standing.items():
        if not isinstance(number, int) or not 1 <= number <= rounds:
            raise SeatingError(
                f"Round {number!r} is not one of rounds 1 to {rounds}.", code="bad_standing"
            )
        if number in kept:
            raise SeatingError(
                f"Round {number} is frozen, so it cannot be seated by standing.",
                code="bad_standing",
            )
        if isinstance(ranking, str):
            raise SeatingError("A standing is a list of player keys.", code="bad_standing")
        twice = [key for key, count in Counter(ranking).items() if count > 1]
        if twice:
            raise SeatingError(
                f"Player {twice[0]} is ranked twice in the standing for round {number}.",
                code="bad_standing",
            )
        ranked = [index[key] for key in ranking if key in index]
        seen = set(ranked)
        orders[number] = ranked + [i for i in range(len(field)) if i not in seen]
    return orders


def check_standing_round(
    number: int,
    groups: list[list[int]],
    field: list[Entrant],
    weights: list[list[int]],
    hard_weight: int,
    pinned: list[int | None],
) -> None:
    pin_owner: dict[int, int] = {}
    for g, group in enumerate(groups):
        for i, p in enumerate(group):
            for q in group[i + 1 :]:
                if weights[p][q] >= hard_weight:
                    raise SeatingError(
                        f"Round {number} by standing puts {field[p].key} and {field[q].key} at "
                        "one table, but they must be kept apart.",
                        code="hard_separation",
                    )
        pins = {pin for pin in (pinned[p] for p in group) if pin is not None}
        if len(pins) > 1:
            raise SeatingError(
                f"Round {number} by standing puts players held at different tables at one table.",
                code="bad_fixed_table",
            )
        for pin in pins:
            if pin_owner.setdefault(pin, g) != g:
                raise SeatingError(
                    f"Round {number} by standing puts players held at table {pin + 1} "
                    "at different tables.",
                    code="bad_fixed_table",
                )


def standing_numbers(groups: list[list[int]], pinned: list[int | None]) -> list[int]:
    """Table numbers in ranking order, except that a held player's table keeps its number."""
    numbers = [0] * len(groups)
    for g, group in enumerate(groups):
        pins = [pin for pin in (pinned[p] for p in group) if pin is not None]
        if pins:
            numbers[g] = pins[0] + 1
    free = iter(n for n in range(1, len(groups) + 1) if n not in set(numbers))
    return [number or next(free) for number in numbers]
