"""The arrangement behind a verdict, and which sets each fan counted — for people reading a
breakdown. Worked out only when asked for; scoring itself does not need it."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from . import fans as F
from .combos import three_chows, three_pungs, two_chows, two_pungs
from .situation import P_CHOW, P_KONG, P_PUNG, Pack, Verdict
from .tiles import CODES, DRAGONS, TERMINALS_OR_HONORS, WINDS


@dataclass(frozen=True, slots=True)
class SetLine:
    """One part of the arrangement: a set, the pair, or the tiles of a special hand."""

    kind: str  # chow, pung, kong, pair, knitted, tiles
    tiles: tuple[str, ...]
    declared: bool
    concealed: bool


_KIND = {P_CHOW: "chow", P_PUNG: "pung", P_KONG: "kong", -1: "pair"}

_CHOW_PAIR_FANS = {F.PURE_DOUBLE_CHOW, F.MIXED_DOUBLE_CHOW, F.SHORT_STRAIGHT, F.TWO_TERMINAL_CHOWS}
_CHOW_TRIPLE_FANS = {
    F.PURE_STRAIGHT,
    F.PURE_SHIFTED_CHOWS,
    F.PURE_TRIPLE_CHOW,
    F.MIXED_SHIFTED_CHOWS,
    F.MIXED_TRIPLE_CHOW,
    F.MIXED_STRAIGHT,
}
_PUNG_PAIR_FANS = {F.DOUBLE_PUNG, F.TWO_DRAGON_PUNGS}
_PUNG_TRIPLE_FANS = {
    F.MIXED_SHIFTED_PUNGS,
    F.TRIPLE_PUNG,
    F.PURE_SHIFTED_PUNGS,
    F.BIG_THREE_WINDS,
    F.BIG_THREE_DRAGONS,
}
#: Fans about the hand as a whole: every set takes part.
_WHOLE_HAND = {
    F.ALL_PUNGS,
    F.ALL_CHOWS,
    F.OUTSIDE_HAND,
    F.ALL_FIVES,
    F.ALL_EVEN_PUNGS,
    F.FULL_FLUSH,
    F.HALF_FLUSH,
    F.ALL_SIMPLES,
    F.ALL_TYPES,
    F.ONE_VOIDED_SUIT,
    F.NO_HONORS,
    F.ALL_GREEN,
    F.ALL_HONORS,
    F.ALL_TERMINALS,
    F.ALL_TERMINALS_AND_HONORS,
    F.REVERSIBLE_TILES,
    F.UPPER_TILES,
    F.MIDDLE_TILES,
    F.LOWER_TILES,
    F.UPPER_FOUR,
    F.LOWER_FOUR,
    F.CHICKEN_HAND,
    F.QUADRUPLE_CHOW,
    F.FOUR_SHIFTED_CHOWS,
    F.FOUR_PURE_SHIFTED_PUNGS,
    F.BIG_FOUR_WINDS,
    F.PURE_TERMINAL_CHOWS,
    F.THREE_SUITED_TERMINAL_CHOWS,
    F.FOUR_KONGS,
    F.FOUR_CONCEALED_PUNGS,
    F.SEVEN_PAIRS,
    F.SEVEN_SHIFTED_PAIRS,
    F.THIRTEEN_ORPHANS,
    F.NINE_GATES,
    F.LESSER_HONORS_AND_KNITTED_TILES,
    F.GREATER_HONORS_AND_KNITTED_TILES,
    F.CONCEALED_HAND,
    F.FULLY_CONCEALED_HAND,
    F.MELDED_HAND,
}


def explain(verdict: Verdict) -> tuple[tuple[SetLine, ...], dict[str, tuple[int, ...]]]:
    s = verdict.situation
    hand = s.hand
    if verdict.shape == "regular":
        return _explain_regular(verdict)
    if verdict.shape in ("seven_pairs", "seven_shifted_pairs"):
        lines = tuple(
            SetLine("pair", (CODES[tile],) * 2, False, True)
            for tile in range(34)
            for _ in range(s.standing[tile] // 2)
        )
    elif verdict.shape == "knitted_straight":
        assert verdict.packs is not None
        knitted, (fourth, pair) = verdict.knitted, verdict.packs
        declared = bool(hand.melds)
        lines = (
            SetLine("knitted", tuple(CODES[t] for t in knitted), False, True),
            _set_line(fourth, declared=declared, concealed=not fourth[2]),
            _set_line(pair, declared=False, concealed=True),
        )
    else:
        tiles = tuple(CODES[tile] for tile in range(34) for _ in range(s.standing[tile]))
        lines = (SetLine("tiles", tiles, False, True),)
    everything = tuple(range(len(lines)))
    fan_sets: dict[str, tuple[int, ...]] = {}
    for fan_id, n in enumerate(verdict.table):
        if n and fan_id in _WHOLE_HAND | {F.KNITTED_STRAIGHT}:
            fan_sets[F.FANS[fan_id].key] = everything if fan_id != F.KNITTED_STRAIGHT else (0,)
    return lines, fan_sets


def _set_line(pack: Pack, *, declared: bool, concealed: bool) -> SetLine:
    kind, tile, _melded = pack
    tiles: tuple[int, ...]
    if kind == P_CHOW:
        tiles = (tile - 1, tile, tile + 1)
    elif kind == P_KONG:
        tiles = (tile,) * 4
    elif kind == P_PUNG:
        tiles = (tile,) * 3
    else:
        tiles = (tile,) * 2
    return SetLine(_KIND[kind], tuple(CODES[t] for t in tiles), declared, concealed)


def _explain_regular(  # noqa: C901 - one branch per fan family, flat, mirrors the fan list
    verdict: Verdict,
) -> tuple[tuple[SetLine, ...], dict[str, tuple[int, ...]]]:
    s = verdict.situation
    packs = verdict.packs
    assert packs is not None
    n_declared = len(s.fixed_packs)
    lines: list[SetLine] = []
    for index, pack in enumerate(packs):
        declared = index < n_declared
        lines.append(_set_line(pack, declared=declared, concealed=not pack[2]))
    chows = [i for i, p in enumerate(packs) if p[0] == P_CHOW]
    pungs = [i for i, p in enumerate(packs) if p[0] in (P_PUNG, P_KONG)]
    kongs = [i for i, p in enumerate(packs) if p[0] == P_KONG]
    pair = len(packs) - 1
    win = s.win_tile
    table = verdict.table
    fan_sets: dict[str, tuple[int, ...]] = {}

    def tile(i: int) -> int:
        return packs[i][1]

    for fan_id, n in enumerate(table):
        if not n:
            continue
        used: set[int] = set()
        if fan_id in _WHOLE_HAND:
            used = set(range(len(packs)))
        elif fan_id in _CHOW_PAIR_FANS:
            for a, b in combinations(chows, 2):
                if two_chows(tile(a), tile(b)) == fan_id:
                    used |= {a, b}
        elif fan_id in _CHOW_TRIPLE_FANS:
            for combo in combinations(chows, 3):
                ordered = sorted(combo, key=tile)
                if three_chows(*(tile(i) for i in ordered)) == fan_id:
                    used |= set(combo)
                    break
        elif fan_id in _PUNG_PAIR_FANS:
            for a, b in combinations(pungs, 2):
                if two_pungs(tile(a), tile(b)) == fan_id:
                    used |= {a, b}
        elif fan_id in _PUNG_TRIPLE_FANS:
            for combo in combinations(pungs, 3):
                ordered = sorted(combo, key=tile)
                if three_pungs(*(tile(i) for i in ordered)) == fan_id:
                    used |= set(combo)
                    break
        elif fan_id in (F.LITTLE_THREE_DRAGONS, F.LITTLE_FOUR_WINDS):
            group = DRAGONS if fan_id == F.LITTLE_THREE_DRAGONS else WINDS
            used = {i for i in pungs if tile(i) in group} | {pair}
        elif fan_id == F.DRAGON_PUNG:
            used = {i for i in pungs if tile(i) in DRAGONS}
        elif fan_id == F.PUNG_OF_TERMINALS_OR_HONORS:
            used = {
                i
                for i in pungs
                if tile(i) in TERMINALS_OR_HONORS
                and tile(i) not in DRAGONS
                and tile(i) not in (s.seat_wind, s.prevailing_wind)
            }
        elif fan_id == F.PREVALENT_WIND:
            used = {i for i in pungs if tile(i) == s.prevailing_wind}
        elif fan_id == F.SEAT_WIND:
            used = {i for i in pungs if tile(i) == s.seat_wind}
        elif fan_id in (F.MELDED_KONG, F.TWO_MELDED_KONGS):
            used = {i for i in kongs if packs[i][2]}
        elif fan_id in (F.CONCEALED_KONG, F.TWO_CONCEALED_KONGS):
            used = {i for i in kongs if not packs[i][2]}
        elif fan_id in (F.THREE_KONGS,):
            used = set(kongs)
        elif fan_id in (F.TWO_CONCEALED_PUNGS, F.THREE_CONCEALED_PUNGS):
            used = {
                i
                for i in pungs
                if not packs[i][2]
                and not (not s.self_drawn and packs[i][0] == P_PUNG and tile(i) == win)
            }
        elif fan_id == F.TILE_HOG:
            used = {
                i
                for i, p in enumerate(packs)
                if p[0] != P_KONG and any(s.standing[t] + s.fixed[t] == 4 for t in _tiles_of(p))
            }
        elif fan_id in (F.EDGE_WAIT, F.CLOSED_WAIT, F.SINGLE_WAIT):
            used = {i for i in range(n_declared, len(packs)) if win in _tiles_of(packs[i])}
        if used:
            fan_sets[F.FANS[fan_id].key] = tuple(sorted(used))
    return tuple(lines), fan_sets


def _tiles_of(pack: Pack) -> tuple[int, ...]:
    kind, tile, _melded = pack
    if kind == P_CHOW:
        return (tile - 1, tile, tile + 1)
    return (tile,)
