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

from operator import mul

from . import errors
from . import fans as F
from .arrange import arrangements, has_other_wait
from .combos import chow_fans, kong_fans, pack_traits, pung_fans, terminal_chows
from .errors import HandError
from .hand import Hand
from .hand_fans import (
    apply_exclusions,
    concealed_self_draw,
    situation_fans,
    tile_fans_of_hand,
    wait_fans,
    wind_fans,
)
from .profiles import Rulings
from .situation import P_CHOW, P_KONG, P_PUNG, PAIR, Situation, Verdict
from .special import knitted_straight, nine_gates, special_shapes
from .tiles import DRAGONS, TERMINALS_OR_HONORS, WINDS

N_FANS = F.COUNT


def _points(table: list[int], values: tuple[int, ...]) -> int:
    return sum(map(mul, table, values))


def evaluate(hand: Hand, rulings: Rulings) -> Verdict:
    """The best-scoring reading of a hand under a profile's rulings. Raises HandError when it
    cannot be scored."""
    values = rulings.values
    s = Situation(hand)
    best: Verdict | None = None
    best_points = 0
    seven_pairs = False
    n_fixed = len(s.fixed_packs)
    if n_fixed == 0:
        best = special_shapes(s, rulings) or knitted_straight(s, rulings) or nine_gates(s, rulings)
    elif n_fixed == 1:
        best = knitted_straight(s, rulings)
    if best is not None:
        best_points = _points(best.table, values)
        seven_pairs = best.shape == "seven_pairs"
    if best is None or seven_pairs:
        splits = arrangements(s.standing)
        if splits:
            regular = _RegularContext(s, rulings)
            for sets, pair in splits:
                verdict = regular.score(sets, pair)
                table = verdict.table
                points = _points(table, values)
                if points > best_points or (
                    points == best_points
                    and (seven_pairs or table[F.PURE_TRIPLE_CHOW] or table[F.TRIPLE_PUNG])
                ):
                    best, best_points = verdict, points
    if best is None:
        raise HandError(errors.NOT_WIN, "not_a_winning_hand")
    best.points = best_points
    return best


class _RegularContext:
    """What every arrangement of one hand shares, computed once."""

    __slots__ = (
        "s",
        "rulings",
        "base",
        "tile_hog",
        "_unique_wait",
        "melded_packs",
        "fixed_chows",
        "fixed_pungs",
        "melded_kongs",
        "concealed_kongs",
    )

    def __init__(self, s: Situation, rulings: Rulings) -> None:
        self.s = s
        self.rulings = rulings
        base = [0] * N_FANS
        situation_fans(base, s)
        melded = 0
        fixed_chows: list[int] = []
        fixed_pungs: list[int] = []
        melded_kongs = concealed_kongs = 0
        for kind, tile, is_melded in s.fixed_packs:
            if is_melded:
                melded += 1
            if kind == P_CHOW:
                fixed_chows.append(tile)
            else:
                fixed_pungs.append(tile)
                if kind == P_KONG:
                    if is_melded:
                        melded_kongs += 1
                    else:
                        concealed_kongs += 1
        if melded == 0:
            base[F.FULLY_CONCEALED_HAND if s.self_drawn else F.CONCEALED_HAND] = 1
        elif melded == 4:
            base[F.SELF_DRAWN if s.self_drawn else F.MELDED_HAND] = 1
        elif s.self_drawn:
            base[F.SELF_DRAWN] = 1
        tile_fans_of_hand(s.tiles, base)
        self.base = base
        standing, fixed = s.standing, s.fixed
        # Four copies of an honour outside Seven Pairs are always a kong, so the profile's
        # Tile Hog tiles change nothing here.
        fours = sum(1 for tile in s.tiles if standing[tile] + fixed[tile] == 4)
        self.tile_hog = fours - melded_kongs - concealed_kongs
        self._unique_wait: bool | None = None
        self.melded_packs = s.fixed_packs
        self.fixed_chows = fixed_chows
        self.fixed_pungs = fixed_pungs
        self.melded_kongs = melded_kongs
        self.concealed_kongs = concealed_kongs

    @property
    def unique_wait(self) -> bool:
        """Whether the winning tile was the only tile that could complete the hand."""
        if self._unique_wait is None:
            standing = self.s.standing
            win = self.s.win_tile
            standing[win] -= 1
            try:
                self._unique_wait = not has_other_wait(
                    standing, win, seven_pairs=len(self.s.hand.concealed) == 13
                )
            finally:
                standing[win] += 1
        return self._unique_wait

    def score(  # noqa: C901 - the engine's inner loop: one arrangement's set fans in one pass
        self, sets: tuple[int, ...], pair: int
    ) -> Verdict:
        s = self.s
        t = self.base[:]
        win = s.win_tile
        chow_mids = self.fixed_chows[:]
        pung_tiles = self.fixed_pungs[:]
        concealed_packs = []
        concealed_pungs = 0
        win_in_chow = False
        win_pung = False
        for code in sets:
            tile = code >> 1
            if code & 1:
                mid = tile + 1
                chow_mids.append(mid)
                concealed_packs.append((P_CHOW, mid, False))
                if tile <= win <= tile + 2:
                    win_in_chow = True
            else:
                pung_tiles.append(tile)
                concealed_packs.append((P_PUNG, tile, False))
                concealed_pungs += 1
                if tile == win:
                    win_pung = True
        pair_pack = (PAIR, pair, False)
        concealed_packs.append(pair_pack)

        # A pung completed by another player's discard counts as melded, unless the winning
        # tile can be read as part of a concealed chow instead.
        if win_pung and not s.self_drawn and not win_in_chow:
            concealed_pungs -= 1

        n_pungs = len(pung_tiles)
        if n_pungs:
            kong_fans(self.melded_kongs, self.concealed_kongs, concealed_pungs, t)
            if n_pungs == 4 and not t[F.FOUR_KONGS] and not t[F.FOUR_CONCEALED_PUNGS]:
                t[F.ALL_PUNGS] = 1
            for tile in pung_tiles:
                if tile in DRAGONS:
                    t[F.DRAGON_PUNG] += 1
                elif tile in TERMINALS_OR_HONORS:
                    t[F.PUNG_OF_TERMINALS_OR_HONORS] += 1
            if n_pungs >= 2:
                pung_tiles.sort()

        n_chows = len(chow_mids)
        if n_chows >= 2:
            chow_mids.sort()
            if n_chows < 4 or not terminal_chows(chow_mids, pair, t):
                chow_fans(chow_mids, t)
        if n_chows <= 2 and n_pungs >= 2:
            pung_fans(pung_tiles, t)

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

        packs = self.melded_packs + concealed_packs
        pack_traits(packs, t)
        if self.tile_hog and not t[F.QUADRUPLE_CHOW]:
            t[F.TILE_HOG] = self.tile_hog
        if (
            (win_in_chow or pair == win)
            and not t[F.MELDED_HAND]
            and not t[F.FOUR_KONGS]
            and self.unique_wait
        ):
            wait_fans(concealed_packs, win, t)
        concealed_self_draw(t, s, self.rulings.fully_concealed)
        apply_exclusions(t, self.rulings.exclusions)
        if not t[F.BIG_FOUR_WINDS]:
            winds = [tile for tile in pung_tiles if tile in WINDS]
            if winds:
                wind_fans(winds, s, t)
        if not any(t):
            t[F.CHICKEN_HAND] = 1
        return Verdict(t, "regular", packs, s)
