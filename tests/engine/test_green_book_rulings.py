"""The five rows of "Where the profiles differ" (../shared/rules/RULINGS.md) after the kong rows:
where the WMO Green Book (2006) is explicit, the wmo-2006 profile follows it and cn-1998 keeps
the Chinese reading.  Each test quotes the book's words as RULINGS.md gives them and scores the
kind of hand the definitions (mcr-fan-definitions.txt) give as an example, under both profiles,
with the engine and with PyMahjongGB mapped to the profile (``oracle.py``).
"""

from __future__ import annotations

import pytest

from scoring.engine import PROFILES, RulingProfile, parse_compact, score_hand

from .oracle import compact_to_case, oracle_result


def engine_score(text: str, profile: str, **situation) -> dict:
    return score_hand(parse_compact(text, **situation), profile=profile).to_dict()


def oracle_score(text: str, profile: str, **situation) -> dict:
    return oracle_result(compact_to_case(text, **situation), profile)


@pytest.fixture(params=["engine", "oracle"])
def score(request):
    return engine_score if request.param == "engine" else oracle_score


def fans(result: dict) -> dict[str, tuple[int, int]]:
    """``{zh: (points, count)}`` from an engine dict or an oracle result."""
    out = {}
    for fan in result["fans"]:
        if isinstance(fan, dict):
            out[fan["zh"]] = (fan["points"], fan["count"])
        else:
            out[fan[1]] = (fan[2], fan[3])
    return out


# Seven Pairs: 'combines with Fully Concealed if self-drawn' -----------------------------------

#: The definitions' first Seven Pairs example: with All Types.
SEVEN_PAIRS_ALL_TYPES = "1133m 55p 99s EE CC 3p 3p"


def test_self_drawn_seven_pairs_scores_fully_concealed_hand_under_green_book(score):
    """RULINGS.md: "Fully Concealed Hand 4 instead of Self-Drawn 1 (each definition: 'combines
    with Fully Concealed if self-drawn')"."""
    green = fans(score(SEVEN_PAIRS_ALL_TYPES, "wmo-2006", self_drawn=True))
    chinese = fans(score(SEVEN_PAIRS_ALL_TYPES, "cn-1998", self_drawn=True))

    assert green == {"七对": (24, 1), "五门齐": (6, 1), "不求人": (4, 1)}
    assert chinese == {"七对": (24, 1), "五门齐": (6, 1), "自摸": (1, 1)}


def test_seven_pairs_on_a_discard_scores_neither(score):
    for profile in PROFILES:
        assert fans(score(SEVEN_PAIRS_ALL_TYPES, profile)) == {"七对": (24, 1), "五门齐": (6, 1)}


def test_fully_concealed_hand_is_added_where_last_tile_draw_replaced_self_drawn(score):
    """RULINGS.md: "where Last Tile Draw or Out with Replacement Tile already replaces
    Self-Drawn, Fully Concealed Hand is added"."""
    green = fans(score(SEVEN_PAIRS_ALL_TYPES, "wmo-2006", self_drawn=True, last_wall_tile=True))
    chinese = fans(score(SEVEN_PAIRS_ALL_TYPES, "cn-1998", self_drawn=True, last_wall_tile=True))

    assert green["妙手回春"] == (8, 1) and green["不求人"] == (4, 1) and "自摸" not in green
    assert chinese["妙手回春"] == (8, 1) and "不求人" not in chinese and "自摸" not in chinese


@pytest.mark.parametrize(
    ("hand", "shape", "situation"),
    [
        ("2233445566778p 8p", "连七对", {}),
        ("19m 19p 19s ESWNCFP 1m", "十三幺", {}),
        ("147m 25p 36s ESWNCF P", "七星不靠", {}),
        ("147m 258p 369s ESWN C", "全不靠", {}),
        ("111m 333p 555s 777m 9p 9p", "四暗刻", {}),
        ("(1111m) 333p 555s 777m 9p 9p", "四暗刻", {}),  # a concealed kong is no claimed set
        ("(1111m) 333p 555s 777m 9p 9p", "四暗刻", {"kong_related": True}),
    ],
)
def test_every_concealed_shape_scores_fully_concealed_hand_when_self_drawn(
    score, hand, shape, situation
):
    green = fans(score(hand, "wmo-2006", self_drawn=True, **situation))
    chinese = fans(score(hand, "cn-1998", self_drawn=True, **situation))

    assert shape in green and shape in chinese
    assert green["不求人"] == (4, 1) and "自摸" not in green
    assert "不求人" not in chinese
    assert ("自摸" in chinese) == ("kong_related" not in situation)


# All Green: 'combines with Full Flush and Half Flush' -----------------------------------------

#: The definitions' first All Green example: with Tile Hog (four 2s) and Dragon Pung.
ALL_GREEN_WITH_DRAGON = "[234s] 222s 666s FFF 8s 8s"


def test_all_green_with_the_green_dragon_is_also_a_half_flush(score):
    """RULINGS.md: "also Half Flush 6 ('combines with Full Flush and Half Flush')"."""
    green = fans(score(ALL_GREEN_WITH_DRAGON, "wmo-2006"))
    chinese = fans(score(ALL_GREEN_WITH_DRAGON, "cn-1998"))

    assert green["绿一色"] == (88, 1) and green["混一色"] == (6, 1)
    assert green["四归一"] == (2, 1) and green["箭刻"] == (2, 1)
    assert chinese["绿一色"] == (88, 1) and "混一色" not in chinese
    assert {k: v for k, v in green.items() if k != "混一色"} == chinese


def test_all_green_without_the_dragon_is_a_full_flush_under_both(score):
    for profile in PROFILES:
        result = fans(score("[234s] 222s 666s 888s 4s 4s", profile))
        assert result["绿一色"] == (88, 1) and result["清一色"] == (24, 1)
        assert "混一色" not in result


