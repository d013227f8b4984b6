"""Special shapes: Seven Pairs, Seven Shifted Pairs, Honors and Knitted Tiles, Thirteen
Orphans, Knitted Straight with a set and a pair, and Nine Gates."""

from __future__ import annotations

from . import fans as F
from .arrange import arrangements, has_other_wait
from .hand_fans import (
    apply_exclusions,
    concealed_self_draw,
    situation_fans,
    tile_fans_of_hand,
    wait_fans,
    wind_fans,
)
from .profiles import Rulings
from .situation import P_CHOW, P_KONG, P_PUNG, PAIR, Pack, Situation, Verdict
from .tiles import DRAGONS, KNITTED_STRAIGHTS, TERMINALS, THIRTEEN_ORPHANS, WINDS

N_FANS = F.COUNT


def special_shapes(s: Situation, rulings: Rulings) -> Verdict | None:
    standing = s.standing
    tiles = s.tiles
    distinct = len(tiles)
    if distinct <= 7 and all(n % 2 == 0 for n in standing):
        t = [0] * N_FANS
        win = s.win_tile
        if win < 27 and _seven_shifted_pairs(standing, win // 9):
            t[F.SEVEN_SHIFTED_PAIRS] = 1
            base = win // 9 * 9
            if not standing[base] and not standing[base + 8]:
                t[F.ALL_SIMPLES] = 1
            _situation(t, s, rulings)
            return Verdict(t, "seven_shifted_pairs", None, s)
        t[F.SEVEN_PAIRS] = 1
        tile_fans_of_hand(tiles, t)
        hog = sum(1 for tile in rulings.tile_hog_tiles if standing[tile] == 4)
        if hog:
            t[F.TILE_HOG] = hog
        _situation(t, s, rulings)
        apply_exclusions(t, rulings.exclusions)
        return Verdict(t, "seven_pairs", None, s)
    if distinct == 14:
        suited = sorted(tile for tile in tiles if tile < 27)
        if 7 <= len(suited) <= 9 and any(set(suited) <= set(k) for k in KNITTED_STRAIGHTS):
            t = [0] * N_FANS
            if len(suited) == 7:
                t[F.GREATER_HONORS_AND_KNITTED_TILES] = 1
            else:
                t[F.LESSER_HONORS_AND_KNITTED_TILES] = 1
                if len(suited) == 9:
                    t[F.KNITTED_STRAIGHT] = 1
            _situation(t, s, rulings)
            return Verdict(t, "honors_and_knitted", None, s)
    if distinct == 13 and tuple(sorted(tiles)) == THIRTEEN_ORPHANS:
        t = [0] * N_FANS
        t[F.THIRTEEN_ORPHANS] = 1
        _situation(t, s, rulings)
        return Verdict(t, "thirteen_orphans", None, s)
    return None


def _situation(t: list[int], s: Situation, rulings: Rulings) -> None:
    situation_fans(t, s)
    concealed_self_draw(t, s, rulings.fully_concealed)


def _seven_shifted_pairs(standing: list[int], suit: int) -> bool:
    base = suit * 9
    ranks = [standing[base + r] for r in range(9)]
    for start in range(3):
        if all(n == 2 for n in ranks[start : start + 7]):
            return True
    return False


def knitted_straight(  # noqa: C901 - one branch per kind of fourth set and the fans it adds, flat
    s: Situation, rulings: Rulings
) -> Verdict | None:
    """Knitted Straight as three chows, with one more set and a pair."""
    standing = s.standing
    if len(s.tiles) < 9 or not any(n >= 2 for n in standing):
        return None
    knitted = next((k for k in KNITTED_STRAIGHTS if all(standing[t] for t in k)), None)
    if knitted is None:
        return None
    rest = standing[:]
    for tile in knitted:
        rest[tile] -= 1
    if s.fixed_packs:
        fourth = s.fixed_packs[0]
        pairs = [tile for tile in range(34) if rest[tile] == 2]
        if len(pairs) != 1 or sum(rest) != 2:
            return None
        pair = pairs[0]
        concealed_sets: list[Pack] = []
    else:
        splits = arrangements(rest)
        if len(splits) != 1:
            return None
        (code,), pair = splits[0]
        tile = code >> 1
        fourth = (P_CHOW, tile + 1, False) if code & 1 else (P_PUNG, tile, False)
        concealed_sets = [fourth]
    kind, tile, melded = fourth
    merged = [a + b for a, b in zip(standing, s.fixed, strict=True)]
    t = [0] * N_FANS
    t[F.KNITTED_STRAIGHT] = 1
    if kind == P_CHOW:
        if pair < 27:
            t[F.ALL_CHOWS] = 1
        if merged[pair] == 4:
            t[F.TILE_HOG] = 1
    elif tile in WINDS:
        t[F.PUNG_OF_TERMINALS_OR_HONORS] = 1
        wind_fans([tile], s, t)
        if pair in DRAGONS:
            t[F.ALL_TYPES] = 1
    elif tile in DRAGONS:
        t[F.DRAGON_PUNG] = 1
        if pair in WINDS:
            t[F.ALL_TYPES] = 1
    else:
        if tile in TERMINALS:
            t[F.PUNG_OF_TERMINALS_OR_HONORS] = 1
        if pair < 27:
            t[F.NO_HONORS] = 1
        if kind != P_KONG and merged[tile] == 4:
            t[F.TILE_HOG] = 1
    situation_fans(t, s)
    if melded:
        if kind == P_KONG:
            t[F.MELDED_KONG] = 1
    else:
        if kind == P_KONG:
            t[F.CONCEALED_KONG] = 1
        if s.self_drawn:
            t[F.FULLY_CONCEALED_HAND] = 1
            t[F.SELF_DRAWN] = 0
        else:
            t[F.CONCEALED_HAND] = 1
    win = s.win_tile
    if not s.fixed_packs:
        # The wait counts from the set and pair outside the knitted straight (RULINGS.md).
        if rest[win]:
            rest[win] -= 1
            unique = not has_other_wait(rest, win, seven_pairs=False)
            rest[win] += 1
            if unique:
                wait_fans(concealed_sets + [(PAIR, pair, False)], win, t)
    elif win not in knitted or standing[win] == 3:
        t[F.SINGLE_WAIT] = 1
    apply_exclusions(t, rulings.exclusions)
    return Verdict(t, "knitted_straight", [fourth, (PAIR, pair, False)], s, knitted=knitted)


def nine_gates(s: Situation, rulings: Rulings) -> Verdict | None:
    """1112345678999 of one suit, concealed, plus any tile of that suit."""
    win = s.win_tile
    if win >= 27 or len(s.tiles) != 9:
        return None
    standing = s.standing
    base = win // 9 * 9
    counts = standing[base : base + 9]
    if sum(counts) != 14:
        return None
    shape = [3, 1, 1, 1, 1, 1, 1, 1, 3]
    rank = win % 9 + 1
    shape[rank - 1] += 1
    if counts != shape:
        return None
    t = [0] * N_FANS
    t[F.NINE_GATES] = 1
    # What the winning tile adds to the gates (RULINGS.md).
    if rank in (1, 9):
        t[F.PURE_STRAIGHT] = 1
        t[F.TILE_HOG] = 1
    elif rank in (2, 8):
        t[F.TWO_CONCEALED_PUNGS] = 1
        t[F.SHORT_STRAIGHT] = 1
        t[F.PUNG_OF_TERMINALS_OR_HONORS] = 1
    elif rank == 5:
        t[F.TWO_CONCEALED_PUNGS] = 1
        t[F.PUNG_OF_TERMINALS_OR_HONORS] = 1
    else:
        t[F.SHORT_STRAIGHT] = 1
    _situation(t, s, rulings)
    apply_exclusions(t, rulings.exclusions)
    return Verdict(t, "nine_gates", None, s)
