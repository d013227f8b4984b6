"""The table endpoints: score sheet, hands, corrections, false wins, penalties, end of game.

Table 1 of round 1: players 1, 2, 3, 4 start at E, S, W, N; bob referees it. Payments are
worked out by hand: a discard win of value x (fan + flowers) costs the discarder 8 + x and the
two others 8 each; a self-drawn win costs each of the three others 8 + x.
"""

from __future__ import annotations

import pytest

from tournament.models import AuditEntry, Deal

pytestmark = pytest.mark.django_db

TABLE_1 = "/api/tournaments/spring-cup/rounds/1/tables/1"
TABLE_2 = "/api/tournaments/spring-cup/rounds/1/tables/2"
HANDS = f"{TABLE_1}/hands"


def seat_points(e, s, w, n):
    return {"E": e, "S": s, "W": w, "N": n}


def win(number, winner, discarder, fan, flowers=0):
    return {
        "number": number,
        "result": "win",
        "winner": winner,
        "discarder": discarder,
        "fan": fan,
        "flowers": flowers,
    }


def draw(number):
    return {"number": number, "result": "draw"}


def test_discard_win_pays_eight_plus_x_from_the_discarder(as_bob, table):
    response = as_bob.post(HANDS, win(1, "1", "3", 8, flowers=1))

    assert response.status_code == 201
    body = response.json()
    assert body["hand"]["payments"] == seat_points(33, -8, -17, -8)
    assert body["hand"]["self_drawn"] is False
    assert body["hand"]["entered_by"] == "bob"
    assert body["table"]["seats"]["E"] == {"player": "1", "name": "Player 1", "score": 33}
    assert Deal.objects.get(table=table, number=1).payments == [33, -8, -17, -8]


def test_self_drawn_win_is_paid_by_all_three(as_bob, table):
    response = as_bob.post(HANDS, win(1, "2", None, 10))

    assert response.json()["hand"]["payments"] == seat_points(-18, 54, -18, -18)
    assert response.json()["hand"]["self_drawn"] is True


def test_score_sheet_runs_the_scores_and_shows_the_winds(as_bob, anonymous, table):
    as_bob.post(HANDS, win(1, "1", "3", 8, flowers=1))
    as_bob.post(HANDS, win(2, "2", None, 10))
    as_bob.post(HANDS, draw(3))

    body = anonymous.get(TABLE_1).json()

    assert [line["number"] for line in body["lines"]] == [1, 2, 3]
    assert [line["running"] for line in body["lines"]] == [
        seat_points(33, -8, -17, -8),
        seat_points(15, 46, -35, -26),
        seat_points(15, 46, -35, -26),
    ]
    assert body["lines"][2]["payments"] == seat_points(0, 0, 0, 0)
    assert body["lines"][0]["seat_winds"] == seat_points("E", "S", "W", "N")
    assert body["lines"][1]["seat_winds"] == seat_points("N", "E", "S", "W")
    # Hand 4: the fourth deal of the East wind round, dealt by the player who started at N.
    assert body["next_hand"] == {
        "number": 4,
        "prevailing_wind": "E",
        "seat_winds": seat_points("S", "W", "N", "E"),
        "dealer": "N",  # North's seat is East in hand 4
        "extra_hands": 0,
    }
    assert body["hands"] == 3 and body["ended"] is False
    assert [(r["player"], r["score"], r["place"], r["table_points"]) for r in body["results"]] == [
        ("2", 46, 1, 4),
        ("1", 15, 2, 2),
        ("4", -26, 3, 1),
        ("3", -35, 4, 0),
    ]
    # The public does not see usernames.
    assert "entered_by" not in body["lines"][0]["hand"] and "referees" not in body


def test_the_south_wind_round_changes_seats_by_the_wmo_chart(as_bob, table):
    for number in range(1, 5):
        as_bob.post(HANDS, draw(number))

    body = as_bob.get(TABLE_1).json()

    # South wind round: B deals at E, A sits S, D sits W, C sits N.
    assert body["next_hand"] == {
        "number": 5,
        "prevailing_wind": "S",
        "seat_winds": seat_points("S", "E", "N", "W"),
        "dealer": "S",
        "extra_hands": 0,
    }
    assert body["referees"] == ["bob"]


def test_full_entry_in_compact_notation_is_scored_by_the_engine(as_bob, table):
    for number in (1, 2, 3):
        as_bob.post(HANDS, draw(number))
    # Seven Pairs 24, Tile Hog 2 (all four 3p), All Simples 2 = 28 fan; x = 29 with a flower.
    body = {
        "number": 4,
        "result": "win",
        "winner": "2",
        "discarder": "4",
        "flowers": 1,
        "compact": "44m 333p 44p 55s 77s 88s 3p",
    }

    response = as_bob.post(HANDS, body)

    assert response.status_code == 201, response.json()
    hand = response.json()["hand"]
    assert (hand["fan"], hand["flowers"]) == (28, 1)
    assert hand["payments"] == seat_points(-8, 53, -8, -37)
    # In hand 4 the player who started at S sits at W; the prevailing wind is East.
    assert (hand["tiles"]["seat_wind"], hand["tiles"]["prevalent_wind"]) == ("W", "E")
    assert hand["tiles"]["self_drawn"] is False


