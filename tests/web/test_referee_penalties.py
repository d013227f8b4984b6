"""False wins, penalties, undoing the last hand and ending the game on the table screen."""

from __future__ import annotations

import re

import pytest
from factories import draws
from test_referee_hands import errors_of, open_entry
from test_referee_pages import messages_of, scores, snapshot, table_url

from tournament.models import AuditEntry, Deal, Penalty, Table
from tournament.services import DealInput, end_game, record_deal

pytestmark = pytest.mark.django_db


# --- False wins ---------------------------------------------------------------------------


def test_false_win_below_eight_fan_pays_ten_to_each(referee_client, world):
    response = referee_client.post(
        table_url(world, "false_win"), {"offender": "2", "number": 1, "kind": "below_minimum"}
    )
    assert response.status_code == 302
    assert scores(world.table) == [10, -30, 10, 10]
    assert messages_of(response) == [
        "False win by Player 2 in hand 1: pays 10 to each other player. "
        "Player 2 cannot win that hand; the others still can."
    ]


def test_false_win_with_an_invalid_hand_pays_twenty_to_each(referee_client, world):
    referee_client.post(
        table_url(world, "false_win"), {"offender": "4", "number": 1, "kind": "invalid_hand"}
    )
    penalty = Penalty.objects.get()
    assert (penalty.kind, penalty.points, penalty.distributed) == ("false_win_invalid", 60, True)
    assert scores(world.table) == [20, 20, 20, -60]


def test_false_win_defaults_to_the_hand_in_play_and_may_name_an_earlier_hand(referee_client, world):
    draws(world.table, 2, world.referee)
    html = referee_client.get(table_url(world)).content.decode()
    entry = html[html.index('id="entry-false-win"') : html.index('id="entry-penalty"')]
    assert re.findall(r'<option value="(\d+)"( selected)?>', entry) == [
        ("1", ""),
        ("2", ""),
        ("3", " selected"),
    ]
    referee_client.post(
        table_url(world, "false_win"), {"offender": "1", "number": 2, "kind": "below_minimum"}
    )
    assert Penalty.objects.get().deal_number == 2


def test_false_win_for_a_hand_not_yet_played_is_refused_with_values_kept(referee_client, world):
    response = referee_client.post(
        table_url(world, "false_win"), {"offender": "3", "number": 5, "kind": "invalid_hand"}
    )
    assert response.status_code == 200
    assert errors_of(response) == ["Select a valid choice. 5 is not one of the available choices."]
    assert open_entry(response) == ["entry-false-win"]
    html = response.content.decode()
    entry = html[html.index('id="entry-false-win"') : html.index('id="entry-penalty"')]
    assert re.search(r'name="offender" value="3"[^>]* checked', entry)
    assert re.search(r'name="kind" value="invalid_hand"[^>]* checked', entry)
    assert not Penalty.objects.exists()


def test_the_winner_of_a_hand_cannot_be_given_a_false_win_for_it(referee_client, world):
    p = world.players
    record_deal(
        table=world.table,
        number=1,
        deal=DealInput(result="win", winner=p[0], fan=8),
        entered_by=world.referee,
    )
    response = referee_client.post(
        table_url(world, "false_win"), {"offender": "1", "number": 1, "kind": "below_minimum"}
    )
    assert errors_of(response) == [
        "Player 1 is recorded as the winner of hand 1; correct that hand first."
    ]
    assert not Penalty.objects.exists()


# --- Deductions and distributed penalties -------------------------------------------------


def penalty(player="3", kind="deduction", points=10, reason="Slow play", hand="1"):
    return {"player": player, "kind": kind, "points": points, "reason": reason, "hand": hand}


def test_deduction_is_given_to_nobody(referee_client, world):
    response = referee_client.post(table_url(world, "penalty"), penalty(points=15))
    assert response.status_code == 302
    assert scores(world.table) == [0, 0, -15, 0]
    recorded = Penalty.objects.get()
    assert (recorded.kind, recorded.reason, recorded.deal_number) == ("deduction", "Slow play", 1)
    assert messages_of(response) == ["Deduction for Player 3: 15 points, given to nobody."]


def test_distributed_penalty_is_shared_by_the_other_three(referee_client, world):
    referee_client.post(
        table_url(world, "penalty"),
        penalty(player="1", kind="distributed", points=30, reason="Exposed hand", hand=""),
    )
    assert scores(world.table) == [-30, 10, 10, 10]
    assert Penalty.objects.get().deal_number is None


