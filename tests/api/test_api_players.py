"""The players endpoints: names in parts, checked EMA numbers and countries, removing a player
added by mistake."""

from __future__ import annotations

import pytest
from factories import make_players, seated_round

from tournament.models import Player

pytestmark = pytest.mark.django_db

T = "/api/tournaments/spring-cup"


def test_a_player_given_by_family_and_given_names(as_organiser, tournament):
    body = {"key": "8", "family_name": "王", "given_name": "小明", "country": "China"}

    response = as_organiser.post(f"{T}/players", body)

    assert response.status_code == 201
    answer = response.json()
    assert (answer["name"], answer["family_name"], answer["given_name"]) == ("王小明", "王", "小明")
    assert answer["country"] == "CN"


def test_a_bad_ema_number_and_country_are_refused_by_field(as_organiser, tournament):
    body = {"key": "8", "name": "Anna", "ema_number": "4010001", "country": "Narnia"}

    response = as_organiser.post(f"{T}/players", body)

    assert response.status_code == 400
    assert set(response.json()["fields"]) == {"ema_number", "country"}
    assert not Player.objects.exists()


def test_a_player_added_by_mistake_is_removed(as_organiser, tournament):
    make_players(tournament, 2)

    response = as_organiser.delete(f"{T}/players/2")

    assert (response.status_code, response.json()["name"]) == (200, "Player 2")
    assert list(tournament.players.values_list("key", flat=True)) == ["1"]
    assert as_organiser.delete(f"{T}/players/2").status_code == 404


def test_a_player_who_played_is_not_removed(as_organiser, tournament, organiser):
    players = make_players(tournament, 4)
    seated_round(tournament, organiser, [players])  # round 1 in play

    response = as_organiser.delete(f"{T}/players/1")

    assert (response.status_code, response.json()["error"]) == (409, "player_has_results")
    assert Player.objects.count() == 4


def test_a_seated_player_is_not_removed(as_organiser, tournament, organiser):
    players = make_players(tournament, 4)
    seated_round(tournament, organiser, [players], status="seated")

    response = as_organiser.delete(f"{T}/players/3")

    assert (response.status_code, response.json()["error"]) == (409, "player_seated")
    assert "Change seats" in response.json()["message"]
    assert Player.objects.count() == 4


def test_only_an_organiser_removes_a_player(anonymous, as_bob, tournament):
    make_players(tournament, 1)

    assert anonymous.delete(f"{T}/players/1").status_code == 401
    assert as_bob.delete(f"{T}/players/1").status_code in (403, 404)
    assert Player.objects.count() == 1


def test_the_api_writes_players_and_settings_into_the_audit_trail(
    as_organiser, organiser, tournament
):
    from tournament.models import AuditEntry

    Action = AuditEntry.Action
    as_organiser.post(f"{T}/players", {"key": "8", "name": "Anna Berg"})
    as_organiser.patch(f"{T}/players/8", {"name": "Anna Borg"})
    as_organiser.delete(f"{T}/players/8")
    as_organiser.patch(T, {"venue": "Malmö"})

    entries = AuditEntry.objects.filter(tournament=tournament).order_by("pk")
    actions = [entry.action for entry in entries if entry.action != Action.TOURNAMENT_CREATED]
    assert actions == [
        Action.PLAYER_ADDED,
        Action.PLAYER_CHANGED,
        Action.PLAYER_REMOVED,
        Action.SETTINGS_CHANGED,
    ]
    assert {entry.actor for entry in entries if entry.action != Action.TOURNAMENT_CREATED} == {
        organiser
    }
