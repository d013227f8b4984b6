"""Deals of the presets that count points, through the API: entered and corrected by their
value with the preset's facts (riichi, faulty claims, ready players, faulty riichi, further
winners, a faulty out's offender), shown back with the dealer, winds and points from the initial
points, and refused with the field named.

Table 1 of round 1: players 1, 2, 3, 4 start at E, S, W, N (no seat changes); bob referees it.
Payments are worked out by hand from the specifications (JT: East pays and receives double, the
discarder pays for all, riichi 100 and faulty claims 100 to the winner, 100 x n from each loser
in the dealer's extra hand n, the ready pool of 600 after a draw; WA: F from each when
self-drawn, round(1.5 F) from the discarder alone).
"""

from __future__ import annotations

import pytest

from tournament.models import Deal, Penalty

pytestmark = pytest.mark.django_db

JT = "japanese-transitional"
WA = "wilmington-12-tile"
TABLE_1 = "/api/tournaments/spring-cup/rounds/1/tables/1"
HANDS = f"{TABLE_1}/hands"


@pytest.fixture
def preset(tournament, request):
    tournament.preset = request.param
    tournament.seat_rotation = "none"
    tournament.save()
    return request.param


def seat_points(e, s, w, n):
    return {"E": e, "S": s, "W": w, "N": n}


def deal(number, result="win", **facts):
    return {"number": number, "result": result, **facts}


def entered(api, body, status=201):
    response = api.post(HANDS, body)
    assert response.status_code == status, response.json()
    return response.json()


# --- Japanese Transitional ---------------------------------------------------------------


@pytest.mark.parametrize("preset", [JT], indirect=True)
def test_a_japanese_deal_is_entered_by_its_value_and_the_dealer_keeps_the_deal(
    preset, as_bob, table
):
    # East wins on South's discard, F = 40: South pays 6F = 240; West's riichi 100 to East.
    first = entered(as_bob, deal(1, winner="1", discarder="2", value=40, riichi=["3"]))

    hand = first["hand"]
    assert hand["payments"] == seat_points(340, -240, -100, 0)
    assert (hand["value"], hand["fan"], hand["riichi"], hand["also"]) == (40, None, ["3"], [])
    assert (hand["prevailing_wind"], hand["dealer"], hand["extra_hands"]) == ("E", "E", 0)
    assert (hand["ready"], hand["faulty_riichi"], hand["offender"]) == ([], [], None)
    table_body = first["table"]
    assert table_body["initial_points"] == 8000
    assert table_body["points"] == seat_points(8340, 7760, 7900, 8000)
    assert table_body["lines"][0]["points"] == seat_points(8340, 7760, 7900, 8000)
    assert table_body["lines"][0]["running"] == seat_points(340, -240, -100, 0)
    # The dealer won: he deals again, his first extra hand.
    assert table_body["next_hand"]["dealer"] == "E"
    assert table_body["next_hand"]["extra_hands"] == 1

    # JT-23: East self-draws F = 60 in extra hand 1: 2F = 120 and the bonus 100 from each,
    # North's riichi 100 besides.
    second = entered(as_bob, deal(2, winner="1", value=60, riichi=["4"]))

    assert second["hand"]["payments"] == seat_points(760, -220, -220, -320)
    assert second["hand"]["self_drawn"] is True
    assert second["hand"]["extra_hands"] == 1
    assert second["table"]["points"] == seat_points(9100, 7540, 7680, 7680)
    assert second["table"]["seats"]["E"]["score"] == 1100


@pytest.mark.parametrize("preset", [JT], indirect=True)
def test_faulty_claims_are_paid_to_the_winner_once_each(preset, as_bob, table):
    # South wins on West's discard, F = 30: West pays 4F = 120; North claimed falsely twice.
    body = deal(1, winner="2", discarder="3", value=30, faulty_claims=["4", "4"])

    hand = entered(as_bob, body)["hand"]

    assert hand["payments"] == seat_points(0, 320, -120, -200)
    assert hand["faulty_claims"] == ["4", "4"]


