"""The engine's sentences in English: one template per message key, with %(name)s parameters.

An error or a false win leaves the engine as a code (`errors`), a message key and its parameters.
`render` gives the English sentence; the presentation layer looks the key up in its own
catalogue to write the sentence in the reader's language (`scoring.engine_messages`).

Keys name one sentence each. A declared set is numbered "declared set N" in the case format and
"set N" in the compact form, so the sentences about a set have a key for each form (the compact
ones start with `compact_`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_TILE_CODES = "Use 1m-9m, 1p-9p, 1s-9s, the winds E S W N or the dragons C F P."

MESSAGES: dict[str, str] = {
    # Reading the case format (a JSON object).
    "hand_not_object": "A hand must be a JSON object.",
    "concealed_not_list": "concealed must be a list of tile codes.",
    "melds_not_list": "melds must be a list of declared sets.",
    "meld_not_object": "declared set %(number)s must be an object with 'type' and 'tiles'.",
    "win_tile_missing": "win_tile is missing: which tile completed the hand?",
    "tile_not_text": "%(field)s must be a tile code such as '5m' or 'E', not %(value)r.",
    "meld_tile_not_text": (
        "declared set %(number)s must be a tile code such as '5m' or 'E', not %(value)r."
    ),
    "unknown_tile": "%(field)s: %(value)r is not a tile. " + _TILE_CODES,
    "meld_unknown_tile": "declared set %(number)s: %(value)r is not a tile. " + _TILE_CODES,
    "bad_wind": "%(field)s must be one of E, S, W, N, not %(value)r.",
    "bad_flag": "%(field)s must be true or false, not %(value)r.",
    "bad_flowers": "flowers must be a whole number from 0 to 8, not %(value)r.",
    # A declared set in the case format.
    "chow_size": "declared set %(number)s: a chow has 3 tiles, not %(count)s (%(tiles)s).",
    "chow_of_honours": "declared set %(number)s: a chow cannot be made of honours (%(tiles)s).",
    "chow_not_a_run": (
        "declared set %(number)s: %(tiles)s is not a run of three consecutive tiles of one suit."
    ),
    "concealed_chow": (
        "declared set %(number)s: only a kong can be declared concealed; a concealed chow stays "
        "in the hand."
    ),
    "claimed_tile_not_in_chow": (
        "declared set %(number)s: the claimed tile %(tile)s is not part of the chow %(tiles)s."
    ),
    "set_size": (
        "declared set %(number)s: a %(kind)s has %(size)s tiles, not %(count)s (%(tiles)s)."
    ),
    "set_not_identical": (
        "declared set %(number)s: a %(kind)s is %(size)s identical tiles, not %(tiles)s."
    ),
    "concealed_pung": (
        "declared set %(number)s: only a kong can be declared concealed; a concealed pung stays "
        "in the hand."
    ),
    "bad_source": "declared set %(number)s: 'from' must be left, across or right, not %(value)r.",
    "bad_set_type": (
        "declared set %(number)s: a declared set is a chow, pung or kong, not %(value)r."
    ),
    # Reading the compact form.
    "empty_hand": "The hand is empty. Write tiles such as '%(example)s'.",
    "digits_without_suit": "The digits %(digits)s need a suit letter (m, p or s) after them.",
    "tile_zero": "There is no tile numbered 0.",
    "suit_without_digits": "'%(char)s' at position %(position)s follows no digits.",
    "not_a_tile": "'%(char)s' at position %(position)s is not a tile. Honours are E S W N C F P.",
    "set_inside_set": "A set cannot open inside another set.",
    "set_never_closed": "The set opened at position %(position)s is never closed.",
    "no_winning_tile": "No winning tile: the last loose tile is the winning tile.",
    "compact_concealed_kong_size": (
        "set %(number)s: parentheses mark a concealed kong of 4 identical tiles, not %(count)s "
        "tiles."
    ),
    "compact_set_size": "set %(number)s: a declared set has 3 or 4 tiles, not %(count)s.",
    "compact_chow_of_honours": "set %(number)s: a chow cannot be made of honours (%(tiles)s).",
    "compact_chow_not_a_run": (
        "set %(number)s: %(tiles)s is not a run of three consecutive tiles of one suit."
    ),
    "compact_set_not_identical": (
        "set %(number)s: a %(kind)s is %(size)s identical tiles, not %(tiles)s."
    ),
    # The hand as a whole.
    "wrong_tile_count": (
        "A winning hand has 14 tiles (each kong adds one more); this one has %(total)s: "
        "%(standing)s standing, %(melds)s declared set(s) and the winning tile."
    ),
    "too_many_copies": (
        "The hand has %(count)s copies of %(tile)s; there are only four of each tile."
    ),
    "robbing_the_kong_self_drawn": (
        "Robbing the Kong is won on a tile another player adds to a kong, so it cannot be "
        "self-drawn."
    ),
    "replacement_tile_on_discard": (
        "Out with Replacement Tile is won on the tile drawn after a kong, so it is always "
        "self-drawn."
    ),
    "replacement_tile_without_kong": (
        "Out with Replacement Tile needs a declared kong, and this hand has none."
    ),
    "robbing_the_kong_tile_held": (
        "Robbing the Kong: the other three %(tile)s are in the kong being made, yet this hand "
        "holds another one."
    ),
    "last_of_its_kind_tile_held": (
        "Last of its Kind needs the other three %(tile)s in view, but this hand holds another "
        "one among its standing tiles."
    ),
    "not_a_winning_hand": (
        "These tiles do not make a winning hand: they cannot be split into four sets and a "
        "pair, nor into a special hand such as Seven Pairs or Thirteen Orphans."
    ),
    # Japanese Transitional: the situation of a win.
    "jt_riichi_with_melded_set": (
        "Riichi is declared with a concealed hand, but this hand has a melded set (only "
        "concealed kongs are allowed)."
    ),
    "jt_supplement_tile_on_discard": (
        "Out on a supplement tile is won on the tile drawn after a kong, so it is always "
        "self-drawn."
    ),
    "jt_supplement_tile_without_kong": (
        "Out on a supplement tile needs a kong, and this hand has none."
    ),
    "jt_last_wall_tile_on_discard": (
        "Out on the last tile of the wall is self-drawn; a win on the discard after it is"
        " Out on the last tile discard."
    ),
    "jt_last_discard_self_drawn": (
        "Out on the last tile discard is won on a discard, so it cannot be self-drawn."
    ),
    "jt_heavenly_hand": (
        "A heavenly hand is won by the dealer (East) on his dealt tiles: self-drawn, with"
        " no declared set."
    ),
    "jt_earthly_hand": (
        "An earthly hand is won by a player other than the dealer before any set is "
        "claimed or kong declared."
    ),
    "below_minimum": (
        "False win: the hand is worth %(fan)s fan without flowers, and a win needs at least "
        "%(minimum)s."
    ),
    # Wilmington Advanced 12-Tile: the joker and the hand.
    "no_joker": "A Wilmington hand holds exactly one joker (J), and this one has none.",
    "two_jokers": ("A Wilmington hand holds exactly one joker (J), and this one has %(count)s."),
    "joker_win_tile": (
        "The joker cannot be the winning tile: it is dealt, never drawn or discarded."
    ),
    "joker_as_missing": (
        "declared set %(number)s holds the joker: joker_as must say which tile it stands for."
    ),
    "joker_as_without_joker": (
        "declared set %(number)s has joker_as but no joker (J) among its tiles."
    ),
    "joker_as_joker": "declared set %(number)s: the joker cannot stand for another joker.",
    "joker_as_does_not_fit": (
        "declared set %(number)s: with the joker as %(tile)s, %(tiles)s is not a %(kind)s."
    ),
    "wa_wrong_tile_count": (
        "A winning hand has 14 tiles with the joker (each kong adds one more); this one has "
        "%(total)s: %(standing)s standing, %(melds)s declared set(s) and the winning tile."
    ),
    "fifth_copy_without_joker": (
        "The hand has five real %(tile)s: a fifth copy of a tile can only be the joker."
    ),
    "sixth_copy": "The hand has %(count)s copies of %(tile)s; no tile can appear six times.",
    "last_wall_tile_on_discard": (
        "Out on the last tile of the Wall is self-drawn, so it cannot be won on a discard."
    ),
    "supplement_tile_on_discard": (
        "Out on a supplement tile is won on the tile drawn after a kong, so it is always "
        "self-drawn."
    ),
    "supplement_tile_without_kong": (
        "Out on a supplement tile needs a declared kong, and this hand has none."
    ),
    "last_discard_self_drawn": (
        "Out on the last discarded tile is won on a discard, so it cannot be self-drawn."
    ),
    "robbing_kong_self_drawn": (
        "Robbing a Kong is won on a tile another player adds to a kong, so it cannot be self-drawn."
    ),
    "robbing_kong_last_discard": (
        "A hand cannot be won both by robbing a kong and on the last discarded tile."
    ),
    "heavenly_not_dealer_self_drawn": (
        "Heavenly Hand is the dealer's (East's) dealt hand, so it is East's and self-drawn."
    ),
    "earthly_not_on_first_discard": (
        "Earthly Hand is won by another player than East on East's first discard, so it is "
        "never East's and never self-drawn."
    ),
    "heavenly_earthly_with_sets": (
        "Heavenly and Earthly Hands are won before anything is declared, so they have no "
        "declared sets."
    ),
    "thirteen_discarded_orphans_on_discard": (
        "Thirteen Discarded Orphans is paid as self-drawn: mark it self-drawn."
    ),
    "four_kongs_immediate_without_four_kongs": (
        "Going out at once on the fourth kong needs four declared kongs, one of them of the "
        "winning tile."
    ),
    "wa_not_a_winning_hand": (
        "Whatever the joker stands for, these tiles do not make a winning hand: four sets and a "
        "pair, Thirteen Orphans or Four Kongs."
    ),
    "below_minimum_points": (
        "Faulty out: the hand is worth %(points)s points, and a win needs at least %(minimum)s."
    ),
    # A WA deal.
    "bad_deal_kind": "kind must be win, draw or faulty_out, not %(value)r.",
    "deal_not_object": "deal must be an object (discarder, offender).",
    "extra_winners_not_list": "extra_winners must be a list of hands.",
    "winner_twice": "A player wins a deal once: two winners have the same seat wind.",
    "discarder_of_self_drawn": "A self-drawn win has no discarder.",
    "several_winners_self_drawn": (
        "Several players win only on the same discard: none of them can be self-drawn."
    ),
    "discarder_missing": "The hand was won on a discard: say whose (deal.discarder).",
    "discarder_is_winner": "The discarder cannot be one of the winners.",
}


def render(key: str, params: Mapping[str, Any]) -> str:
    """The English sentence of message `key` with its parameters."""
    return MESSAGES[key] % params
