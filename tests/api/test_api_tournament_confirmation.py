"""The tournament's game-sheet confirmation and round time through the JSON API."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

T = "/api/tournaments/spring-cup"


def test_the_detail_shows_who_confirms_and_the_round_time(anonymous, tournament):
    body = anonymous.get(T).json()

    assert (body["confirmation"], body["round_minutes"]) == ("organiser", 120)


def test_the_organiser_changes_them(as_organiser, tournament):
    response = as_organiser.patch(T, {"confirmation": "referee", "round_minutes": 150})

    assert response.status_code == 200
    assert (response.json()["confirmation"], response.json()["round_minutes"]) == ("referee", 150)
    tournament.refresh_from_db()
    assert (tournament.confirmation, tournament.round_minutes) == ("referee", 150)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"confirmation": "players"}, "confirmation"),
        ({"round_minutes": 5}, "round_minutes"),
        ({"round_minutes": 601}, "round_minutes"),
        ({"round_minutes": "two hours"}, "round_minutes"),
    ],
)
def test_wrong_values_are_refused_field_by_field(as_organiser, tournament, body, field):
    response = as_organiser.patch(T, body)

    assert response.status_code == 400
    assert list(response.json()["fields"]) == [field]
    tournament.refresh_from_db()
    assert (tournament.confirmation, tournament.round_minutes) == ("organiser", 120)


def test_a_new_tournament_can_count_sheets_once_submitted(api_as, make_user):
    from django.contrib.auth.models import Permission

    creator = make_user("dora")
    creator.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    response = api_as(creator).post(
        "/api/tournaments",
        {"name": "Club Night", "slug": "club-night", "confirmation": "none"},
    )

    assert response.status_code == 201
    assert response.json()["confirmation"] == "none"
