"""Scoring a declared win: every arrangement of the tiles, every fan, the exclusions, the best
total. Plain Python, no Django.

How a hand is scored
--------------------
1. The hand is checked (tile count, copies, declared sets, situation flags).
2. Without declared sets the special shapes are tried first: Seven Pairs (and Seven Shifted
   Pairs), Honors and Knitted Tiles, Thirteen Orphans, then Knitted Straight with a set and a
   pair, then Nine Gates. Knitted Straight is also tried with one declared set.
3. Otherwise (and also for Seven Pairs, whose tiles may score more as sets) every split into
   four sets and a pair is scored, and the highest total wins (the freedom to choose). When
   two splits tie, the first in trial order wins, except that a split with Pure Triple Chow
   or Triple Pung is preferred, and a split is preferred to Seven Pairs.
4. Inside one split, fans that combine sets follow the non-repeat, non-separation,
   non-identical and account-once principles (see `_chow_fans` and `_pung_fans`), and then the
   "does not combine with" rules of `EXCLUSIONS` remove implied fans.

Where the rule texts are silent the engine follows the rulings of rules/RULINGS.md.
"""

from __future__ import annotations

from . import errors
from . import fans as F
from .arrange import arrangements, waits
from .errors import HandError
from .hand import CHOW, KONG, Hand
from .tiles import (
    CODES,
    DRAGONS,
    GREEN_TILES,
    HONORS,
    KNITTED_STRAIGHTS,
    REVERSIBLE,
    TERMINALS,
    TERMINALS_OR_HONORS,
    THIRTEEN_ORPHANS,
    WINDS,
)

N_FANS = F.COUNT

# Pack kinds inside one arrangement. A pack is (kind, tile, melded); a chow's tile is its
# middle tile, so a chow of 1-2-3 has rank 2.
P_CHOW, P_PUNG, P_KONG = 0, 1, 2

