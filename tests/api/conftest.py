"""Fixtures of the API tests: a JSON client with a token, and a tournament in play.

The tournament (from tests/conftest.py) is "spring-cup", public, organised by alice. Round 1
is in play with two tables: players 1-4 at table 1 (E, S, W, N), refereed by bob, and players
5-8 at table 2, refereed by carol.

Every answer the test client receives is checked against the OpenAPI document: its status
must be documented for that operation and its body must fit the documented schema. Request
bodies that succeed must fit the documented request schema too.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import Resolver404, resolve
from factories import make_user as new_user

from scoring.openapi import served_schema
from tournament.services import assign_referees
from tournament.tokens import issue_token

# --- A small JSON Schema check, enough for the hand-written OpenAPI document ----------------

_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def resolve_ref(document: dict, ref: str) -> dict:
    node: Any = document
    for part in ref.removeprefix("#/").split("/"):
        node = node[part]
    return node


def schema_errors(document: dict, value: Any, schema: dict, path: str = "$") -> list[str]:
    """What is wrong with `value` under `schema` (an empty list when it fits)."""
    if "$ref" in schema:
        target = resolve_ref(document, schema["$ref"])
        schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    if "oneOf" in schema:
        fits = [s for s in schema["oneOf"] if not schema_errors(document, value, s, path)]
        if len(fits) != 1:
            return [f"{path}: {value!r} fits {len(fits)} of the oneOf choices"]
    errors: list[str] = []
    if "const" in schema and value != schema["const"]:
        errors.append(f"{path}: {value!r} is not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {value!r} not in {schema['enum']}")
    kind = schema.get("type")
    if kind and not _TYPES[kind](value):
        return [*errors, f"{path}: {value!r} is not {kind}"]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append(f"{path}: {value} < {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            errors.append(f"{path}: {value} > {schema['maximum']}")
    if isinstance(value, str) and len(value) > schema.get("maxLength", len(value)):
        errors.append(f"{path}: longer than {schema['maxLength']}")
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        errors += [
            f"{path}: missing {key}" for key in schema.get("required", []) if key not in value
        ]
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in properties:
                errors += schema_errors(document, item, properties[key], f"{path}.{key}")
            elif extra is False:
                errors.append(f"{path}: undocumented field {key}")
            elif isinstance(extra, dict):
                errors += schema_errors(document, item, extra, f"{path}.{key}")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0) or len(value) > schema.get(
            "maxItems", len(value)
        ):
            errors.append(f"{path}: {len(value)} items")
        if "items" in schema:
            for index, item in enumerate(value):
                errors += schema_errors(document, item, schema["items"], f"{path}[{index}]")
    return errors


def openapi_path(url: str) -> str | None:
    """The OpenAPI path template of a served URL, such as /api/tournaments/{slug}."""
    try:
        match = resolve(url.split("?")[0])
    except Resolver404:
        return None
    if match.url_name == "unknown":  # the JSON 404 for addresses that are not endpoints
        return None
    route = match.route
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route)


def exchange_errors(method: str, url: str, request: Any, status: int, answer: Any) -> list[str]:
    """What in this request and answer differs from the OpenAPI document."""
    document = served_schema()
    template = openapi_path(url)
    if template is None:
        return []
    operation = document["paths"].get(template, {}).get(method.lower())
    if operation is None:
        return [] if status == 405 else [f"{method} {template} is not documented"]
    response = operation["responses"].get(str(status))
    if response is None:
        return [f"{method} {template}: status {status} is not documented"]
    if "$ref" in response:
        response = resolve_ref(document, response["$ref"])
    schema = response["content"]["application/json"]["schema"]
    errors = schema_errors(document, answer, schema)
    if 200 <= status < 300 and isinstance(request, dict) and "requestBody" in operation:
        request_schema = operation["requestBody"]["content"]["application/json"]["schema"]
        errors += [f"request {e}" for e in schema_errors(document, request, request_schema)]
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
