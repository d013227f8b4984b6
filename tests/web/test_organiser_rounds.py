"""Rounds: creating, seating, changing seats, referees, status steps, removal; referee accounts."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.http import HttpRequest
from django.urls import reverse
from factories import seated_round

from tournament.models import AuditEntry, Round, Seat, Table
from tournament.services import (
    DealInput,
    add_player,
    confirm_submitted_games,
    create_round,
    end_game,
    record_deal,
    set_round_status,
)

pytestmark = pytest.mark.django_db


def url(name: str, **kwargs) -> str:
    return reverse(f"organiser:{name}", kwargs={"slug": "spring-cup", **kwargs})


@pytest.fixture
def logged_in(client, organiser, tournament):
    client.force_login(organiser)
    return client


@pytest.fixture
def player_name():
    """The `players` of tests/conftest.py are P1 to P8 here."""
    return "P{}"


@pytest.fixture
def draft(tournament, organiser, players):
    """Round 1, a draft seated 1 2 3 4 at table 1 and 5 6 7 8 at table 2."""
    round, _ = seated_round(tournament, organiser, [players[:4], players[4:]], status="draft")
    return round


@pytest.fixture
def playing(draft, organiser, players):
    """Round 1 in play; hand 1 at table 1 is a draw; table 2 has nothing recorded."""
    set_round_status(round=draft, status="seated", actor=organiser)
    set_round_status(round=draft, status="playing", actor=organiser)
    record_deal(
        table=draft.tables.get(number=1),
        number=1,
        deal=DealInput(result="draw"),
        entered_by=organiser,
    )
    return draft


def seating(round) -> dict[int, list[str]]:
    """Player keys by table, in starting order E, S, W, N."""
    tables: dict[int, list[str]] = {}
    for seat in Seat.objects.filter(round=round).select_related("table", "player"):
        tables.setdefault(seat.table.number, [""] * 4)[seat.index] = seat.player.key
    return tables


def messages_of(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


# --- Creating and seating ------------------------------------------------------------------


def test_create_the_next_round(logged_in, tournament, draft):
    response = logged_in.post(url("round_create"))
    assert response.status_code == 302
    assert response["Location"] == url("round", number=2)
    assert list(tournament.rounds.values_list("number", "status")) == [
        (1, "draft"),
        (2, "draft"),
    ]
    assert messages_of(response) == ["Round 2 is created as a draft: seat it next."]


def test_round_page_shows_tables_and_the_allowed_steps(logged_in, draft):
    response = logged_in.get(url("round", number=1))
    assert [row["table"].number for row in response.context["rows"]] == [1, 2]
    assert [seat.player.key for seat in response.context["rows"][0]["seats"]] == [
        "1",
        "2",
        "3",
        "4",
    ]
    assert response.context["steps"] == [("seated", "Publish seating")]
    assert "Remove round 1" in response.content.decode()


def test_a_round_without_seating_is_not_offered_for_publishing(logged_in, tournament, players):
    create_round(tournament=tournament, actor=tournament.organisers.get())
    response = logged_in.get(url("round", number=1))
    assert response.context["steps"] == []
    assert "Publish seating" not in response.content.decode()


def test_seat_at_random_places_everyone_once(logged_in, tournament, players):
    create_round(tournament=tournament, actor=players[0].tournament.organisers.get())
    response = logged_in.post(url("round_seat", number=1), {"seed": "7"})
    assert response.status_code == 302
    tables = seating(Round.objects.get(number=1))
    assert sorted(tables) == [1, 2]
    assert sorted(key for keys in tables.values() for key in keys) == sorted(p.key for p in players)
    assert messages_of(response) == ["Round 1 is seated at random at 2 tables."]


def test_the_same_seed_gives_the_same_seating(logged_in, draft):
    logged_in.post(url("round_seat", number=1), {"seed": "42"})
    first = seating(draft)
    logged_in.post(url("round_seat", number=1), {"seed": "42"})
    assert seating(draft) == first


def test_seating_avoids_players_who_have_met(logged_in, tournament, organiser, draft):
    """With round 1 at 1234 / 5678, round 2 of 8 players mixes both tables two and two."""
    set_round_status(round=draft, status="seated", actor=organiser)
    create_round(tournament=tournament, actor=organiser)
    logged_in.post(url("round_seat", number=2), {"seed": "3"})
    for keys in seating(Round.objects.get(number=2)).values():
        assert len({key for key in keys if int(key) <= 4}) == 2


def test_seating_refuses_a_field_that_does_not_fill_tables(logged_in, tournament, organiser):
    for number in range(1, 8):
        add_player(tournament=tournament, key=str(number), name=f"P{number}")
    create_round(tournament=tournament, actor=organiser)
    response = logged_in.post(url("round_seat", number=1), {"seed": "1"})
    assert response.status_code == 422
    assert response.context["seat_form"].non_field_errors() == [
        "7 players play in round 1: 1 more substitutes are needed to fill tables of four."
    ]
    assert response.context["seat_form"]["seed"].value() == "1"
    assert Table.objects.count() == 0


def test_seating_a_round_in_play_is_refused(logged_in, playing):
    before = seating(playing)
    response = logged_in.post(url("round_seat", number=1), {})
    assert response.status_code == 422
    assert response.context["seat_form"].non_field_errors() == [
        "Round 1 is playing; its seating can change only while it is a draft or seated."
    ]
    assert seating(playing) == before


# --- Changing seats ------------------------------------------------------------------------


def test_swap_two_players(logged_in, draft, players):
    data = {"first": players[0].pk, "second": players[5].pk}
    response = logged_in.post(url("round_swap", number=1), data)
    assert response.status_code == 302
    assert seating(draft) == {1: ["6", "2", "3", "4"], 2: ["5", "1", "7", "8"]}
    assert messages_of(response) == ["P1 and P6 changed seats."]
    assert AuditEntry.objects.filter(action="seating_changed").count() == 2


def test_a_substitute_takes_a_seat(logged_in, tournament, draft, players):
    sub = add_player(tournament=tournament, key="9", name="Sub", substitute=True)
    page = logged_in.get(url("round", number=1))
    assert [player.key for player in page.context["unseated"]] == ["9"]
    response = logged_in.post(
        url("round_swap", number=1), {"first": players[2].pk, "second": sub.pk}
    )
    assert response.status_code == 302
    assert seating(draft)[1] == ["1", "2", "9", "4"]
    assert messages_of(response) == ["Sub takes the seat of P3."]


def test_swap_at_a_table_with_results_is_refused(logged_in, playing, players):
    before = seating(playing)
    data = {"first": players[0].pk, "second": players[4].pk}
    response = logged_in.post(url("round_swap", number=1), data)
    assert response.status_code == 422
    form = response.context["swap_form"]
    assert form.non_field_errors() == [
        "Players can change seats only at tables where nothing is recorded yet."
    ]
    assert form["first"].value() == str(players[0].pk)
    assert seating(playing) == before


def test_swap_at_tables_without_results_while_playing(logged_in, playing, players):
    data = {"first": players[4].pk, "second": players[7].pk}
    assert logged_in.post(url("round_swap", number=1), data).status_code == 302
    assert seating(playing)[2] == ["8", "6", "7", "5"]


def test_swap_with_oneself_is_refused(logged_in, draft, players):
    data = {"first": players[0].pk, "second": players[0].pk}
    response = logged_in.post(url("round_swap", number=1), data)
    assert response.status_code == 422
    assert response.context["swap_form"].errors["second"] == ["Choose two different players."]


def test_a_withdrawn_player_cannot_take_a_seat(logged_in, tournament, draft, players):
    gone = add_player(tournament=tournament, key="9", name="Gone", withdrawn_from_round=1)
    data = {"first": players[0].pk, "second": gone.pk}
    response = logged_in.post(url("round_swap", number=1), data)
    assert response.status_code == 422
    # Not offered at all: withdrawn players are not a valid choice in round 1.
    assert "second" in response.context["swap_form"].errors
    assert seating(draft)[1] == ["1", "2", "3", "4"]


# --- Status --------------------------------------------------------------------------------


def post_status(client, status: str, number: int = 1):
    return client.post(url("round_status", number=number), {"status": status})


def test_a_round_goes_through_its_steps(logged_in, organiser, draft):
    assert post_status(logged_in, "seated").status_code == 302
    assert post_status(logged_in, "draft").status_code == 302
    assert post_status(logged_in, "seated").status_code == 302
    asked = post_status(logged_in, "playing")  # no table has a referee: asked first
    assert asked.status_code == 200
    assert "Start anyway?" in asked.content.decode()
    response = logged_in.post(url("round_status", number=1), {"status": "playing", "confirm": "1"})
    assert response.status_code == 302
    assert messages_of(response)[-1] == "Round 1 is now playing."
    for table in draft.tables.all():
        end_game(table=table, ended_by_time=True, entered_by=organiser)
    waiting = post_status(logged_in, "finished")
    assert waiting.status_code == 422
    assert waiting.context["status_form"].non_field_errors() == [
        "The game sheets of tables 1, 2 are waiting for confirmation."
    ]
    confirm_submitted_games(round=draft, confirmed_by=organiser)
    assert post_status(logged_in, "finished").status_code == 302
    draft.refresh_from_db()
    assert draft.status == "finished"
    page = logged_in.get(url("round", number=1))
    assert page.context["steps"] == [("playing", "Reopen round")]
    assert post_status(logged_in, "playing").status_code == 302
    draft.refresh_from_db()
    assert draft.status == "playing"


def test_finishing_with_open_games_names_the_tables(logged_in, organiser, playing):
    end_game(table=playing.tables.get(number=2), ended_by_time=True, entered_by=organiser)
    response = post_status(logged_in, "finished")
    assert response.status_code == 422
    assert response.context["status_form"].non_field_errors() == [
        "The games at tables 1 have not ended."
    ]
    assert "The games at tables 1 have not ended." in response.content.decode()
    playing.refresh_from_db()
    assert playing.status == "playing"


def test_publishing_needs_everyone_seated(logged_in, tournament, draft):
    add_player(tournament=tournament, key="9", name="Late Comer")
    response = post_status(logged_in, "seated")
    assert response.status_code == 422
    assert response.context["status_form"].non_field_errors() == [
        "Not everyone is seated in round 1: Late Comer."
    ]
    draft.refresh_from_db()
    assert draft.status == "draft"


def test_a_round_with_results_cannot_go_back_to_seated(logged_in, playing):
    response = post_status(logged_in, "seated")
    assert response.status_code == 422
    assert response.context["status_form"].non_field_errors() == [
        "Results are recorded in round 1; it stays in play."
    ]


def test_a_status_that_is_no_step_is_refused(logged_in, draft):
    response = post_status(logged_in, "finished")
    assert response.status_code == 422
    assert response.context["status_form"].non_field_errors() == [
        "Round 1 is draft and cannot become finished."
    ]
    assert post_status(logged_in, "closed").status_code == 422


# --- Removing ------------------------------------------------------------------------------


def test_remove_the_last_draft_round(logged_in, tournament, draft):
    response = logged_in.post(url("round_remove", number=1))
    assert response.status_code == 302
    assert response["Location"] == url("dashboard")
    assert not tournament.rounds.exists()
    assert Seat.objects.count() == 0


def test_a_round_in_play_cannot_be_removed(logged_in, playing):
    response = logged_in.post(url("round_remove", number=1))
    assert response.status_code == 422
    assert response.context["remove_form"].non_field_errors() == [
        "Only a draft round can be removed."
    ]
    assert Round.objects.filter(pk=playing.pk).exists()


def test_only_the_last_round_can_be_removed(logged_in, tournament, organiser, draft):
    create_round(tournament=tournament, actor=organiser)
    response = logged_in.post(url("round_remove", number=1))
    assert response.status_code == 422
    assert Round.objects.count() == 2


# --- Referee accounts ----------------------------------------------------------------------


def account(**changes) -> dict:
    return {"username": "ref-ann", "password": "tiles-and-winds-9", "password_again":
            "tiles-and-winds-9", **changes}  # fmt: skip


def test_create_a_referee_account_with_no_other_rights(client, logged_in, tournament):
    response = logged_in.post(url("referees"), account())
    assert response.status_code == 302
    user = get_user_model().objects.get(username="ref-ann")
    assert not user.is_staff and not user.is_superuser
    assert not user.get_all_permissions()
    assert not tournament.organisers.filter(pk=user.pk).exists()
    assert messages_of(response)[0].startswith("The referee account ref-ann is created.")
    client.logout()
    assert client.login(request=HttpRequest(), username="ref-ann", password="tiles-and-winds-9")
    assert client.get(url("dashboard")).status_code == 403


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"username": "alice"}, "username", "alice is taken by another account."),
        ({"username": "bad name!"}, "username", "Enter a valid username."),
        ({"password_again": "other-pass-77"}, "password_again", "The two passwords differ."),
        (
            {"password": "short", "password_again": "short"},
            "password",
            "This password is too short.",
        ),
    ],
)
def test_bad_referee_accounts_are_refused(logged_in, changes, field, message):
    response = logged_in.post(url("referees"), account(**changes))
    assert response.status_code == 422
    errors = " ".join(response.context["form"].errors[field])
    assert message in errors
    assert not get_user_model().objects.filter(username="ref-ann").exists()
    assert 'value="tiles-and-winds-9"' not in response.content.decode()
