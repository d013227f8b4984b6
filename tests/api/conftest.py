"""Fixtures of the API tests: a JSON client with a token, and a tournament in play.

The tournament (from tests/conftest.py) is "spring-cup", public, organised by alice. Round 1
is in play with two tables: players 1-4 at table 1 (E, S, W, N), refereed by bob, and players
5-8 at table 2, refereed by carol.

Every answer the test client receives is checked against the OpenAPI document that the API
generates: its status must be documented for that operation and its body must fit the
documented schema (checked with jsonschema). Request bodies that succeed must fit the documented
request schema too.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any
from urllib.parse import quote

import pytest
from django.test import Client
from django.urls import Resolver404, resolve
from factories import make_user as new_user
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from tournament.infra.tokens import issue_token
from tournament.services import assign_referees

DOCUMENT = "urn:openapi"


@cache
def document() -> dict:
    """The OpenAPI document, as served."""
    return Client().get("/api/openapi.json").json()


@cache
def _registry() -> Registry:
    resource = Resource.from_contents(document(), default_specification=DRAFT202012)
    return Registry().with_resource(DOCUMENT, resource)


def schema_errors(pointer: list[str], value: Any) -> list[str]:
    """What is wrong with `value` under the schema at `pointer` (the keys leading to it from
    the document's root); an empty list when it fits."""
    escaped = "/".join(key.replace("~", "~0").replace("/", "~1") for key in pointer)
    schema = {"$ref": f"{DOCUMENT}#/{quote(escaped, safe='/~')}"}
    validator = Draft202012Validator(schema, registry=_registry())
    return [
        f"{'.'.join(map(str, error.absolute_path)) or '$'}: {error.message}"
        for error in validator.iter_errors(value)
    ]


def openapi_path(url: str) -> str | None:
    """The OpenAPI path template of a served URL, such as /api/tournaments/{slug}."""
    try:
        match = resolve(url.split("?")[0])
    except Resolver404:
        return None
    if match.url_name == "unknown":  # the JSON 404 for addresses that are not endpoints
        return None
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", match.route)


def exchange_errors(method: str, url: str, request: Any, status: int, answer: Any) -> list[str]:
    """What in this request and answer differs from the OpenAPI document."""
    template = openapi_path(url)
    if template is None:
        return []
    operation = document()["paths"].get(template, {}).get(method.lower())
    if operation is None:
        return [] if status == 405 else [f"{method} {template} is not documented"]
    if str(status) not in operation["responses"]:
        return [f"{method} {template}: status {status} is not documented"]
    at = ["paths", template, method.lower()]
    content = ["content", "application/json", "schema"]
    errors = schema_errors([*at, "responses", str(status), *content], answer)
    if 200 <= status < 300 and isinstance(request, dict) and "requestBody" in operation:
        errors += [f"request {e}" for e in schema_errors([*at, "requestBody", *content], request)]
    return [f"{method} {template} {status}: {error}" for error in errors]


class Api:
    """A test client speaking JSON, as `user` through an API token (or anonymous).

    Every exchange is checked against the OpenAPI document.
    """

    def __init__(self, secret: str | None = None, client: Client | None = None) -> None:
        self.client = client or Client()
        self.headers = {"Authorization": f"Bearer {secret}"} if secret else {}

    def call(self, method: str, url: str, body: Any = None, raw: str | bytes | None = None):
        data = raw if raw is not None else ("" if body is None else json.dumps(body))
        response = self.client.generic(
            method, url, data=data, content_type="application/json", headers=self.headers
        )
        if method != "HEAD":
            assert response["Content-Type"] == "application/json"
            problems = exchange_errors(method, url, body, response.status_code, response.json())
            assert not problems, problems
        return response

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


@pytest.fixture
def openapi() -> dict:
    """The OpenAPI document, as served."""
    return document()


@pytest.fixture
def make_user(db):
    def make(username: str):
        return new_user(username, password="pass-word-42")

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
def api_from(db):
    """An Api client sending the token `secret` from the address `address`; `meta` are more
    request headers, as Django's test client names them (HTTP_X_FORWARDED_FOR=...)."""

    def make(secret: str | None, address: str, **meta: Any) -> Api:
        return Api(secret, Client(REMOTE_ADDR=address, **meta))

    return make


@pytest.fixture
def anonymous(db) -> Api:
    return Api()


@pytest.fixture
def as_organiser(api_as, organiser) -> Api:
    return api_as(organiser)


@pytest.fixture
def bob(referee):
    """bob, the `referee` of tests/conftest.py: here he referees table 1."""
    return referee


@pytest.fixture
def carol(other_referee):
    """carol, the `other_referee` of tests/conftest.py, who referees table 2."""
    return other_referee


@pytest.fixture
def as_bob(api_as, bob) -> Api:
    return api_as(bob)


@pytest.fixture
def table(table, bob, organiser):
    """Table 1 of tests/conftest.py, refereed by bob."""
    assign_referees(table=table, referees=[bob], actor=organiser)
    return table
