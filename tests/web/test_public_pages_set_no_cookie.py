"""A visitor's public pages set no cookie and hold no CSRF token, whole or updated, so nginx may
keep one copy of each for every visitor (hosting.live_cache); the language switch
needs no token (config/urls.py)."""

from __future__ import annotations

import pytest
from django.test import Client
from preset_world import PRESETS, build

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("key", PRESETS)
def test_the_pages_nginx_keeps_for_visitors_set_no_cookie(key):
    world = build(key)
    slug = world.tournament.slug
    player = world.tournament.players.order_by("key").first()
    client = Client()
    for path in (
        f"/t/{slug}/",
        f"/t/{slug}/standings/",
        f"/t/{slug}/rounds/1/",
        f"/t/{slug}/rounds/2/",
        f"/t/{slug}/rounds/1/tables/1/",
        f"/t/{slug}/players/{player.key}/",
    ):
        for headers in ({}, {"HX-Request": "true"}):
            answer = client.get(path, headers=headers)
            assert answer.status_code == 200, path
            assert not answer.cookies, (path, headers, answer.cookies)
            assert b"csrfmiddlewaretoken" not in answer.content, path


def test_the_language_is_chosen_without_a_token():
    client = Client(enforce_csrf_checks=True)

    answer = client.post("/i18n/setlang/", {"language": "zh-hans", "next": "/"})

    assert answer.status_code == 302
    assert answer.cookies["django_language"].value == "zh-hans"
