"""A Wilmington hand: the case format of shared/data/README.md with the joker, read and checked.

The joker is the code "J". Every hand holds exactly one: among the standing tiles (the scorer
chooses its value) or in a declared set, whose `joker_as` fixed its value when it was declared.
Declared sets reuse MCR's `Meld` (with the joker replaced by its value); tiles are the engine's
indexes (`scoring.engine.tiles`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .. import errors
from ..errors import HandError
from ..hand import CHOW, KONG, PUNG, Meld
from ..notation import JOKER_TOKEN, _tokens, make_meld, parse_flag, parse_tile, parse_wind
from ..tiles import CODES

#: The seat wind of the dealer (East).
DEALER = 0

JOKER = "J"

#: The situation flags of a WA hand, as the case format names them.
FLAGS = (
    "self_drawn",
    "last_wall_tile",
    "last_discard",
    "supplement_tile",
    "robbing_kong",
    "heavenly",
    "earthly",
    "last_available",
    "four_kongs_immediate",
    "thirteen_discarded_orphans",
)


@dataclass(frozen=True, slots=True)
class WaHand:
    """A declared WA win. `concealed` are the standing real tiles (without the joker and the
    winning tile); `joker_in_hand` says the joker stands among them; otherwise `joker_meld` is
    the index of the declared set holding it, and `joker_as` its value there. `win_tile` is
    None only for Thirteen Discarded Orphans, which needs no tiles."""

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    win_tile: int | None
    joker_in_hand: bool
    joker_meld: int | None
    joker_as: int | None
    seat_wind: int
    prevailing_wind: int
    self_drawn: bool = False
    last_wall_tile: bool = False
    last_discard: bool = False
    supplement_tile: bool = False
    robbing_kong: bool = False
    heavenly: bool = False
    earthly: bool = False
    last_available: bool = False
    four_kongs_immediate: bool = False
    thirteen_discarded_orphans: bool = False

    @property
    def kongs(self) -> int:
        return sum(1 for meld in self.melds if meld.kind == KONG)


def _joker_meld(raw: Mapping, tiles: list[Any], number: int) -> tuple[list[Any], bool]:
    """The tiles of a declared set with its joker replaced by `joker_as`, and whether it had
    one; refuses a `joker_as` that is missing, given without a joker, or not a tile."""
    jokers = sum(1 for code in tiles if code == JOKER)
    joker_as = raw.get("joker_as")
    if not jokers:
        if joker_as is not None:
            raise HandError(errors.JOKER_AS_MISMATCH, "joker_as_without_joker", number=number)
        return tiles, False
    if jokers > 1:
        raise HandError(errors.JOKER_COUNT, "two_jokers", count=jokers)
    if joker_as is None:
        raise HandError(errors.JOKER_AS_MISMATCH, "joker_as_missing", number=number)
    if joker_as == JOKER:
        raise HandError(errors.JOKER_AS_MISMATCH, "joker_as_joker", number=number)
    value = CODES[parse_tile(joker_as, number)]
    return [value if code == JOKER else code for code in tiles], True


def _meld(raw: Any, number: int) -> tuple[Meld, int | None]:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("tiles"), list):
        raise HandError(errors.BAD_INPUT, "meld_not_object", number=number)
    codes, has_joker = _joker_meld(raw, raw["tiles"], number)
    tiles = [parse_tile(code, number) for code in codes]
    try:
        meld = make_meld(
            raw.get("type"), tiles, number=number, concealed=parse_flag(raw, "concealed")
        )
    except HandError as error:
        if has_joker and error.message_key in ("chow_not_a_run", "set_not_identical"):
            raise HandError(
                errors.JOKER_AS_MISMATCH,
                "joker_as_does_not_fit",
                number=number,
                tile=raw["joker_as"],
                kind=raw.get("type"),
                tiles=" ".join(str(code) for code in raw["tiles"]),
            ) from error
        raise
    return meld, parse_tile(raw["joker_as"], number) if has_joker else None


def parse_wa_case(case: Any, *, prevailing_wind: Any = None) -> WaHand:
    """Read one winner's hand in the case format (which calls the prevailing wind
    `prevalent_wind`). `prevailing_wind` is the deal's, for an extra winner's hand that does not
    repeat it. Raises HandError for input that is not a WA hand."""
    if not isinstance(case, Mapping):
        raise HandError(errors.BAD_INPUT, "hand_not_object")
    flags = {name: parse_flag(case, name) for name in FLAGS}
    seat = parse_wind(case.get("seat_wind", "E"), "seat_wind")
    prevailing = parse_wind(case.get("prevalent_wind", prevailing_wind or "E"), "prevalent_wind")
    concealed_raw = case.get("concealed")
    if concealed_raw is None and flags["thirteen_discarded_orphans"]:
        concealed_raw = []
    if not isinstance(concealed_raw, list):
        raise HandError(errors.BAD_INPUT, "concealed_not_list")
    melds_raw = case.get("melds") or []
    if not isinstance(melds_raw, list):
        raise HandError(errors.BAD_INPUT, "melds_not_list")
    jokers_in_hand = sum(1 for code in concealed_raw if code == JOKER)
    concealed = sorted(parse_tile(code, "concealed") for code in concealed_raw if code != JOKER)
    melds: list[Meld] = []
    joker_meld: int | None = None
    joker_as: int | None = None
    jokers = jokers_in_hand
    for number, raw in enumerate(melds_raw, start=1):
        meld, value = _meld(raw, number)
        melds.append(meld)
        if value is not None:
            jokers += 1
            joker_meld, joker_as = number - 1, value
    win_raw = case.get("win_tile")
    if win_raw == JOKER:
        raise HandError(errors.JOKER_WIN_TILE, "joker_win_tile")
    no_tiles = flags["thirteen_discarded_orphans"] and not concealed_raw and not melds_raw
    if win_raw is None and not no_tiles:
        raise HandError(errors.BAD_INPUT, "win_tile_missing")
    win = None if win_raw is None else parse_tile(win_raw, "win_tile")
    if not no_tiles and jokers != 1:
        raise HandError(errors.JOKER_COUNT, "two_jokers" if jokers else "no_joker", count=jokers)
    hand = WaHand(
        concealed=tuple(concealed),
        melds=tuple(melds),
        win_tile=win,
        joker_in_hand=jokers_in_hand == 1,
        joker_meld=joker_meld,
        joker_as=joker_as,
        seat_wind=seat,
        prevailing_wind=prevailing,
        **flags,
    )
    if not no_tiles:
        check_tiles(hand)
    check_situation(hand)
    return hand


def parse_wa_compact(text: Any, *, joker_as: Any = None, **situation: Any) -> WaHand:
    """Read a WA win in the compact notation, "J" being the joker written as a tile of its own
    (e.g. `46p J` or `[57m J]`); a joker inside a declared set stands for `joker_as`. The
    situation comes as keyword arguments in the case format's names (seat_wind, prevalent_wind
    and the flags of `FLAGS`). The hand is then read and checked as the case format is."""
    return parse_wa_case({**situation, **compact_case(text, joker_as)})


def compact_case(text: Any, joker_as: Any = None) -> dict[str, Any]:
    """The tiles of the compact notation as the case format's fields: standing tiles, declared
    sets (with `joker_as` on the one holding the joker) and the winning tile (the last loose
    tile)."""
    if not isinstance(text, str) or not text.strip():
        raise HandError(errors.BAD_INPUT, "empty_hand", example="123m 46p J 789s EE [PPP] 5s")
    if joker_as is not None and not isinstance(joker_as, str):
        raise HandError(errors.BAD_INPUT, "tile_not_text", field="joker_as", value=joker_as)
    loose: list[str] = []
    groups: list[tuple[str, list[str]]] = []
    for tile, group, _position in _tokens(text, joker=True):
        code = JOKER if tile == JOKER_TOKEN else None if tile is None else CODES[tile]
        if code is None:
            if group is not None:
                groups.append((group, []))
            continue
        if group is not None:
            groups[-1][1].append(code)
        else:
            loose.append(code)
    if not loose:
        raise HandError(errors.WRONG_TILE_COUNT, "no_winning_tile")
    melds = [
        _compact_meld(opener, codes, joker_as, n) for n, (opener, codes) in enumerate(groups, 1)
    ]
    if joker_as is not None and not any(JOKER in codes for _opener, codes in groups):
        raise HandError(errors.JOKER_AS_MISMATCH, "compact_joker_as_standing")
    return {"concealed": loose[:-1], "melds": melds, "win_tile": loose[-1]}


def _compact_meld(opener: str, codes: list[str], joker_as: Any, number: int) -> dict[str, Any]:
    """A declared set of the compact notation in the case format; its size picks the kind, and
    three tiles that are alike (the joker as `joker_as`, else as its neighbours) a pung."""
    meld: dict[str, Any] = {"tiles": codes, "concealed": opener == "("}
    if JOKER in codes:
        meld["joker_as"] = joker_as
    if opener == "(" and len(codes) != 4:
        raise HandError(
            errors.INVALID_MELD, "compact_concealed_kong_size", number=number, count=len(codes)
        )
    if len(codes) == 4:
        meld["type"] = KONG
    elif len(codes) == 3:
        real = {code for code in codes if code != JOKER}
        alike = real | ({joker_as} if JOKER in codes and joker_as is not None else set())
        meld["type"] = PUNG if len(alike) == 1 else CHOW
    else:
        raise HandError(errors.INVALID_MELD, "compact_set_size", number=number, count=len(codes))
    return meld


def check_tiles(hand: WaHand) -> None:
    """Tile count and copies: 13 tiles besides the winning one (a kong counts three), and at
    most four real copies of a tile (a fifth copy is the joker's, never a sixth)."""
    n_standing = len(hand.concealed) + hand.joker_in_hand
    n_melds = len(hand.melds)
    if n_melds > 4 or n_standing + 3 * n_melds != 13:
        extra = 0 if hand.four_kongs_immediate else 1
        total = n_standing + extra + sum(4 if m.kind == KONG else 3 for m in hand.melds)
        raise HandError(
            errors.WRONG_TILE_COUNT,
            "wa_wrong_tile_count",
            total=total,
            standing=n_standing,
            melds=n_melds,
        )
    for tile, count in enumerate(real_counts(hand)):
        if count > 5:
            raise HandError(errors.TILE_COUNT_GT_5, "sixth_copy", count=count, tile=CODES[tile])
        if count == 5:
            raise HandError(errors.TILE_COUNT_GT_4, "fifth_copy_without_joker", tile=CODES[tile])


def real_counts(hand: WaHand) -> list[int]:
    """How many real tiles (not the joker) of each kind the hand holds, the winning tile
    included (with Four Kongs going out at once it is already in the fourth kong)."""
    counts = [0] * 34
    for tile in hand.concealed:
        counts[tile] += 1
    if hand.win_tile is not None and not hand.four_kongs_immediate:
        counts[hand.win_tile] += 1
    for meld in hand.melds:
        for tile in meld.tiles:
            counts[tile] += 1
    if hand.joker_as is not None:
        counts[hand.joker_as] -= 1
    return counts


def check_situation(hand: WaHand) -> None:
    """Situation flags that cannot be true together (CONTRADICTORY_SITUATION)."""
    self_drawn = hand.self_drawn
    code = errors.CONTRADICTORY_SITUATION
    if hand.last_wall_tile and not self_drawn:
        raise HandError(code, "last_wall_tile_on_discard")
    if hand.supplement_tile and not self_drawn:
        raise HandError(code, "supplement_tile_on_discard")
    if hand.supplement_tile and not hand.kongs:
        raise HandError(code, "supplement_tile_without_kong")
    if hand.last_discard and self_drawn:
        raise HandError(code, "last_discard_self_drawn")
    if hand.robbing_kong and self_drawn:
        raise HandError(code, "robbing_kong_self_drawn")
    if hand.robbing_kong and hand.last_discard:
        raise HandError(code, "robbing_kong_last_discard")
    if hand.heavenly and (not self_drawn or hand.seat_wind != DEALER):
        raise HandError(code, "heavenly_not_dealer_self_drawn")
    if hand.earthly and (self_drawn or hand.seat_wind == DEALER):
        raise HandError(code, "earthly_not_on_first_discard")
    if (hand.heavenly or hand.earthly) and hand.melds:
        raise HandError(code, "heavenly_earthly_with_sets")
    if hand.thirteen_discarded_orphans and not self_drawn:
        raise HandError(code, "thirteen_discarded_orphans_on_discard")
    if hand.four_kongs_immediate and (
        hand.kongs != 4 or all(meld.tile != hand.win_tile for meld in hand.melds)
    ):
        raise HandError(code, "four_kongs_immediate_without_four_kongs")
