"""The WA engine's messages: every key reached by a hand or a deal, pinned to its English
sentence (pages and tools show these sentences; the presentation layer translates by key)."""

from __future__ import annotations

import pytest

from scoring.engine.messages import render
from scoring.engine.wa import score_wa_case

from .helpers import case
from .test_rules import REFUSED, VALID

# message key -> (code, English sentence)
SENTENCES = {
    "no_joker": (
        "JOKER_COUNT",
        "A Wilmington hand holds exactly one joker (J), and this one has none.",
    ),
    "two_jokers": (
        "JOKER_COUNT",
        "A Wilmington hand holds exactly one joker (J), and this one has 2.",
    ),
    "joker_win_tile": (
        "JOKER_WIN_TILE",
        ("The joker cannot be the winning tile: it is dealt, never drawn or discarded."),
    ),
    "sixth_copy": ("TILE_COUNT_GT_5", "The hand has 6 copies of 5m; no tile can appear six times."),
    "fifth_copy_without_joker": (
        "TILE_COUNT_GT_4",
        ("The hand has five real 5m: a fifth copy of a tile can only be the joker."),
    ),
    "joker_as_does_not_fit": (
        "JOKER_AS_MISMATCH",
        "declared set 1: with the joker as F, C C J is not a pung.",
    ),
    "joker_as_missing": (
        "JOKER_AS_MISMATCH",
        ("declared set 1 holds the joker: joker_as must say which tile it stands for."),
    ),
    "joker_as_without_joker": (
        "JOKER_AS_MISMATCH",
        "declared set 1 has joker_as but no joker (J) among its tiles.",
    ),
    "joker_as_joker": (
        "JOKER_AS_MISMATCH",
        "declared set 1: the joker cannot stand for another joker.",
    ),
    "wa_wrong_tile_count": (
        "WRONG_TILE_COUNT",
        (
            "A winning hand has 14 tiles with the joker (each kong adds one more); "
            "this one has 13: 12 standing, 0 declared set(s) and the winning tile."
        ),
    ),
    "last_wall_tile_on_discard": (
        "CONTRADICTORY_SITUATION",
        ("Out on the last tile of the Wall is self-drawn, so it cannot be won on a discard."),
    ),
    "supplement_tile_on_discard": (
        "CONTRADICTORY_SITUATION",
        (
            "Out on a supplement tile is won on the tile drawn after a kong, so it "
            "is always self-drawn."
        ),
    ),
    "supplement_tile_without_kong": (
        "CONTRADICTORY_SITUATION",
        ("Out on a supplement tile needs a declared kong, and this hand has none."),
    ),
    "last_discard_self_drawn": (
        "CONTRADICTORY_SITUATION",
        ("Out on the last discarded tile is won on a discard, so it cannot be self-drawn."),
    ),
    "robbing_kong_self_drawn": (
        "CONTRADICTORY_SITUATION",
        (
            "Robbing a Kong is won on a tile another player adds to a kong, so it "
            "cannot be self-drawn."
        ),
    ),
    "robbing_kong_last_discard": (
        "CONTRADICTORY_SITUATION",
        ("A hand cannot be won both by robbing a kong and on the last discarded tile."),
    ),
    "heavenly_not_dealer_self_drawn": (
        "CONTRADICTORY_SITUATION",
        ("Heavenly Hand is the dealer's (East's) dealt hand, so it is East's and self-drawn."),
    ),
    "earthly_not_on_first_discard": (
        "CONTRADICTORY_SITUATION",
        (
            "Earthly Hand is won by another player than East on East's first "
            "discard, so it is never East's and never self-drawn."
        ),
    ),
    "heavenly_earthly_with_sets": (
        "CONTRADICTORY_SITUATION",
        (
            "Heavenly and Earthly Hands are won before anything is declared, so "
            "they have no declared sets."
        ),
    ),
    "thirteen_discarded_orphans_on_discard": (
        "CONTRADICTORY_SITUATION",
        "Thirteen Discarded Orphans is paid as self-drawn: mark it self-drawn.",
    ),
    "four_kongs_immediate_without_four_kongs": (
        "CONTRADICTORY_SITUATION",
        (
            "Going out at once on the fourth kong needs four declared kongs, one of"
            " them of the winning tile."
        ),
    ),
    "discarder_missing": (
        "BAD_INPUT",
        "The hand was won on a discard: say whose (deal.discarder).",
    ),
    "discarder_is_winner": (
        "CONTRADICTORY_SITUATION",
        "The discarder cannot be one of the winners.",
    ),
    "discarder_of_self_drawn": ("CONTRADICTORY_SITUATION", "A self-drawn win has no discarder."),
    "winner_twice": (
        "BAD_INPUT",
        "A player wins a deal once: two winners have the same seat wind.",
    ),
    "several_winners_self_drawn": (
        "CONTRADICTORY_SITUATION",
        ("Several players win only on the same discard: none of them can be self-drawn."),
    ),
    "extra_winners_not_list": ("BAD_INPUT", "extra_winners must be a list of hands."),
    "bad_deal_kind": ("BAD_INPUT", "kind must be win, draw or faulty_out, not 'lost'."),
    "deal_not_object": ("BAD_INPUT", "deal must be an object (discarder, offender)."),
    "below_minimum_points": (
        "BELOW_MINIMUM",
        "Faulty out: the hand is worth 9 points, and a win needs at least 15.",
    ),
    "wa_not_a_winning_hand": (
        "NOT_WIN",
        (
            "Whatever the joker stands for, these tiles do not make a winning hand:"
            " four sets and a pair, Thirteen Orphans or Four Kongs."
        ),
    ),
}

ON_DISCARD = {"discarder": "W"}
HAND = case(VALID, "N")
DEALS = {key: {**hand, "deal": ON_DISCARD} for key, _code, hand in reversed(REFUSED)}
DEALS.update(
    {
        "discarder_missing": {**HAND, "deal": {}},
        "discarder_is_winner": {**HAND, "deal": {"discarder": "S"}},
        "discarder_of_self_drawn": {**case(VALID, "N", self_drawn=True), "deal": ON_DISCARD},
        "winner_twice": {**HAND, "extra_winners": [HAND], "deal": ON_DISCARD},
        "several_winners_self_drawn": {
            **HAND,
            "extra_winners": [case(VALID, "N", seat_wind="N", self_drawn=True)],
            "deal": ON_DISCARD,
        },
        "extra_winners_not_list": {**HAND, "extra_winners": {}, "deal": ON_DISCARD},
        "bad_deal_kind": {"kind": "lost"},
        "deal_not_object": {"deal": []},
        "below_minimum_points": case("2m 3m 4m 5p 6p 7p 3s 4s 5s 6s 7s J C", "C", self_drawn=True),
        "wa_not_a_winning_hand": {
            **case("1m 2m 4m 5p 7p 9p 3s 4s 5s 6s 7s J C", "E"),
            "deal": ON_DISCARD,
        },
    }
)


@pytest.mark.parametrize("key", sorted(SENTENCES))
def test_message(key):
    code, sentence = SENTENCES[key]
    verdict = score_wa_case(DEALS[key])
    # The deal's own message, or the message of the hand that stopped it.
    source = verdict if verdict.message_key is not None else verdict.hands[-1]

    assert source.message_key == key
    assert render(key, source.message_params or {}) == sentence
    assert (verdict.error or verdict.hands[-1].error) == code


def test_every_sentence_has_a_deal():
    assert set(DEALS) == set(SENTENCES)