#: "Does not combine with", applied in this order once all fans of an arrangement are found:
#: when the first fan is present, the others are not counted. Exclusions that follow from the
#: shape itself (Full Flush is never also One Voided Suit, Pure Triple Chow never also Pure
#: Double Chow from the same chows, ...) are handled where those fans are found.
EXCLUSIONS: tuple[tuple[int, tuple[int, ...]], ...] = (
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


def _apply_exclusions(t: list[int]) -> None:
    for fan, excluded in EXCLUSIONS:
        if t[fan]:
            for other in excluded:
                t[other] = 0
            if fan == F.FOUR_CONCEALED_PUNGS and t[F.FULLY_CONCEALED_HAND]:
                # Four Concealed Pungs already implies the concealment: only Self Drawn stays.
                t[F.FULLY_CONCEALED_HAND] = 0
                t[F.SELF_DRAWN] = 1
    if t[F.BIG_THREE_WINDS] and not (t[F.ALL_HONORS] or t[F.ALL_TERMINALS_AND_HONORS]):
        t[F.PUNG_OF_TERMINALS_OR_HONORS] -= 3


# --------------------------------------------------------------------------------------------
# Fans from combinations of chows and of pungs


def _suit(tile: int) -> int:
    return tile // 9


def _rank(tile: int) -> int:
    return tile % 9 + 1


def _two_chows(a: int, b: int) -> int:
    """The fan two chows (middle tiles) make together, or -1."""
    if a // 9 != b // 9:
        return F.MIXED_DOUBLE_CHOW if a % 9 == b % 9 else -1
    if a - b in (3, -3):
        return F.SHORT_STRAIGHT
    if {a % 9, b % 9} == {1, 7}:
        return F.TWO_TERMINAL_CHOWS
    if a == b:
        return F.PURE_DOUBLE_CHOW
    return -1


def _three_chows(a: int, b: int, c: int) -> int:
    """The fan three chows (sorted middle tiles) make together, or -1."""
    sa, sb, sc = a // 9, b // 9, c // 9
    ra, rb, rc = a % 9, b % 9, c % 9
    if sa != sb and sa != sc and sb != sc:
        low = min(ra, rb, rc)
        if {ra, rb, rc} == {low, low + 1, low + 2}:
            return F.MIXED_SHIFTED_CHOWS
        if ra == rb == rc:
            return F.MIXED_TRIPLE_CHOW
        if {ra, rb, rc} == {1, 4, 7}:
            return F.MIXED_STRAIGHT
        return -1
    if sa == sb == sc:
        if b - a == 3 and c - b == 3:
            return F.PURE_STRAIGHT
        if (b - a == 2 and c - b == 2) or (b - a == 1 and c - b == 1):
            return F.PURE_SHIFTED_CHOWS
        if a == b == c:
            return F.PURE_TRIPLE_CHOW
    return -1


def _four_chows(a: int, b: int, c: int, d: int) -> int:
    if a // 9 == d // 9:
        if b - a == c - b == d - c and b - a in (1, 2):
            return F.FOUR_SHIFTED_CHOWS
        if a == d:
            return F.QUADRUPLE_CHOW
    return -1


#: When a three-chow fan leaves one chow over, that chow may still count once with one of the
#: three: the first of these it makes.
_EXTRA_CHOW_ORDER = (
    F.PURE_DOUBLE_CHOW,
    F.MIXED_DOUBLE_CHOW,
    F.SHORT_STRAIGHT,
    F.TWO_TERMINAL_CHOWS,
)
_PAIR_FANS = _EXTRA_CHOW_ORDER


def _account_once(found: list[int], most: int, t: list[int]) -> None:
    """Count two-chow fans when each chow may join others only as often as the account-once
    principle allows: at most `most` fans in all. Repeats of the same fan go first, cheapest
    fan first, then single fans, cheapest first."""
    counts = [found.count(fan) for fan in _PAIR_FANS]
    total = sum(counts)
    for limit in (1, 0):
        index = 4
        while total > most and index > 0:
            index -= 1
            while counts[index] > limit and total > most:
                counts[index] -= 1
                total -= 1
    for fan, n in zip(_PAIR_FANS, counts, strict=True):
        t[fan] = n


def _chow_fans(mids: list[int], t: list[int]) -> None:
    """Fans of 2 to 4 chows given by their sorted middle tiles."""
    n = len(mids)
    if n == 4:
        fan = _four_chows(*mids)
        if fan >= 0:
            t[fan] = 1
            return
        for i, j, k, rest in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)):
            fan = _three_chows(mids[i], mids[j], mids[k])
            if fan >= 0:
                t[fan] = 1
                extra = {_two_chows(mids[x], mids[rest]) for x in (i, j, k)}
                for candidate in _EXTRA_CHOW_ORDER:
                    if candidate in extra:
                        t[candidate] = 1
                        break
                return
        pairs = [_two_chows(mids[i], mids[j]) for i, j in _PAIRS_OF_4]
        most = 3
        for chow in range(4):
            if all(pairs[p] < 0 for p in _PAIRS_WITH[chow]):
                most -= 1  # a chow that combines with nothing takes no share
        if most > 0:
            _account_once([p for p in pairs if p >= 0], most, t)
    elif n == 3:
        fan = _three_chows(*mids)
        if fan >= 0:
            t[fan] = 1
            return
        pairs = [
            _two_chows(mids[0], mids[1]),
            _two_chows(mids[0], mids[2]),
            _two_chows(mids[1], mids[2]),
        ]
        _account_once([p for p in pairs if p >= 0], 2, t)
    elif n == 2:
        fan = _two_chows(mids[0], mids[1])
        if fan >= 0:
            t[fan] += 1


_PAIRS_OF_4 = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
_PAIRS_WITH = ((0, 1, 2), (0, 3, 4), (1, 3, 5), (2, 4, 5))


def _two_pungs(a: int, b: int) -> int:
    if a < 27 and b < 27:
        return F.DOUBLE_PUNG if a % 9 == b % 9 else -1
    if a in DRAGONS and b in DRAGONS:
        return F.TWO_DRAGON_PUNGS
    return -1


def _three_pungs(a: int, b: int, c: int) -> int:
    """Sorted pung tiles."""
    if c < 27:
        sa, sb, sc = a // 9, b // 9, c // 9
        ra, rb, rc = a % 9, b % 9, c % 9
        if sa != sb and sa != sc and sb != sc:
            low = min(ra, rb, rc)
            if {ra, rb, rc} == {low, low + 1, low + 2}:
                return F.MIXED_SHIFTED_PUNGS
            if ra == rb == rc:
                return F.TRIPLE_PUNG
        elif sa == sc and b == a + 1 and c == b + 1:
            return F.PURE_SHIFTED_PUNGS
        return -1
    if a in WINDS and c in WINDS:
        return F.BIG_THREE_WINDS
    if a in DRAGONS:
        return F.BIG_THREE_DRAGONS
    return -1


