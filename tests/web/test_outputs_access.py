"""Who may open the organiser's printouts: organisers only; everyone else is sent away."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from factories import make_players, make_user, seated_round

from tournament.models import Tournament

pytestmark = pytest.mark.django_db

PAGES = [
    ("outputs:index", {}),
    ("outputs:ema_csv", {}),
    ("outputs:ema", {}),
    ("outputs:ema_readiness", {}),
    ("outputs:standings", {}),
    ("outputs:teams", {}),
    ("outputs:teams_csv", {}),
    ("outputs:player_seating", {}),
    ("outputs:round_seating", {"number": 1}),
    ("outputs:sheets", {"number": 1}),
    ("outputs:blank_sheets", {"number": 1}),
]


def url(name, kwargs, slug="spring-cup"):
    return reverse(name, kwargs={"slug": slug, **kwargs})


@pytest.fixture
def world(tournament, organiser, referee):
    """Round 1 seated (four players at table 1, refereed by bob); carol has no role."""
    players = make_players(tournament, 4, name="P{}")
    _, (table,) = seated_round(tournament, organiser, [players], status="seated")
    table.referees.add(referee)
    return {"referee": referee, "stranger": make_user("carol")}


def test_the_urls_sit_under_manage_print():
    assert url("outputs:ema_csv", {}) == "/manage/spring-cup/print/ema.csv"
    assert url("outputs:blank_sheets", {"number": 2}) == (
        "/manage/spring-cup/print/rounds/2/sheets/blank/"
    )


@pytest.mark.parametrize(("name", "kwargs"), PAGES)
def test_anonymous_visitors_are_asked_to_log_in(client, world, name, kwargs):
    response = client.get(url(name, kwargs))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login") + "?next=")


@pytest.mark.parametrize(("name", "kwargs"), PAGES)
@pytest.mark.parametrize("who", ["stranger", "referee"])
def test_users_who_do_not_organise_the_tournament_get_403(client, world, name, kwargs, who):
    client.force_login(world[who])
    assert client.get(url(name, kwargs)).status_code == 403


@pytest.mark.parametrize(("name", "kwargs"), PAGES)
def test_organisers_and_superusers_may_open_them(client, world, organiser, name, kwargs):
    client.force_login(organiser)
    assert client.get(url(name, kwargs)).status_code == 200
    client.force_login(get_user_model().objects.create_superuser(username="root"))
    assert client.get(url(name, kwargs)).status_code == 200


@pytest.mark.parametrize(("name", "kwargs"), PAGES)
def test_unknown_tournament_is_404(client, world, organiser, name, kwargs):
    client.force_login(organiser)
    assert client.get(url(name, kwargs, slug="no-such-cup")).status_code == 404


@pytest.mark.parametrize(("name", "kwargs"), PAGES)
def test_a_private_tournament_is_404_for_a_stranger(client, world, name, kwargs):
    Tournament.objects.filter(slug="spring-cup").update(public=False)
    client.force_login(world["stranger"])
    assert client.get(url(name, kwargs)).status_code == 404


@pytest.mark.parametrize(
    "name", ["outputs:round_seating", "outputs:sheets", "outputs:blank_sheets"]
)
def test_unknown_round_is_404(client, world, organiser, name):
    client.force_login(organiser)
    assert client.get(url(name, {"number": 9})).status_code == 404


@pytest.mark.parametrize(("name", "kwargs"), PAGES)
def test_post_is_refused(client, world, organiser, name, kwargs):
    client.force_login(organiser)
    assert client.post(url(name, kwargs)).status_code == 405
