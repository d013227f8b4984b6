"""The API's standings while rounds are hidden until the prize-giving: the public's for anyone
but the tournament's organisers, saying so; the tournament carries the two settings."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils.dateparse import parse_datetime
from prize_world import BEFORE_ROUND_2, FULL, build

from tournament.reads.standings_cache import clear
from tournament.services.prize_giving import hide_standings_from, reveal_standings

T = "/api/tournaments/spring-cup"


@pytest.fixture(autouse=True)
def fresh_cache():
    clear()
    yield
    clear()


@pytest.fixture
def world(tournament, organiser, referee):
    world = build(tournament, organiser, referee)
    hide_standings_from(tournament=tournament, round=2, actor=organiser)
    return world


def ranks(response):
    assert response.status_code == 200
    return {row["player"]: row["rank"] for row in response.json()["standings"]}


def test_anyone_gets_the_standings_before_the_hidden_round(anonymous, world):
    response = anonymous.get(f"{T}/standings")
    assert ranks(response) == BEFORE_ROUND_2
    assert (response.json()["hidden"], response.json()["hidden_from"]) == (True, 2)
    provisional = anonymous.get(f"{T}/standings?provisional=1")
    assert ranks(provisional) == BEFORE_ROUND_2


def test_a_referee_gets_the_hidden_standings(api_as, world, referee):
    response = api_as(referee).get(f"{T}/standings")
    assert ranks(response) == BEFORE_ROUND_2
    assert response.json()["hidden"] is True


def test_an_organiser_gets_the_full_standings(as_organiser, anonymous, world):
    response = as_organiser.get(f"{T}/standings")
    assert ranks(response) == FULL
    assert (response.json()["hidden"], response.json()["hidden_from"]) == (False, None)
    # What was kept for the organiser is not answered to anyone else.
    assert ranks(anonymous.get(f"{T}/standings")) == BEFORE_ROUND_2


def test_after_the_reveal_everyone_gets_the_full_standings(anonymous, world, tournament, organiser):
    reveal_standings(tournament=tournament, actor=organiser)
    response = anonymous.get(f"{T}/standings")
    assert ranks(response) == FULL
    assert (response.json()["hidden"], response.json()["hidden_from"]) == (False, None)


def test_the_tournament_carries_the_prize_giving_settings(anonymous, world, tournament, organiser):
    body = anonymous.get(T).json()
    assert (body["standings_hidden_from"], body["standings_revealed_at"]) == (2, None)
    reveal_standings(tournament=tournament, actor=organiser)
    body = anonymous.get(T).json()
    tournament.refresh_from_db()
    assert body["standings_hidden_from"] == 2
    answered = parse_datetime(body["standings_revealed_at"])
    assert abs(answered - tournament.standings_revealed_at) < timedelta(milliseconds=1)


def test_nothing_hidden_says_so(anonymous, tournament):
    response = anonymous.get(f"{T}/standings")
    assert (response.json()["hidden"], response.json()["hidden_from"]) == (False, None)
    assert anonymous.get(T).json()["standings_hidden_from"] is None


@pytest.fixture
def played(tournament, organiser, referee):
    """The two rounds of prize_world, nothing hidden yet."""
    return build(tournament, organiser, referee)


def test_the_organiser_hides_reveals_and_hides_again(as_organiser, anonymous, played, tournament):
    hidden = as_organiser.patch(f"{T}/prize-giving", {"hidden_from": 2})
    assert hidden.status_code == 200
    assert (hidden.json()["standings_hidden_from"], hidden.json()["standings_revealed_at"]) == (
        2,
        None,
    )
    assert ranks(anonymous.get(f"{T}/standings")) == BEFORE_ROUND_2

    revealed = as_organiser.patch(f"{T}/prize-giving", {"revealed": True})
    assert revealed.json()["standings_revealed_at"] is not None
    assert ranks(anonymous.get(f"{T}/standings")) == FULL

    again = as_organiser.patch(f"{T}/prize-giving", {"revealed": False})
    assert (again.json()["standings_hidden_from"], again.json()["standings_revealed_at"]) == (
        2,
        None,
    )
    assert ranks(anonymous.get(f"{T}/standings")) == BEFORE_ROUND_2
    actions = list(tournament.audit.order_by("pk").values_list("action", flat=True))
    assert actions[-3:] == ["standings_hidden", "standings_revealed", "standings_hidden"]

    never = as_organiser.patch(f"{T}/prize-giving", {"hidden_from": None})
    assert never.json()["standings_hidden_from"] is None
    assert ranks(anonymous.get(f"{T}/standings")) == FULL


@pytest.mark.parametrize(
    ("body", "code"),
    [({"revealed": True}, "nothing_hidden"), ({"revealed": False}, "not_revealed")],
)
def test_revealing_or_hiding_again_what_is_not_so_is_a_conflict(as_organiser, played, body, code):
    response = as_organiser.patch(f"{T}/prize-giving", body)
    assert (response.status_code, response.json()["error"]) == (409, code)


def test_revealing_twice_is_a_conflict(as_organiser, world):
    assert as_organiser.patch(f"{T}/prize-giving", {"revealed": True}).status_code == 200
    response = as_organiser.patch(f"{T}/prize-giving", {"revealed": True})
    assert (response.status_code, response.json()["error"]) == (409, "already_revealed")


@pytest.mark.parametrize("body", [{"hidden_from": 0}, {"hidden_from": "2"}, {"shown": True}])
def test_a_bad_prize_giving_body_is_refused_and_changes_nothing(as_organiser, played, body):
    response = as_organiser.patch(f"{T}/prize-giving", body)
    assert response.status_code == 400
    assert as_organiser.get(T).json()["standings_hidden_from"] is None


def test_only_an_organiser_hides_the_standings(api_as, anonymous, referee, played, tournament):
    assert anonymous.patch(f"{T}/prize-giving", {"hidden_from": 2}).status_code in (401, 403)
    assert api_as(referee).patch(f"{T}/prize-giving", {"hidden_from": 2}).status_code == 403
    tournament.refresh_from_db()
    assert tournament.standings_hidden_from is None
