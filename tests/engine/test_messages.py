"""The engine's messages: a key and parameters for each sentence, and the English sentences.

Every message key is reached here by a hand and pinned to its exact English sentence (the API,
pages and case-format tools show these sentences). The presentation layer translates by key
(`scoring.engine_messages`, tested in tests/i18n).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from scoring import engine
from scoring.engine import MESSAGES, HandError, parse_compact, score_case, score_hand
from scoring.engine.messages import render

from .test_jt_validation import REFUSALS as JT_REFUSALS
from .wa.test_messages import SENTENCES as WA_SENTENCES

ENGINE_DIR = Path(engine.__file__).parent

# A valid hand in the case format: a Pure Straight won on 5s.
HAND = {
    "concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "5s"],
    "melds": [],
    "win_tile": "5s",
}


def case(**changes) -> dict:
    return {**HAND, **changes}


def with_set(meld: dict, **changes) -> dict:
    """A hand with one declared set and ten standing tiles."""
    return case(concealed=HAND["concealed"][:9] + ["5s"], melds=[meld], **changes)


# (message key, compact text, situation, code, English sentence)
COMPACT = [
    (
        "digits_without_suit",
        "123 m",
        {},
        "UNKNOWN_TILE",
        "The digits 123 need a suit letter (m, p or s) after them.",
    ),
    (
        "digits_without_suit",
        "123E",
        {},
        "UNKNOWN_TILE",
        "The digits 123 need a suit letter (m, p or s) after them.",
    ),
    ("tile_zero", "0m", {}, "UNKNOWN_TILE", "There is no tile numbered 0."),
    ("suit_without_digits", "m", {}, "UNKNOWN_TILE", "'m' at position 1 follows no digits."),
    ("suit_without_digits", "12m p", {}, "UNKNOWN_TILE", "'p' at position 5 follows no digits."),
    ("set_inside_set", "[[1m", {}, "INVALID_MELD", "A set cannot open inside another set."),
    (
        "not_a_tile",
        "X",
        {},
        "UNKNOWN_TILE",
        "'X' at position 1 is not a tile. Honours are E S W N C F P.",
    ),
    (
        "not_a_tile",
        "123mx",
        {},
        "UNKNOWN_TILE",
        "'x' at position 5 is not a tile. Honours are E S W N C F P.",
    ),
    (
        "set_never_closed",
        "[123m",
        {},
        "INVALID_MELD",
        "The set opened at position 1 is never closed.",
    ),
    (
        "empty_hand",
        "",
        {},
        "BAD_INPUT",
        "The hand is empty. Write tiles such as '123m 456p 789s EE [PPP] 5s'.",
    ),
    (
        "empty_hand",
        None,
        {},
        "BAD_INPUT",
        "The hand is empty. Write tiles such as '123m 456p 789s EE [PPP] 5s'.",
    ),
    (
        "no_winning_tile",
        "[123m]",
        {},
        "WRONG_TILE_COUNT",
        "No winning tile: the last loose tile is the winning tile.",
    ),
    (
        "compact_concealed_kong_size",
        "(111m)",
        {},
        "INVALID_MELD",
        "set 1: parentheses mark a concealed kong of 4 identical tiles, not 3 tiles.",
    ),
    (
        "compact_set_size",
        "[11m]",
        {},
        "INVALID_MELD",
        "set 1: a declared set has 3 or 4 tiles, not 2.",
    ),
    (
        "compact_chow_of_honours",
        "[ESW] 123m 456m 789m 5s",
        {},
        "INVALID_MELD",
        "set 1: a chow cannot be made of honours (E S W).",
    ),
    (
        "compact_chow_not_a_run",
        "[135m] 123m 456m 789m 5s",
        {},
        "INVALID_MELD",
        "set 1: 1m 3m 5m is not a run of three consecutive tiles of one suit.",
    ),
    (
        "compact_set_not_identical",
        "[1112m] 123m 456m 789m 5s",
        {},
        "INVALID_MELD",
        "set 1: a kong is 4 identical tiles, not 1m 1m 1m 2m.",
    ),
    (
        "compact_set_not_identical",
        "(1234m) 123m 456m 789m 5s",
        {},
        "INVALID_MELD",
        "set 1: a kong is 4 identical tiles, not 1m 2m 3m 4m.",
    ),
    (
        "wrong_tile_count",
        "123m",
        {},
        "WRONG_TILE_COUNT",
        (
            "A winning hand has 14 tiles (each kong adds one more); this one has 3: 2 standing, 0 "
            "declared set(s) and the winning tile."
        ),
    ),
    (
        "wrong_tile_count",
        "123m [123m] 456m 789m 5s",
        {},
        "WRONG_TILE_COUNT",
        (
            "A winning hand has 14 tiles (each kong adds one more); this one has 13: 9 standing, "
            "1 declared set(s) and the winning tile."
        ),
    ),
    (
        "too_many_copies",
        "11112m 456m 789m 55s 1m",
        {},
        "TILE_COUNT_GT_4",
        "The hand has 5 copies of 1m; there are only four of each tile.",
    ),
    (
        "bad_flag",
        "123m 456m 789m 123p 5s",
        {"self_drawn": "maybe"},
        "BAD_INPUT",
        "self_drawn must be true or false, not 'maybe'.",
    ),
    (
        "bad_wind",
        "123m 456m 789m 123p 5s",
        {"seat_wind": "X"},
        "BAD_INPUT",
        "seat_wind must be one of E, S, W, N, not 'X'.",
    ),
    (
        "bad_flowers",
        "123m 456m 789m 123p 5s",
        {"flowers": -1},
        "BAD_INPUT",
        "flowers must be a whole number from 0 to 8, not -1.",
    ),
    (
        "replacement_tile_without_kong",
        "123m 456m 789m 123p 5s 5s",
        {"kong_related": True, "self_drawn": True},
        "CONTRADICTORY_SITUATION",
        "Out with Replacement Tile needs a declared kong, and this hand has none.",
    ),
    (
        "robbing_the_kong_tile_held",
        "123m 456m 789m 123p 5s 5s",
        {"kong_related": True},
        "CONTRADICTORY_SITUATION",
        (
            "Robbing the Kong: the other three 5s are in the kong being made, yet this hand holds "
            "another one."
        ),
    ),
    (
        "last_of_its_kind_tile_held",
        "123m 456m 789m 123p 5s 5s",
        {"last_tile_of_kind": True},
        "CONTRADICTORY_SITUATION",
        (
            "Last of its Kind needs the other three 5s in view, but this hand holds another one "
            "among its standing tiles."
        ),
    ),
    (
        "not_a_winning_hand",
        "123m 456m 789m 124p 5s 5s",
        {},
        "NOT_WIN",
        (
            "These tiles do not make a winning hand: they cannot be split into four sets and a "
            "pair, nor into a special hand such as Seven Pairs or Thirteen Orphans."
        ),
    ),
    (
        "below_minimum",
        "123m 345p 678s 234m 5s 5s",
        {"flowers": 8},
        "BELOW_8_FAN",
        "False win: the hand is worth 4 fan without flowers, and a win needs at least 8.",
    ),
]

# (message key, hand in the case format, code, English sentence)
CASES = [
    (
        "tile_not_text",
        case(concealed=[5]),
        "BAD_INPUT",
        "concealed must be a tile code such as '5m' or 'E', not 5.",
    ),
    (
        "meld_tile_not_text",
        with_set({"type": "chow", "tiles": [1, 2, 3]}),
        "BAD_INPUT",
        "declared set 1 must be a tile code such as '5m' or 'E', not 1.",
    ),
    (
        "unknown_tile",
        case(concealed=["0m"]),
        "UNKNOWN_TILE",
        (
            "concealed: '0m' is not a tile. Use 1m-9m, 1p-9p, 1s-9s, the winds E S W N or the "
            "dragons C F P."
        ),
    ),
    (
        "unknown_tile",
        case(win_tile="Q"),
        "UNKNOWN_TILE",
        (
            "win_tile: 'Q' is not a tile. Use 1m-9m, 1p-9p, 1s-9s, the winds E S W N or the "
            "dragons C F P."
        ),
    ),
    (
        "meld_unknown_tile",
        with_set({"type": "chow", "tiles": ["Xm", "2m", "3m"]}),
        "UNKNOWN_TILE",
        (
            "declared set 1: 'Xm' is not a tile. Use 1m-9m, 1p-9p, 1s-9s, the winds E S W N or "
            "the dragons C F P."
        ),
    ),
    (
        "meld_unknown_tile",
        with_set({"type": "chow", "tiles": ["1m", "2m", "3m"], "claimed": "Z"}),
        "UNKNOWN_TILE",
        (
            "declared set 1: 'Z' is not a tile. Use 1m-9m, 1p-9p, 1s-9s, the winds E S W N or the "
            "dragons C F P."
        ),
    ),
    ("bad_wind", case(seat_wind="Q"), "BAD_INPUT", "seat_wind must be one of E, S, W, N, not 'Q'."),
    (
        "bad_wind",
        case(prevalent_wind=3),
        "BAD_INPUT",
        "prevalent_wind must be one of E, S, W, N, not 3.",
    ),
    (
        "bad_flag",
        case(self_drawn="yes"),
        "BAD_INPUT",
        "self_drawn must be true or false, not 'yes'.",
    ),
    (
        "bad_flag",
        with_set({"type": "kong", "tiles": ["1m", "1m", "1m", "1m"], "concealed": 1}),
        "BAD_INPUT",
        "concealed must be true or false, not 1.",
    ),
    (
        "bad_flowers",
        case(flowers=9),
        "BAD_INPUT",
        "flowers must be a whole number from 0 to 8, not 9.",
    ),
    (
        "bad_flowers",
        case(flowers=True),
        "BAD_INPUT",
        "flowers must be a whole number from 0 to 8, not True.",
    ),
    (
        "chow_size",
        with_set({"type": "chow", "tiles": ["1m", "2m", "3m", "4m"]}),
        "INVALID_MELD",
        "declared set 1: a chow has 3 tiles, not 4 (1m 2m 3m 4m).",
    ),
    (
        "chow_of_honours",
        with_set({"type": "chow", "tiles": ["E", "S", "W"]}),
        "INVALID_MELD",
        "declared set 1: a chow cannot be made of honours (E S W).",
    ),
    (
        "chow_not_a_run",
        with_set({"type": "chow", "tiles": ["1m", "3m", "5m"]}),
        "INVALID_MELD",
        "declared set 1: 1m 3m 5m is not a run of three consecutive tiles of one suit.",
    ),
    (
        "concealed_chow",
        with_set({"type": "chow", "tiles": ["1m", "2m", "3m"], "concealed": True}),
        "INVALID_MELD",
        (
            "declared set 1: only a kong can be declared concealed; a concealed chow stays in the "
            "hand."
        ),
    ),
    (
        "claimed_tile_not_in_chow",
        with_set({"type": "chow", "tiles": ["1m", "2m", "3m"], "claimed": "9m"}),
        "INVALID_MELD",
        "declared set 1: the claimed tile 9m is not part of the chow 1m 2m 3m.",
    ),
    (
        "set_size",
        with_set({"type": "pung", "tiles": ["1m", "1m", "1m", "1m"]}),
        "INVALID_MELD",
        "declared set 1: a pung has 3 tiles, not 4 (1m 1m 1m 1m).",
    ),
    (
        "set_size",
        with_set({"type": "kong", "tiles": ["1m", "1m", "1m"]}),
        "INVALID_MELD",
        "declared set 1: a kong has 4 tiles, not 3 (1m 1m 1m).",
    ),
    (
        "set_not_identical",
        with_set({"type": "pung", "tiles": ["1m", "1m", "2m"]}),
        "INVALID_MELD",
        "declared set 1: a pung is 3 identical tiles, not 1m 1m 2m.",
    ),
    (
        "set_not_identical",
        with_set({"type": "kong", "tiles": ["1m", "1m", "1m", "2m"]}),
        "INVALID_MELD",
        "declared set 1: a kong is 4 identical tiles, not 1m 1m 1m 2m.",
    ),
    (
        "concealed_pung",
        with_set({"type": "pung", "tiles": ["1m", "1m", "1m"], "concealed": True}),
        "INVALID_MELD",
        (
            "declared set 1: only a kong can be declared concealed; a concealed pung stays in the "
            "hand."
        ),
    ),
    (
        "bad_source",
        with_set({"type": "pung", "tiles": ["1m", "1m", "1m"], "from": "top"}),
        "BAD_INPUT",
        "declared set 1: 'from' must be left, across or right, not 'top'.",
    ),
    (
        "bad_set_type",
        with_set({"type": "triple", "tiles": ["1m", "1m", "1m"]}),
        "INVALID_MELD",
        "declared set 1: a declared set is a chow, pung or kong, not 'triple'.",
    ),
    ("hand_not_object", [1], "BAD_INPUT", "A hand must be a JSON object."),
    (
        "concealed_not_list",
        {"concealed": "1m"},
        "BAD_INPUT",
        "concealed must be a list of tile codes.",
    ),
    ("melds_not_list", case(melds="x"), "BAD_INPUT", "melds must be a list of declared sets."),
    (
        "meld_not_object",
        case(melds=[5]),
        "BAD_INPUT",
        "declared set 1 must be an object with 'type' and 'tiles'.",
    ),
    (
        "meld_not_object",
        case(melds=[{"type": "pung"}]),
        "BAD_INPUT",
        "declared set 1 must be an object with 'type' and 'tiles'.",
    ),
    (
        "win_tile_missing",
        {"concealed": ["1m"], "melds": []},
        "BAD_INPUT",
        "win_tile is missing: which tile completed the hand?",
    ),
    (
        "robbing_the_kong_self_drawn",
        case(robbing_the_kong=True, self_drawn=True),
        "CONTRADICTORY_SITUATION",
        (
            "Robbing the Kong is won on a tile another player adds to a kong, so it cannot be "
            "self-drawn."
        ),
    ),
    (
        "replacement_tile_on_discard",
        case(replacement_tile=True),
        "CONTRADICTORY_SITUATION",
        (
            "Out with Replacement Tile is won on the tile drawn after a kong, so it is always "
            "self-drawn."
        ),
    ),
]


def compact_verdict(text, situation) -> tuple[str | None, str | None, str]:
    try:
        hand = parse_compact(text, **situation)
    except HandError as error:
        return error.code, error.message_key, error.message
    result = score_hand(hand)
    return result.error, result.message_key, result.message


@pytest.mark.parametrize(("key", "text", "situation", "code", "sentence"), COMPACT)
def test_compact_form_message(key, text, situation, code, sentence):
    assert compact_verdict(text, situation) == (code, key, sentence)


@pytest.mark.parametrize(("key", "hand", "code", "sentence"), CASES)
def test_case_format_message(key, hand, code, sentence):
    result = score_case(hand)
    assert (result.error, result.message_key, result.message) == (code, key, sentence)
    assert result.to_dict()["message"] == sentence


def test_every_message_key_is_reached_by_an_example():
    reached = {row[0] for row in COMPACT} | {row[0] for row in CASES} | set(WA_SENTENCES)
    # Japanese Transitional's own situation sentences: its validation tests reach them.
    reached |= {row[3] for row in JT_REFUSALS}
    assert reached == set(MESSAGES)


def test_a_hand_error_carries_its_key_and_parameters():
    with pytest.raises(HandError) as caught:
        parse_compact("123m Q")
    error = caught.value
    assert (error.code, error.message_key) == ("UNKNOWN_TILE", "not_a_tile")
    assert error.message_params == {"char": "Q", "position": 6}
    assert str(error) == error.message == render("not_a_tile", error.message_params)


def test_a_false_win_carries_its_key_and_parameters():
    result = score_hand(parse_compact("123m 345p 678s 234m 5s 5s"))
    assert result.error == "BELOW_8_FAN"
    assert result.message_key == "below_minimum"
    assert result.message_params == {"fan": 4, "minimum": 8}


def test_a_win_has_no_message():
    result = score_hand(parse_compact("123m 456m 789m 123p 5s 5s"))
    assert (result.error, result.message_key, result.message) == (None, None, "")


def _written_keys(node: ast.expr) -> set[str]:
    """The message keys an argument can take: a string, or a choice between strings."""
    if isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, str)):
        return {node.value} - {None}
    if isinstance(node, ast.IfExp):
        return _written_keys(node.body) | _written_keys(node.orelse)
    if isinstance(node, ast.Attribute) and node.attr == "message_key":
        return set()  # passed on from a HandError
    raise AssertionError(f"a message key that is not written out: {ast.unparse(node)}")


def keys_in_engine_source() -> set[str]:
    """Every message key the engine's code can raise or return, read from the source."""
    keys: set[str] = set()
    for path in sorted(ENGINE_DIR.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "HandError":
                keys |= _written_keys(node.args[1])
            elif isinstance(node, ast.keyword) and node.arg == "message_key":
                keys |= _written_keys(node.value)
            elif (
                isinstance(node, ast.Assign)
                and getattr(node.targets[0], "attr", None) == "message_key"
                and not isinstance(node.value, ast.Name)  # a constructor keeping its argument
            ):
                keys |= _written_keys(node.value)
    return keys


def test_every_key_in_the_source_has_an_english_template_and_none_is_left_over():
    assert keys_in_engine_source() == set(MESSAGES)
