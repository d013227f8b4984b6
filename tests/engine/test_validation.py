"""Every error code of the engine, from the case format and from the compact notation.

``score_case`` never raises for a bad hand: it returns a result with a stable ``error`` code and
a plain-language ``message``.  Structural errors carry no total; ``BELOW_8_FAN`` (a false win)
carries the full breakdown.  ``parse_compact`` raises ``HandError`` with the same codes.
"""

from __future__ import annotations

import pytest

from scoring.engine import HandError, parse_compact, score_case, score_hand

from .oracle import compact_to_case

# Chicken Hand, exactly 8 fan: [234m] declared, 666p 56s 789p EE standing, won on 4s.
VALID = compact_to_case("[234m] 666p 56s 789p EE 4s")


def with_(**changes) -> dict:
    return {**VALID, **changes}


def declared(kind: str, tiles: list[str], **extra) -> dict:
    """VALID with its declared chow replaced by another declared set."""
    meld = {"type": kind, "tiles": tiles, "concealed": False, **extra}
    if kind == "chow":
        meld.setdefault("claimed", tiles[0])
    else:
        meld.setdefault("from", "left")
    return with_(melds=[meld])


def verdict(case) -> dict:
    return score_case(case).to_dict()


def test_valid_hand_has_no_error_and_an_empty_message():
    result = verdict(VALID)
    assert result["error"] is None
    assert result["message"] == ""
    assert result["total"] == 8
    assert result["meets_minimum"] is True


BAD_CASES = {
    # UNKNOWN_TILE
    "unknown_winning_tile": (with_(win_tile="0m"), "UNKNOWN_TILE"),
    "unknown_standing_tile": (with_(concealed=VALID["concealed"][:-1] + ["X"]), "UNKNOWN_TILE"),
    "unknown_tile_in_declared_set": (declared("chow", ["2m", "3m", "Q"]), "UNKNOWN_TILE"),
    # TILE_COUNT_GT_4
    "fifth_copy_of_a_tile": (
        compact_to_case("[2222m] 234m 567p 56s EE 4s"),
        "TILE_COUNT_GT_4",
    ),
    # WRONG_TILE_COUNT
    "one_tile_missing": (with_(concealed=VALID["concealed"][:-1]), "WRONG_TILE_COUNT"),
    "one_tile_too_many": (with_(concealed=VALID["concealed"] + ["9s"]), "WRONG_TILE_COUNT"),
    # INVALID_MELD
    "chow_of_honours": (declared("chow", ["E", "S", "W"]), "INVALID_MELD"),
    "chow_not_in_sequence": (declared("chow", ["1m", "3m", "5m"]), "INVALID_MELD"),
    "chow_across_suits": (declared("chow", ["1m", "2p", "3s"]), "INVALID_MELD"),
    "chow_wrapping_round_from_9_to_1": (declared("chow", ["8m", "9m", "1m"]), "INVALID_MELD"),
    "chow_claimed_on_a_tile_it_lacks": (
        declared("chow", ["2m", "3m", "4m"], claimed="9m"),
        "INVALID_MELD",
    ),
    "kong_of_three_tiles": (declared("kong", ["2m", "2m", "2m"]), "INVALID_MELD"),
    "pung_of_mixed_tiles": (declared("pung", ["2m", "2m", "3m"]), "INVALID_MELD"),
    # CONTRADICTORY_SITUATION
    "out_with_replacement_tile_without_a_kong": (
        with_(self_drawn=True, kong_related=True),
        "CONTRADICTORY_SITUATION",
    ),
    "robbing_the_kong_of_a_tile_the_hand_also_holds": (
        compact_to_case("[234m] 666p 56s 789p E 4s E", kong_related=True),
        "CONTRADICTORY_SITUATION",
    ),
    "last_tile_of_its_kind_while_holding_another_copy": (
        compact_to_case("[234m] 666p 456s 789p E E", last_tile_of_kind=True),
        "CONTRADICTORY_SITUATION",
    ),
    # NOT_WIN
    "tiles_that_do_not_make_a_winning_hand": (
        compact_to_case("[234m] 666p 56s 789p EE 9s"),
        "NOT_WIN",
    ),
    # BAD_INPUT
    "hand_that_is_not_an_object": ("123m 456m", "BAD_INPUT"),
    "hand_that_is_none": (None, "BAD_INPUT"),
    "standing_tiles_as_a_string": (with_(concealed="2m3m"), "BAD_INPUT"),
    "declared_sets_not_a_list": (with_(melds="none"), "BAD_INPUT"),
    "declared_set_not_an_object": (with_(melds=[5]), "BAD_INPUT"),
    "winning_tile_missing": ({k: v for k, v in VALID.items() if k != "win_tile"}, "BAD_INPUT"),
    "winning_tile_as_a_number": (with_(win_tile=4), "BAD_INPUT"),
    "flowers_as_a_string": (with_(flowers="3"), "BAD_INPUT"),
    "flowers_above_eight": (with_(flowers=9), "BAD_INPUT"),
    "negative_flowers": (with_(flowers=-1), "BAD_INPUT"),
    "unknown_seat_wind": (with_(seat_wind="X"), "BAD_INPUT"),
    "dragon_as_prevalent_wind": (with_(prevalent_wind="C"), "BAD_INPUT"),
    "flag_as_a_string": (with_(self_drawn="yes"), "BAD_INPUT"),
}


