"""Scoring a WA hand: every value of the joker, every reading, the best hand value.

1. The hand is read and checked (`hand.parse_wa_case`).
2. A joker among the standing tiles is tried as each tile that completes the other standing
   tiles (`arrange.completing_tiles`; every terminal and honour too when Thirteen Orphans is
   possible); a joker in a declared set keeps its declared value.
3. For each value: Thirteen Orphans, then every split into four sets and a pair, with every unit
   the winning tile can have completed; each reading's patterns (`rules.reading_patterns`)
   go through the limit and exclusion rules (`patterns.kept_patterns`).
4. The reading with the highest capped value F wins, then the highest total T; on a tie the
   first joker value in the usual tile order (characters, dots, bamboo, honours).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from .. import errors
from ..arrange import arrangements, completing_tiles
from ..errors import HandError
from ..hand import CHOW as MELD_CHOW
from ..hand import KONG as MELD_KONG
from ..messages import render
from ..presets import WILMINGTON_12_TILE
from ..tiles import CODES, INDEX, TERMINALS_OR_HONORS, TILE_CODES
from .hand import WaHand, real_counts
from .patterns import TABLE_ORDER, Pattern, kept_patterns
from .rules import CHOW, KONG, PAIR, PUNG, TileFacts, Unit, reading_patterns

LIMIT = WILMINGTON_12_TILE.limit or 600
MINIMUM = WILMINGTON_12_TILE.minimum
_ORPHANS = sorted(TERMINALS_OR_HONORS)
#: Joker values in the order they are tried (the order people write tiles in).
_VALUE_ORDER = tuple(INDEX[code] for code in TILE_CODES)
_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


@dataclass(frozen=True, slots=True)
class Reading:
    """The best reading of a hand: its units (declared sets first), the joker's value (None
    when it is in no unit), the scored patterns with their counts, T and F."""

    units: tuple[Unit, ...]
    joker_as: int | None
    patterns: tuple[tuple[Pattern, int], ...]
    total: int
    final: int


def _score(found: dict[str, int]) -> tuple[tuple[tuple[Pattern, int], ...], int]:
    kept = kept_patterns(found)
    return tuple(kept), sum(pattern.points * count for pattern, count in kept)


def _declared_units(hand: WaHand) -> list[Unit]:
    units: list[Unit] = []
    for meld in hand.melds:
        if meld.kind == MELD_CHOW:
            units.append((CHOW, meld.tile, True))
        elif meld.kind == MELD_KONG:
            units.append((KONG, meld.tile, False))
        else:
            units.append((PUNG, meld.tile, True))
    return units


def evaluate(  # noqa: C901 - the spec's special cases, then each joker value's readings
    hand: WaHand, joker_values: Iterable[int] | None = None
) -> Reading:
    """The best reading of a checked hand. Raises HandError(NOT_WIN) when there is none.

    `joker_values` limits the values a standing joker is tried as (by default every value
    that could make a unit)."""
    if hand.thirteen_discarded_orphans:
        patterns, total = _score({"thirteen_discarded_orphans": 1})
        return Reading((), None, patterns, total, min(total, LIMIT))
    declared = _declared_units(hand)
    situation: dict[str, int] = {
        name: 1
        for name in ("last_wall_tile", "last_discard", "supplement_tile", "robbing_kong")
        if getattr(hand, name)
    }
    if hand.heavenly:
        situation["heavenly_hand"] = 1
    if hand.earthly:
        situation["earthly_hand"] = 1
    counts = real_counts(hand)
    win = hand.win_tile
    assert win is not None
    if hand.joker_as is not None:
        counts[hand.joker_as] += 1
    standing = [0] * 34
    for tile in hand.concealed:
        standing[tile] += 1
    if not hand.four_kongs_immediate:
        standing[win] += 1
    if hand.four_kongs_immediate:
        found = {"four_kongs": 1, **situation}
        patterns, total = _score(found)
        return Reading(tuple(declared), hand.joker_as, patterns, total, min(total, LIMIT))
    declared_triplets = sum(1 for kind, _, _ in declared if kind == KONG)
    # Special shapes are looked for only when the standing tiles allow them.
    held = [tile for tile in range(34) if standing[tile]]
    orphans = not declared and all(tile in TERMINALS_OR_HONORS for tile in held)
    nine_gates = not declared and len({tile // 9 for tile in held}) == 1 and held[0] < 27
    values: list[int | None]
    if not hand.joker_in_hand:
        values = [None]
    else:
        if joker_values is None:
            # Only a tile that completes the standing tiles can make a reading.
            wanted = set(completing_tiles(standing))
            if orphans:
                wanted.update(_ORPHANS)
            joker_values = [tile for tile in _VALUE_ORDER if tile in wanted]
        values = [v for v in joker_values if counts[v] < 5]
    best: Reading | None = None
    best_key = (-1, -1)
    for value in values:
        if value is not None:
            standing[value] += 1
            counts[value] += 1
        try:
            readings = _readings(
                hand,
                value,
                standing,
                counts,
                declared,
                declared_triplets,
                situation,
                orphans=orphans,
                nine_gates=nine_gates,
            )
            for reading in readings:
                key = (reading.final, reading.total)
                if key > best_key:
                    best, best_key = reading, key
        finally:
            if value is not None:
                standing[value] -= 1
                counts[value] -= 1
    if best is None:
        raise HandError(errors.NOT_WIN, "wa_not_a_winning_hand")
    return best


def _readings(
    hand: WaHand,
    value: int | None,
    standing: list[int],
    counts: list[int],
    declared: list[Unit],
    declared_triplets: int,
    situation: dict[str, int],
    *,
    orphans: bool,
    nine_gates: bool,
) -> Iterator[Reading]:
    """Every reading of the hand with the joker as `value` (None: in a declared set);
    `situation` holds the patterns the referee's flags give; `orphans` and `nine_gates` say
    whether the standing tiles may make Thirteen Orphans or Nine Gates at all."""
    win = hand.win_tile
    assert win is not None
    joker_as = value if value is not None else hand.joker_as
    extra = situation
    if orphans and joker_as in TERMINALS_OR_HONORS and all(standing[t] for t in _ORPHANS):
        patterns, total = _score({"thirteen_orphans": 1, **extra})
        yield Reading((), joker_as, patterns, total, min(total, LIMIT))
        return
    if nine_gates and _nine_gates_suit(standing) is not None:
        extra = {**situation, "nine_gates": 1}
    splits = arrangements(standing)
    if not splits:
        return
    facts = TileFacts(counts)
    for sets, pair in splits:
        units = declared[:]
        for code in sets:
            units.append((CHOW if code & 1 else PUNG, code >> 1, False))
        units.append((PAIR, pair, False))
        standing_pungs = sum(1 for code in sets if not code & 1)
        tried: set[tuple[int, int]] = set()
        for index in range(len(declared), len(units)):
            kind, first, _ = units[index]
            if (kind, first) in tried or not _unit_holds(kind, first, win):
                continue
            tried.add((kind, first))
            concealed_triplets = declared_triplets + standing_pungs
            if kind == PUNG and not hand.self_drawn:
                concealed_triplets -= 1
            found = reading_patterns(
                units,
                index,
                facts,
                seat_wind=hand.seat_wind,
                prevailing_wind=hand.prevailing_wind,
                self_drawn=hand.self_drawn,
                win_tile=win,
                last_available=hand.last_available,
                concealed_triplet_units=concealed_triplets,
            )
            found.update(extra)
            patterns, total = _score(found)
            yield Reading(tuple(units), joker_as, patterns, total, min(total, LIMIT))


def _unit_holds(kind: int, first: int, tile: int) -> bool:
    if kind == CHOW:
        return first <= tile <= first + 2
    return first == tile


def _nine_gates_suit(standing: list[int]) -> int | None:
    for suit in range(3):
        part = standing[suit * 9 : suit * 9 + 9]
        if sum(part) == 14 and all(n >= need for n, need in zip(part, _NINE_GATES, strict=True)):
            return suit
    return None


# --- The verdict ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PatternLine:
    key: str
    en: str
    points: int
    count: int

    @property
    def total(self) -> int:
        return self.points * self.count


@dataclass(frozen=True)
class WaResult:
    """The verdict on one WA hand. `error` is None for a win, BELOW_MINIMUM for a valid hand
    worth less than the minimum (a faulty out, with its full breakdown), or the code of a hand
    that could not be scored (no total). `joker_as` is the tile the joker stands for (the
    scorer's choice for a standing joker)."""

    error: str | None
    message_key: str | None = None
    message_params: dict[str, Any] | None = None
    patterns: tuple[PatternLine, ...] = ()
    total: int | None = None
    final: int | None = None
    joker_as: int | None = None
    hand: WaHand | None = None
    reading: Reading | None = None

    @property
    def scored(self) -> bool:
        """Whether the hand has a value (a win or a faulty out below the minimum)."""
        return self.total is not None

    @property
    def is_win(self) -> bool:
        return self.error is None

    @property
    def limit(self) -> bool:
        """Whether the hand reached the limit (its value was capped)."""
        return self.total is not None and self.total >= LIMIT

    @property
    def message(self) -> str:
        return render(self.message_key, self.message_params or {}) if self.message_key else ""

    def to_case(self) -> dict[str, Any]:
        """The entry of `expected.hands` in the case format."""
        entry: dict[str, Any] = {
            "error": self.error,
            "patterns": [[p.key, p.en, p.points, "pts", p.count] for p in self.patterns],
            "total": self.total,
            "final": self.final,
            "limit": self.limit,
        }
        if self.joker_as is not None:
            entry["joker_as"] = CODES[self.joker_as]
        return entry


def score_wa_hand(hand: WaHand, joker_values: Iterable[int] | None = None) -> WaResult:
    """Score a checked hand. Never raises for a bad hand: the result carries the error.
    `joker_values`: see `evaluate`."""
    try:
        reading = evaluate(hand, joker_values)
    except HandError as error:
        return failure(error, hand)
    lines = tuple(
        PatternLine(pattern.key, pattern.en, pattern.points, count)
        for pattern, count in sorted(reading.patterns, key=lambda kept: TABLE_ORDER[kept[0].key])
    )
    below = reading.total < MINIMUM
    return WaResult(
        error=errors.BELOW_MINIMUM if below else None,
        message_key="below_minimum_points" if below else None,
        message_params={"points": reading.total, "minimum": MINIMUM} if below else None,
        patterns=lines,
        total=reading.total,
        final=reading.final,
        joker_as=reading.joker_as,
        hand=hand,
        reading=reading,
    )


def failure(error: HandError, hand: WaHand | None = None) -> WaResult:
    return WaResult(
        error=error.code,
        message_key=error.message_key,
        message_params=dict(error.message_params),
        hand=hand,
    )
