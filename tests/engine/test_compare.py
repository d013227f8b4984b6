"""Scoring the same tiles under the other ruling profile: `compare_profiles`."""

from __future__ import annotations

from scoring.engine import compare_profiles, other_profile, parse_compact, score_hand


def differences(comparison) -> list[tuple[str, int, int, int, int]]:
    return [
        (d.key, d.points, d.count, d.other_points, d.other_count) for d in comparison.differences
    ]


def test_the_other_profile_of_each_profile():
    assert other_profile("wmo-2006") == "cn-1998"
    assert other_profile("cn-1998") == "wmo-2006"


def test_self_drawn_seven_pairs_differs_in_fully_concealed_hand_and_self_drawn():
    result = score_hand(parse_compact("1133m 55p 99s EE CC 3p 3p", self_drawn=True))

    comparison = compare_profiles(result)

    assert comparison.profile == "cn-1998"
    assert (result.total, comparison.total) == (34, 31)
    assert comparison.differs
    assert differences(comparison) == [
        ("fully_concealed_hand", 4, 1, 4, 0),
        ("self_drawn", 1, 0, 1, 1),
    ]


def test_a_value_that_differs_is_a_difference_even_with_the_same_count():
    result = score_hand(parse_compact("(1111m) (2222p) [345s] 678m 9s 9s"), "cn-1998")

    comparison = compare_profiles(result)

    assert comparison.profile == "wmo-2006"
    assert differences(comparison) == [("two_concealed_kongs", 6, 1, 8, 1)]
    assert comparison.total == result.total + 2


def test_a_win_may_be_a_false_win_under_the_other_profile():
    """Two Concealed Kongs 8 + No Honor Tiles 1 = 9; by the 1998 rules 6 + 1 = 7."""
    result = score_hand(parse_compact("(3333m) (5555p) [345s] 11p 88s 8s", seat_wind="S"))

    comparison = compare_profiles(result)

    assert result.error is None
    assert (comparison.error, comparison.total_excl_flowers) == ("BELOW_8_FAN", 7)


def test_a_hand_both_profiles_score_alike_has_no_difference():
    result = score_hand(parse_compact("123m 456p 789s 234m 5s 5s", flowers=2))

    comparison = compare_profiles(result)

    assert not comparison.differs
    assert (comparison.total, comparison.total_excl_flowers) == (
        result.total,
        result.total_excl_flowers,
    )


def test_a_refused_hand_has_no_comparison():
    assert compare_profiles(score_hand(parse_compact("135m 246p 789s EWN C 5s"))) is None


def test_the_profile_to_compare_with_can_be_named():
    result = score_hand(parse_compact("1112345678999m 5m"))

    assert not compare_profiles(result, "wmo-2006").differs
    assert differences(compare_profiles(result, "cn-1998")) == [
        ("pung_of_terminals_or_honors", 1, 0, 1, 1)
    ]


def test_the_comparison_as_data():
    result = score_hand(parse_compact("1112345678999m 5m"))

    assert compare_profiles(result).to_dict() == {
        "profile": "cn-1998",
        "error": None,
        "total": 91,
        "total_excl_flowers": 91,
        "differences": [
            {
                "key": "pung_of_terminals_or_honors",
                "en": "Pung of Terminals or Honors",
                "zh": "幺九刻",
                "points": 1,
                "count": 0,
                "other_points": 1,
                "other_count": 1,
            }
        ],
    }
