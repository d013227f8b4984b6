"""Fixtures of the API tests: a JSON client with a token, and a tournament in play.

The tournament (from tests/conftest.py) is "spring-cup", public, organised by alice. Round 1
is in play with two tables: players 1-4 at table 1 (E, S, W, N), refereed by bob, and players
5-8 at table 2, refereed by carol.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tournament.models import Player, Round
from tournament.services import assign_referees, create_table
from tournament.tokens import issue_token


class Api:
    """A test client speaking JSON, as `user` through an API token (or anonymous)."""

    def __init__(self, secret: str | None = None, client: Client | None = None) -> None:
        self.client = client or Client()
        self.headers = {"Authorization": f"Bearer {secret}"} if secret else {}

    def call(self, method: str, url: str, body: Any = None, raw: str | bytes | None = None):
        data = raw if raw is not None else ("" if body is None else json.dumps(body))
        return self.client.generic(
            method, url, data=data, content_type="application/json", headers=self.headers
        )

    def get(self, url: str):
        return self.call("GET", url)

    def post(self, url: str, body: Any = None, **kwargs: Any):
        return self.call("POST", url, body, **kwargs)

    def put(self, url: str, body: Any = None, **kwargs: Any):
        return self.call("PUT", url, body, **kwargs)

    def patch(self, url: str, body: Any = None, **kwargs: Any):
        return self.call("PATCH", url, body, **kwargs)

    def delete(self, url: str, body: Any = None, **kwargs: Any):
        return self.call("DELETE", url, body, **kwargs)


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Users are made by the dozen here; the real hasher would spend seconds on each."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def make_user(db):
    def make(username: str):
        return get_user_model().objects.create_user(username=username, password="pass-word-42")

    return make


@pytest.fixture
def api_as():
    """An Api client authenticated with a new token of `user`; anonymous for None."""

    def make(user=None) -> Api:
        if user is None:
            return Api()
        _token, secret = issue_token(user=user, name="tests")
        return Api(secret)

    return make


@pytest.fixture
def anonymous(db) -> Api:
    return Api()


@pytest.fixture
def as_organiser(api_as, organiser) -> Api:
    return api_as(organiser)


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def carol(make_user):
    return make_user("carol")


@pytest.fixture
def as_bob(api_as, bob) -> Api:
    return api_as(bob)


@pytest.fixture
def players(tournament):
    return [
        Player.objects.create(tournament=tournament, key=str(number), name=f"Player {number}")
        for number in range(1, 9)
    ]


@pytest.fixture
def round(tournament):
    return Round.objects.create(tournament=tournament, number=1, status=Round.Status.PLAYING)


@pytest.fixture
def table(round, players, bob, organiser):
    table = create_table(round=round, number=1, players=players[:4])
    assign_referees(table=table, referees=[bob], actor=organiser)
    return table


@pytest.fixture
def table2(round, players, carol, organiser):
    table = create_table(round=round, number=2, players=players[4:])
    assign_referees(table=table, referees=[carol], actor=organiser)
    return table
