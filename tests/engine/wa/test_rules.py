"""The rules around the patterns: exclusions, limits, the joker, the minimum, and the checks
that refuse a hand with a stable code."""

from __future__ import annotations

import pytest

from scoring.engine.arrange import completing_tiles
from scoring.engine.tiles import INDEX
from scoring.engine.wa import BY_KEY, parse_wa_case, score_wa_case
from scoring.engine.wa.patterns import kept_patterns

from .helpers import case, meld, patterns, score

FOUR_TRIPLETS = "2m 2m 2m 5p 5p 5p 8s 8s 8s E E E J"

# --- Exclusions and limits ------------------------------------------------------------------


def test_exclusions_go_from_the_highest_value_down():
    # Four concealed triplets (80) drops Fully concealed (7), so the self-drawn point that
    # Fully concealed would have absorbed is paid.
    found = patterns(score(FOUR_TRIPLETS, "C", self_drawn=True))

    assert "four_concealed_triplets" in found
    assert "fully_concealed" not in found
    assert "pung_hand" not in found
    assert found["self_drawn"] == 1


def test_a_dropped_pattern_excludes_nothing():
    kept = {
        p.key
        for p, _ in kept_patterns(
            {"four_concealed_triplets": 1, "fully_concealed": 1, "self_drawn": 1}
        )
    }

    assert kept == {"four_concealed_triplets", "self_drawn"}


def test_fully_concealed_absorbs_self_drawn_and_concealed_hand():
    found = patterns(score("C C C 1m 2m 3m 4p 5p 6p 7s 8s 9s J", "N", self_drawn=True))

    assert found["fully_concealed"] == 1
    assert "self_drawn" not in found and "concealed_hand" not in found


def test_exposed_hand_absorbs_self_drawn_and_out_on_pair():
    sets = (meld("[C C C]"), meld("[F F F]"), meld("[2p 3p 4p]"), meld("[E E E]"))

    found = patterns(score("J", "6m", *sets, self_drawn=True))

    assert found["exposed_hand"] == 1
    assert not {"self_drawn", "out_on_pair", "fully_exposed"} & set(found)


def test_a_pung_completed_by_the_winning_discard_is_not_concealed():
    tiles = "2m 2m 2m 5p 5p 5p 8s 8s 8s E E C J"

    on_discard = patterns(score(tiles, "E"))
    self_drawn = patterns(score(tiles, "E", self_drawn=True))

    assert "four_concealed_triplets" not in on_discard
    assert on_discard["pung_hand"] == 1
    assert self_drawn["four_concealed_triplets"] == 1


def test_every_kong_counts_as_a_concealed_triplet_and_keeps_the_hand_concealed():
    sets = (meld("{E E E E}"), meld("{C C C C}"), meld("{2p 2p 2p 2p}"))

    found = patterns(score("7s 7s 7s J", "9m", *sets, self_drawn=True))

    assert found["four_concealed_triplets"] == 1
    assert found["three_kongs"] == 1
    assert "two_kongs" not in found


def test_a_limit_adds_its_components():
    result = score("C C C F F F P P P 1m 2m 3m J", "9s")
    found = patterns(result)

    assert found["three_great_scholars"] == 1
    assert "dragon_pung" not in found and "little_three_dragons" not in found
    assert result.total == sum(line.total for line in result.patterns) > 80


def test_a_direct_limit_stands_alone_but_for_heavenly_hand():
    result = score(
        "1m 9m 1p 9p 1s 9s E S W N C F J",
        "P",
        self_drawn=True,
        heavenly=True,
        seat_wind="E",
    )

    assert patterns(result) == {"thirteen_orphans": 1, "heavenly_hand": 1}
    assert result.total == 280


def test_the_hand_value_is_capped_at_600_and_the_total_kept():
    result = score("E E E S S S W W J N N N C", "C")

    assert result.total == 726
    assert result.final == 600
    assert result.limit


def test_no_kept_pattern_excludes_another_kept_one():
    result = score("1m 1m 1m 9m 9m 9m 1p 1p 1p 9p 9p 9p J", "C")
    kept = {line.key for line in result.patterns}

    for key in kept:
        assert not set(BY_KEY[key].excludes) & kept, key


