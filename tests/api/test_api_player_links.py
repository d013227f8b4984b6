"""The players' private links in the API: made (the address answered once) and revoked by an
organiser only; no other answer shows a link."""

from __future__ import annotations

import json

import pytest
from factories import make_players

from tournament.models import AuditEntry, Player
from tournament.services.player_links import issue_link, player_for_secret

pytestmark = pytest.mark.django_db

T = "/api/tournaments/spring-cup"


@pytest.fixture
def field(tournament):
    return make_players(tournament, 4)


def _secret(url: str) -> str:
    assert url.startswith("http://testserver/p/") and url.endswith("/")
    return url.removeprefix("http://testserver/p/").removesuffix("/")


def test_an_organiser_makes_a_link_answered_once(as_organiser, field):
    response = as_organiser.post(f"{T}/players/1/link")

    assert response.status_code == 201
    assert response["Cache-Control"] == "no-store"
    answer = response.json()
    assert answer["player"] == "1" and answer["issued_at"]
    secret = _secret(answer["url"])
    assert player_for_secret(secret) == field[0]

    newer = as_organiser.post(f"{T}/players/1/link", {}).json()
    assert player_for_secret(secret) is None
    assert player_for_secret(_secret(newer["url"])) == field[0]


def test_an_organiser_revokes_a_link(as_organiser, field, organiser):
    secret = issue_link(field[1], actor=organiser)

    response = as_organiser.delete(f"{T}/players/2/link")

    assert (response.status_code, response.json()) == (200, {"player": "2", "link": False})
    assert player_for_secret(secret) is None
    again = as_organiser.delete(f"{T}/players/2/link")
    assert (again.status_code, again.json()["error"]) == (400, "no_link")
    assert AuditEntry.objects.filter(action=AuditEntry.Action.PLAYER_LINK).count() == 2


def test_an_unknown_player_or_tournament_is_404(as_organiser, field):
    assert as_organiser.post(f"{T}/players/99/link").status_code == 404
    assert as_organiser.post("/api/tournaments/nowhere/players/1/link").status_code == 404


def test_a_body_with_fields_is_refused(as_organiser, field):
    response = as_organiser.post(f"{T}/players/1/link", {"secret": "mine"})
    assert response.status_code == 400
    assert Player.objects.get(pk=field[0].pk).link_digest == ""


def test_a_referee_or_a_visitor_makes_and_revokes_nothing(as_bob, anonymous, field, organiser):
    secret = issue_link(field[0], actor=organiser)
    assert as_bob.post(f"{T}/players/1/link").status_code == 403
    assert as_bob.delete(f"{T}/players/1/link").status_code == 403
    assert anonymous.post(f"{T}/players/1/link").status_code == 401
    assert anonymous.delete(f"{T}/players/1/link").status_code == 401
    assert player_for_secret(secret) == field[0]


def test_no_other_answer_shows_a_link(as_organiser, anonymous, field, organiser):
    issue_link(field[0], actor=organiser)
    digest = Player.objects.get(pk=field[0].pk).link_digest
    for client in (as_organiser, anonymous):
        for path in (f"{T}/players", T, f"{T}/standings"):
            text = json.dumps(client.get(path).json())
            assert digest not in text and "link" not in text
