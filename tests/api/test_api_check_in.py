"""The check-in endpoints: the desk's state and counts, its switches, a player checked in and
out by key; organisers only; nothing reveals a private link."""

from __future__ import annotations

import hashlib

import pytest
from django.test import Client
from django.utils import timezone
from factories import make_players, make_tournament

from tournament.models import AuditEntry, Player
from tournament.services import add_player, update_player

pytestmark = pytest.mark.django_db

T = "/api/tournaments/spring-cup"
SECRET = "aB3dE5fG7hJ9kL1mN3pQ5rS7"


@pytest.fixture
def field(tournament):
    players = make_players(tournament, 4)
    players[0].link_digest = hashlib.sha256(SECRET.encode()).hexdigest()
    players[0].save(update_fields=["link_digest"])
    add_player(tournament=tournament, key="S", name="Stand-in", substitute=True)
    update_player(player=players[3], withdrawn_from_round=1)
    return players


def test_the_desk_starts_closed_with_its_counts(as_organiser, field):
    response = as_organiser.get(f"{T}/check-in")

    assert response.status_code == 200
    assert response.json() == {
        "desk_open": False,
        "self_check_in": False,
        "closed_at": None,
        "counts": {
            "checked_in": 0,
            "missing": 3,
            "late": 0,
            "substitutes": 1,
            "substitutes_ready": 0,
            "withdrawn": 1,
        },
    }


def test_open_the_desk_and_check_players_in_and_out(as_organiser, field, organiser):
    opened = as_organiser.patch(f"{T}/check-in", {"desk_open": True})
    assert opened.status_code == 200
    assert opened.json()["desk_open"] is True
    assert opened.json()["self_check_in"] is False  # not sent, not changed

    response = as_organiser.put(f"{T}/players/2/check-in", {"checked_in": True})

    assert response.status_code == 200
    answer = response.json()
    assert (answer["player"], answer["name"], answer["checked_in"]) == ("2", "Player 2", True)
    assert answer["checked_in_at"] is not None
    assert answer["counts"]["checked_in"] == 1 and answer["counts"]["missing"] == 2
    again = as_organiser.put(f"{T}/players/2/check-in", {"checked_in": True}).json()
    assert again["checked_in_at"] == answer["checked_in_at"]

    substitute = as_organiser.put(f"{T}/players/S/check-in", {"checked_in": True}).json()
    assert substitute["counts"]["substitutes_ready"] == 1

    out = as_organiser.put(f"{T}/players/2/check-in", {"checked_in": False}).json()
    assert (out["checked_in"], out["checked_in_at"]) == (False, None)
    entries = AuditEntry.objects.filter(action=AuditEntry.Action.CHECK_IN).order_by("pk")
    assert [entry.after for entry in entries] == [
        {"check_in_open": True},
        {"player": "2", "checked_in": True, "source": "api"},
        {"player": "S", "checked_in": True, "source": "api"},
        {"player": "2", "checked_in": False, "source": "api"},
    ]
    assert all(entry.actor == organiser for entry in entries)


def test_nothing_reveals_a_link(as_organiser, field):
    as_organiser.patch(f"{T}/check-in", {"desk_open": True})
    texts = [
        as_organiser.get(f"{T}/check-in").content.decode(),
        as_organiser.put(f"{T}/players/1/check-in", {"checked_in": True}).content.decode(),
    ]
    digest = hashlib.sha256(SECRET.encode()).hexdigest()
    assert not any(SECRET in text or digest in text or "link" in text for text in texts)


def test_a_closed_desk_is_a_conflict(as_organiser, field):
    response = as_organiser.put(f"{T}/players/1/check-in", {"checked_in": True})

    assert (response.status_code, response.json()["error"]) == (409, "desk_closed")
    assert Player.objects.get(pk=field[0].pk).checked_in_at is None


