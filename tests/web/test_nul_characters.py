"""A NUL character anywhere a request can carry one is refused in words, never a 500.

PostgreSQL cannot compare text holding NUL: a path segment with %00 that a view looked up
(a tournament's slug, a player's key, an account's username) was a DataError. The application
answers these itself (tests/test_hosting.py covers nginx, which refuses them first)."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from factories import make_user

from tournament.infra.tokens import issue_token
from tournament.models import Player, RefereeAccount
from tournament.services.accounts import create_referee_accounts

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser_client(client, organiser, tournament, players):
    client.force_login(organiser)
    create_referee_accounts(tournament=tournament, usernames=["referee-01"], actor=organiser)
    return client


PUBLIC_PATHS = [
    "/t/spring%00cup/",
    "/t/spring-cup%00/",
    "/t/spring-cup%00/standings/",
    "/t/spring-cup/standings%00/",
    "/t/spring-cup/projector/%00",
    "/t/spring-cup/rounds/1%00/",
    "/t/spring-cup/players/1%00/",
    "/t/spring-cup%00/statistics/",
    "/%00",
    "/scoring/calculator/%00",
    "/static/%00.css",
]

ORGANISER_PATHS = [
    "/manage/spring-cup%00/",
    "/manage/spring-cup/players/1%00/",
    "/manage/spring-cup/players/1%00/remove/",
    "/manage/spring-cup/referees/referee-01%00/unlock/",
    "/manage/spring-cup/referees/referee-01%00/password/",
    "/manage/spring-cup/referees/referee-01%00/active/",
    "/manage/spring-cup/referees/%00/active/",
    "/manage/spring-cup/rounds/1/tables/1%00/",
    "/manage/spring-cup%00/print/",
    "/manage/spring-cup%00/seating/",
    "/referee/spring-cup%00/sheets/",
]

API_PATHS = [
    "/api/tournaments/spring-cup%00",
    "/api/tournaments/spring%00cup/players",
    "/api/tournaments/spring-cup/players/1%00",
    "/api/tournaments/spring-cup/rounds/1%00",
    "/api/tournaments/spring-cup/rounds/1/tables/1%00/hands",
]


@pytest.mark.parametrize("path", PUBLIC_PATHS)
def test_a_nul_in_a_public_path_is_404(client, tournament, path):
    response = client.get(path)
    assert response.status_code == 404


@pytest.mark.parametrize("path", ORGANISER_PATHS)
@pytest.mark.parametrize("method", ["GET", "POST"])
def test_a_nul_in_an_organisers_path_is_404(organiser_client, path, method):
    response = organiser_client.generic(method, path, "active=on")
    assert response.status_code == 404
    # Nothing changed on the account the path nearly named.
    assert get_user_model().objects.get(username="referee-01").is_active


@pytest.mark.parametrize("path", API_PATHS)
@pytest.mark.parametrize("method", ["GET", "POST", "PATCH", "DELETE"])
def test_a_nul_in_an_api_path_is_a_json_404(tournament, organiser, path, method):
    _token, secret = issue_token(user=organiser, name="phone")
    response = Client().generic(
        method,
        path,
        "{}",
        content_type="application/json",
        headers={"Authorization": f"Bearer {secret}"},
    )
    assert response.status_code == 404
    assert response.json()["error"] == "not_found"


@pytest.mark.parametrize(
    ("path", "same_as"),
    [
        ("/t/spring-cup/standings/?page=1%00", "/t/spring-cup/standings/"),
        ("/t/spring-cup/rounds/1/?q=%00", "/t/spring-cup/rounds/1/"),
        ("/t/spring-cup/rounds/1/?q=Player+1&q=%00", "/t/spring-cup/rounds/1/?q=Player+1"),
        ("/t/spring-cup/players/1/?%00=1", "/t/spring-cup/players/1/"),
        ("/scoring/calculator/?tiles=%00", "/scoring/calculator/"),
        ("/accounts/login/?next=/%00", "/accounts/login/"),
    ],
)
def test_a_nul_in_a_query_string_leaves_that_parameter_out(client, round, table, path, same_as):
    """As a page leaves out any value it does not take: drawn as without it."""
    response = client.get(path)
    assert response.status_code == 200
    assert (
        response.context["request"].GET.dict() == client.get(same_as).context["request"].GET.dict()
    )


def test_a_nul_in_an_api_query_string_is_a_json_400(tournament):
    response = Client().get("/api/tournaments/spring-cup/players?limit=1%00")
    assert response.status_code == 400
    assert response.json()["error"] == "bad_request"


def test_addresses_without_a_nul_are_answered_as_before(client, tournament):
    assert client.get("/t/spring-cup/").status_code == 200
    assert client.get("/t/spring-cup/?q=00").status_code == 200
    assert client.get("/t/nowhere/").status_code == 404


# --- Bodies: the forms and the API name the field -------------------------------------------


def test_a_referee_account_with_a_nul_in_its_username_is_refused_by_the_form(
    organiser_client, tournament
):
    response = organiser_client.post(
        "/manage/spring-cup/referees/",
        {"username": "ref\x00eree", "password": "tile-wall-99", "password_again": "tile-wall-99"},
    )
    assert response.status_code == 422
    assert "Null characters are not allowed." in response.content.decode()
    assert (
        not get_user_model()
        .objects.filter(username__startswith="ref")
        .exclude(username="referee-01")
        .exists()
    )


def test_referee_accounts_with_a_nul_in_a_name_are_refused_by_the_form(
    organiser_client, tournament
):
    before = RefereeAccount.objects.count()
    response = organiser_client.post(
        "/manage/spring-cup/referees/new/", {"names": "Anna\x00 Berg\nBo Li"}
    )
    assert response.status_code == 422
    assert "Null characters are not allowed." in response.content.decode()
    assert RefereeAccount.objects.count() == before


def test_referee_accounts_with_a_nul_in_the_prefix_are_refused_by_the_form(organiser_client):
    before = RefereeAccount.objects.count()
    response = organiser_client.post(
        "/manage/spring-cup/referees/new/", {"count": "2", "username_prefix": "ref\x00"}
    )
    assert response.status_code == 422
    assert RefereeAccount.objects.count() == before


def test_a_player_with_a_nul_in_the_name_is_refused_by_the_form(organiser_client, tournament):
    response = organiser_client.post(
        "/manage/spring-cup/players/add/", {"key": "9", "name": "Eli\x00 Chen"}
    )
    assert response.status_code == 422
    assert "Null characters are not allowed." in response.content.decode()
    assert not Player.objects.filter(tournament=tournament, key="9").exists()


def test_a_login_with_a_nul_in_the_username_is_refused_in_words(client, tournament):
    make_user("dora", password="pass-word-42")
    response = client.post("/accounts/login/", {"username": "dora\x00", "password": "pass-word-42"})
    assert response.status_code == 200
    assert "Null characters are not allowed." in response.content.decode()
    assert "_auth_user_id" not in client.session


@pytest.mark.parametrize(
    ("method", "path", "body", "field"),
    [
        ("POST", "/api/tournaments/spring-cup/players", {"key": "9", "name": "Eli\x00"}, "name"),
        ("PATCH", "/api/tournaments/spring-cup/players/1", {"club": "Tiles\x00"}, "club"),
        ("PATCH", "/api/tournaments/spring-cup", {"name": "Cup\x00"}, "name"),
        ("PATCH", "/api/tournaments/spring-cup", {"venue": "\x00"}, "venue"),
    ],
)
def test_a_nul_in_an_api_body_names_the_field(players, organiser, method, path, body, field):
    _token, secret = issue_token(user=organiser, name="phone")
    response = Client().generic(
        method,
        path,
        json.dumps(body),
        content_type="application/json",
        headers={"Authorization": f"Bearer {secret}"},
    )
    assert response.status_code == 400, response.content
    assert field in response.json()["fields"]