def _pung_fans(tiles: list[int], t: list[int]) -> None:
    """Fans of 2 to 4 pungs or kongs given by their sorted tiles."""
    n = len(tiles)
    if n == 4:
        a, b, c, d = tiles
        if d < 27 and a // 9 == d // 9 and b == a + 1 and c == b + 1 and d == c + 1:
            t[F.FOUR_PURE_SHIFTED_PUNGS] = 1
            return
        if a in WINDS and d in WINDS:
            t[F.BIG_FOUR_WINDS] = 1
            return
        for i, j, k, free in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)):
            fan = _three_pungs(tiles[i], tiles[j], tiles[k])
            if fan >= 0:
                t[fan] = 1
                # The pung left over may make one more fan with one of the three.
                for other in range(4):
                    if other != free:
                        pair = _two_pungs(tiles[other], tiles[free])
                        if pair >= 0:
                            t[pair] += 1
                            break
                return
        for i, j in _PAIRS_OF_4:
            fan = _two_pungs(tiles[i], tiles[j])
            if fan >= 0:
                t[fan] += 1
    elif n == 3:
        fan = _three_pungs(*tiles)
        if fan >= 0:
            t[fan] = 1
            return
        for i, j in ((0, 1), (0, 2), (1, 2)):
            fan = _two_pungs(tiles[i], tiles[j])
            if fan >= 0:
                t[fan] += 1
    elif n == 2:
        fan = _two_pungs(tiles[0], tiles[1])
        if fan >= 0:
            t[fan] += 1


def _kong_fans(melded_kongs: int, concealed_kongs: int, concealed_pungs: int, t: list[int]) -> None:
    """Kong fans and concealed-pung fans (a concealed kong is also a concealed pung)."""
    kongs = melded_kongs + concealed_kongs
    if kongs == 1:
        t[F.MELDED_KONG if melded_kongs else F.CONCEALED_KONG] = 1
    elif kongs == 2:
        if concealed_kongs == 2:
            t[F.TWO_CONCEALED_KONGS] = 1
        else:
            # Rules text: Two Melded Kongs "can combine with Concealed Kong for a total of 6".
            t[F.TWO_MELDED_KONGS] = 1
            if concealed_kongs == 1:
                t[F.CONCEALED_KONG] = 1
    elif kongs == 3:
        t[F.THREE_KONGS] = 1
    elif kongs == 4:
        t[F.FOUR_KONGS] = 1
    hidden = concealed_kongs + concealed_pungs
    if hidden == 2:
        if not t[F.TWO_CONCEALED_KONGS]:  # Two Concealed Kongs does not combine with it
            t[F.TWO_CONCEALED_PUNGS] = 1
    elif hidden == 3:
        t[F.THREE_CONCEALED_PUNGS] = 1
    elif hidden == 4:
        t[F.FOUR_CONCEALED_PUNGS] = 1


# --------------------------------------------------------------------------------------------
# Fans of the whole hand (the same for every arrangement)


def _situation_fans(t: list[int], s: _Situation) -> None:
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


def _suit_fans(tiles: frozenset[int], t: list[int]) -> None:
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


def _tile_fans(tiles: frozenset[int], t: list[int]) -> None:
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


def _rank_fans(tiles: frozenset[int], t: list[int]) -> None:
    if tiles & HONORS:
        return
    ranks = {tile % 9 + 1 for tile in tiles}
    if max(ranks) <= 4:
        t[F.LOWER_FOUR if 4 in ranks else F.LOWER_TILES] = 1
    elif min(ranks) >= 6:
        t[F.UPPER_FOUR if 6 in ranks else F.UPPER_TILES] = 1
    elif min(ranks) >= 4 and max(ranks) <= 6:
        t[F.MIDDLE_TILES] = 1


def _tile_fans_of_hand(tiles: frozenset[int], t: list[int]) -> None:
    _suit_fans(tiles, t)
    _tile_fans(tiles, t)
    _rank_fans(tiles, t)