def test_tiles_in_the_case_format_must_agree_with_the_fan(as_bob, table):
    tiles = {
        "concealed": ["4m", "4m", "3p", "3p", "3p", "4p", "4p", "5s", "5s", "7s", "7s", "8s", "8s"],
        "win_tile": "3p",
    }

    response = as_bob.post(HANDS, {**win(1, "1", "2", 30), "tiles": tiles})

    assert response.status_code == 400
    assert response.json()["error"] == "fan_mismatch"
    assert not Deal.objects.exists()


def test_tiles_under_eight_fan_are_refused_as_a_win(as_bob, table):
    body = {**win(1, "1", "2", None), "compact": "234456p 77s EE [789m] E"}
    response = as_bob.post(HANDS, body)

    assert response.status_code == 400
    assert response.json()["error"] == "below_minimum"


def test_unreadable_compact_hand_names_the_field(as_bob, table):
    response = as_bob.post(HANDS, {**win(1, "1", "2", None), "compact": "123m 456p 11x 1s"})

    assert response.status_code == 400
    assert response.json()["error"] == "invalid_tiles"
    assert "compact" in response.json()["fields"]


def test_the_same_hand_twice_is_a_conflict(as_bob, api_as, organiser, table):
    as_bob.post(HANDS, win(1, "1", "3", 8))

    response = api_as(organiser).post(HANDS, win(1, "2", "3", 9))

    assert response.status_code == 409
    assert response.json()["error"] == "conflict"
    assert "already entered by bob" in response.json()["message"]
    assert Deal.objects.get().winner.player.key == "1"


def test_hands_are_entered_in_order(as_bob, table):
    response = as_bob.post(HANDS, win(2, "1", "3", 8))

    assert response.status_code == 400
    assert response.json()["error"] == "out_of_order"


def test_below_eight_fan_is_refused(as_bob, table):
    response = as_bob.post(HANDS, win(1, "1", "3", 7))

    assert response.status_code == 400
    assert response.json()["error"] == "below_minimum"


def test_unknown_player_key_is_a_field_error(as_bob, table):
    response = as_bob.post(HANDS, win(1, "99", "3", 8))

    assert response.status_code == 400
    assert response.json()["error"] == "invalid"
    assert response.json()["fields"] == {"winner": "No player of this tournament has the key '99'."}


def test_a_player_of_another_table_is_not_seated(as_bob, table, table2):
    response = as_bob.post(HANDS, win(1, "5", "3", 8))

    assert response.status_code == 400
    assert response.json()["error"] == "not_seated"


def test_organiser_corrects_an_earlier_hand_and_later_scores_follow(as_organiser, as_bob, table):
    as_bob.post(HANDS, win(1, "1", "3", 8, flowers=1))
    as_bob.post(HANDS, win(2, "2", None, 10))

    response = as_organiser.put(f"{HANDS}/1", {"result": "win", "winner": "4", "fan": 12})

    assert response.status_code == 200
    body = response.json()
    # Hand 1 is now a self-drawn 12 by N: each other pays 20.
    assert body["hand"]["payments"] == seat_points(-20, -20, -20, 60)
    assert body["table"]["lines"][1]["running"] == seat_points(-38, 34, -38, 42)
    entry = AuditEntry.objects.get(action=AuditEntry.Action.HAND_CORRECTED)
    assert (entry.before["winner"], entry.after["winner"]) == ("1", "4")


def test_correcting_a_missing_hand_is_404(as_organiser, table):
    response = as_organiser.put(f"{HANDS}/3", {"result": "draw"})

    assert response.status_code == 404
    assert response.json()["error"] == "not_found"


def test_correction_cannot_move_the_hand(as_organiser, as_bob, table):
    as_bob.post(HANDS, draw(1))

    response = as_organiser.put(f"{HANDS}/1", {"number": 2, "result": "draw"})

    assert response.status_code == 400
    assert response.json()["fields"] == {
        "number": "The hand number is the one in the address; it cannot change."
    }


def test_referee_takes_back_the_last_hand(as_bob, table):
    as_bob.post(HANDS, win(1, "1", "3", 8))
    as_bob.post(HANDS, win(2, "2", None, 10))

    response = as_bob.delete(f"{HANDS}/2")

    assert response.status_code == 200
    assert response.json()["table"]["seats"]["S"]["score"] == -8
    assert list(Deal.objects.values_list("number", flat=True)) == [1]


def test_only_the_last_hand_can_be_taken_back(as_bob, table):
    as_bob.post(HANDS, draw(1))
    as_bob.post(HANDS, draw(2))

    response = as_bob.delete(f"{HANDS}/1")

    assert response.status_code == 409
    assert response.json()["error"] == "not_last_hand"
    assert Deal.objects.count() == 2


def test_taking_back_with_no_hand_entered(as_bob, table):
    response = as_bob.delete(f"{HANDS}/1")

    assert response.status_code == 400
    assert response.json()["error"] == "no_hands"


