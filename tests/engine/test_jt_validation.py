"""Japanese Transitional: every refusal of a hand, with its stable code and message key, from
the case format and from the compact notation. A refused hand has no score."""

from __future__ import annotations

import pytest

from scoring.engine import HandError
from scoring.engine.jt import parse_jt_compact, score_jt_case, score_jt_hand

# A valid JT win in the case format: chows and a pair, won on a discard.
VALID = {
    "concealed": ["1m", "2m", "4p", "5p", "6p", "7s", "8s", "9s", "2s", "3s", "4s", "5p", "5p"],
    "melds": [],
    "win_tile": "3m",
    "self_drawn": False,
    "seat_wind": "S",
    "prevalent_wind": "E",
}


def case(**changes) -> dict:
    return {**VALID, **changes}


def opened(**changes) -> dict:
    """VALID with its chow of 7s 8s 9s declared (melded)."""
    concealed = ["1m", "2m", "4p", "5p", "6p", "2s", "3s", "4s", "5p", "5p"]
    meld = {"type": "chow", "tiles": ["7s", "8s", "9s"], "concealed": False}
    return case(**{"concealed": concealed, "melds": [meld], **changes})


def with_kong(**changes) -> dict:
    """VALID with a concealed kong of 2m in place of the chow of 7s 8s 9s."""
    concealed = ["1m", "2m", "4p", "5p", "6p", "2s", "3s", "4s", "5p", "5p"]
    meld = {"type": "kong", "tiles": ["9m"] * 4, "concealed": True}
    return case(concealed=concealed, melds=[meld], **changes)


REFUSALS = [
    ("unknown tile", case(win_tile="10m"), "UNKNOWN_TILE", "unknown_tile"),
    (
        "unknown tile in a set",
        opened(melds=[{"type": "pung", "tiles": ["X", "X", "X"]}]),
        "UNKNOWN_TILE",
        "meld_unknown_tile",
    ),
    (
        "fifth copy",
        case(concealed=["5p"] * 4 + VALID["concealed"][4:], win_tile="5p"),
        "TILE_COUNT_GT_4",
        "too_many_copies",
    ),
    ("wrong count", case(concealed=VALID["concealed"][1:]), "WRONG_TILE_COUNT", "wrong_tile_count"),
    (
        "impossible chow",
        opened(melds=[{"type": "chow", "tiles": ["7s", "8s", "1p"]}]),
        "INVALID_MELD",
        "chow_not_a_run",
    ),
    (
        "impossible pung",
        opened(melds=[{"type": "pung", "tiles": ["7s", "7s", "8s"]}]),
        "INVALID_MELD",
        "set_not_identical",
    ),
    (
        "riichi with a melded set",
        opened(riichi=True),
        "CONTRADICTORY_SITUATION",
        "jt_riichi_with_melded_set",
    ),
    (
        "riichi named in the deal with a melded set",
        opened(deal={"riichi": ["S"]}),
        "CONTRADICTORY_SITUATION",
        "jt_riichi_with_melded_set",
    ),
    (
        "robbing a kong self-drawn",
        case(robbing_kong=True, self_drawn=True),
        "CONTRADICTORY_SITUATION",
        "robbing_the_kong_self_drawn",
    ),
    (
        "robbing a kong of a tile held",
        case(
            robbing_kong=True,
            win_tile="5p",
            concealed=[
                "1m",
                "2m",
                "3m",
                "4p",
                "6p",
                "7s",
                "8s",
                "9s",
                "2s",
                "3s",
                "4s",
                "5p",
                "5p",
            ],
        ),
        "CONTRADICTORY_SITUATION",
        "robbing_the_kong_tile_held",
    ),
    (
        "supplement tile without a kong",
        case(supplement_tile=True, self_drawn=True),
        "CONTRADICTORY_SITUATION",
        "jt_supplement_tile_without_kong",
    ),
    (
        "supplement tile on a discard",
        with_kong(supplement_tile=True),
        "CONTRADICTORY_SITUATION",
        "jt_supplement_tile_on_discard",
    ),
    (
        "last wall tile on a discard",
        case(last_wall_tile=True),
        "CONTRADICTORY_SITUATION",
        "jt_last_wall_tile_on_discard",
    ),
    (
        "last discard self-drawn",
        case(last_discard=True, self_drawn=True),
        "CONTRADICTORY_SITUATION",
        "jt_last_discard_self_drawn",
    ),
    (
        "heavenly hand of a non-dealer",
        case(heavenly=True, self_drawn=True),
        "CONTRADICTORY_SITUATION",
        "jt_heavenly_hand",
    ),
    (
        "heavenly hand on a discard",
        case(heavenly=True, seat_wind="E"),
        "CONTRADICTORY_SITUATION",
        "jt_heavenly_hand",
    ),
    (
        "earthly hand of the dealer",
        case(earthly=True, seat_wind="E"),
        "CONTRADICTORY_SITUATION",
        "jt_earthly_hand",
    ),
    (
        "earthly hand after a claim",
        opened(earthly=True),
        "CONTRADICTORY_SITUATION",
        "jt_earthly_hand",
    ),
    ("not a winning hand", case(win_tile="9m"), "NOT_WIN", "not_a_winning_hand"),
    ("a flag that is not true or false", case(riichi="yes"), "BAD_INPUT", "bad_flag"),
    ("a seat that is not a wind", case(seat_wind="X"), "BAD_INPUT", "bad_wind"),
]


def test_the_valid_hand_scores():
    result = score_jt_case(VALID)
    assert (result.error, result.final) == (None, 30)  # 20 + 2 edge wait + 10 concealed
    assert result.message == ""


@pytest.mark.parametrize(
    ("hand", "code", "key"), [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS]
)
def test_refusal(hand, code, key):
    result = score_jt_case(hand)
    assert (result.error, result.message_key) == (code, key)
    assert result.message
    assert result.final is None and result.patterns == ()


def test_the_case_shape_of_a_refusal_has_no_score():
    hand = score_jt_case(case(win_tile="9m")).case_hand()
    assert hand == {
        "error": "NOT_WIN",
        "patterns": [],
        "points": None,
        "doubles": None,
        "raw": None,
        "final": None,
        "limit": False,
    }


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("123m 456p 789s 234s 5p 5x", "UNKNOWN_TILE"),
        ("5555p 456p 789s 234s 5p", "TILE_COUNT_GT_4"),
        ("123m 456p 789s 234s 5p", "WRONG_TILE_COUNT"),
        ("456p 789s 234s 5p [124m] 5p", "INVALID_MELD"),
        ("123m 456p 789s 234s 5p 6p", "NOT_WIN"),
    ],
)
def test_the_compact_form_gives_the_same_codes(text, code):
    try:
        result = score_jt_hand(parse_jt_compact(text))
    except HandError as error:  # the parser refuses what it cannot read
        assert error.code == code
    else:
        assert result.error == code


def test_a_contradictory_situation_in_the_compact_form():
    result = score_jt_hand(parse_jt_compact("456p 789s 234s 5p [123m] 5p", riichi=True))
    assert result.error == "CONTRADICTORY_SITUATION"