@pytest.mark.parametrize("preset", [JT], indirect=True)
def test_a_draw_pays_the_ready_hands_and_a_faulty_riichi_pays_as_a_faulty_out(
    preset, as_bob, table
):
    # JT-30: South's riichi was not ready (750 to each, 1,500 to East); West alone was ready
    # and takes 600, 200 from each of the others (South counts as not ready).
    body = deal(1, "draw", riichi=["2"], faulty_riichi=["2"], ready=["3"])

    answer = entered(as_bob, body)

    hand = answer["hand"]
    assert hand["payments"] == seat_points(1300, -3200, 1350, 550)
    assert (hand["riichi"], hand["faulty_riichi"], hand["ready"]) == (["2"], ["2"], ["3"])
    assert (hand["winner"], hand["value"], hand["self_drawn"]) == (None, None, False)
    # A draw passes the deal.
    assert (answer["table"]["next_hand"]["dealer"], answer["table"]["next_hand"]["number"]) == (
        "S",
        2,
    )


@pytest.mark.parametrize("preset", [JT], indirect=True)
def test_a_faulty_out_ends_the_deal_and_the_same_dealer_deals_again(preset, as_bob, table):
    # West's faulty out: 750 to South and North, 1,500 to East (the dealer).
    answer = entered(as_bob, deal(1, "faulty_out", offender="3"))

    assert answer["hand"]["payments"] == seat_points(1500, 750, -3000, 750)
    assert answer["hand"]["offender"] == "3"
    assert answer["table"]["next_hand"]["dealer"] == "E"
    assert answer["table"]["next_hand"]["extra_hands"] == 0


@pytest.mark.parametrize("preset", [JT], indirect=True)
def test_a_correction_places_and_pays_the_later_deals_again(preset, as_bob, as_organiser, table):
    entered(as_bob, deal(1, winner="1", discarder="2", value=40))  # the dealer keeps the deal
    assert entered(as_bob, deal(2, "draw", ready=["1"]))["hand"]["dealer"] == "E"

    # Deal 1 was South's win on East's discard: East pays 4F = 160 and the deal passes.
    body = deal(1, winner="2", discarder="1", value=40, riichi=["3"])
    response = as_organiser.put(f"{HANDS}/1", body)

    assert response.status_code == 200, response.json()
    answer = response.json()
    assert answer["hand"]["payments"] == seat_points(-160, 260, -100, 0)
    second = answer["table"]["lines"][1]["hand"]
    # Deal 2 is now South's first deal: East alone was ready, 600 from the three others.
    assert (second["dealer"], second["extra_hands"]) == ("S", 0)
    assert second["payments"] == seat_points(600, -200, -200, -200)
    assert answer["table"]["next_hand"]["dealer"] == "W"
    assert answer["table"]["points"] == seat_points(8440, 8060, 7700, 7800)


@pytest.mark.parametrize("preset", [JT], indirect=True)
@pytest.mark.parametrize("value", [25, 10, 1510, 0, -20])
def test_a_japanese_final_score_is_a_multiple_of_ten_from_20_to_1500(preset, as_bob, table, value):
    response = as_bob.post(HANDS, deal(1, winner="1", discarder="2", value=value))

    assert response.status_code == 400
    assert response.json()["error"] == "bad_value"
    assert list(response.json()["fields"]) == ["value"]
    assert not Deal.objects.exists()


@pytest.mark.parametrize("preset", [JT], indirect=True)
@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        (deal(1, winner="1", discarder="2"), "value_required", "value"),
        (deal(1, winner="1", discarder="2", fan=8), "value_required", "value"),
        (deal(1, winner="1", value=40, riichi=["2", "2"]), "named_twice", "riichi"),
        (deal(1, "draw", ready=["2", "3", "2"]), "named_twice", "ready"),
        (deal(1, "draw", faulty_riichi=["2"]), "bad_riichi", "faulty_riichi"),
        (deal(1, "faulty_out"), "offender_required", "offender"),
        (deal(1, winner="2", discarder="3", value=40, also=[{"player": "4", "value": 40}]),
         "one_winner", "also"),
        (deal(1, winner="1", value=40, riichi=["5"]), "not_seated", "riichi"),
        (deal(1, winner="1", value=40, riichi=["99"]), "invalid", "riichi"),
        (deal(1, "faulty_out", offender="99"), "invalid", "offender"),
    ],
)  # fmt: skip
def test_a_wrong_japanese_deal_is_refused_with_the_field_named(
    preset, as_bob, table, body, code, field
):
    response = as_bob.post(HANDS, body)

    assert response.status_code == 400
    assert response.json()["error"] == code
    assert list(response.json()["fields"]) == [field]
    assert not Deal.objects.exists()


