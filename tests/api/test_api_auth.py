"""Authentication: API tokens, browser sessions with their CSRF token, and their errors."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from tournament.infra.tokens import LAST_USED_EVERY, issue_token
from tournament.models import ApiToken, Deal

pytestmark = pytest.mark.django_db

T = "/api/tournaments/spring-cup"
HANDS = f"{T}/rounds/1/tables/1/hands"
DRAW = {"number": 1, "result": "draw"}


@pytest.fixture
def session(bob, table):
    """A browser logged in as bob that sends no CSRF token unless told to."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(bob)
    return client


def csrf_token(client: Client) -> str:
    client.get("/accounts/login/")  # any page with a form sets the CSRF cookie
    return client.cookies["csrftoken"].value


def test_session_reads_without_csrf(session):
    response = session.get(f"{T}/rounds/1/tables/1")

    assert response.status_code == 200
    assert response.json()["referees"] == ["bob"]


def test_session_write_without_the_csrf_token_is_refused(session):
    response = session.post(HANDS, DRAW, content_type="application/json")

    assert response.status_code == 403
    assert response.json()["error"] == "csrf_failed"
    assert "X-CSRFToken" in response.json()["message"]
    assert not Deal.objects.exists()


def test_session_write_with_the_csrf_token_is_saved(session):
    token = csrf_token(session)

    response = session.post(
        HANDS, DRAW, content_type="application/json", headers={"X-CSRFToken": token}
    )

    assert response.status_code == 201
    assert Deal.objects.get().entered_by.username == "bob"


def test_token_write_needs_no_csrf_token(bob, table):
    _token, secret = issue_token(user=bob, name="scorer")
    client = Client(enforce_csrf_checks=True)

    response = client.post(
        HANDS, DRAW, content_type="application/json", headers={"Authorization": f"Bearer {secret}"}
    )

    assert response.status_code == 201


def test_token_wins_over_the_session(session, organiser):
    _token, secret = issue_token(user=organiser, name="desk")

    response = session.post(
        HANDS, DRAW, content_type="application/json", headers={"Authorization": f"Bearer {secret}"}
    )

    assert response.status_code == 201
    assert Deal.objects.get().entered_by == organiser


@pytest.mark.parametrize(
    "header", ["Bearer mcr_wrong", "Bearer ", "Basic Ym9iOnB3", "mcr_abc", "Token mcr_x"]
)
def test_a_bad_token_is_refused_even_on_public_reads(anonymous, tournament, header):
    anonymous.headers = {"Authorization": header}

    response = anonymous.get(T)

    assert response.status_code == 401
    assert response.json()["error"] == "invalid_token"
    assert response["WWW-Authenticate"] == 'Bearer realm="api", error="invalid_token"'


def test_token_of_an_inactive_user_is_refused(api_as, bob, tournament):
    client = api_as(bob)
    bob.is_active = False
    bob.save()

    assert client.get(T).status_code == 401


def test_anonymous_write_asks_for_a_login(anonymous, table):
    response = anonymous.post(HANDS, DRAW)

    assert response.status_code == 401
    assert response.json()["error"] == "login_required"
    assert response["WWW-Authenticate"] == 'Bearer realm="api"'


def test_head_is_answered_like_get(anonymous, tournament):
    response = anonymous.client.head(T)

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"


def test_wrong_method_is_405_with_allow(anonymous, tournament):
    response = anonymous.delete(T)

    assert response.status_code == 405
    assert response["Allow"] == "GET, PATCH, HEAD"
    assert response.json() == {
        "error": "method_not_allowed",
        "message": "DELETE is not allowed here; use GET, PATCH, HEAD.",
    }


def test_a_read_notes_the_tokens_first_use_then_at_most_once_an_hour(api_as, bob, tournament):
    client = api_as(bob)
    token = ApiToken.objects.get(user=bob)
    assert token.last_used is None

    client.get(T)
    first = ApiToken.objects.get(pk=token.pk).last_used
    client.get(T)

    assert first is not None
    assert ApiToken.objects.get(pk=token.pk).last_used == first


def test_a_use_after_an_hour_is_noted_again(api_as, bob, tournament):
    client = api_as(bob)
    stale = timezone.now() - LAST_USED_EVERY - timedelta(minutes=1)
    ApiToken.objects.filter(user=bob).update(last_used=stale)

    client.get(T)

    assert ApiToken.objects.get(user=bob).last_used > stale + LAST_USED_EVERY