@pytest.mark.parametrize(
    "data, message",
    [
        (penalty(points=4), "A deduction is 5 to 60 points."),
        (penalty(points=61), "A deduction is 5 to 60 points."),
        (
            penalty(kind="distributed", points=10),
            "A distributed penalty is shared equally by three players: use a multiple of 3.",
        ),
        (penalty(reason="   "), "Give the reason for the penalty."),
        (penalty(points=""), "Enter the points the player loses."),
        (penalty(player=""), "Choose the player."),
    ],
)
def test_penalty_errors_keep_the_values(referee_client, world, data, message):
    response = referee_client.post(table_url(world, "penalty"), data)
    assert response.status_code == 200
    assert errors_of(response) == [message]
    assert open_entry(response) == ["entry-penalty"]
    assert not Penalty.objects.exists()
    html = response.content.decode()
    entry = html[html.index('id="entry-penalty"') : html.index('id="entry-end"')]
    if data["points"] != "":
        assert f'name="points" value="{data["points"]}"' in entry
    if data["player"]:
        assert re.search(rf'name="player" value="{data["player"]}"[^>]* checked', entry)
    assert re.search(rf'name="kind" value="{data["kind"]}"[^>]* checked', entry)


# --- Undo ---------------------------------------------------------------------------------


def test_undo_asks_for_confirmation_before_removing_the_last_hand(referee_client, world):
    p = world.players
    draws(world.table, 1, world.referee)
    record_deal(
        table=world.table,
        number=2,
        deal=DealInput(result="win", winner=p[1], discarder=p[0], fan=8),
        entered_by=world.referee,
    )
    before = snapshot()
    response = referee_client.post(table_url(world, "undo"), {"number": 2})
    assert response.status_code == 200
    html = response.content.decode()
    assert "Remove hand 2?" in html
    assert "Hand 2: Player 2 won on Player 1’s discard, 8 fan." in html
    assert snapshot() == before

    response = referee_client.post(table_url(world, "undo"), {"number": 2, "confirm": "True"})
    assert response.status_code == 302
    assert list(Deal.objects.values_list("number", flat=True)) == [1]
    assert scores(world.table) == [0, 0, 0, 0]
    assert messages_of(response) == ["Hand 2 removed."]
    assert AuditEntry.objects.filter(action="hand_removed").count() == 1


def test_undo_removes_nothing_when_another_hand_was_entered_meanwhile(referee_client, world):
    draws(world.table, 2, world.referee)
    response = referee_client.post(table_url(world, "undo"), {"number": 1, "confirm": "True"})
    assert response.status_code == 200
    assert "Hand 1 is not the last hand entered any more; nothing was removed." in (
        response.content.decode()
    )
    assert Deal.objects.count() == 2

    response = referee_client.post(table_url(world, "undo"), {"number": 1})
    assert response.status_code == 302
    assert messages_of(response) == ["Hand 1 is not the last one entered any more."]


def test_undo_is_refused_once_the_game_has_ended(referee_client, world):
    draws(world.table, 1, world.referee)
    end_game(table=world.table, ended_by_time=True, entered_by=world.referee)
    response = referee_client.post(table_url(world, "undo"), {"number": 1, "confirm": "True"})
    assert "The game at table 1 has ended; correct a hand instead." in response.content.decode()
    assert Deal.objects.count() == 1


# --- The end of the game ------------------------------------------------------------------


def test_ending_early_needs_time_to_have_been_called(referee_client, world):
    draws(world.table, 3, world.referee)
    response = referee_client.post(table_url(world, "end"), {})
    assert response.status_code == 200
    assert errors_of(response) == [
        "Only 3 of 16 hands are entered; end the game early only when time is called."
    ]
    assert open_entry(response) == ["entry-end"]
    assert Table.objects.get(pk=world.table.pk).ended_at is None

    response = referee_client.post(table_url(world, "end"), {"time_called": "on"})
    assert response.status_code == 302
    table = Table.objects.get(pk=world.table.pk)
    assert table.ended_at is not None and table.ended_by_time
    assert messages_of(response) == ["Game ended after 3 hands. Time was called."]


def test_the_game_ends_after_sixteen_hands(referee_client, world):
    draws(world.table, 16, world.referee)
    response = referee_client.post(table_url(world, "end"), {}, follow=True)
    table = Table.objects.get(pk=world.table.pk)
    assert table.ended_at is not None and not table.ended_by_time
    html = response.content.decode()
    assert "Game ended after 16 hands." in html
    # Four tied scores share the 4 + 2 + 1 + 0 table points.
    assert re.findall(r"data-table-points>([^<]+)<", html) == ["1 3/4"] * 4


def test_a_game_cannot_end_twice(referee_client, world):
    draws(world.table, 16, world.referee)
    end_game(table=world.table, ended_by_time=False, entered_by=world.referee)
    response = referee_client.post(table_url(world, "end"), {})
    assert response.status_code == 200
    assert "This game has already ended." in response.content.decode()
