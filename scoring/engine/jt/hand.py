"""A Japanese Transitional win as the referee enters it (section 6), and its checks.

The tiles are read by the shared notation (`notation.parse_tiles`, `parse_compact_tiles`) and
counted by the shared check (`situation.count_tiles`); the situation flags are JT's own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .. import errors
from ..errors import HandError
from ..hand import KONG, Meld
from ..notation import parse_compact_tiles, parse_flag, parse_tiles, parse_wind
from ..situation import count_tiles
from ..tiles import CODES, WIND_CODES

#: The situation flags of a JT win, by their names in the case format.
FLAGS = (
    "self_drawn",
    "last_wall_tile",
    "last_discard",
    "supplement_tile",
    "robbing_kong",
    "heavenly",
    "earthly",
    "riichi",
)


@dataclass(frozen=True, slots=True)
class JtHand:
    """Standing tiles without the winning tile, declared sets, the winning tile (engine
    indexes), the winner's seat and the round's wind (0..3, East first) and the flags of the
    win. `riichi`: the winner had declared riichi."""

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...] = ()
    win_tile: int = 0
    self_drawn: bool = False
    seat_wind: int = 0
    prevailing_wind: int = 0
    last_wall_tile: bool = False
    last_discard: bool = False
    supplement_tile: bool = False
    robbing_kong: bool = False
    heavenly: bool = False
    earthly: bool = False
    riichi: bool = False

    @property
    def dealer(self) -> bool:
        return self.seat_wind == 0


def _situation(data: Mapping) -> dict[str, Any]:
    flags = {name: parse_flag(data, name) for name in FLAGS if name != "riichi"}
    seat = parse_wind(data.get("seat_wind", "E"), "seat_wind")
    riichi = parse_flag(data, "riichi")
    deal = data.get("deal")
    if isinstance(deal, Mapping) and isinstance(deal.get("riichi"), list):
        # The case format lists every declarer of the deal; the winner's own declaration is
        # the one that gives the riichi double.
        riichi = riichi or WIND_CODES[seat] in deal["riichi"]
    return {
        **flags,
        "riichi": riichi,
        "seat_wind": seat,
        # The case format calls the prevailing wind `prevalent_wind`.
        "prevailing_wind": parse_wind(data.get("prevalent_wind", "E"), "prevalent_wind"),
    }


def parse_jt_case(case: Any) -> JtHand:
    """Read a JT win in the case format (unknown fields are ignored)."""
    concealed, melds, win_tile = parse_tiles(case)
    return JtHand(concealed, melds, win_tile, **_situation(case))


def parse_jt_compact(text: Any, **situation: Any) -> JtHand:
    """Read a JT win in the compact notation; the situation comes as keyword arguments in the
    case format's names (self_drawn, seat_wind, prevalent_wind, the flags of `FLAGS`)."""
    concealed, melds, win_tile = parse_compact_tiles(text)
    return JtHand(concealed, melds, win_tile, **_situation(situation))


def check(hand: JtHand) -> tuple[list[int], list[int], set[int]]:
    """The checks of a JT win before scoring: tile count and copies (shared with MCR) and the
    situation (section 6). Returns the standing counts (with the winning tile), the declared
    sets' counts and every tile present; raises HandError."""
    standing, fixed, _packs, present = count_tiles(hand.concealed, hand.melds, hand.win_tile)
    win = hand.win_tile
    drawn = hand.self_drawn
    melded = any(not (meld.kind == KONG and meld.concealed) for meld in hand.melds)
    if hand.riichi and melded:
        raise HandError(errors.CONTRADICTORY_SITUATION, "jt_riichi_with_melded_set")
    if hand.robbing_kong and drawn:
        raise HandError(errors.CONTRADICTORY_SITUATION, "robbing_the_kong_self_drawn")
    if hand.robbing_kong and (fixed[win] or standing[win] != 1):
        raise HandError(
            errors.CONTRADICTORY_SITUATION, "robbing_the_kong_tile_held", tile=CODES[win]
        )
    if hand.supplement_tile and not drawn:
        raise HandError(errors.CONTRADICTORY_SITUATION, "jt_supplement_tile_on_discard")
    if hand.supplement_tile and not any(meld.kind == KONG for meld in hand.melds):
        raise HandError(errors.CONTRADICTORY_SITUATION, "jt_supplement_tile_without_kong")
    if hand.last_wall_tile and not drawn:
        raise HandError(errors.CONTRADICTORY_SITUATION, "jt_last_wall_tile_on_discard")
    if hand.last_discard and drawn:
        raise HandError(errors.CONTRADICTORY_SITUATION, "jt_last_discard_self_drawn")
    if hand.heavenly and (not hand.dealer or not drawn or hand.melds):
        raise HandError(errors.CONTRADICTORY_SITUATION, "jt_heavenly_hand")
    if hand.earthly and (hand.dealer or hand.melds):
        raise HandError(errors.CONTRADICTORY_SITUATION, "jt_earthly_hand")
    return standing, fixed, present
