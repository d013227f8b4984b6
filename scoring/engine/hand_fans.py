"""Fans of the hand as a whole (situation, suits, tile kinds, ranks, winds, waits) and the
"does not combine with" rules that remove implied fans."""

from __future__ import annotations

from collections.abc import Iterable

from . import fans as F
from .situation import P_CHOW, PAIR, Pack, Situation
from .tiles import DRAGONS, GREEN_TILES, HONORS, REVERSIBLE, TERMINALS, TERMINALS_OR_HONORS, WINDS

Exclusions = tuple[tuple[int, tuple[int, ...]], ...]

#: "Does not combine with", applied in this order once all fans of an arrangement are found:
#: when the first fan is present, the others are not counted. Exclusions that follow from the
#: shape itself (Full Flush is never also One Voided Suit, Pure Triple Chow never also Pure
#: Double Chow from the same chows, ...) are handled where those fans are found. A ruling
#: profile may let a pair combine or keep another apart (`profiles.Rulings.exclusions`).
EXCLUSIONS: Exclusions = (
    (F.BIG_FOUR_WINDS, (F.ALL_PUNGS, F.PUNG_OF_TERMINALS_OR_HONORS)),
    (F.BIG_THREE_DRAGONS, (F.DRAGON_PUNG,)),
    (F.ALL_GREEN, (F.HALF_FLUSH, F.ONE_VOIDED_SUIT)),
    (F.FOUR_KONGS, (F.SINGLE_WAIT,)),
    (
        F.ALL_TERMINALS,
        (F.ALL_PUNGS, F.OUTSIDE_HAND, F.PUNG_OF_TERMINALS_OR_HONORS, F.NO_HONORS, F.DOUBLE_PUNG),
    ),
    (F.LITTLE_FOUR_WINDS, (F.PUNG_OF_TERMINALS_OR_HONORS,)),
    (F.LITTLE_THREE_DRAGONS, (F.DRAGON_PUNG,)),
    (F.ALL_HONORS, (F.ALL_PUNGS, F.OUTSIDE_HAND, F.PUNG_OF_TERMINALS_OR_HONORS, F.ONE_VOIDED_SUIT)),
    (F.FOUR_CONCEALED_PUNGS, (F.ALL_PUNGS, F.CONCEALED_HAND)),
    (F.PURE_TERMINAL_CHOWS, (F.FULL_FLUSH, F.ALL_CHOWS, F.NO_HONORS)),
    (F.FOUR_PURE_SHIFTED_PUNGS, (F.ALL_PUNGS,)),
    (F.ALL_TERMINALS_AND_HONORS, (F.ALL_PUNGS, F.OUTSIDE_HAND, F.PUNG_OF_TERMINALS_OR_HONORS)),
    (F.ALL_EVEN_PUNGS, (F.ALL_PUNGS, F.ALL_SIMPLES, F.NO_HONORS)),
    (F.UPPER_TILES, (F.NO_HONORS,)),
    (F.MIDDLE_TILES, (F.ALL_SIMPLES, F.NO_HONORS)),
    (F.LOWER_TILES, (F.NO_HONORS,)),
    (F.THREE_SUITED_TERMINAL_CHOWS, (F.ALL_CHOWS, F.NO_HONORS)),
    (F.ALL_FIVES, (F.ALL_SIMPLES, F.NO_HONORS)),
    (F.UPPER_FOUR, (F.NO_HONORS,)),
    (F.LOWER_FOUR, (F.NO_HONORS,)),
    (F.REVERSIBLE_TILES, (F.ONE_VOIDED_SUIT,)),
    (F.LAST_TILE_DRAW, (F.SELF_DRAWN,)),
    (F.OUT_WITH_REPLACEMENT_TILE, (F.SELF_DRAWN,)),
    (F.MELDED_HAND, (F.SINGLE_WAIT,)),
    (F.TWO_DRAGON_PUNGS, (F.DRAGON_PUNG,)),
    (F.FULLY_CONCEALED_HAND, (F.SELF_DRAWN,)),
    (F.ALL_CHOWS, (F.NO_HONORS,)),
    (F.ALL_SIMPLES, (F.NO_HONORS,)),
)


#: Fans whose sets already include the three wind pungs, so those pungs are not counted again
#: as Pung of Terminals or Honors.
_WINDS_COUNTED_BY = (
    F.BIG_THREE_WINDS,
    F.ALL_TERMINALS_AND_HONORS,
    F.ALL_HONORS,
    F.LITTLE_FOUR_WINDS,
)


#: Fans of hands whose shape already implies the concealment. Self-drawn with no claimed set,
#: such a hand scores Self-Drawn, not Fully Concealed Hand, unless the ruling profile names the
#: fan in `fully_concealed` (the Green Book: "combines with Fully Concealed if self-drawn").
CONCEALED_SHAPES = (
    F.NINE_GATES,
    F.FOUR_CONCEALED_PUNGS,
    F.SEVEN_PAIRS,
    F.SEVEN_SHIFTED_PAIRS,
    F.THIRTEEN_ORPHANS,
    F.LESSER_HONORS_AND_KNITTED_TILES,
    F.GREATER_HONORS_AND_KNITTED_TILES,
)