@pytest.mark.parametrize("preset", [JT], indirect=True)
def test_a_refused_correction_changes_nothing(preset, as_bob, as_organiser, table):
    entered(as_bob, deal(1, winner="1", discarder="2", value=40))

    response = as_organiser.put(f"{HANDS}/1", deal(1, winner="1", discarder="2", value=45))

    assert response.status_code == 400
    assert (response.json()["error"], list(response.json()["fields"])) == ("bad_value", ["value"])
    assert Deal.objects.get().value == 40


@pytest.mark.parametrize("preset", [JT], indirect=True)
def test_a_japanese_game_goes_on_until_its_last_wind_round(preset, as_bob, table):
    entered(as_bob, deal(1, "draw"))

    early = as_bob.post(f"{TABLE_1}/end", {})
    by_time = as_bob.post(f"{TABLE_1}/end", {"ended_by_time": True})

    assert (early.status_code, early.json()["error"]) == (400, "hands_missing")
    assert by_time.status_code == 200
    assert by_time.json()["table"]["ended_by_time"] is True
    assert by_time.json()["table"]["next_hand"] is None


# --- Wilmington Advanced 12-Tile ---------------------------------------------------------


@pytest.mark.parametrize("preset", [WA], indirect=True)
def test_several_wilmington_players_win_on_one_discard(preset, as_bob, table):
    # WA-21: West discards; South (45 -> 1.5 x 45 = 67.5, 68) and North (35 -> 52.5, 53) win.
    body = deal(1, winner="2", discarder="3", value=45, also=[{"player": "4", "value": 35}])

    answer = entered(as_bob, body)

    hand = answer["hand"]
    assert hand["payments"] == seat_points(0, 68, -121, 53)
    assert (hand["winner"], hand["value"]) == ("2", 45)
    assert hand["also"] == [{"player": "4", "value": 35}]
    assert answer["table"]["initial_points"] == 500
    assert answer["table"]["points"] == seat_points(500, 568, 379, 553)
    # No dealer among the winners: the deal passes.
    assert answer["table"]["next_hand"]["dealer"] == "S"


@pytest.mark.parametrize("preset", [WA], indirect=True)
def test_a_wilmington_faulty_out_is_recorded_as_a_false_win_of_40_to_each(preset, as_bob, table):
    response = as_bob.post(f"{TABLE_1}/false-wins", {"number": 1, "player": "2"})

    assert response.status_code == 201, response.json()
    assert (response.json()["penalty"]["points"], response.json()["penalty"]["player"]) == (
        120,
        "2",
    )
    assert response.json()["table"]["points"] == seat_points(540, 380, 540, 540)
    assert Penalty.objects.get().points == 120


@pytest.mark.parametrize("preset", [WA], indirect=True)
@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        (deal(1, winner="2", discarder="3", value=601), "bad_value", "value"),
        (deal(1, winner="2", discarder="3", value=14), "below_minimum", "value"),
        (deal(1, winner="2", discarder="3", value=30, also=[{"player": "4", "value": 9}]),
         "below_minimum", "also"),
        (deal(1, winner="2", discarder="3", value=30, also=[{"player": "4", "value": 700}]),
         "bad_value", "also"),
        (deal(1, winner="2", discarder="3", value=30, also=[{"player": "2", "value": 30}]),
         "winner_twice", "also"),
        (deal(1, winner="2", value=30, also=[{"player": "4", "value": 30}]), "one_winner",
         "also"),
        (deal(1, winner="2", discarder="3", value=30, riichi=["1"]), "not_in_preset", "riichi"),
        (deal(1, "draw", ready=["1"]), "not_in_preset", "ready"),
        (deal(1, winner="2", value=30, faulty_claims=["1"]), "not_in_preset", "faulty_claims"),
    ],
)  # fmt: skip
def test_a_wrong_wilmington_deal_is_refused_with_the_field_named(
    preset, as_bob, table, body, code, field
):
    response = as_bob.post(HANDS, body)

    assert response.status_code == 400
    assert response.json()["error"] == code
    assert list(response.json()["fields"]) == [field]
    assert not Deal.objects.exists()


