"""The compact notation of a Wilmington hand: J the joker, `joker_as` for a declared set."""

from __future__ import annotations

import pytest

from scoring.engine.errors import HandError
from scoring.engine.wa import parse_wa_case, parse_wa_compact, score_wa_hand


def test_the_compact_form_reads_as_the_case_format():
    compact = parse_wa_compact("C J 234m 567p 34567s C", self_drawn=True, seat_wind="W")
    case = parse_wa_case(
        {
            "concealed": ["2m", "3m", "4m", "5p", "6p", "7p", "3s", "4s", "5s", "6s", "7s"]
            + ["J", "C"],
            "win_tile": "C",
            "self_drawn": True,
            "seat_wind": "W",
        }
    )
    assert compact == case


def test_a_joker_in_a_declared_set_takes_joker_as():
    hand = parse_wa_compact("678p 77s SS [PPP] [46m J] 7s", joker_as="5m", self_drawn=True)

    assert (hand.joker_in_hand, hand.joker_meld) == (False, 1)
    assert [meld.kind for meld in hand.melds] == ["pung", "chow"]
    assert score_wa_hand(hand).joker_as == hand.joker_as


def test_two_tiles_alike_and_the_joker_make_a_pung():
    hand = parse_wa_compact("678p 77s SS 456m [CC J] 7s", joker_as="C")

    assert hand.melds[0].kind == "pung"


def test_joker_as_for_a_standing_joker_is_refused():
    with pytest.raises(HandError) as caught:
        parse_wa_compact("4m J 6m 678p 77s SS [PPP] 7s", joker_as="5m")

    assert (caught.value.code, caught.value.message_key) == (
        "JOKER_AS_MISMATCH",
        "compact_joker_as_standing",
    )
    assert caught.value.message == (
        "joker_as is only for a joker in a declared set; the scorer chooses the value of a "
        "standing joker."
    )


@pytest.mark.parametrize("joker_as", [["5m"], {"tile": "5m"}, 5])
def test_joker_as_that_is_not_a_tile_code_is_refused_as_bad_input(joker_as):
    with pytest.raises(HandError) as caught:
        parse_wa_compact("678p 77s SS [PPP] [46m J] 7s", joker_as=joker_as)

    assert (caught.value.code, caught.value.message_key) == ("BAD_INPUT", "tile_not_text")
    assert "joker_as" in caught.value.message
