"""The Django admin never goes around a service's rule: rounds and results are read-only there,
and a tournament's rules are fixed once a hand is recorded."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tournament.models import Player, Round, Tournament
from tournament.services import DealInput, create_table, record_deal

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser_client(client):
    client.force_login(
        get_user_model().objects.create_superuser(username="root", password="root-pass-42")
    )
    return client


def change_form(tournament: Tournament, **changes) -> dict:
    data = {
        "name": tournament.name,
        "preset": tournament.preset,
        "profile": tournament.profile,
        "seat_rotation": tournament.seat_rotation,
        "table_points": "[4, 2, 1, 0]",
        "tie_breaks": '["best_game", "game_scores"]',
        "separate_clubs": "soft",
        "separate_countries": "soft",
        "separate_teams": "soft",
        "confirmation": tournament.confirmation,
        "round_minutes": tournament.round_minutes,
        "venue": "",
        "registration": tournament.registration,
        "carry_over": tournament.carry_over,
        "final_seating": tournament.final_seating,
    }
    return data | changes


def test_the_rules_can_change_in_the_admin_before_any_hand(superuser_client, tournament):
    response = superuser_client.post(
        f"/admin/tournament/tournament/{tournament.pk}/change/",
        change_form(tournament, profile="cn-1998"),
    )

    assert response.status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).profile == "cn-1998"


def test_the_rules_are_read_only_in_the_admin_once_a_hand_is_recorded(
    superuser_client, tournament, organiser
):
    players = [
        Player.objects.create(tournament=tournament, key=str(n), name=f"P{n}") for n in range(4)
    ]
    round = Round.objects.create(tournament=tournament, number=1, status=Round.Status.PLAYING)
    table = create_table(round=round, number=1, players=players)
    record_deal(table=table, number=1, deal=DealInput(result="draw"), entered_by=organiser)

    page = superuser_client.get(f"/admin/tournament/tournament/{tournament.pk}/change/")
    superuser_client.post(
        f"/admin/tournament/tournament/{tournament.pk}/change/",
        change_form(tournament, profile="cn-1998", seat_rotation="none", name="Renamed"),
    )

    assert 'name="profile"' not in page.content.decode()
    saved = Tournament.objects.get(pk=tournament.pk)
    assert (saved.name, saved.profile, saved.seat_rotation) == ("Renamed", "wmo-2006", "wmo")


def test_rounds_cannot_be_added_changed_or_deleted_in_the_admin(superuser_client, tournament):
    round = Round.objects.create(tournament=tournament, number=1)

    add = superuser_client.get("/admin/tournament/round/add/")
    change = superuser_client.post(
        f"/admin/tournament/round/{round.pk}/change/", {"status": "finished"}
    )
    delete = superuser_client.post(f"/admin/tournament/round/{round.pk}/delete/", {"post": "yes"})

    assert add.status_code == 403
    assert change.status_code == 403
    assert delete.status_code == 403
    assert Round.objects.get(pk=round.pk).status == Round.Status.DRAFT