# --- The joker ------------------------------------------------------------------------------


def test_the_joker_takes_the_value_that_scores_most():
    # 3p (head number across 3, 120) beats 6p (across 4, 60).
    result = score("3p 4p 5p 4s 4s 4s 3m 4m 5m 4m 4m 5p J", "4p", self_drawn=True)

    assert result.joker_as is not None
    assert "head_number_3" in patterns(result)


def test_the_joker_may_be_a_fifth_copy():
    result = score("5m 5m 5m 5m J 2p 3p 4p 6s 7s 8s C C", "C", self_drawn=True)

    assert patterns(result)["five_same_two_sets"] == 1


def test_a_declared_joker_keeps_its_declared_value():
    result = score("1m 2m 3m 4p 5p 6p 7s 8s 9s N", "N", meld("[C C J]", "C"))

    assert result.joker_as == 31  # C, the red dragon
    assert patterns(result)["dragon_pung"] == 1


def test_a_joker_in_no_unit_has_no_value():
    sets = (meld("{2m 2m 2m 2m}"), meld("(7s 7s 7s 7s)"), meld("{N N N N}"), meld("(5p 5p 5p 5p)"))

    result = score("J", "5p", *sets, self_drawn=True, four_kongs_immediate=True)

    assert result.joker_as is None
    assert result.to_case().get("joker_as") is None
    assert patterns(result) == {"four_kongs": 1}


def test_waits_are_judged_with_the_joker_as_its_tile():
    # The joker makes 1m-2m-3m with the real 1m and 3m; the winning 2m goes in the middle.
    found = patterns(score("C C C 1m 3m 4p 5p 6p 7s 8s 9s N J", "2m"))

    assert found["one_chance_chow"] == 1


# --- The minimum ----------------------------------------------------------------------------


def test_below_15_is_a_faulty_out_with_its_full_breakdown():
    result = score("2m 3m 4m 5p 6p 7p 3s 4s 5s 6s 7s J C", "C", self_drawn=True, seat_wind="W")

    assert result.error == "BELOW_MINIMUM"
    assert result.total == result.final == 9
    assert patterns(result) == {"fully_concealed": 1, "out_on_pair": 1}
    assert result.message == "Faulty out: the hand is worth 9 points, and a win needs at least 15."


def test_a_hand_that_is_no_winning_hand_is_not_win():
    result = score("1m 2m 4m 5p 7p 9p 3s 4s 5s 6s 7s J C", "E")

    assert result.error == "NOT_WIN"
    assert result.total is None


# --- Validation -----------------------------------------------------------------------------

VALID = "C C C 1m 2m 3m 4p 5p 6p 7s 8s 9s J"