def _wind_fans(wind_tiles: list[int], s: _Situation, t: list[int]) -> None:
    """Prevalent Wind and Seat Wind; such a pung is then no longer a Pung of Terminals or
    Honors, unless a larger wind fan already took it."""
    for tile in wind_tiles:
        counted = any(t[fan] for fan in _WINDS_COUNTED_BY)
        if tile == s.prevalent_wind:
            t[F.PREVALENT_WIND] = 1
            if not counted:
                t[F.PUNG_OF_TERMINALS_OR_HONORS] -= 1
        if tile == s.seat_wind:
            t[F.SEAT_WIND] = 1
            if s.seat_wind != s.prevalent_wind and not counted:
                t[F.PUNG_OF_TERMINALS_OR_HONORS] -= 1


def _wait_fans(packs, win_tile: int, t: list[int]) -> None:
    """Edge, Closed or Pair Wait from the concealed packs holding the winning tile (called
    only when the hand could be completed by one tile only)."""
    edge = closed = pair = False
    for kind, tile, _melded in packs:
        if kind == P_CHOW:
            if tile == win_tile:
                closed = True
            elif tile + 1 == win_tile or tile - 1 == win_tile:
                edge = True
        elif kind == -1 and tile == win_tile:
            pair = True
    if edge:
        t[F.EDGE_WAIT] = 1
    elif closed:
        t[F.CLOSED_WAIT] = 1
    elif pair:
        t[F.SINGLE_WAIT] = 1


# --------------------------------------------------------------------------------------------


class _Situation:
    """The hand after checks, in the shape the scoring functions want."""

    __slots__ = (
        "hand",
        "win_tile",
        "self_drawn",
        "last_tile",
        "robbing_the_kong",
        "replacement_tile",
        "last_wall_tile",
        "seat_wind",
        "prevalent_wind",
        "standing",
        "fixed",
        "fixed_packs",
        "tiles",
    )

    def __init__(self, hand: Hand) -> None:
        melds = hand.melds
        n_melds = len(melds)
        n_standing = len(hand.concealed)
        if n_melds > 4 or n_standing + 3 * n_melds != 13:
            total = n_standing + 1 + sum(4 if m.kind == KONG else 3 for m in melds)
            raise HandError(
                errors.WRONG_TILE_COUNT,
                f"A winning hand has 14 tiles (each kong adds one more); this one has {total}: "
                f"{n_standing} standing, {n_melds} declared set(s) and the winning tile.",
            )
        standing = [0] * 34
        for tile in hand.concealed:
            standing[tile] += 1
        win = hand.win_tile
        standing[win] += 1
        fixed = [0] * 34
        fixed_packs = []
        for meld in melds:
            if meld.kind == CHOW:
                fixed[meld.tile] += 1
                fixed[meld.tile + 1] += 1
                fixed[meld.tile + 2] += 1
                fixed_packs.append((P_CHOW, meld.tile + 1, True))
            elif meld.kind == KONG:
                fixed[meld.tile] += 4
                fixed_packs.append((P_KONG, meld.tile, not meld.concealed))
            else:
                fixed[meld.tile] += 3
                fixed_packs.append((P_PUNG, meld.tile, True))
        for tile in range(34):
            if standing[tile] + fixed[tile] > 4:
                raise HandError(
                    errors.TILE_COUNT_GT_4,
                    f"The hand has {standing[tile] + fixed[tile]} copies of {CODES[tile]}; "
                    "there are only four of each tile.",
                )
        has_kong = any(m.kind == KONG for m in melds)
        if hand.robbing_the_kong and hand.self_drawn:
            raise HandError(
                errors.CONTRADICTORY_SITUATION,
                "Robbing the Kong is won on a tile another player adds to a kong, "
                "so it cannot be self-drawn.",
            )
        if hand.replacement_tile and not hand.self_drawn:
            raise HandError(
                errors.CONTRADICTORY_SITUATION,
                "Out with Replacement Tile is won on the tile drawn after a kong, so "
                "it is always self-drawn.",
            )
        if hand.replacement_tile and not has_kong:
            raise HandError(
                errors.CONTRADICTORY_SITUATION,
                "Out with Replacement Tile needs a declared kong, and this hand has none.",
            )
        if hand.robbing_the_kong and (fixed[win] or standing[win] != 1):
            raise HandError(
                errors.CONTRADICTORY_SITUATION,
                f"Robbing the Kong: the other three {CODES[win]} are in the kong "
                "being made, yet this hand holds another one.",
            )
        if hand.last_tile_of_kind and standing[win] != 1:
            raise HandError(
                errors.CONTRADICTORY_SITUATION,
                f"Last of its Kind needs the other three {CODES[win]} in view, but "
                "this hand holds another one among its standing tiles.",
            )
        self.hand = hand
        self.win_tile = win
        self.self_drawn = hand.self_drawn
        # Holding the other three copies in one's own declared pung makes it the last one too.
        self.last_tile = hand.last_tile_of_kind or fixed[win] == 3
        self.robbing_the_kong = hand.robbing_the_kong
        self.replacement_tile = hand.replacement_tile
        self.last_wall_tile = hand.last_wall_tile
        self.seat_wind = 27 + hand.seat_wind
        self.prevalent_wind = 27 + hand.prevalent_wind
        self.standing = standing
        self.fixed = fixed
        self.fixed_packs = fixed_packs
        self.tiles = frozenset(t for t in range(34) if standing[t] or fixed[t])