def test_false_win_pays_ten_to_each_and_the_offender_cannot_win(as_bob, table):
    response = as_bob.post(f"{TABLE_1}/false-wins", {"number": 1, "player": "3"})

    assert response.status_code == 201
    body = response.json()
    assert body["penalty"]["kind"] == "false_win"
    assert body["penalty"]["points"] == 30
    assert body["table"]["lines"][0]["hand"] is None
    assert body["table"]["lines"][0]["payments"] == seat_points(10, 10, -30, 10)
    assert response["Location"].endswith(f"/penalties/{body['penalty']['id']}")

    refused = as_bob.post(HANDS, win(1, "3", "1", 8))
    assert refused.status_code == 400
    assert refused.json()["error"] == "offender_cannot_win"

    allowed = as_bob.post(HANDS, win(1, "1", None, 8))
    assert allowed.status_code == 201
    assert allowed.json()["table"]["lines"][0]["running"] == seat_points(58, -6, -46, -6)


def test_false_win_with_an_invalid_hand_pays_twenty_each(as_bob, table):
    body = {"number": 1, "player": "2", "invalid_hand": True}

    response = as_bob.post(f"{TABLE_1}/false-wins", body)

    assert response.json()["table"]["seats"]["S"]["score"] == -60
    assert response.json()["table"]["seats"]["N"]["score"] == 20


def test_deduction_is_given_to_nobody(as_bob, table):
    body = {"player": "4", "points": 10, "reason": "Late", "distributed": False}

    response = as_bob.post(f"{TABLE_1}/penalties", body)

    assert response.status_code == 201
    table_body = response.json()["table"]
    assert response.json()["penalty"]["kind"] == "deduction"
    assert [line["number"] for line in table_body["lines"]] == [None]
    assert table_body["lines"][0]["payments"] == seat_points(0, 0, 0, -10)


def test_distributed_penalty_must_split_in_thirds(as_bob, table):
    body = {"player": "4", "points": 20, "reason": "Exposed", "distributed": True}

    response = as_bob.post(f"{TABLE_1}/penalties", body)

    assert response.status_code == 400
    assert response.json()["error"] == "not_divisible"


def test_deduction_out_of_range(as_bob, table):
    response = as_bob.post(f"{TABLE_1}/penalties", {"player": "4", "points": 70, "reason": "x"})

    assert response.json()["error"] == "deduction_out_of_range"


def test_organiser_corrects_and_removes_a_penalty(as_bob, as_organiser, table):
    created = as_bob.post(f"{TABLE_1}/penalties", {"player": "4", "points": 10, "reason": "Late"})
    url = f"{TABLE_1}/penalties/{created.json()['penalty']['id']}"

    changed = as_organiser.patch(url, {"points": 30, "distributed": True})

    assert changed.status_code == 200
    assert changed.json()["penalty"]["reason"] == "Late"
    assert changed.json()["penalty"]["kind"] == "distributed"
    assert changed.json()["table"]["lines"][0]["payments"] == seat_points(10, 10, 10, -30)

    removed = as_organiser.delete(url)

    assert removed.status_code == 200
    assert removed.json()["table"]["lines"] == []
    assert as_organiser.delete(url).status_code == 404


def test_penalty_of_another_table_is_not_found(as_organiser, as_bob, api_as, carol, table, table2):
    body = {"player": "5", "points": 10, "reason": "Late"}
    created = api_as(carol).post(f"{TABLE_2}/penalties", body)
    assert created.status_code == 201
    penalty = created.json()["penalty"]["id"]

    response = as_organiser.patch(f"{TABLE_1}/penalties/{penalty}", {"points": 5})

    assert response.status_code == 404


def test_game_ends_early_when_time_is_called(as_bob, table):
    as_bob.post(HANDS, win(1, "1", "3", 8))

    refused = as_bob.post(f"{TABLE_1}/end", {})
    assert refused.status_code == 400
    assert refused.json()["error"] == "hands_missing"

    response = as_bob.post(f"{TABLE_1}/end", {"ended_by_time": True})

    assert response.status_code == 200
    table_body = response.json()["table"]
    assert (table_body["ended"], table_body["ended_by_time"]) == (True, True)
    assert table_body["next_hand"] is None
    assert as_bob.post(HANDS, draw(2)).json()["error"] == "game_ended"


def test_a_full_game_ends_without_time_called(as_bob, table):
    for number in range(1, 17):
        assert as_bob.post(HANDS, draw(number)).status_code == 201
    assert as_bob.post(HANDS, draw(17)).json()["error"] == "game_complete"

    response = as_bob.post(f"{TABLE_1}/end")

    assert response.status_code == 200
    assert response.json()["table"]["ended_by_time"] is False
    # Four players level at 0 share the table points: 7/4 each.
    results = response.json()["table"]["results"]
    assert {(r["table_points"], r["table_points_exact"], r["place"]) for r in results} == {
        (1.75, "7/4", 1)
    }


def test_hands_wait_until_the_round_is_in_play(as_bob, table, round):
    round.status = "seated"
    round.save()

    response = as_bob.post(HANDS, draw(1))

    assert response.status_code == 400
    assert response.json()["error"] == "round_not_playing"