@pytest.mark.parametrize("preset", [WA], indirect=True)
def test_a_wilmington_deal_has_no_faulty_out_result(preset, as_bob, table):
    response = as_bob.post(HANDS, deal(1, "faulty_out", offender="2"))

    assert response.status_code == 400
    assert response.json()["error"] == "bad_result"


# --- MCR ---------------------------------------------------------------------------------


def test_an_mcr_hand_is_not_entered_by_value(as_bob, table):
    response = as_bob.post(HANDS, deal(1, winner="1", discarder="2", value=40))

    assert response.status_code == 400
    assert response.json()["error"] == "fan_required"
    assert list(response.json()["fields"]) == ["value"]
    assert not Deal.objects.exists()


def test_an_mcr_hand_shows_no_facts_of_other_presets(as_bob, table):
    answer = entered(as_bob, deal(1, winner="1", discarder="2", fan=8))

    hand = answer["hand"]
    assert hand["payments"] == seat_points(32, -16, -8, -8)
    assert (hand["value"], hand["also"], hand["riichi"], hand["offender"]) == (None, [], [], None)
    assert answer["table"]["initial_points"] == 0
    assert answer["table"]["points"] == seat_points(32, -16, -8, -8)


def test_an_mcr_hand_refuses_riichi(as_bob, table):
    response = as_bob.post(HANDS, deal(1, winner="1", discarder="2", fan=8, riichi=["3"]))

    assert response.status_code == 400
    assert (response.json()["error"], list(response.json()["fields"])) == (
        "not_in_preset",
        ["riichi"],
    )


# --- Japanese Transitional wins sent with their tiles ------------------------------------

# JT-03 of the shared cases: seat North, round East, on a discard: F 60 (no-points hand).
NO_POINTS = {
    "concealed": ["3m", "4m", "5p", "6p", "7p", "3s", "4s", "5s", "6s", "7s", "8s", "9m", "9m"],
    "melds": [],
    "win_tile": "2m",
}


@pytest.mark.parametrize("preset", [JT], indirect=True)
def test_a_japanese_win_sent_with_its_tiles_is_recorded_at_the_engines_score(preset, as_bob, table):
    hand = entered(as_bob, deal(1, winner="4", discarder="1", tiles=NO_POINTS))["hand"]

    assert hand["value"] == 60
    assert hand["tiles"]["seat_wind"] == "N"


@pytest.mark.parametrize("preset", [JT], indirect=True)
@pytest.mark.parametrize(
    ("tiles", "value", "code", "field"),
    [
        (NO_POINTS, 80, "value_disagrees_with_tiles", "value"),
        ({**NO_POINTS, "win_tile": "1p"}, None, "invalid_tiles", None),
    ],
)
def test_japanese_tiles_that_disagree_or_are_no_win_are_refused(
    preset, as_bob, table, tiles, value, code, field
):
    response = as_bob.post(HANDS, deal(1, winner="4", discarder="1", tiles=tiles, value=value))

    assert response.status_code == 400
    assert response.json()["error"] == code
    assert list(response.json().get("fields") or []) == ([field] if field else [])
    assert not Deal.objects.exists()


# --- Wilmington wins sent with their tiles -----------------------------------------------

# WA-22 of the shared cases: player 2 (South) goes out on West's discard: F 45.
DRAGONS = {
    "concealed": ["C", "C", "C", "F", "F", "F", "5p", "6p", "2m", "3m", "4m", "P", "J"],
    "melds": [],
    "win_tile": "7p",
}
# Player 1 (East) on the same discard: F 21.
STRAIGHT = {
    "concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "C", "C", "C", "J"],
    "melds": [],
    "win_tile": "7p",
}