class Verdict:
    """What `evaluate` found: the fan table (counts by fan id, flowers excluded) and the shape
    it was found in, for the explanation."""

    __slots__ = ("table", "shape", "packs", "situation")

    def __init__(self, table: list[int], shape: str, packs, situation: _Situation) -> None:
        self.table = table
        self.shape = shape
        self.packs = packs
        self.situation = situation


def _points(table: list[int], values: tuple[int, ...]) -> int:
    return sum(n * values[i] for i, n in enumerate(table) if n)


def evaluate(hand: Hand, values: tuple[int, ...]) -> Verdict:
    """The best-scoring reading of a hand. Raises HandError when it cannot be scored."""
    s = _Situation(hand)
    best: Verdict | None = None
    best_points = 0
    seven_pairs = False
    n_fixed = len(s.fixed_packs)
    if n_fixed == 0:
        best = _special_shapes(s) or _knitted_straight(s) or _nine_gates(s)
    elif n_fixed == 1:
        best = _knitted_straight(s)
    if best is not None:
        best_points = _points(best.table, values)
        seven_pairs = best.shape == "seven_pairs"
    if best is None or seven_pairs:
        splits = arrangements(s.standing)
        if splits:
            regular = _RegularContext(s)
            for sets, pair in splits:
                verdict = regular.score(sets, pair)
                points = _points(verdict.table, values)
                if points > best_points or (
                    points == best_points
                    and (
                        seven_pairs
                        or verdict.table[F.PURE_TRIPLE_CHOW]
                        or verdict.table[F.TRIPLE_PUNG]
                    )
                ):
                    best, best_points = verdict, points
    if best is None:
        raise HandError(
            errors.NOT_WIN,
            "These tiles do not make a winning hand: they cannot "
            "be split into four sets and a pair, nor into a special "
            "hand such as Seven Pairs or Thirteen Orphans.",
        )
    return best