REFUSED = [
    ("no_joker", "JOKER_COUNT", case("C C C 1m 2m 3m 4p 5p 6p 7s 8s 9s N", "N")),
    ("two_jokers", "JOKER_COUNT", case("C C C 1m 2m 3m 4p 5p 6p 7s 8s J J", "N")),
    (
        "two_jokers",
        "JOKER_COUNT",
        case("1m 2m 3m 4p 5p 6p 7s 8s 9s J", "N", meld("[C J J]", "C")),
    ),
    ("joker_win_tile", "JOKER_WIN_TILE", case("C C C 1m 2m 3m 4p 5p 6p 7s 8s 9s N", "J")),
    (
        "sixth_copy",
        "TILE_COUNT_GT_5",
        case("5m 5m 5m 5m 5m 5m 2p 3p 4p 6s 7s J C", "C"),
    ),
    (
        "fifth_copy_without_joker",
        "TILE_COUNT_GT_4",
        case("5m 5m 5m 5m 5m 2p 3p 4p 6s 7s 8s J C", "C"),
    ),
    (
        "fifth_copy_without_joker",
        "TILE_COUNT_GT_4",
        case("C C 1m 2m 3m 4p 5p 6p 7s 8s", "C", meld("[C C J]", "C")),
    ),
    (
        "joker_as_does_not_fit",
        "JOKER_AS_MISMATCH",
        case("1m 2m 3m 4p 5p 6p 7s 8s 9s N", "N", meld("[C C J]", "F")),
    ),
    (
        "joker_as_does_not_fit",
        "JOKER_AS_MISMATCH",
        case("1m 2m 3m 4p 5p 6p 7s 8s 9s N", "N", meld("[4m J 6m]", "7m")),
    ),
    (
        "joker_as_missing",
        "JOKER_AS_MISMATCH",
        case("1m 2m 3m 4p 5p 6p 7s 8s 9s N", "N", meld("[C C J]")),
    ),
    (
        "joker_as_without_joker",
        "JOKER_AS_MISMATCH",
        case("1m 2m 3m 4p 5p 6p 7s 8s 9s J", "N", meld("[C C C]", "C")),
    ),
    (
        "joker_as_joker",
        "JOKER_AS_MISMATCH",
        case("1m 2m 3m 4p 5p 6p 7s 8s 9s N", "N", meld("[C C J]", "J")),
    ),
    ("wa_wrong_tile_count", "WRONG_TILE_COUNT", case("C C C 1m 2m 3m 4p 5p 6p 7s 8s J", "N")),
    (
        "last_wall_tile_on_discard",
        "CONTRADICTORY_SITUATION",
        case(VALID, "N", last_wall_tile=True),
    ),
    (
        "supplement_tile_on_discard",
        "CONTRADICTORY_SITUATION",
        case(VALID, "N", supplement_tile=True),
    ),
    (
        "supplement_tile_without_kong",
        "CONTRADICTORY_SITUATION",
        case(VALID, "N", supplement_tile=True, self_drawn=True),
    ),
    (
        "last_discard_self_drawn",
        "CONTRADICTORY_SITUATION",
        case(VALID, "N", last_discard=True, self_drawn=True),
    ),
    (
        "robbing_kong_self_drawn",
        "CONTRADICTORY_SITUATION",
        case(VALID, "N", robbing_kong=True, self_drawn=True),
    ),
    (
        "robbing_kong_last_discard",
        "CONTRADICTORY_SITUATION",
        case(VALID, "N", robbing_kong=True, last_discard=True),
    ),
    (
        "heavenly_not_dealer_self_drawn",
        "CONTRADICTORY_SITUATION",
        case(VALID, "N", heavenly=True, self_drawn=True),
    ),
    (
        "earthly_not_on_first_discard",
        "CONTRADICTORY_SITUATION",
        case(VALID, "N", earthly=True, self_drawn=True),
    ),
    (
        "heavenly_earthly_with_sets",
        "CONTRADICTORY_SITUATION",
        case("1m 2m 3m 4p 5p 6p 7s 8s 9s J", "N", meld("[C C C]"), earthly=True),
    ),
    (
        "thirteen_discarded_orphans_on_discard",
        "CONTRADICTORY_SITUATION",
        case("", None, thirteen_discarded_orphans=True),
    ),
    (
        "four_kongs_immediate_without_four_kongs",
        "CONTRADICTORY_SITUATION",
        case(VALID, "N", four_kongs_immediate=True),
    ),
]


@pytest.mark.parametrize(("key", "code", "hand"), REFUSED, ids=[row[0] for row in REFUSED])
def test_a_refused_hand_has_a_code_and_a_plain_message(key, code, hand):
    verdict = score_wa_case({**hand, "deal": {"discarder": "W"}})

    assert (verdict.error, verdict.message_key) == (code, key)
    assert verdict.payments is None
    [entry] = verdict.to_case()["hands"]
    assert (entry["error"], entry["total"]) == (code, None)


def test_the_valid_hand_of_the_validation_tests_is_valid():
    assert parse_wa_case(case(VALID, "N"))


# --- A whole deal ---------------------------------------------------------------------------


