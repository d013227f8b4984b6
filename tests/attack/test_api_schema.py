"""Requests generated from the OpenAPI document, as an organiser, a referee and nobody.

schemathesis reads the document the application serves and makes, for every operation, valid
and invalid path parameters, query strings, headers and bodies; each request goes to the Django
application in-process (WSGI, no server). Path parameters are drawn half the time from the
arena's real tournament, players, rounds, tables, hands and penalties, so that requests reach
past the 404 of an unknown slug into the endpoints' own checks.

Every answer must be: no 5xx, a status and body the document gives for the operation, JSON;
and a refused request (4xx) writes nothing.
"""

from __future__ import annotations

import pytest
import schemathesis
from attack_kit import counts, examples, long_run, tally
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from config.wsgi import application

schema = schemathesis.openapi.from_wsgi("/api/openapi.json", application)
# The coverage phase (schemathesis's boundary values of every parameter, some thousands of
# requests) belongs to the longer run, scripts/attack.
schema.config.phases.coverage.enabled = long_run()

# The arena's names (tests/attack/conftest.py): what a path parameter may be besides noise.
KNOWN = {
    "slug": ["spring-cup"],
    "key": ["1", "4", "5", "9"],
    "number": [1, 2, 3],
    "table": [1, 2, 3],
    "hand": [1, 2, 3],
    "penalty": [],  # filled with the arena's penalty id, which the database chose
}
KNOWN_IDS: dict[str, list[int]] = {}


@schema.hook
def flatmap_path_parameters(context, path_parameters):
    """Half the time, each path parameter is replaced by a name the arena knows."""
    if not isinstance(path_parameters, dict):
        return st.just(path_parameters)
    known = {**KNOWN, **KNOWN_IDS}
    parts = {
        name: st.one_of(st.just(value), st.sampled_from(known[name]))
        if known.get(name)
        else st.just(value)
        for name, value in path_parameters.items()
    }
    return st.fixed_dictionaries(parts)


@pytest.fixture(params=["organiser", "referee", "anonymous"])
def caller(request, arena, wsgi_requests_keep_the_test_transaction):
    KNOWN_IDS["penalty"] = [arena.penalty.pk, arena.penalty.pk + 1000]
    secret = arena.secrets[request.param]
    # Plain answers: the in-process transport hands gzip-compressed bodies over undecoded.
    headers = {"Accept-Encoding": "identity"}
    if secret:
        headers["Authorization"] = f"Bearer {secret}"
    return request.param, headers


@pytest.mark.django_db
@schema.parametrize()
@settings(
    max_examples=examples(6),
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.function_scoped_fixture,  # the arena is shared by the examples, on purpose
    ],
)
def test_api(case, caller):
    name, headers = caller
    before = counts()
    response = case.call(headers=headers)
    tally(f"api {name}", response.status_code)
    case.validate_response(
        response,
        checks=[
            not_a_server_error,
            status_code_conformance,
            content_type_conformance,
            response_schema_conformance,
        ],
        headers=headers,
    )
    if 400 <= response.status_code < 500:
        assert counts() == before, f"{case.method} {case.formatted_path} {response.status_code}"