def concealed_self_draw(t: list[int], s: Situation, fully_concealed: frozenset[int]) -> None:
    """Fully Concealed Hand or Self-Drawn for a hand concealed by its shape (CONCEALED_SHAPES),
    self-drawn with no claimed set (concealed kongs allowed). Called before the exclusions:
    where Last Tile Draw or Out with Replacement Tile replaces Self-Drawn, it stays replaced."""
    if not s.self_drawn or s.claimed:
        return
    for fan in CONCEALED_SHAPES:
        if t[fan]:
            replaced = t[F.LAST_TILE_DRAW] or t[F.OUT_WITH_REPLACEMENT_TILE]
            if fan in fully_concealed:
                t[F.FULLY_CONCEALED_HAND] = 1
                t[F.SELF_DRAWN] = 0
            else:
                t[F.FULLY_CONCEALED_HAND] = 0
                t[F.SELF_DRAWN] = 0 if replaced else 1
            return


def apply_exclusions(t: list[int], exclusions: Exclusions) -> None:
    for fan, excluded in exclusions:
        if t[fan]:
            for other in excluded:
                t[other] = 0
    if t[F.BIG_THREE_WINDS] and not (t[F.ALL_HONORS] or t[F.ALL_TERMINALS_AND_HONORS]):
        t[F.PUNG_OF_TERMINALS_OR_HONORS] -= 3


def situation_fans(t: list[int], s: Situation) -> None:
    if s.last_tile:
        t[F.LAST_TILE] = 1
    if s.self_drawn:
        t[F.SELF_DRAWN] = 1
        if s.last_wall_tile:
            t[F.LAST_TILE_DRAW] = 1
            t[F.SELF_DRAWN] = 0
        if s.replacement_tile:
            t[F.OUT_WITH_REPLACEMENT_TILE] = 1
            t[F.SELF_DRAWN] = 0
    else:
        if s.last_wall_tile:
            t[F.LAST_TILE_CLAIM] = 1
        if s.robbing_the_kong:
            t[F.ROBBING_THE_KONG] = 1
            t[F.LAST_TILE] = 0  # a robbed tile is always the last of its kind


def suit_fans(tiles: frozenset[int], t: list[int]) -> None:
    suits = {tile // 9 if tile < 27 else 3 for tile in tiles}
    has_honors = 3 in suits
    if not has_honors:
        t[F.NO_HONORS] = 1
    voided = 3 - len(suits - {3})
    if voided == 2:
        if has_honors:
            t[F.HALF_FLUSH] = 1
        else:
            t[F.FULL_FLUSH] = 1
            t[F.NO_HONORS] = 0
    elif voided:
        t[F.ONE_VOIDED_SUIT] = voided
    if len(suits) == 4 and tiles & WINDS and tiles & DRAGONS:
        t[F.ALL_TYPES] = 1


def tile_fans(tiles: frozenset[int], t: list[int]) -> None:
    simples = not (tiles & TERMINALS_OR_HONORS)
    if simples:
        t[F.ALL_SIMPLES] = 1
    if tiles <= REVERSIBLE:
        t[F.REVERSIBLE_TILES] = 1
    if tiles <= GREEN_TILES:
        t[F.ALL_GREEN] = 1
    if simples:
        return
    if tiles <= HONORS:
        t[F.ALL_HONORS] = 1
    elif tiles <= TERMINALS:
        t[F.ALL_TERMINALS] = 1
    elif tiles <= TERMINALS_OR_HONORS:
        t[F.ALL_TERMINALS_AND_HONORS] = 1


def rank_fans(tiles: frozenset[int], t: list[int]) -> None:
    if tiles & HONORS:
        return
    ranks = {tile % 9 + 1 for tile in tiles}
    if max(ranks) <= 4:
        t[F.LOWER_FOUR if 4 in ranks else F.LOWER_TILES] = 1
    elif min(ranks) >= 6:
        t[F.UPPER_FOUR if 6 in ranks else F.UPPER_TILES] = 1
    elif min(ranks) >= 4 and max(ranks) <= 6:
        t[F.MIDDLE_TILES] = 1


def tile_fans_of_hand(tiles: frozenset[int], t: list[int]) -> None:
    suit_fans(tiles, t)
    tile_fans(tiles, t)
    rank_fans(tiles, t)


def wind_fans(wind_tiles: list[int], s: Situation, t: list[int]) -> None:
    """Prevalent Wind and Seat Wind; such a pung is then no longer a Pung of Terminals or
    Honors, unless a larger wind fan already took it."""
    for tile in wind_tiles:
        counted = any(t[fan] for fan in _WINDS_COUNTED_BY)
        if tile == s.prevailing_wind:
            t[F.PREVALENT_WIND] = 1
            if not counted:
                t[F.PUNG_OF_TERMINALS_OR_HONORS] -= 1
        if tile == s.seat_wind:
            t[F.SEAT_WIND] = 1
            if s.seat_wind != s.prevailing_wind and not counted:
                t[F.PUNG_OF_TERMINALS_OR_HONORS] -= 1


def wait_fans(packs: Iterable[Pack], win_tile: int, t: list[int]) -> None:
    """Edge, Closed or Pair Wait from the concealed packs holding the winning tile (called
    only when the hand could be completed by one tile only)."""
    edge = closed = pair = False
    for kind, tile, _melded in packs:
        if kind == P_CHOW:
            if tile == win_tile:
                closed = True
            elif tile + 1 == win_tile or tile - 1 == win_tile:
                edge = True
        elif kind == PAIR and tile == win_tile:
            pair = True
    if edge:
        t[F.EDGE_WAIT] = 1
    elif closed:
        t[F.CLOSED_WAIT] = 1
    elif pair:
        t[F.SINGLE_WAIT] = 1