@pytest.mark.parametrize("preset", [WA], indirect=True)
def test_wilmington_winners_sent_with_their_tiles_are_recorded_at_the_engines_values(
    preset, as_bob, table
):
    body = deal(
        1, winner="2", discarder="3", tiles=DRAGONS, also=[{"player": "1", "tiles": STRAIGHT}]
    )
    hand = entered(as_bob, body)["hand"]

    assert (hand["value"], hand["also"]) == (45, [{"player": "1", "value": 21}])


@pytest.mark.parametrize("preset", [WA], indirect=True)
def test_wilmington_tiles_below_the_minimum_are_refused_as_a_win(preset, as_bob, table):
    small = {**STRAIGHT, "concealed": ["2m", "3m", "4m", "5p", "6p", "7p", "3s", "4s", "5s",
                                       "6s", "7s", "J", "C"], "win_tile": "C"}  # fmt: skip
    response = as_bob.post(HANDS, deal(1, winner="3", tiles=small))

    assert response.status_code == 400
    assert response.json()["error"] == "below_minimum"
    assert not Deal.objects.exists()


@pytest.mark.parametrize("preset", [WA], indirect=True)
def test_a_further_winners_value_that_disagrees_with_its_tiles_names_also(preset, as_bob, table):
    also = [{"player": "1", "tiles": STRAIGHT, "value": 20}]
    response = as_bob.post(HANDS, deal(1, winner="2", discarder="3", tiles=DRAGONS, also=also))

    assert response.status_code == 400
    assert response.json()["error"] == "value_disagrees_with_tiles"
    assert list(response.json()["fields"]) == ["also"]
    assert not Deal.objects.exists()


# --- False wins and deductions under each preset's rulebook ----------------------------------


@pytest.mark.parametrize("preset", [JT], indirect=True)
@pytest.mark.parametrize("invalid_hand", [False, True])
def test_a_japanese_false_win_is_refused_the_faulty_out_is_the_way(
    preset, as_bob, table, invalid_hand
):
    response = as_bob.post(
        f"{TABLE_1}/false-wins", {"number": 1, "player": "2", "invalid_hand": invalid_hand}
    )

    assert response.status_code == 400
    assert response.json()["error"] == "faulty_out_ends_deal"
    assert "faulty out" in response.json()["message"]
    assert not Penalty.objects.exists()
    # The faulty out itself: West pays 750 to South and North, 1,500 to East.
    answer = entered(as_bob, deal(1, "faulty_out", offender="3"))
    assert answer["hand"]["payments"] == seat_points(1500, 750, -3000, 750)


@pytest.mark.parametrize(
    ("preset", "points", "status"),
    [(JT, 1500, 201), (JT, 995, 201), (JT, 1505, 400), (JT, 12, 400), (WA, 60, 201),
     (WA, 65, 400)],
    indirect=["preset"],
)  # fmt: skip
def test_a_deduction_follows_the_presets_scale(preset, as_bob, table, points, status):
    body = {"player": "2", "points": points, "reason": "Late"}

    response = as_bob.post(f"{TABLE_1}/penalties", body)

    assert response.status_code == status, response.json()
    if status == 400:
        assert response.json()["error"] == "deduction_out_of_range"
        expected = (
            "A deduction is 5 to 1,500 points, a multiple of 5."
            if preset == JT
            else "A deduction is 5 to 60 points."
        )
        assert response.json()["message"] == expected
        assert not Penalty.objects.exists()
    else:
        assert Penalty.objects.get().points == points


# --- Facts that belong to another result ----------------------------------------------------


@pytest.mark.parametrize("preset", [JT, WA], indirect=True)
@pytest.mark.parametrize("fact", ["ready", "faulty_riichi"])
def test_ready_hands_on_a_win_are_refused_naming_the_field_not_dropped(preset, as_bob, table, fact):
    """Ready hands and faulty riichi are paid after a draw only: sent with a win they are
    refused, not silently emptied."""
    body = deal(1, winner="2", discarder="3", value=60, **{fact: ["4"]})
    if fact == "faulty_riichi":
        body["riichi"] = ["4"] if preset == JT else []

    response = as_bob.post(HANDS, body)

    assert response.status_code == 400, response.json()
    answer = response.json()
    assert answer["error"] in ("draw_only", "not_in_preset")
    assert fact in answer["fields"]
    assert not Deal.objects.exists()