def test_a_faulty_out_claimer_pays_40_to_each_and_the_others_still_win():
    main = case("C C C F F F 5p 6p 2m 3m 4m P J", "7p")
    faulty = case("1m 2m 4m 5p 7p 9p 3s 4s 5s 6s 7s J C", "7p", seat_wind="E")
    verdict = score_wa_case({**main, "extra_winners": [faulty], "deal": {"discarder": "W"}})

    assert [hand.error for hand in verdict.hands] == [None, "NOT_WIN"]
    assert verdict.payments == {"E": -120, "S": 68 + 40, "W": -68 + 40, "N": 40}


DEAL_REFUSED = [
    ("discarder_missing", "BAD_INPUT", {}, {}),
    ("discarder_is_winner", "CONTRADICTORY_SITUATION", {}, {"discarder": "S"}),
    (
        "discarder_of_self_drawn",
        "CONTRADICTORY_SITUATION",
        {"self_drawn": True},
        {"discarder": "W"},
    ),
    ("bad_wind", "BAD_INPUT", {}, {"discarder": "X"}),
]


@pytest.mark.parametrize(
    ("key", "code", "flags", "deal"), DEAL_REFUSED, ids=[r[0] for r in DEAL_REFUSED]
)
def test_a_deal_whose_facts_do_not_fit_is_refused(key, code, flags, deal):
    verdict = score_wa_case({**case(VALID, "N", **flags), "deal": deal})

    assert (verdict.error, verdict.message_key) == (code, key)
    assert verdict.payments is None


def test_two_winners_with_the_same_seat_are_refused():
    hand = case(VALID, "N")
    verdict = score_wa_case({**hand, "extra_winners": [hand], "deal": {"discarder": "W"}})

    assert (verdict.error, verdict.message_key) == ("BAD_INPUT", "winner_twice")


def test_several_winners_cannot_be_self_drawn():
    main = case(VALID, "N")
    other = case(VALID, "N", seat_wind="N", self_drawn=True)
    verdict = score_wa_case({**main, "extra_winners": [other], "deal": {"discarder": "W"}})

    assert verdict.message_key == "several_winners_self_drawn"


def test_a_drawn_deal_pays_nothing():
    assert score_wa_case({"kind": "draw"}).payments == {"E": 0, "S": 0, "W": 0, "N": 0}


@pytest.mark.parametrize(
    ("deal", "key"),
    [
        ({"kind": "lost"}, "bad_deal_kind"),
        ({"deal": []}, "deal_not_object"),
        ([1], "hand_not_object"),
    ],
)
def test_a_deal_that_is_not_one_is_bad_input(deal, key):
    verdict = score_wa_case(deal)

    assert (verdict.error, verdict.message_key) == ("BAD_INPUT", key)


def test_five_copies_of_an_honour_are_a_pung_and_a_pair():
    result = score("E E E E 1m 2m 3m 4p 5p 6p 7s 8s J", "9s")

    assert result.joker_as == INDEX["E"]
    assert patterns(result)["five_same_two_sets"] == 1


def test_completing_tiles_are_the_tiles_that_finish_the_sets_and_pair():
    counts = [0] * 34
    for code in "1m 2m 3m 4m 5m 6m 7m 8m 9m E E E 4p".split():
        counts[INDEX[code]] += 1

    assert sorted(completing_tiles(counts)) == [INDEX["4p"]]

    counts[INDEX["4p"]] = 0
    counts[INDEX["5s"]] = 1
    counts[INDEX["6s"]] = 1
    counts[INDEX["E"]] = 2  # 1-9m, E E, 5s 6s: waiting on 4s or 7s

    assert sorted(completing_tiles(counts)) == [INDEX["4s"], INDEX["7s"]]


def test_four_kongs_on_a_claimed_fourth_kong_is_paid_by_the_discarder():
    sets = (meld("{2m 2m 2m 2m}"), meld("(7s 7s 7s 7s)"), meld("{N N N N}"), meld("{5p 5p 5p 5p}"))
    deal = {**case("J", "5p", *sets, four_kongs_immediate=True), "deal": {"discarder": "E"}}

    verdict = score_wa_case(deal)

    assert [line.key for line in verdict.hands[0].patterns] == ["four_kongs"]
    assert verdict.payments == {"E": -600, "S": 600, "W": 0, "N": 0}
