"""Reading hands: the case format of shared/data/README.md and the compact one-line form.

Compact form, as a referee types it::

    2345p 78s EE [PPP] [789m] 6s

Digit runs end with their suit letter (m characters, p dots, s bamboo); honours are the capital
letters E S W N (winds) and C F P (red, green, white dragon). A declared set stands in square
brackets, a concealed kong in parentheses. The last loose tile is the winning tile.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from . import errors
from .errors import HandError
from .hand import CHOW, KONG, PUNG, SOURCES, Hand, Meld
from .tiles import CODES, HONOR_CODES, INDEX, WIND_CODES

_SITUATION_FLAGS = ("self_drawn", "last_tile_of_kind", "kong_related", "last_wall_tile")
# What the message for an empty hand suggests typing.
_EXAMPLE = "123m 456p 789s EE [PPP] 5s"


def parse_tile(code: Any, where: str | int) -> int:
    """The index of a tile code; `where` is the field holding it, or the number of the declared
    set it belongs to."""
    if not isinstance(code, str):
        if isinstance(where, int):
            raise HandError(errors.BAD_INPUT, "meld_tile_not_text", number=where, value=code)
        raise HandError(errors.BAD_INPUT, "tile_not_text", field=where, value=code)
    index = INDEX.get(code.strip())
    if index is None:
        if isinstance(where, int):
            raise HandError(errors.UNKNOWN_TILE, "meld_unknown_tile", number=where, value=code)
        raise HandError(errors.UNKNOWN_TILE, "unknown_tile", field=where, value=code)
    return index


def parse_wind(value: Any, name: str) -> int:
    if isinstance(value, str) and value.strip().upper() in WIND_CODES:
        return WIND_CODES.index(value.strip().upper())
    raise HandError(errors.BAD_INPUT, "bad_wind", field=name, value=value)


def parse_flag(data: Mapping, name: str) -> bool:
    value = data.get(name, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise HandError(errors.BAD_INPUT, "bad_flag", field=name, value=value)
    return value


def _parse_flowers(value: Any) -> int:
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 8:
        raise HandError(errors.BAD_INPUT, "bad_flowers", value=value)
    return value


def make_meld(
    kind: str | None,
    tiles: list[int],
    *,
    number: int,
    compact: bool = False,
    concealed: bool = False,
    claimed: int | None = None,
    source: str | None = None,
) -> Meld:
    """Check declared set number `number` and build it; raises INVALID_MELD with the reason.

    The compact form (`compact`) gives no flags, claimed tile or source, and the size of its
    sets picks the kind, so only three of the refusals below can come from it.
    """
    names = " ".join(CODES[t] for t in tiles)
    if kind == CHOW:
        ordered = sorted(tiles)
        if len(tiles) != 3:
            raise HandError(
                errors.INVALID_MELD, "chow_size", number=number, count=len(tiles), tiles=names
            )
        if ordered[0] >= 27:
            raise HandError(
                errors.INVALID_MELD,
                "compact_chow_of_honours" if compact else "chow_of_honours",
                number=number,
                tiles=names,
            )
        low = ordered[0]
        if ordered != [low, low + 1, low + 2] or low // 9 != (low + 2) // 9:
            raise HandError(
                errors.INVALID_MELD,
                "compact_chow_not_a_run" if compact else "chow_not_a_run",
                number=number,
                tiles=names,
            )
        if concealed:
            raise HandError(errors.INVALID_MELD, "concealed_chow", number=number)
        if claimed is not None and claimed not in tiles:
            raise HandError(
                errors.INVALID_MELD,
                "claimed_tile_not_in_chow",
                number=number,
                tile=CODES[claimed],
                tiles=names,
            )
        return Meld(CHOW, low, False, claimed, None)
    if kind in (PUNG, KONG):
        size = 3 if kind == PUNG else 4
        if len(tiles) != size:
            raise HandError(
                errors.INVALID_MELD,
                "set_size",
                number=number,
                kind=kind,
                size=size,
                count=len(tiles),
                tiles=names,
            )
        if len(set(tiles)) != 1:
            raise HandError(
                errors.INVALID_MELD,
                "compact_set_not_identical" if compact else "set_not_identical",
                number=number,
                kind=kind,
                size=size,
                tiles=names,
            )
        if concealed and kind == PUNG:
            raise HandError(errors.INVALID_MELD, "concealed_pung", number=number)
        if source is not None and source not in SOURCES:
            raise HandError(errors.BAD_INPUT, "bad_source", number=number, value=source)
        return Meld(kind, tiles[0], concealed, None, None if concealed else source)
    raise HandError(errors.INVALID_MELD, "bad_set_type", number=number, value=kind)


def _situation(data: Mapping) -> dict:
    flags = {name: parse_flag(data, name) for name in _SITUATION_FLAGS}
    self_drawn = flags["self_drawn"]
    return {
        "self_drawn": self_drawn,
        "last_tile_of_kind": flags["last_tile_of_kind"],
        "robbing_the_kong": parse_flag(data, "robbing_the_kong")
        or (flags["kong_related"] and not self_drawn),
        "replacement_tile": parse_flag(data, "replacement_tile")
        or (flags["kong_related"] and self_drawn),
        "last_wall_tile": flags["last_wall_tile"],
        "seat_wind": parse_wind(data.get("seat_wind", "E"), "seat_wind"),
        # The case format calls the prevailing wind `prevalent_wind`.
        "prevailing_wind": parse_wind(data.get("prevalent_wind", "E"), "prevalent_wind"),
        "flowers": _parse_flowers(data.get("flowers", 0)),
    }


def parse_case(case: Any) -> Hand:
    """Read one hand in the case format (unknown fields are ignored)."""
    concealed, melds, win_tile = parse_tiles(case)
    return Hand(concealed, melds, win_tile, **_situation(case))


def parse_tiles(case: Any) -> tuple[tuple[int, ...], tuple[Meld, ...], int]:
    """The tiles of a hand in the case format: sorted standing tiles, declared sets and the
    winning tile. Every rule set reads its tiles here; the situation fields are its own."""
    if not isinstance(case, Mapping):
        raise HandError(errors.BAD_INPUT, "hand_not_object")
    concealed_raw = case.get("concealed")
    if not isinstance(concealed_raw, list):
        raise HandError(errors.BAD_INPUT, "concealed_not_list")
    concealed = sorted(parse_tile(code, "concealed") for code in concealed_raw)
    melds_raw = case.get("melds", [])
    if melds_raw is None:
        melds_raw = []
    if not isinstance(melds_raw, list):
        raise HandError(errors.BAD_INPUT, "melds_not_list")
    melds = []
    for number, raw in enumerate(melds_raw, start=1):
        if not isinstance(raw, Mapping) or not isinstance(raw.get("tiles"), list):
            raise HandError(errors.BAD_INPUT, "meld_not_object", number=number)
        tiles = [parse_tile(code, number) for code in raw["tiles"]]
        claimed = raw.get("claimed")
        melds.append(
            make_meld(
                raw.get("type"),
                tiles,
                number=number,
                concealed=parse_flag(raw, "concealed"),
                claimed=parse_tile(claimed, number) if claimed is not None else None,
                source=raw.get("from"),
            )
        )
    if "win_tile" not in case:
        raise HandError(errors.BAD_INPUT, "win_tile_missing")
    win_tile = parse_tile(case["win_tile"], "win_tile")
    return tuple(concealed), tuple(melds), win_tile


#: The token `_tokens` yields for the joker "J" when the notation allows it (Wilmington).
JOKER_TOKEN = len(CODES)


def _tokens(  # noqa: C901 - a tokenizer: one branch per character class of the notation
    text: str, *, joker: bool = False
) -> Iterator[tuple[int | None, str | None, int]]:
    """Yield (tile, group, position) for each tile; group is None, '[' or '('; a set's opening
    and closing bracket yield the tile None (with the group, then with None). With `joker`,
    "J" is a tile too (JOKER_TOKEN)."""
    group: str | None = None
    group_start = 0
    digits: list[tuple[str, int]] = []
    closing = {"[": "]", "(": ")"}
    for position, char in enumerate(text):
        if char.isspace() or char in ",;":
            if digits:
                raise _digits_without_suit(digits)
            continue
        if char.isdigit():
            if char == "0":
                raise HandError(errors.UNKNOWN_TILE, "tile_zero")
            digits.append((char, position))
            continue
        if char in "mps":
            if not digits:
                raise HandError(
                    errors.UNKNOWN_TILE, "suit_without_digits", char=char, position=position + 1
                )
            for digit, at in digits:
                yield INDEX[digit + char], group, at
            digits = []
            continue
        if digits:
            raise _digits_without_suit(digits)
        if char in HONOR_CODES:
            yield INDEX[char], group, position
        elif joker and char == "J":
            yield JOKER_TOKEN, group, position
        elif char in closing:
            if group is not None:
                raise HandError(errors.INVALID_MELD, "set_inside_set")
            group, group_start = char, position
            yield None, char, position
        elif group is not None and char == closing[group]:
            yield None, None, group_start
            group = None
        else:
            raise HandError(errors.UNKNOWN_TILE, "not_a_tile", char=char, position=position + 1)
    if digits:
        raise _digits_without_suit(digits)
    if group is not None:
        raise HandError(errors.INVALID_MELD, "set_never_closed", position=group_start + 1)


def _digits_without_suit(digits: list[tuple[str, int]]) -> HandError:
    return HandError(
        errors.UNKNOWN_TILE, "digits_without_suit", digits="".join(d for d, _ in digits)
    )


def parse_compact(text: Any, **situation: Any) -> Hand:
    """Read the compact notation; the situation comes as keyword arguments in the case
    format's names (self_drawn, seat_wind, prevalent_wind, flowers, last_tile_of_kind,
    kong_related, last_wall_tile)."""
    concealed, melds, win_tile = parse_compact_tiles(text)
    return Hand(concealed, melds, win_tile, **_situation(situation))


def count_compact_tiles(text: str, *, joker: bool = False) -> int:
    """How many tiles the compact notation holds, a declared set (a kong too) counted as three,
    as a hand of 14 is built; with `joker`, "J" is a tile. Raises HandError when the text is not
    tiles."""
    count = 0
    for tile, group, _position in _tokens(text, joker=joker):
        if tile is not None and group is None:
            count += 1
        elif tile is None and group is not None:
            count += 3
    return count


def parse_compact_tiles(text: Any) -> tuple[tuple[int, ...], tuple[Meld, ...], int]:
    """The tiles of the compact notation: sorted standing tiles, declared sets and the winning
    tile (the last loose one)."""
    if not isinstance(text, str) or not text.strip():
        raise HandError(errors.BAD_INPUT, "empty_hand", example=_EXAMPLE)
    loose: list[int] = []
    melds: list[Meld] = []
    current: list[int] | None = None
    opener = ""
    for tile, group, _position in _tokens(text):
        if tile is None:
            if group is not None:
                current, opener = [], group
            else:
                assert current is not None
                melds.append(_compact_meld(current, opener, len(melds) + 1))
                current = None
            continue
        if current is not None:
            current.append(tile)
        else:
            loose.append(tile)
    if not loose:
        raise HandError(errors.WRONG_TILE_COUNT, "no_winning_tile")
    return tuple(sorted(loose[:-1])), tuple(melds), loose[-1]


def _compact_meld(tiles: list[int], opener: str, number: int) -> Meld:
    if opener == "(":
        if len(tiles) != 4:
            raise HandError(
                errors.INVALID_MELD, "compact_concealed_kong_size", number=number, count=len(tiles)
            )
        return make_meld(KONG, tiles, number=number, compact=True, concealed=True)
    if len(tiles) == 4:
        return make_meld(KONG, tiles, number=number, compact=True)
    if len(tiles) == 3 and len(set(tiles)) == 1:
        return make_meld(PUNG, tiles, number=number, compact=True)
    if len(tiles) == 3:
        return make_meld(CHOW, tiles, number=number, compact=True)
    raise HandError(errors.INVALID_MELD, "compact_set_size", number=number, count=len(tiles))


def format_compact(hand: Hand) -> str:
    """The compact notation of a hand (situation not included)."""
    parts = [_run(hand.concealed)]
    for meld in hand.melds:
        body = _run(meld.tiles)
        parts.append(f"({body})" if meld.concealed else f"[{body}]")
    parts.append(CODES[hand.win_tile])
    return " ".join(part for part in parts if part)


def _run(tiles: Iterable[int]) -> str:
    out: list[str] = []
    by_suit: dict[str, list[str]] = {}
    honours: list[str] = []
    for tile in sorted(tiles):
        code = CODES[tile]
        if len(code) == 2:
            by_suit.setdefault(code[1], []).append(code[0])
        else:
            honours.append(code)
    for suit in "mps":
        if suit in by_suit:
            out.append("".join(by_suit[suit]) + suit)
    if honours:
        out.append("".join(honours))
    return " ".join(out)
