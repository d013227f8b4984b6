"""Fans that combine sets: chows with chows, pungs with pungs, kongs and concealed pungs,
and the properties every set of an arrangement shares.

The non-repeat, non-separation, non-identical and account-once principles are applied here:
four chows that make a four-chow fan make nothing else; three chows that make a three-chow fan
let the fourth chow count once more with one of them; otherwise two-chow fans are counted with
each chow joining others no more often than account-once allows.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import fans as F
from .situation import P_CHOW, Pack
from .tiles import DRAGONS, WINDS


def two_chows(a: int, b: int) -> int:
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


def _mixed_ranks(ra: int, rb: int, rc: int) -> str:
    """How three ranks of three different suits relate: "shifted", "same" or ""."""
    low = min(ra, rb, rc)
    if {ra, rb, rc} == {low, low + 1, low + 2}:
        return "shifted"
    if ra == rb == rc:
        return "same"
    return ""


def three_chows(a: int, b: int, c: int) -> int:
    """The fan three chows (sorted middle tiles) make together, or -1."""
    sa, sb, sc = a // 9, b // 9, c // 9
    ra, rb, rc = a % 9, b % 9, c % 9
    if sa != sb and sa != sc and sb != sc:
        relation = _mixed_ranks(ra, rb, rc)
        if relation == "shifted":
            return F.MIXED_SHIFTED_CHOWS
        if relation == "same":
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


def four_chows(a: int, b: int, c: int, d: int) -> int:
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


def account_once(found: list[int], most: int, t: list[int]) -> None:
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


_PAIRS_OF_4 = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))


_PAIRS_WITH = ((0, 1, 2), (0, 3, 4), (1, 3, 5), (2, 4, 5))


def chow_fans(mids: list[int], t: list[int]) -> None:
    """Fans of 2 to 4 chows given by their sorted middle tiles."""
    n = len(mids)
    if n == 4:
        fan = four_chows(*mids)
        if fan >= 0:
            t[fan] = 1
            return
        for i, j, k, rest in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)):
            fan = three_chows(mids[i], mids[j], mids[k])
            if fan >= 0:
                t[fan] = 1
                extra = {two_chows(mids[x], mids[rest]) for x in (i, j, k)}
                for candidate in _EXTRA_CHOW_ORDER:
                    if candidate in extra:
                        t[candidate] = 1
                        break
                return
        pairs = [two_chows(mids[i], mids[j]) for i, j in _PAIRS_OF_4]
        most = 3
        for chow in range(4):
            if all(pairs[p] < 0 for p in _PAIRS_WITH[chow]):
                most -= 1  # a chow that combines with nothing takes no share
        if most > 0:
            account_once([p for p in pairs if p >= 0], most, t)
    elif n == 3:
        fan = three_chows(*mids)
        if fan >= 0:
            t[fan] = 1
            return
        pairs = [
            two_chows(mids[0], mids[1]),
            two_chows(mids[0], mids[2]),
            two_chows(mids[1], mids[2]),
        ]
        account_once([p for p in pairs if p >= 0], 2, t)
    elif n == 2:
        fan = two_chows(mids[0], mids[1])
        if fan >= 0:
            t[fan] += 1


def two_pungs(a: int, b: int) -> int:
    if a < 27 and b < 27:
        return F.DOUBLE_PUNG if a % 9 == b % 9 else -1
    if a in DRAGONS and b in DRAGONS:
        return F.TWO_DRAGON_PUNGS
    return -1


def three_pungs(a: int, b: int, c: int) -> int:
    """Sorted pung tiles."""
    if c < 27:
        sa, sb, sc = a // 9, b // 9, c // 9
        ra, rb, rc = a % 9, b % 9, c % 9
        if sa != sb and sa != sc and sb != sc:
            relation = _mixed_ranks(ra, rb, rc)
            if relation == "shifted":
                return F.MIXED_SHIFTED_PUNGS
            if relation == "same":
                return F.TRIPLE_PUNG
        elif sa == sc and b == a + 1 and c == b + 1:
            return F.PURE_SHIFTED_PUNGS
        return -1
    if a in WINDS and c in WINDS:
        return F.BIG_THREE_WINDS
    if a in DRAGONS:
        return F.BIG_THREE_DRAGONS
    return -1


def pung_fans(tiles: list[int], t: list[int]) -> None:
    """Fans of 2 to 4 pungs or kongs given by their sorted tiles."""
    n = len(tiles)
    if n == 4:
        _four_pung_fans(tiles, t)
    elif n == 3:
        fan = three_pungs(*tiles)
        if fan >= 0:
            t[fan] = 1
            return
        for i, j in ((0, 1), (0, 2), (1, 2)):
            fan = two_pungs(tiles[i], tiles[j])
            if fan >= 0:
                t[fan] += 1
    elif n == 2:
        fan = two_pungs(tiles[0], tiles[1])
        if fan >= 0:
            t[fan] += 1


def _four_pung_fans(tiles: list[int], t: list[int]) -> None:
    a, b, c, d = tiles
    if d < 27 and a // 9 == d // 9 and b == a + 1 and c == b + 1 and d == c + 1:
        t[F.FOUR_PURE_SHIFTED_PUNGS] = 1
        return
    if a in WINDS and d in WINDS:
        t[F.BIG_FOUR_WINDS] = 1
        return
    for i, j, k, free in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)):
        fan = three_pungs(tiles[i], tiles[j], tiles[k])
        if fan >= 0:
            t[fan] = 1
            # The pung left over may make one more fan with one of the three.
            for other in range(4):
                if other != free:
                    pair = two_pungs(tiles[other], tiles[free])
                    if pair >= 0:
                        t[pair] += 1
                        break
            return
    for i, j in _PAIRS_OF_4:
        fan = two_pungs(tiles[i], tiles[j])
        if fan >= 0:
            t[fan] += 1


def kong_fans(melded_kongs: int, concealed_kongs: int, concealed_pungs: int, t: list[int]) -> None:
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


def terminal_chows(mids: list[int], pair: int, t: list[int]) -> bool:
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


def pack_traits(packs: Iterable[Pack], t: list[int]) -> None:
    """Outside Hand, All Fives, All Even Pungs: a property every set and the pair share."""
    outside = fives = even = 0
    for kind, tile, _melded in packs:
        if tile >= 27:
            outside += 1
            continue
        rank = tile % 9 + 1
        if kind == P_CHOW:
            if rank == 2 or rank == 8:
                outside += 1
            elif 4 <= rank <= 6:
                fives += 1
        elif rank == 1 or rank == 9:
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
