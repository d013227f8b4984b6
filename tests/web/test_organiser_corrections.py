"""Corrections at a table of a played round: hands, penalties, false wins, the end of the game.

Table 1 of round 1 seats P1, P2, P3, P4 at East, South, West, North. Payments are hand-worked:
a win of value x on a discard is +8+x+8+8 to the winner, -(8+x) from the discarder and -8 from
each of the other two; a self-drawn win is -(8+x) from each of the three others.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from factories import seated_round

from tournament.models import AuditEntry, Deal, Penalty
from tournament.services import (
    DealInput,
    confirm_submitted_games,
    end_game,
    record_deal,
    record_penalty,
    set_round_status,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def player_name():
    """The `players` of tests/conftest.py are P1 to P8 here."""
    return "P{}"


@pytest.fixture
def table(tournament, organiser, players):
    """Hand 1: P1 wins 8 fan on P2's discard. Hand 2: drawn. Hand 3: P3 self-drawn, 8 fan.

    Payments E, S, W, N: (32, -16, -8, -8), (0, 0, 0, 0), (-16, -16, 48, -16);
    game scores (16, -32, 40, -24).
    """
    _, (table, _) = seated_round(tournament, organiser, [players[:4], players[4:]])
    p1, p2, p3 = players[:3]
    record_deal(
        table=table,
        number=1,
        deal=DealInput(result="win", winner=p1, discarder=p2, fan=8),
        entered_by=organiser,
    )
    record_deal(table=table, number=2, deal=DealInput(result="draw"), entered_by=organiser)
    record_deal(
        table=table, number=3, deal=DealInput(result="win", winner=p3, fan=8), entered_by=organiser
    )
    return table


@pytest.fixture
def logged_in(client, organiser, tournament):
    client.force_login(organiser)
    return client


def url(name: str, **kwargs) -> str:
    return reverse(f"organiser:{name}", kwargs={"slug": "spring-cup", "number": 1, "table": 1,
                                                **kwargs})  # fmt: skip


def scores(table) -> list[int]:
    return [seat.score for seat in sorted(table.seats.all(), key=lambda seat: seat.index)]


def payments(table, number: int) -> list[int]:
    return Deal.objects.get(table=table, number=number).payments


def hand_data(**changes) -> dict:
    data = {"result": "win", "winner": "", "discarder": "", "fan": "8", "flowers": "0",
            "tiles": ""}  # fmt: skip
    data.update(changes)
    return data


def messages_of(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


# --- The table page ------------------------------------------------------------------------


def test_table_page_shows_the_score_sheet(logged_in, table):
    response = logged_in.get(url("table"))
    assert response.status_code == 200
    lines = response.context["lines"]
    assert [line.running for line in lines] == [
        (32, -16, -8, -8),
        (32, -16, -8, -8),
        (16, -32, 40, -24),
    ]
    # Seat winds of hand 1 under the WMO scheme: everyone at their starting seat.
    assert lines[0].seat_winds == ("E", "S", "W", "N")
    totals = response.context["totals"]
    assert [total["seat"].score for total in totals] == [16, -32, 40, -24]
    assert [(total["place"], total["points"]) for total in totals] == [
        (2, "2"),
        (4, "0"),
        (1, "4"),
        (3, "1"),
    ]
    page = response.content.decode()
    assert "tournament/_score_sheet.html" in [t.name for t in response.templates]
    assert "W P3: place 1, 4 table points" in page
    assert "Remove hand 3" in page


# --- Correcting a hand ---------------------------------------------------------------------


def test_the_hand_form_starts_with_the_recorded_hand(logged_in, table, players):
    form = logged_in.get(url("hand", hand=1)).context["form"]
    assert form["result"].value() == "win"
    assert form["winner"].value() == str(players[0].pk)
    assert form["discarder"].value() == str(players[1].pk)
    # In the box, none of the common values tapped: without the script a tapped value
    # could not be let go of to type another.
    assert (form["fan_pick"].value(), form["fan"].value()) == (None, 8)


def test_the_hand_form_offers_the_common_fan_values_one_tap_each(logged_in, table, tournament):
    html = logged_in.get(url("hand", hand=1)).content.decode()
    values = re.findall(r'<input type="radio" name="fan_pick" value="(\d+)"', html)
    assert [int(value) for value in values] == list(tournament.rules.quick_values)
    # The referee's include draws them, the shared script and styles come with it.
    assert '<fieldset class="ref-choices ref-cols-9">' in html
    assert "tournament/fan_pick.js" in html and "tournament/choices.css" in html
    assert not re.search(r'<input type="radio" name="fan_pick"[^>]*checked', html)


def test_a_tapped_fan_value_corrects_the_hand(logged_in, table, players):
    data = hand_data(winner=players[0].pk, discarder=players[1].pk, fan="", fan_pick="16")
    response = logged_in.post(url("hand", hand=1), data)
    assert response.status_code == 302
    # Value 16: P2 pays 8 + 16 = 24, P3 and P4 pay 8 each.
    assert payments(table, 1) == [40, -24, -8, -8]
    assert Deal.objects.get(table=table, number=1).fan == 16


def test_a_tapped_and_a_typed_fan_that_differ_are_refused(logged_in, table, players):
    data = hand_data(winner=players[0].pk, discarder=players[1].pk, fan="12", fan_pick="16")
    response = logged_in.post(url("hand", hand=1), data)
    assert response.status_code == 422
    assert "16 fan is chosen and 12 typed: keep only one of them." in response.content.decode()
    assert payments(table, 1) == [32, -16, -8, -8]


def test_correct_the_winner_of_an_earlier_hand(logged_in, table, players, organiser):
    data = hand_data(winner=players[2].pk, discarder=players[1].pk)
    response = logged_in.post(url("hand", hand=1), data)
    assert response.status_code == 302
    assert response["Location"] == url("table")
    assert payments(table, 1) == [-8, -16, 32, -8]
    assert scores(table) == [-24, -32, 80, -24]
    assert messages_of(response) == ["Hand 1 is corrected."]
    entry = AuditEntry.objects.get(action="hand_corrected")
    assert (entry.before["winner"], entry.after["winner"]) == ("1", "3")
    page = logged_in.get(response["Location"])
    assert page.context["lines"][-1].running == (-24, -32, 80, -24)


def test_correct_a_win_into_a_drawn_hand(logged_in, table):
    response = logged_in.post(url("hand", hand=1), hand_data(result="draw", fan=""))
    assert response.status_code == 302
    assert payments(table, 1) == [0, 0, 0, 0]
    assert scores(table) == [-16, -16, 48, -16]


def test_correct_a_hand_with_tiles_in_compact_notation(logged_in, table, players):
    """P1 sits East in hand 1 (prevailing East): All Types 6 + Dragon Pung 2 = 8 fan, 1 flower."""
    data = hand_data(
        winner=players[0].pk,
        discarder=players[1].pk,
        fan="",
        flowers="1",
        tiles="345p 78s EE [PPP] [789m] 6s",
    )
    response = logged_in.post(url("hand", hand=1), data)
    assert response.status_code == 302
    hand = Deal.objects.get(table=table, number=1)
    assert (hand.fan, hand.flowers) == (8, 1)
    assert hand.payments == [33, -17, -8, -8]
    assert hand.tiles["win_tile"] == "6s"
    assert hand.tiles["melds"][0] == {"type": "pung", "tiles": ["P", "P", "P"],
                                      "concealed": False, "from": "left"}  # fmt: skip
    assert (hand.tiles["seat_wind"], hand.tiles["prevalent_wind"]) == ("E", "E")
    assert hand.tiles["self_drawn"] is False
    form = logged_in.get(url("hand", hand=1)).context["form"]
    assert form["tiles"].value() == "345p 78s EE [PPP] [789m] 6s"


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        (
            {"fan": "5"},
            "fan",
            "A win needs at least 8 fan, not counting flowers; 5 is a false win.",
        ),
        ({"winner": ""}, "winner", "A win needs a winner."),
        ({"discarder": "P1"}, "discarder", "The winner cannot have discarded the winning tile."),
        ({"fan": ""}, "fan", "A win needs its fan (or its tiles)."),
        ({"flowers": "9"}, "flowers", "Ensure this value is less than or equal to 8."),
        ({"tiles": "12x"}, "tiles", "The digits 12 need a suit letter (m, p or s) after them."),
        (
            {"tiles": "234m 456p 678s 234s 5m 5m", "fan": ""},
            "tiles",
            "These tiles are worth 7 fan without flowers: a false win, not a win.",
        ),
        (
            {"tiles": "345p 78s EE [PPP] [789m] 6s", "fan": "10"},
            "tiles",
            "The tiles score 8 fan and 0 flowers, not what was entered.",
        ),
        ({"tiles": "123m 6s"}, "tiles", None),
        ({"result": "draw", "tiles": "123m 6s"}, "tiles", "A drawn hand has no winning tiles."),
    ],
)
def test_a_correction_that_would_make_an_invalid_hand_is_refused(
    logged_in, table, players, changes, field, message
):
    names = {"P1": players[0].pk}
    data = hand_data(winner=players[0].pk, discarder=players[1].pk)
    data.update({key: names.get(value, value) for key, value in changes.items()})
    audit_before = AuditEntry.objects.count()
    response = logged_in.post(url("hand", hand=1), data)
    assert response.status_code == 422
    errors = response.context["form"].errors
    assert list(errors) == [field]
    if message:
        assert errors[field] == [message]
    assert payments(table, 1) == [32, -16, -8, -8]
    assert scores(table) == [16, -32, 40, -24]
    assert AuditEntry.objects.count() == audit_before
    # What was typed comes back in the form.
    assert response.context["form"]["tiles"].value() == data["tiles"]


def test_the_offender_of_a_false_win_cannot_be_made_the_winner(logged_in, table, players):
    logged_in.post(url("false_win_add"), {"number": "2", "offender": players[3].pk})
    response = logged_in.post(url("hand", hand=2), hand_data(winner=players[3].pk))
    assert response.status_code == 422
    assert response.context["form"].errors["winner"] == [
        "P4 declared a false win in hand 2 and cannot win it."
    ]


def test_a_hand_of_a_finished_round_can_be_corrected(logged_in, table, players, organiser):
    end_game(table=table, ended_by_time=True, entered_by=organiser)
    end_game(table=table.round.tables.get(number=2), ended_by_time=True, entered_by=organiser)
    confirm_submitted_games(round=table.round, confirmed_by=organiser)
    set_round_status(round=table.round, status="finished", actor=organiser)
    data = hand_data(winner=players[0].pk, discarder=players[1].pk, fan="10")
    assert logged_in.post(url("hand", hand=1), data).status_code == 302
    assert payments(table, 1) == [34, -18, -8, -8]
    assert scores(table) == [18, -34, 40, -24]


# --- Removing the last hand ----------------------------------------------------------------


def test_remove_the_last_hand(logged_in, table):
    response = logged_in.post(url("remove_hand"))
    assert response.status_code == 302
    assert list(table.deals.values_list("number", flat=True)) == [1, 2]
    assert scores(table) == [32, -16, -8, -8]
    assert messages_of(response) == ["Hand 3 is removed."]


def test_the_last_hand_of_an_ended_game_stays(logged_in, table, organiser):
    end_game(table=table, ended_by_time=True, entered_by=organiser)
    response = logged_in.post(url("remove_hand"))
    assert response.status_code == 422
    assert response.context["action_form"].non_field_errors() == [
        "The game at table 1 has ended; correct a hand instead."
    ]
    assert table.deals.count() == 3


# --- Penalties -----------------------------------------------------------------------------


def penalty_data(player, **changes) -> dict:
    return {"player": player.pk, "points": "10", "reason": "Slow play", "deal_number": "",
            **changes}  # fmt: skip


def test_record_a_deduction_on_the_game(logged_in, table, players):
    response = logged_in.post(url("penalty_add"), penalty_data(players[1]))
    assert response.status_code == 302
    penalty = Penalty.objects.get()
    assert (penalty.kind, penalty.points, penalty.deal_number) == ("deduction", 10, None)
    assert scores(table) == [16, -42, 40, -24]
    page = logged_in.get(url("table"))
    assert page.context["lines"][-1].running == (16, -42, 40, -24)
    assert [total["seat"].score for total in page.context["totals"]] == [16, -42, 40, -24]


def test_record_a_distributed_penalty_for_an_earlier_hand(logged_in, table, players):
    data = penalty_data(players[0], points="30", distributed="on", deal_number="2")
    assert logged_in.post(url("penalty_add"), data).status_code == 302
    assert scores(table) == [-14, -22, 50, -14]
    lines = logged_in.get(url("table")).context["lines"]
    assert lines[1].payments == (-30, 10, 10, 10)


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        (
            {"points": "10", "distributed": "on"},
            "points",
            "A distributed penalty is shared equally by three players: use a multiple of 3.",
        ),
        ({"points": "70"}, "points", "A deduction is 5 to 60 points."),
        ({"reason": ""}, "reason", "This field is required."),
        ({"deal_number": "17"}, "deal_number", "Ensure this value is less than or equal to 16."),
    ],
)
def test_bad_penalties_are_refused(logged_in, table, players, changes, field, message):
    response = logged_in.post(url("penalty_add"), penalty_data(players[1], **changes))
    assert response.status_code == 422
    assert response.context["penalty_form"].errors[field] == [message]
    assert response.context["penalty_form"]["reason"].value() == changes.get("reason", "Slow play")
    assert not Penalty.objects.exists()
    assert scores(table) == [16, -32, 40, -24]


def test_a_player_of_another_table_cannot_be_penalised_here(logged_in, table, players):
    response = logged_in.post(url("penalty_add"), penalty_data(players[5]))
    assert response.status_code == 422
    assert "player" in response.context["penalty_form"].errors
    assert not Penalty.objects.exists()


def test_edit_a_penalty(logged_in, table, players, organiser):
    penalty = record_penalty(table=table, player=players[1], points=10, distributed=False,
                             reason="Slow play", entered_by=organiser)  # fmt: skip
    form = logged_in.get(url("penalty", penalty=penalty.pk)).context["form"]
    assert form["reason"].value() == "Slow play"
    data = penalty_data(players[2], points="20", reason="Exposed tiles")
    response = logged_in.post(url("penalty", penalty=penalty.pk), data)
    assert response.status_code == 302
    penalty.refresh_from_db()
    assert (penalty.seat.player, penalty.points, penalty.reason) == (
        players[2],
        20,
        "Exposed tiles",
    )
    assert scores(table) == [16, -32, 20, -24]


def test_a_bad_penalty_correction_changes_nothing(logged_in, table, players, organiser):
    penalty = record_penalty(table=table, player=players[1], points=10, distributed=False,
                             reason="Slow play", entered_by=organiser)  # fmt: skip
    data = penalty_data(players[1], points="4")
    response = logged_in.post(url("penalty", penalty=penalty.pk), data)
    assert response.status_code == 422
    assert response.context["form"].errors["points"] == ["A deduction is 5 to 60 points."]
    penalty.refresh_from_db()
    assert penalty.points == 10
    assert scores(table) == [16, -42, 40, -24]


def test_remove_a_penalty(logged_in, table, players, organiser):
    penalty = record_penalty(table=table, player=players[1], points=10, distributed=False,
                             reason="Slow play", entered_by=organiser)  # fmt: skip
    response = logged_in.post(url("penalty_remove", penalty=penalty.pk))
    assert response.status_code == 302
    assert not Penalty.objects.exists()
    assert scores(table) == [16, -32, 40, -24]
    assert messages_of(response) == ["The penalty on P2 (Slow play) is removed."]


def test_a_penalty_of_another_table_is_404(logged_in, table, players, organiser):
    other = table.round.tables.get(number=2)
    penalty = record_penalty(table=other, player=players[4], points=10, distributed=False,
                             reason="Slow play", entered_by=organiser)  # fmt: skip
    assert logged_in.get(url("penalty", penalty=penalty.pk)).status_code == 404
    assert logged_in.post(url("penalty_remove", penalty=penalty.pk)).status_code == 404
    assert Penalty.objects.count() == 1


def test_new_penalties_wait_for_a_finished_round_to_be_reopened(logged_in, table, players,
                                                               organiser):  # fmt: skip
    for each in table.round.tables.all():
        end_game(table=each, ended_by_time=True, entered_by=organiser)
    confirm_submitted_games(round=table.round, confirmed_by=organiser)
    set_round_status(round=table.round, status="finished", actor=organiser)
    page = logged_in.get(url("table")).content.decode()
    assert "reopen round 1 first" in page
    response = logged_in.post(url("penalty_add"), penalty_data(players[1]))
    assert response.status_code == 422
    assert response.context["penalty_form"].non_field_errors() == [
        "Round 1 is finished, not in play: results cannot be entered now."
    ]
    assert not Penalty.objects.exists()


# --- False wins ----------------------------------------------------------------------------


def test_record_a_false_win_for_an_earlier_hand(logged_in, table, players):
    response = logged_in.post(url("false_win_add"), {"number": "2", "offender": players[3].pk})
    assert response.status_code == 302
    penalty = Penalty.objects.get()
    assert (penalty.kind, penalty.points, penalty.deal_number) == ("false_win", 30, 2)
    assert scores(table) == [26, -22, 50, -54]
    assert messages_of(response) == ["The false win of P4 in hand 2 is recorded."]


def test_a_false_win_with_an_invalid_hand_costs_twenty_each(logged_in, table, players):
    data = {"number": "3", "offender": players[1].pk, "invalid_hand": "on"}
    assert logged_in.post(url("false_win_add"), data).status_code == 302
    assert scores(table) == [36, -92, 60, -4]


def test_the_winner_of_a_hand_cannot_have_a_false_win_in_it(logged_in, table, players):
    response = logged_in.post(url("false_win_add"), {"number": "1", "offender": players[0].pk})
    assert response.status_code == 422
    assert response.context["false_win_form"].errors["offender"] == [
        "P1 is recorded as the winner of hand 1; correct that hand first."
    ]
    assert not Penalty.objects.exists()


def test_a_false_win_in_a_hand_not_yet_played_is_refused(logged_in, table, players):
    response = logged_in.post(url("false_win_add"), {"number": "6", "offender": players[0].pk})
    assert response.status_code == 422
    assert response.context["false_win_form"].errors["number"] == [
        "A false win belongs to a hand already entered or to the hand in play."
    ]
    assert response.context["false_win_form"]["number"].value() == "6"


# --- End and reopen ------------------------------------------------------------------------


def test_end_a_game_when_time_is_called_and_reopen_it(logged_in, table):
    response = logged_in.post(url("end_game"), {"ended_by_time": "on"})
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.ended_at is not None and table.ended_by_time
    response = logged_in.post(url("reopen_game"))
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.ended_at is None and not table.ended_by_time
    assert messages_of(response)[-1] == "The game at table 1 is open again."
    assert list(AuditEntry.objects.filter(table=table).values_list("action", flat=True))[-2:] == [
        "game_ended",
        "game_reopened",
    ]


def test_a_game_ends_early_only_when_time_is_called(logged_in, table):
    response = logged_in.post(url("end_game"), {})
    assert response.status_code == 422
    assert response.context["end_form"].non_field_errors() == [
        "Only 3 of 16 hands are entered; end the game early only when time is called."
    ]
    table.refresh_from_db()
    assert table.ended_at is None


def test_a_game_of_a_finished_round_reopens_after_the_round(logged_in, table, organiser):
    for each in table.round.tables.all():
        end_game(table=each, ended_by_time=True, entered_by=organiser)
    confirm_submitted_games(round=table.round, confirmed_by=organiser)
    set_round_status(round=table.round, status="finished", actor=organiser)
    response = logged_in.post(url("reopen_game"))
    assert response.status_code == 422
    assert response.context["action_form"].non_field_errors() == [
        "Round 1 is finished, not in play: results cannot be entered now."
    ]
    table.refresh_from_db()
    assert table.ended_at is not None


def test_a_game_that_has_not_ended_cannot_be_reopened(logged_in, table):
    response = logged_in.post(url("reopen_game"))
    assert response.status_code == 422
    assert response.context["action_form"].non_field_errors() == ["This game has not ended."]


# --- Under the other presets: false wins, faulty outs and deductions by the rulebook --------


@pytest.fixture
def preset_table(request, tournament, organiser, players):
    """Table 1 of round 1 under the preset given as the parameter, no deal entered yet."""
    tournament.preset, tournament.seat_rotation = request.param, "none"
    tournament.save()
    _, (table, _) = seated_round(tournament, organiser, [players[:4], players[4:]])
    return table


def page_of(client) -> str:
    return client.get(url("table")).content.decode()


@pytest.mark.parametrize("preset_table", ["japanese-transitional"], indirect=True)
def test_a_japanese_table_page_offers_no_false_win(logged_in, preset_table):
    html = page_of(logged_in)

    assert "false win" not in html.lower()
    assert "false-wins/new/" not in html
    assert "A faulty out ends the deal" in html
    assert "pays 750 to each other player" in html
    assert "5 to 60" not in html
    assert "deduction of 5 to 1,500, a multiple of 5 given to nobody" in html


@pytest.mark.parametrize("preset_table", ["japanese-transitional"], indirect=True)
def test_a_japanese_false_win_post_is_refused_and_saves_nothing(logged_in, preset_table, players):
    response = logged_in.post(url("false_win_add"), {"number": "1", "offender": players[1].pk})

    assert response.status_code == 422
    assert any("record the deal as a faulty out" in text for text in messages_of(response))
    assert not Penalty.objects.exists()
    assert scores(preset_table) == [0, 0, 0, 0]


@pytest.mark.parametrize("preset_table", ["wilmington-12-tile"], indirect=True)
def test_a_wilmington_table_page_calls_it_a_faulty_out_with_its_own_amounts(
    logged_in, preset_table, players
):
    html = page_of(logged_in)

    assert "Record a faulty out" in html
    assert "false win" not in html.lower()
    assert "pays 40 to each other player either way" in html
    assert "20 to each" not in html and "10 to each" not in html

    response = logged_in.post(url("false_win_add"), {"number": "1", "offender": players[1].pk})

    assert response.status_code == 302
    assert Penalty.objects.get().points == 120
    assert scores(preset_table) == [40, -120, 40, 40]
    assert messages_of(response) == ["The faulty out of P2 in deal 1 is recorded."]
    assert "Faulty out: P2 −120" in page_of(logged_in)


def test_an_mcr_table_page_keeps_its_false_win_amounts(logged_in, table):
    html = page_of(logged_in)

    assert "Record a false win" in html
    assert "(20 to each player); otherwise the hand was below 8 fan (10 to each)" in html
    assert "deduction of 5 to 60 given to nobody" in html


@pytest.mark.parametrize("preset_table", ["japanese-transitional"], indirect=True)
@pytest.mark.parametrize(("points", "status"), [(1500, 302), (1505, 422), (12, 422)])
def test_a_japanese_deduction_follows_its_scale(logged_in, preset_table, players, points, status):
    data = {"player": players[2].pk, "points": points, "reason": "Foul"}

    response = logged_in.post(url("penalty_add"), data)

    assert response.status_code == status
    if status == 302:
        assert scores(preset_table) == [0, 0, -points, 0]
    else:
        assert response.context["penalty_form"].errors["points"] == [
            "A deduction is 5 to 1,500 points, a multiple of 5."
        ]
        assert not Penalty.objects.exists()
