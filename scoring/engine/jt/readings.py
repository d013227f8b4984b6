"""Every reading of a JT hand and its score (sections 3-5).

A reading is one way to see the tiles: four sets and a pair with the set the winning tile
completed (regular), seven pairs, or a limit shape. Each reading is scored on its own:
points P, doubles D, raw score R = P x 2^D, F = R rounded to the nearest ten and capped at the
limit. The reading with the highest F wins, then the higher R, then more doubles.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..arrange import arrangements
from ..hand import CHOW, KONG, PUNG
from ..tiles import CODES, DRAGONS, HONORS, SIMPLES, TERMINALS, TERMINALS_OR_HONORS, WINDS
from .hand import JtHand
from .patterns import (
    BY_KEY,
    DBL,
    LIMIT,
    PAIR_POINTS,
    PATTERNS,
    PTS,
    SET_POINTS,
    SEVEN_PAIRS_DOUBLES,
)

PAIR = "pair"
LIMIT_POINTS = 1500  # the preset's limit; "100 %" of it
_ORDER = {pattern.key: i for i, pattern in enumerate(PATTERNS)}
_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


@dataclass(frozen=True, slots=True)
class JtSet:
    """One part of a reading: a set or the pair (`tile` is a chow's lowest tile). `declared`:
    a set declared during play; `concealed`: concealed in the sense of section 2 (the set
    completed by a winning discard is melded); `winning`: completed by the winning tile."""

    kind: str
    tile: int
    concealed: bool
    declared: bool = False
    winning: bool = False

    @property
    def tiles(self) -> tuple[int, ...]:
        if self.kind == CHOW:
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * {PUNG: 3, KONG: 4, PAIR: 2}[self.kind]

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(CODES[tile] for tile in self.tiles)


@dataclass(frozen=True, slots=True)
class Line:
    """A pattern scored in a reading: its value (a/b* patterns: the one that applies), how
    many times, and the indexes of the reading's sets it counted."""

    key: str
    value: int
    count: int = 1
    sets: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Reading:
    shape: str  # regular, seven_pairs, thirteen_orphans
    sets: tuple[JtSet, ...]  # the pair last; empty for thirteen orphans
    lines: tuple[Line, ...]
    points: int
    doubles: int
    raw: int
    final: int
    limit: bool

    @property
    def rank(self) -> tuple[int, int, int, bool]:
        """Highest F, then R, then doubles (section 3); on a full tie the reading where the
        winning tile completes a set rather than the pair, so the choice never depends on
        the order readings are tried in."""
        return (self.final, self.raw, self.doubles, not self.sets or not self.sets[-1].winning)


def _finish(shape: str, sets: tuple[JtSet, ...], lines: list[Line]) -> Reading:
    present = {line.key for line in lines}
    excluded = {key for key in present for key in BY_KEY[key].excludes}
    kept = sorted((line for line in lines if line.key not in excluded), key=_line_order)
    if any(BY_KEY[line.key].unit == LIMIT for line in kept):
        kept = [line for line in kept if BY_KEY[line.key].unit == LIMIT]
        return Reading(shape, sets, tuple(kept), 0, 0, LIMIT_POINTS, LIMIT_POINTS, True)
    points = sum(line.value * line.count for line in kept if BY_KEY[line.key].unit == PTS)
    doubles = sum(line.value * line.count for line in kept if BY_KEY[line.key].unit == DBL)
    raw = points << doubles
    rounded = (raw + 5) // 10 * 10
    return Reading(
        shape,
        sets,
        tuple(kept),
        points,
        doubles,
        raw,
        min(rounded, LIMIT_POINTS),
        rounded >= LIMIT_POINTS,
    )


def _line_order(line: Line) -> int:
    return _ORDER[line.key]


class Tiles:
    """What every reading of one hand shares, worked out once: the tiles, the declared sets,
    the patterns of the whole hand and of the situation."""

    __slots__ = (
        "hand",
        "standing",
        "declared",
        "open_hand",
        "all_tiles",
        "tile_lines",
        "situation_lines",
        "limit_lines",
        "every_set",
    )

    def __init__(self, hand: JtHand, standing: list[int], present: set[int]) -> None:
        self.hand = hand
        self.standing = standing
        self.declared = tuple(
            JtSet(meld.kind, meld.tile, meld.kind == KONG and meld.concealed, declared=True)
            for meld in hand.melds
        )
        self.open_hand = any(not s.concealed for s in self.declared)
        tiles = frozenset(present)
        self.all_tiles = tiles
        every = tuple(range(5))
        self.every_set = every
        # The patterns of the tiles alone, whatever the reading.
        keys: list[str] = []
        if tiles <= SIMPLES:
            keys.append("all_simples")
        suits = {t // 9 for t in tiles if t < 27}
        honours = bool(tiles & HONORS)
        if len(suits) == 1:
            keys.append("one_suit_with_honors" if honours else "one_suit_only")
        if tiles <= TERMINALS_OR_HONORS and honours and tiles & TERMINALS:
            keys.append("all_terminals_honors")
        self.tile_lines = [Line(key, BY_KEY[key].value, sets=every) for key in keys]
        situation = [
            key
            for key in ("last_wall_tile", "last_discard", "supplement_tile", "robbing_kong")
            if getattr(hand, key)
        ]
        if hand.riichi:
            situation.append("riichi")
        self.situation_lines = [Line(key, BY_KEY[key].value) for key in situation]
        limit = []
        if tiles <= HONORS:
            limit.append("all_honors")
        if tiles <= TERMINALS:
            limit.append("all_terminals")
        if hand.heavenly:
            limit.append("heavenly_hand")
        if hand.earthly:
            limit.append("earthly_hand")
        if not hand.melds and len(suits) == 1 and not honours and self._nine_gates(tiles):
            limit.append("nine_gates")
        self.limit_lines = [Line(key, 100, sets=every) for key in limit]

    def _nine_gates(self, tiles: frozenset[int]) -> bool:
        if len({t // 9 for t in tiles}) != 1 or min(tiles) >= 27:
            return False
        base = min(tiles) // 9 * 9
        extra = [self.standing[base + r] - _NINE_GATES[r] for r in range(9)]
        return min(extra) >= 0 and sum(extra) == 1

    # --- readings -----------------------------------------------------------------------

    def readings(self) -> list[Reading]:
        """Every reading of the hand, in no particular order; empty when it is no win."""
        found: list[Reading] = []
        if not self.hand.melds:
            special = self._thirteen_orphans() or self._seven_pairs()
            if special is not None:
                found.append(special)
        for codes, pair in arrangements(self.standing):
            found.extend(self._regular(codes, pair))
        return found

    def _thirteen_orphans(self) -> Reading | None:
        if self.all_tiles != TERMINALS_OR_HONORS:
            return None
        return _finish("thirteen_orphans", (), [Line("thirteen_orphans", 100), *self.limit_lines])

    def _seven_pairs(self) -> Reading | None:
        pairs = [t for t in range(34) if self.standing[t]]
        if len(pairs) != 7 or any(self.standing[t] != 2 for t in pairs):
            return None
        win = self.hand.win_tile
        sets = tuple(JtSet(PAIR, t, True, winning=t == win) for t in pairs)
        lines = [Line("seven_pairs", 100, sets=tuple(range(7)))]
        lines += [line for line in self.tile_lines if line.key in SEVEN_PAIRS_DOUBLES]
        lines += [line for line in self.situation_lines if line.key in SEVEN_PAIRS_DOUBLES]
        lines += [line for line in self.limit_lines if line.key != "nine_gates"]
        return _finish("seven_pairs", sets, lines)

    def _regular(self, codes: tuple[int, ...], pair: int) -> list[Reading]:
        """The readings of one split of the standing tiles: one for each set the winning
        tile can have completed."""
        win = self.hand.win_tile
        places: list[int] = []  # index into `codes`, or -1 for the pair
        if pair == win:
            places.append(-1)
        seen = set()
        for i, code in enumerate(codes):
            tile = code >> 1
            if code in seen:
                continue
            if (code & 1 and tile <= win <= tile + 2) or (not code & 1 and tile == win):
                seen.add(code)
                places.append(i)
        drawn = self.hand.self_drawn
        found = []
        for place in places:
            sets = list(self.declared)
            for i, code in enumerate(codes):
                winning = i == place
                sets.append(
                    JtSet(
                        CHOW if code & 1 else PUNG,
                        code >> 1,
                        drawn or not winning,
                        winning=winning,
                    )
                )
            sets.append(JtSet(PAIR, pair, True, winning=place == -1))
            found.append(self._score_regular(tuple(sets)))
        return found

    def _score_regular(  # noqa: C901 - a reading's lines, flat, in the order of the JT spec's table
        self, sets: tuple[JtSet, ...]
    ) -> Reading:
        hand = self.hand
        win = hand.win_tile
        pair = sets[4]
        lines: list[Line] = [Line("winning", 20)]
        triplets = [i for i in range(4) if sets[i].kind != CHOW]
        chows = [i for i in range(4) if sets[i].kind == CHOW]

        # Limit hands of this reading.
        limit = list(self.limit_lines)
        concealed_triplets = [i for i in triplets if sets[i].concealed]
        if len(concealed_triplets) == 4:
            limit.append(Line("hidden_treasure", 100, sets=self.every_set))
        dragons = [i for i in triplets if sets[i].tile in DRAGONS]
        winds = [i for i in triplets if sets[i].tile in WINDS]
        if len(dragons) == 3:
            limit.append(Line("three_great_scholars", 100, sets=tuple(dragons)))
        if len(winds) == 4:
            limit.append(Line("big_four_winds", 100, sets=tuple(winds)))
        elif len(winds) == 3 and pair.tile in WINDS:
            limit.append(Line("little_four_winds", 100, sets=(*winds, 4)))
        if limit:
            return _finish("regular", sets, limit)

        # Basic points.
        scored = [
            (i, SET_POINTS[(sets[i].kind, sets[i].tile in TERMINALS_OR_HONORS, sets[i].concealed)])
            for i in triplets
        ]
        set_points = sum(points for _, points in scored)
        if set_points:
            lines.append(Line("set_points", set_points, sets=tuple(i for i, p in scored if p)))
        if pair.tile in DRAGONS:
            pair_points = PAIR_POINTS
        else:
            pair_points = PAIR_POINTS * (
                (pair.tile == 27 + hand.seat_wind) + (pair.tile == 27 + hand.prevailing_wind)
            )
        if pair_points:
            lines.append(Line("pair_points", pair_points, sets=(4,)))
        if hand.self_drawn:
            lines.append(Line("self_drawn", 2))
        place = next(i for i in range(5) if sets[i].winning)
        winning_set = sets[place]
        two_sided = False
        if winning_set.kind == PAIR:
            lines.append(Line("out_on_pair", 2, sets=(place,)))
        elif winning_set.kind == CHOW:
            at = win - winning_set.tile
            rank = winning_set.tile % 9  # 0 for a chow 1-2-3, 6 for 7-8-9
            if at == 1 or (at == 2 and rank == 0) or (at == 0 and rank == 6):
                lines.append(Line("one_chance_chow", 2, sets=(place,)))
            else:
                two_sided = True
        if not self.open_hand:
            if hand.self_drawn:
                lines.append(Line("fully_concealed", 1, sets=self.every_set))
            else:
                lines.append(Line("concealed_hand", 10))

        # Basic sets.
        if dragons:
            lines.append(Line("dragon_pung", 1, len(dragons), tuple(dragons)))
        for i in winds:
            if sets[i].tile == 27 + hand.seat_wind:
                lines.append(Line("own_wind_pung", 1, sets=(i,)))
            if sets[i].tile == 27 + hand.prevailing_wind:
                lines.append(Line("round_wind_pung", 1, sets=(i,)))

        # Chows.
        if len(chows) >= 2:
            lines.extend(_chow_patterns(sets, chows))

        # Pungs and kongs.
        if len(dragons) == 2 and pair.tile in DRAGONS:
            lines.append(Line("little_three_dragons", 4, sets=(*dragons, 4)))
        if len(triplets) >= 3:
            by_rank: dict[int, list[int]] = {}
            for i in triplets:
                if sets[i].tile < 27:
                    by_rank.setdefault(sets[i].tile % 9, []).append(i)
            for members in by_rank.values():
                if len(members) == 3:
                    lines.append(Line("three_same_number_pungs", 1, sets=tuple(members)))
            kongs = [i for i in triplets if sets[i].kind == KONG]
            if len(kongs) >= 3:
                lines.append(Line("three_kongs", 2, sets=tuple(kongs)))
        n_concealed = len(concealed_triplets)
        if len(triplets) == 4 and n_concealed:
            key = {
                1: "four_triplets_one_concealed",
                2: "four_triplets_two_concealed",
                3: "four_triplets_three_concealed",
            }[n_concealed]
            lines.append(Line(key, BY_KEY[key].value, sets=tuple(triplets)))
        elif n_concealed == 3:
            lines.append(Line("three_concealed_triplets", 2, sets=tuple(concealed_triplets)))

        # The whole hand.
        if len(chows) == 4 and not pair_points and two_sided:
            lines.append(Line("no_points_hand", 1, sets=self.every_set))
        if all(any(tile in TERMINALS_OR_HONORS for tile in part.tiles) for part in sets):
            lines.append(Line("terminal_or_honor_each_set", 1, sets=self.every_set))
        lines.extend(self.tile_lines)
        lines.extend(self.situation_lines)
        return _finish("regular", sets, lines)


def _chow_patterns(sets: tuple[JtSet, ...], chows: list[int]) -> list[Line]:
    """The patterns based on chows; an a/b* pattern takes its concealed value when the most
    concealed choice of its sets is all concealed."""
    lines: list[Line] = []
    by_start: dict[int, list[int]] = {}
    for i in chows:
        by_start.setdefault(sets[i].tile, []).append(i)

    def pick(members: list[int], n: int) -> tuple[tuple[int, ...], bool]:
        """The `n` most concealed of identical chows, and whether they are all concealed."""
        chosen = sorted(members, key=lambda i: not sets[i].concealed)[:n]
        return tuple(sorted(chosen)), all(sets[i].concealed for i in chosen)

    identical: tuple[str, tuple[int, ...], bool] | None = None
    for members in by_start.values():
        if len(members) >= 3:
            chosen, concealed = pick(members, 3)
            identical = ("three_identical_chows", chosen, concealed)
            break
        if len(members) == 2:
            chosen, concealed = pick(members, 2)
            if identical is None or (concealed and not identical[2]):
                identical = ("two_identical_chows", chosen, concealed)
    if identical is not None:
        key, chosen, concealed = identical
        lines.append(_ab_line(key, chosen, concealed))
    if len(by_start) >= 3:
        for rank in range(7):
            starts = [suit * 9 + rank for suit in range(3)]
            if all(start in by_start for start in starts):
                chosen_sets = [pick(by_start[start], 1) for start in starts]
                lines.append(
                    _ab_line(
                        "same_chow_three_suits",
                        tuple(sorted(c[0][0] for c in chosen_sets)),
                        all(c[1] for c in chosen_sets),
                    )
                )
                break
        for suit in range(3):
            starts = [suit * 9, suit * 9 + 3, suit * 9 + 6]
            if all(start in by_start for start in starts):
                chosen_sets = [pick(by_start[start], 1) for start in starts]
                lines.append(
                    _ab_line(
                        "pure_straight",
                        tuple(sorted(c[0][0] for c in chosen_sets)),
                        all(c[1] for c in chosen_sets),
                    )
                )
                break
    return lines


def _ab_line(key: str, chosen: tuple[int, ...], concealed: bool) -> Line:
    pattern = BY_KEY[key]
    value = (
        pattern.concealed_value
        if concealed and pattern.concealed_value is not None
        else pattern.value
    )
    return Line(key, value, sets=chosen)