def test_a_withdrawn_player_is_refused(as_organiser, field):
    as_organiser.patch(f"{T}/check-in", {"desk_open": True})

    response = as_organiser.put(f"{T}/players/4/check-in", {"checked_in": True})

    assert (response.status_code, response.json()["error"]) == (400, "withdrawn")


def test_an_unknown_player_is_404(as_organiser, field):
    as_organiser.patch(f"{T}/check-in", {"desk_open": True})

    response = as_organiser.put(f"{T}/players/99/check-in", {"checked_in": True})

    assert (response.status_code, response.json()["error"]) == (404, "not_found")


@pytest.mark.parametrize(
    ("body", "field_name"),
    [
        ({}, "checked_in"),
        ({"checked_in": "yes"}, "checked_in"),
        ({"checked_in": 1}, "checked_in"),
        ({"checked_in": True, "link": SECRET}, "link"),
    ],
)
def test_a_wrong_body_is_refused_by_field(as_organiser, field, body, field_name):
    as_organiser.patch(f"{T}/check-in", {"desk_open": True})

    response = as_organiser.put(f"{T}/players/1/check-in", body)

    assert response.status_code == 400
    assert set(response.json()["fields"]) == {field_name}
    assert Player.objects.get(pk=field[0].pk).checked_in_at is None


def test_a_body_that_is_not_json_is_refused(as_organiser, field):
    response = as_organiser.put(f"{T}/players/1/check-in", raw=b"\xff{")

    assert (response.status_code, response.json()["error"]) == (400, "bad_request")


def test_self_check_in_switch_and_its_refusal_after_close(as_organiser, tournament, field):
    allowed = as_organiser.patch(f"{T}/check-in", {"self_check_in": True})
    assert allowed.json()["self_check_in"] is True

    tournament.refresh_from_db()
    tournament.self_check_in = False
    tournament.check_in_closed_at = timezone.now()
    tournament.save()

    refused = as_organiser.patch(f"{T}/check-in", {"self_check_in": True, "desk_open": True})

    assert (refused.status_code, refused.json()["error"]) == (409, "check_in_closed")
    tournament.refresh_from_db()
    assert not tournament.check_in_open  # the whole request was rolled back
    assert as_organiser.get(f"{T}/check-in").json()["closed_at"] is not None


def test_a_wrong_switch_is_refused(as_organiser, field):
    response = as_organiser.patch(f"{T}/check-in", {"desk_open": "open", "closed_at": None})

    assert response.status_code == 400
    assert set(response.json()["fields"]) == {"desk_open", "closed_at"}


def test_only_organisers(anonymous, as_bob, api_as, make_user, tournament, field):
    stranger = make_user("dan")
    make_tournament(slug="autumn-cup", name="Autumn Cup", organisers=[stranger])
    as_dan = api_as(stranger)

    assert anonymous.get(f"{T}/check-in").status_code == 403  # public: it exists
    assert anonymous.patch(f"{T}/check-in", {"desk_open": True}).status_code == 401
    assert as_bob.get(f"{T}/check-in").status_code == 403
    assert as_dan.patch(f"{T}/check-in", {"desk_open": True}).status_code == 403
    assert as_dan.put(f"{T}/players/1/check-in", {"checked_in": True}).status_code == 403

    tournament.public = False
    tournament.save()
    assert anonymous.get(f"{T}/check-in").status_code == 404
    assert as_dan.get(f"{T}/check-in").status_code == 404
    assert as_dan.put(f"{T}/players/1/check-in", {"checked_in": True}).status_code == 404
    tournament.refresh_from_db()
    assert not tournament.check_in_open
    assert not Player.objects.filter(checked_in_at__isnull=False).exists()


def test_a_session_write_needs_the_csrf_token(organiser, field):
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)

    response = client.patch(f"{T}/check-in", '{"desk_open": true}', content_type="application/json")

    assert (response.status_code, response.json()["error"]) == (403, "csrf_failed")