# All Terminals: 'can combine with Double Pung or Triple Pung' -----------------------------------

#: All Terminals with pungs of 1 and of 9 in two suits each.
ALL_TERMINALS_TWO_DOUBLE_PUNGS = "[111m] [999m] [111p] [999p] 1s 1s"


def test_all_terminals_combines_with_double_pung(score):
    """RULINGS.md: "also Double Pung 2 (per pair of pungs, each pung used once) ... ('can
    combine with Double Pung or Triple Pung')"."""
    green = fans(score(ALL_TERMINALS_TWO_DOUBLE_PUNGS, "wmo-2006"))
    chinese = fans(score(ALL_TERMINALS_TWO_DOUBLE_PUNGS, "cn-1998"))

    assert green == {"清幺九": (64, 1), "全求人": (6, 1), "双同刻": (2, 2)}
    assert chinese == {"清幺九": (64, 1), "全求人": (6, 1)}


def test_all_terminals_combines_with_triple_pung_under_both(score):
    for profile in PROFILES:
        result = fans(score("[111m] [111p] [111s] [999m] 9p 9p", profile))
        assert result["清幺九"] == (64, 1) and result["三同刻"] == (16, 1)
        assert "双同刻" not in result  # the fourth pung (999m) pairs with none of 1m 1p 1s


# Tile Hog: 'all four of a single suit tile' ----------------------------------------------------

#: Seven Pairs with four East winds: the only hand that holds four copies of an honour that are
#: not a kong.
SEVEN_PAIRS_FOUR_EAST = "1133m 55p EEEE CC 7s 7s"


def test_four_honours_in_seven_pairs_are_no_tile_hog_under_green_book(score):
    """RULINGS.md: "no Tile Hog: §64 is 'all four of a single suit tile'"."""
    green = fans(score(SEVEN_PAIRS_FOUR_EAST, "wmo-2006"))
    chinese = fans(score(SEVEN_PAIRS_FOUR_EAST, "cn-1998"))

    assert green["七对"] == (24, 1) and "四归一" not in green
    assert chinese["七对"] == (24, 1) and chinese["四归一"] == (2, 1)


def test_four_suit_tiles_in_seven_pairs_are_a_tile_hog_under_both(score):
    for profile in PROFILES:
        result = fans(score("1111m 55p EEEE CC 7s 7s", profile))
        assert result["四归一"] == (2, 1 if profile == "wmo-2006" else 2)


# Nine Gates: its 'does not combine with' list holds Pung of Terminals or Honors --------------

#: Nine Gates won on a 5: 111 234 55 678 999, two concealed pungs of terminals.
NINE_GATES_ON_5 = "1112345678999m 5m"


def test_nine_gates_won_on_5_adds_no_pung_of_terminals(score):
    """RULINGS.md: "no Pung of Terminals or Honors (its 'does not combine with' list)"."""
    green = fans(score(NINE_GATES_ON_5, "wmo-2006"))
    chinese = fans(score(NINE_GATES_ON_5, "cn-1998"))

    assert green == {"九莲宝灯": (88, 1), "双暗刻": (2, 1)}
    assert chinese == {"九莲宝灯": (88, 1), "双暗刻": (2, 1), "幺九刻": (1, 1)}


def test_self_drawn_nine_gates_won_on_5_under_both_profiles(score):
    green = fans(score(NINE_GATES_ON_5, "wmo-2006", self_drawn=True))
    chinese = fans(score(NINE_GATES_ON_5, "cn-1998", self_drawn=True))

    assert green == {"九莲宝灯": (88, 1), "双暗刻": (2, 1), "不求人": (4, 1)}
    assert chinese == {"九莲宝灯": (88, 1), "双暗刻": (2, 1), "幺九刻": (1, 1), "自摸": (1, 1)}


# The rulings are profile data ------------------------------------------------------------------


def test_the_five_rulings_are_data_of_the_green_book_profile():
    green, chinese = PROFILES["wmo-2006"], PROFILES["cn-1998"]

    assert set(green.combines) == {("all_green", "half_flush"), ("all_terminals", "double_pung")}
    assert green.excludes == (("nine_gates", "pung_of_terminals_or_honors"),)
    assert "seven_pairs" in green.fully_concealed and not green.tile_hog_of_honors
    assert (chinese.combines, chinese.excludes, chinese.fully_concealed) == ((), (), frozenset())
    assert chinese.tile_hog_of_honors


def test_a_profile_may_take_one_ruling_alone():
    """A profile is data: one with only the Tile Hog ruling changes only Tile Hog."""
    hog_only = RulingProfile("hog-only", "Tile Hog only", "", tile_hog_of_honors=False)
    hand = parse_compact(SEVEN_PAIRS_FOUR_EAST, self_drawn=True)

    result = score_hand(hand, profile=hog_only)

    assert [(f.zh, f.count) for f in result.fans] == [("七对", 1), ("五门齐", 1), ("自摸", 1)]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("combines", (("all_green", "all_chows"),), "already combines"),
        ("combines", (("all_green", "no_such_fan"),), "unknown fan"),
        ("excludes", (("nine_gates", "no_such_fan"),), "unknown fan"),
        ("fully_concealed", frozenset({"all_chows"}), "no shape"),
    ],
)
def test_a_profile_with_a_ruling_the_engine_cannot_apply_is_refused(field, value, message):
    profile = RulingProfile("broken", "Broken", "", **{field: value})

    with pytest.raises((KeyError, ValueError), match=message):
        score_hand(parse_compact(SEVEN_PAIRS_FOUR_EAST), profile=profile)