class _RegularContext:
    """What every arrangement of one hand shares, computed once."""

    __slots__ = ("s", "base", "tile_hog", "unique_wait", "melded_packs")

    def __init__(self, s: _Situation) -> None:
        self.s = s
        base = [0] * N_FANS
        _situation_fans(base, s)
        melded = sum(1 for _kind, _tile, is_melded in s.fixed_packs if is_melded)
        if melded == 0:
            base[F.FULLY_CONCEALED_HAND if s.self_drawn else F.CONCEALED_HAND] = 1
        elif melded == 4:
            base[F.SELF_DRAWN if s.self_drawn else F.MELDED_HAND] = 1
        elif s.self_drawn:
            base[F.SELF_DRAWN] = 1
        _tile_fans_of_hand(s.tiles, base)
        self.base = base
        kongs = sum(1 for kind, _tile, _m in s.fixed_packs if kind == P_KONG)
        merged = [a + b for a, b in zip(s.standing, s.fixed, strict=True)]
        self.tile_hog = merged.count(4) - kongs
        self.unique_wait = self._unique_wait()
        self.melded_packs = s.fixed_packs

    def _unique_wait(self) -> bool:
        standing = self.s.standing
        win = self.s.win_tile
        standing[win] -= 1
        try:
            found = waits(standing, seven_pairs=len(self.s.hand.concealed) == 13)
        finally:
            standing[win] += 1
        return len(found) == 1

    def score(self, sets: tuple[int, ...], pair: int) -> Verdict:
        s = self.s
        t = self.base[:]
        win = s.win_tile
        packs = list(self.melded_packs)
        concealed_packs = []
        for code in sets:
            tile = code >> 1
            pack = (P_CHOW, tile + 1, False) if code & 1 else (P_PUNG, tile, False)
            packs.append(pack)
            concealed_packs.append(pack)
        pair_pack = (-1, pair, False)
        concealed_packs.append(pair_pack)

        chow_mids = sorted(tile for kind, tile, _m in packs if kind == P_CHOW)
        pung_tiles = sorted(tile for kind, tile, _m in packs if kind != P_CHOW)
        concealed_pungs = sum(1 for kind, _t, melded in packs if kind == P_PUNG and not melded)
        melded_kongs = sum(1 for kind, _t, melded in packs if kind == P_KONG and melded)
        concealed_kongs = sum(1 for kind, _t, melded in packs if kind == P_KONG and not melded)

        # A pung completed by another player's discard counts as melded, unless the winning
        # tile can be read as part of a concealed chow instead.
        if not s.self_drawn and not any(
            kind == P_CHOW and not melded and tile - 1 <= win <= tile + 1
            for kind, tile, melded in packs
        ):
            if any(kind == P_PUNG and not melded and tile == win for kind, tile, melded in packs):
                concealed_pungs -= 1

        if pung_tiles:
            _kong_fans(melded_kongs, concealed_kongs, concealed_pungs, t)
            if len(pung_tiles) == 4 and not t[F.FOUR_KONGS] and not t[F.FOUR_CONCEALED_PUNGS]:
                t[F.ALL_PUNGS] = 1
            for tile in pung_tiles:
                if tile in DRAGONS:
                    t[F.DRAGON_PUNG] += 1
                elif tile in TERMINALS_OR_HONORS:
                    t[F.PUNG_OF_TERMINALS_OR_HONORS] += 1

        n_chows = len(chow_mids)
        if n_chows == 4 and _terminal_chows(chow_mids, pair, t):
            pass
        elif n_chows >= 2:
            _chow_fans(chow_mids, t)
        if n_chows <= 2 and len(pung_tiles) >= 2:
            _pung_fans(pung_tiles, t)

        if n_chows == 4:
            if pair < 27:
                t[F.ALL_CHOWS] = 1
        elif t[F.TWO_DRAGON_PUNGS]:
            if pair in DRAGONS:
                t[F.LITTLE_THREE_DRAGONS] = 1
                t[F.TWO_DRAGON_PUNGS] = 0
        elif t[F.BIG_THREE_WINDS] and pair in WINDS:
            t[F.LITTLE_FOUR_WINDS] = 1
            t[F.BIG_THREE_WINDS] = 0

        _pack_traits(packs, pair, t)
        if not t[F.QUADRUPLE_CHOW] and self.tile_hog:
            t[F.TILE_HOG] = self.tile_hog
        if self.unique_wait and not t[F.MELDED_HAND] and not t[F.FOUR_KONGS]:
            _wait_fans(concealed_packs, win, t)
        _apply_exclusions(t)
        if not t[F.BIG_FOUR_WINDS]:
            _wind_fans([tile for tile in pung_tiles if tile in WINDS], s, t)
        if not any(t):
            t[F.CHICKEN_HAND] = 1
        packs.append(pair_pack)
        return Verdict(t, "regular", packs, s)