@pytest.mark.parametrize(("case", "code"), BAD_CASES.values(), ids=BAD_CASES.keys())
def test_bad_hand_is_reported_with_its_code(case, code):
    result = verdict(case)
    assert result["error"] == code, result["message"]


@pytest.mark.parametrize(("case", "code"), BAD_CASES.values(), ids=BAD_CASES.keys())
def test_every_error_explains_itself_and_gives_no_total(case, code):
    result = verdict(case)
    assert result["message"].strip()
    assert result["total"] is None
    assert result["total_excl_flowers"] is None
    assert result["meets_minimum"] is False


def test_false_win_below_8_fan_keeps_the_full_breakdown():
    result = verdict(compact_to_case("[234m] 456p 678s 555m E E", flowers=2))
    assert result["error"] == "BELOW_8_FAN"
    assert result["message"].strip()
    assert result["minimum"] == 8
    assert result["meets_minimum"] is False
    assert result["total_excl_flowers"] == 1
    assert result["total"] == 3
    fans = {f["zh"]: (f["points"], f["count"]) for f in result["fans"]}
    assert fans == {"独听・单钓": (1, 1), "花牌": (1, 2)}
    assert result["arrangement"], "a false win still shows how the hand was read"


def test_flowers_cannot_lift_a_hand_to_the_minimum():
    result = verdict(compact_to_case("[234m] 456p 678s 555m E E", flowers=8))
    assert result["total"] == 9
    assert result["error"] == "BELOW_8_FAN"


MALFORMED_COMPACT = {
    "digits_without_suit_letter": ("123x", "123"),
    "trailing_digits_without_suit": ("123m 456m 789m 234p 5s 5", "5"),
    "unknown_letter": ("123m 456m 789m 234p 5s 5s ?", "?"),
    "unclosed_declared_set": ("[123m 456m 789m 234p 5s 5s", None),
    "unopened_bracket": ("123m] 456m 789m 234p 5s 5s", None),
    "nested_sets": ("[[123m]] 456m 789m 234p 5s 5s", None),
    "concealed_kong_of_three": ("(123m) 456m 789m 234p 5s 5s", None),
    "empty_text": ("", None),
}


@pytest.mark.parametrize(
    ("text", "culprit"), MALFORMED_COMPACT.values(), ids=MALFORMED_COMPACT.keys()
)
def test_malformed_compact_notation_raises_a_clear_hand_error(text, culprit):
    with pytest.raises(HandError) as caught:
        parse_compact(text)
    error = caught.value
    assert error.code in {"UNKNOWN_TILE", "INVALID_MELD", "BAD_INPUT", "WRONG_TILE_COUNT"}
    assert error.message.strip()
    if culprit:
        assert culprit in error.message


def test_compact_notation_rejects_a_bad_situation_value():
    with pytest.raises(HandError) as caught:
        parse_compact("[234m] 666p 56s 789p EE 4s", flowers="x")
    assert caught.value.code == "BAD_INPUT"
    assert caught.value.message.strip()


def test_compact_and_case_format_read_the_same_hand():
    from_compact = score_hand(parse_compact("[234m] 666p 56s 789p EE 4s")).to_dict()
    assert from_compact == score_case(VALID).to_dict()
