"""A declared win after its checks: tile counts, copies, declared sets and the situation
flags, in the shape the fan rules want. Also the packs an arrangement is made of."""

from __future__ import annotations

from . import errors
from .errors import HandError
from .hand import CHOW, KONG, Hand, Meld
from .tiles import CODES

# Pack kinds inside one arrangement. A pack is (kind, tile, melded); a chow's tile is its
# middle tile, so a chow of 1-2-3 has rank 2. PAIR marks the pair.
P_CHOW, P_PUNG, P_KONG = 0, 1, 2
PAIR = -1
Pack = tuple[int, int, bool]


def count_tiles(
    concealed: tuple[int, ...], melds: tuple[Meld, ...], win: int
) -> tuple[list[int], list[int], list[Pack], set[int]]:
    """Check a hand's tile count and copies, and count its tiles: the standing tiles with the
    winning tile, the declared sets' tiles, the declared sets as packs, and every tile present.
    Shared by every rule set (four of each tile, four sets and a pair)."""
    n_melds = len(melds)
    n_standing = len(concealed)
    if n_melds > 4 or n_standing + 3 * n_melds != 13:
        total = n_standing + 1 + sum(4 if m.kind == KONG else 3 for m in melds)
        raise HandError(
            errors.WRONG_TILE_COUNT,
            "wrong_tile_count",
            total=total,
            standing=n_standing,
            melds=n_melds,
        )
    standing = [0] * 34
    for tile in concealed:
        standing[tile] += 1
    standing[win] += 1
    fixed = [0] * 34
    fixed_packs: list[Pack] = []
    present = set(concealed)
    present.add(win)
    for meld in melds:
        tile = meld.tile
        if meld.kind == CHOW:
            fixed[tile] += 1
            fixed[tile + 1] += 1
            fixed[tile + 2] += 1
            fixed_packs.append((P_CHOW, tile + 1, True))
            present.update((tile, tile + 1, tile + 2))
        elif meld.kind == KONG:
            fixed[tile] += 4
            fixed_packs.append((P_KONG, tile, not meld.concealed))
            present.add(tile)
        else:
            fixed[tile] += 3
            fixed_packs.append((P_PUNG, tile, True))
            present.add(tile)
    for tile in present:
        if standing[tile] + fixed[tile] > 4:
            raise HandError(
                errors.TILE_COUNT_GT_4,
                "too_many_copies",
                count=standing[tile] + fixed[tile],
                tile=CODES[tile],
            )
    return standing, fixed, fixed_packs, present


class Situation:
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
        "prevailing_wind",
        "standing",
        "fixed",
        "fixed_packs",
        "claimed",
        "tiles",
    )

    def __init__(self, hand: Hand) -> None:
        melds = hand.melds
        win = hand.win_tile
        standing, fixed, fixed_packs, present = count_tiles(hand.concealed, melds, win)
        has_kong = any(m.kind == KONG for m in melds)
        if hand.robbing_the_kong and hand.self_drawn:
            raise HandError(errors.CONTRADICTORY_SITUATION, "robbing_the_kong_self_drawn")
        if hand.replacement_tile and not hand.self_drawn:
            raise HandError(errors.CONTRADICTORY_SITUATION, "replacement_tile_on_discard")
        if hand.replacement_tile and not has_kong:
            raise HandError(errors.CONTRADICTORY_SITUATION, "replacement_tile_without_kong")
        if hand.robbing_the_kong and (fixed[win] or standing[win] != 1):
            raise HandError(
                errors.CONTRADICTORY_SITUATION, "robbing_the_kong_tile_held", tile=CODES[win]
            )
        if hand.last_tile_of_kind and standing[win] != 1:
            raise HandError(
                errors.CONTRADICTORY_SITUATION, "last_of_its_kind_tile_held", tile=CODES[win]
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
        self.prevailing_wind = 27 + hand.prevailing_wind
        self.standing = standing
        self.fixed = fixed
        self.fixed_packs = fixed_packs
        # A declared set other than a concealed kong.
        self.claimed = any(melded for _kind, _tile, melded in fixed_packs)
        self.tiles = frozenset(present)


class Verdict:
    """What `evaluate` found: the fan table (counts by fan id, flowers excluded) and the shape
    it was found in, for the explanation: the packs of a regular hand, or of a knitted
    straight's set and pair with the straight's nine tiles in `knitted`."""

    __slots__ = ("table", "shape", "packs", "knitted", "situation", "points")

    def __init__(
        self,
        table: list[int],
        shape: str,
        packs: list[Pack] | None,
        situation: Situation,
        knitted: tuple[int, ...] = (),
    ) -> None:
        self.table = table
        self.shape = shape
        self.packs = packs
        self.knitted = knitted
        self.situation = situation
        self.points = 0  # fan total under the profile in force, set by `evaluate`