def _terminal_chows(mids: list[int], pair: int, t: list[int]) -> bool:
    """Pure or Three-Suited Terminal Chows: chows of 1-2-3 and 7-8-9 with a pair of fives."""
    if pair >= 27 or pair % 9 != 4:
        return False
    pair_suit = pair // 9
    if any(m % 9 not in (1, 7) for m in mids):
        return False
    suits = [m // 9 for m in mids]
    if pair_suit not in suits:
        others = sorted(set(suits))
        if len(others) == 2 and all(
            sorted(m % 9 for m in mids if m // 9 == suit) == [1, 7] for suit in others
        ):
            t[F.THREE_SUITED_TERMINAL_CHOWS] = 1
            return True
        return False
    if all(suit == pair_suit for suit in suits) and sorted(m % 9 for m in mids) == [1, 1, 7, 7]:
        t[F.PURE_TERMINAL_CHOWS] = 1
        return True
    return False


def _pack_traits(packs, pair: int, t: list[int]) -> None:
    """Outside Hand, All Fives, All Even Pungs: a property every set and the pair share."""
    outside = fives = even = 0
    for kind, tile, _melded in packs:
        if tile >= 27:
            outside += 1
            continue
        rank = tile % 9 + 1
        if kind == P_CHOW:
            if rank in (2, 8):
                outside += 1
            elif rank in (4, 5, 6):
                fives += 1
        elif rank in (1, 9):
            outside += 1
        elif rank == 5:
            fives += 1
        elif rank % 2 == 0:
            even += 1
    if pair >= 27:
        outside += 1
    else:
        rank = pair % 9 + 1
        if rank in (1, 9):
            outside += 1
        elif rank == 5:
            fives += 1
        elif rank % 2 == 0:
            even += 1
    if outside == 5:
        t[F.OUTSIDE_HAND] = 1
    elif fives == 5:
        t[F.ALL_FIVES] = 1
    elif even == 5:
        t[F.ALL_EVEN_PUNGS] = 1


# --------------------------------------------------------------------------------------------
# Special shapes


def _special_shapes(s: _Situation) -> Verdict | None:
    standing = s.standing
    tiles = s.tiles
    if all(n % 2 == 0 for n in standing):
        t = [0] * N_FANS
        win = s.win_tile
        if win < 27 and _seven_shifted_pairs(standing, win // 9):
            t[F.SEVEN_SHIFTED_PAIRS] = 1
            base = win // 9 * 9
            if not standing[base] and not standing[base + 8]:
                t[F.ALL_SIMPLES] = 1
            _situation_fans(t, s)
            return Verdict(t, "seven_shifted_pairs", None, s)
        t[F.SEVEN_PAIRS] = 1
        _tile_fans_of_hand(tiles, t)
        hog = standing.count(4)
        if hog:
            t[F.TILE_HOG] = hog
        _situation_fans(t, s)
        _apply_exclusions(t)
        return Verdict(t, "seven_pairs", None, s)
    if len(tiles) == 14:
        suited = sorted(tile for tile in tiles if tile < 27)
        if 7 <= len(suited) <= 9 and any(set(suited) <= set(k) for k in KNITTED_STRAIGHTS):
            t = [0] * N_FANS
            if len(suited) == 7:
                t[F.GREATER_HONORS_AND_KNITTED_TILES] = 1
            else:
                t[F.LESSER_HONORS_AND_KNITTED_TILES] = 1
                if len(suited) == 9:
                    t[F.KNITTED_STRAIGHT] = 1
            _situation_fans(t, s)
            return Verdict(t, "honors_and_knitted", None, s)
    if len(tiles) == 13 and tuple(sorted(tiles)) == THIRTEEN_ORPHANS:
        t = [0] * N_FANS
        t[F.THIRTEEN_ORPHANS] = 1
        _situation_fans(t, s)
        return Verdict(t, "thirteen_orphans", None, s)
    return None


def _seven_shifted_pairs(standing: list[int], suit: int) -> bool:
    base = suit * 9
    ranks = [standing[base + r] for r in range(9)]
    for start in range(3):
        if all(n == 2 for n in ranks[start : start + 7]):
            return True
    return False


def _knitted_straight(s: _Situation) -> Verdict | None:
    """Knitted Straight as three chows, with one more set and a pair."""
    standing = s.standing
    if not any(n >= 2 for n in standing):
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
        concealed_sets: list = []
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
        _wind_fans([tile], s, t)
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
    _situation_fans(t, s)
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
            found = waits(rest, seven_pairs=False)
            rest[win] += 1
            if len(found) == 1:
                _wait_fans(concealed_sets + [(-1, pair, False)], win, t)
    elif win not in knitted or standing[win] == 3:
        t[F.SINGLE_WAIT] = 1
    _apply_exclusions(t)
    packs = [("knitted", knitted), fourth, (-1, pair, False)]
    return Verdict(t, "knitted_straight", packs, s)


def _nine_gates(s: _Situation) -> Verdict | None:
    """1112345678999 of one suit, concealed, plus any tile of that suit."""
    win = s.win_tile
    if win >= 27:
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
    _situation_fans(t, s)
    return Verdict(t, "nine_gates", None, s)
