"""A NUL byte in any segment of any page's address, as an organiser, a referee and nobody
(issue 34): the application itself answers 404, whatever is in front of it. nginx refuses
such addresses first, but a bare gunicorn passes them on, and a NUL reaching PostgreSQL in a
lookup was a 500 (psycopg's DataError)."""

from __future__ import annotations

import pytest
from attack_kit import tally
from site_map import fill, page_routes

ROUTES = [(name, route) for name, route in page_routes() if name != ":logout"]
VALUES = {"slug": "spring-cup", "key": "1", "number": 1, "round": 1, "table": 1, "hand": 1,
          "job": 1, "penalty": 1, "token": 1, "username": "bob", "registration": 1,
          "secret": "a-secret", "call": 1, "action": "accept"}  # fmt: skip


def cases():
    for caller in ("organiser", "referee", "anonymous"):
        for name, route in ROUTES:
            yield pytest.param(caller, route, id=f"{name}-{caller}")


@pytest.mark.django_db
@pytest.mark.parametrize("caller,route", list(cases()))
def test_a_nul_in_any_segment_of_a_page_address_is_404(client, arena, caller, route):
    if caller != "anonymous":
        client.force_login(getattr(arena, caller))
    client.raise_request_exception = False
    url = fill(route, VALUES)
    segments = url.strip("/").split("/")
    failures = []
    for index in range(len(segments)):
        for method in ("get", "post"):
            broken = list(segments)
            broken[index] += "%00"
            response = getattr(client, method)("/" + "/".join(broken) + "/")
            tally(f"NUL paths {caller}", response.status_code)
            if response.status_code != 404:
                failures.append((method, "/".join(broken), response.status_code))
    assert failures == []
