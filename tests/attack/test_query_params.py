"""Hostile query strings on every page of the site, as an organiser, a referee and nobody.

Every page of the URL configuration is read with each query parameter that a page of the site
reads (paging, sorting, the provisional standings, the projector's panel and pace, the seating
preview's job, the referee screen's correction) set, all at once, to a malformed value: a
negative, a huge or a non-ASCII digit, text, NUL, an empty value. No answer may be a 5xx.
(The standings' file format, `_export`, is tried on its own: an unknown one is refused first.)
"""

from __future__ import annotations

import pytest
from attack_kit import examples, tally
from site_map import fill, page_routes

PARAMETERS = ["per_page", "page", "sort", "provisional", "every", "panel", "job", "correct",
              "hand", "next", "language"]  # fmt: skip
VALUES = ["-1", "²", "9" * 30, "", "\x00", "1e30", "0", "-sort", "abc", "٣", "1.5", "%", "x" * 3000]
ROUTES = [(name, route) for name, route in page_routes() if name != ":logout"]


def cases():
    for caller in ("organiser", "referee", "anonymous"):
        for name, route in ROUTES:
            yield pytest.param(caller, route, id=f"{name}-{caller}")


@pytest.mark.django_db
@pytest.mark.parametrize("caller,route", list(cases()))
def test_malformed_query_strings_never_fail(client, arena, caller, route):
    if caller != "anonymous":
        client.force_login(getattr(arena, caller))
    client.raise_request_exception = False  # a 500 is counted and reported, with its input
    values = {"slug": "spring-cup", "key": "1", "number": 1, "round": 1, "table": 1, "hand": 1,
              "job": 1, "penalty": arena.penalty.pk, "token": 1}  # fmt: skip
    url = fill(route, values)
    failures = []
    for value in VALUES[: examples(3)]:  # the suite tries three; scripts/attack more
        for query in ({name: value for name in PARAMETERS}, {"_export": value}):
            response = client.get(url, query)
            tally(f"queries {caller}", response.status_code)
            if response.status_code >= 500:
                failures.append((url, query))
    assert failures == []
