"""A public live fragment is rendered once per version and kept for every viewer asking for
that version (tournament.web.live.conditional_live and the "live" cache)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.cache import caches
from django.db import connection
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.urls import reverse
from factories import make_players, make_tournament

from tournament.services import DealInput, record_deal
from tournament.web import live

HTMX = {"HX-Request": "true"}


@pytest.mark.parametrize("page", ["standings", "round", "table"])
def test_a_second_viewer_of_the_same_version_gets_the_kept_fragment(
    live_urls, page, django_assert_max_num_queries
):
    first = Client().get(live_urls[page], headers=HTMX)

    # The tag's query and the cache's read; the view, which needs more, does not run.
    with django_assert_max_num_queries(2):
        second = Client().get(live_urls[page], headers=HTMX)

    assert second.status_code == 200
    assert second.content == first.content
    assert second["ETag"] == first["ETag"]
    assert second["Content-Type"] == first["Content-Type"]
    assert second["Cache-Control"] == "no-cache"
    assert "Cookie" in second["Vary"]


def test_a_change_is_shown_to_the_next_viewer_not_the_kept_fragment(live_urls, board, organiser):
    before = Client().get(live_urls["table"], headers=HTMX)

    record_deal(
        table=board["tables"][0], number=1, deal=DealInput(result="draw"), entered_by=organiser
    )
    after = Client().get(live_urls["table"], headers=HTMX)

    assert after["ETag"] != before["ETag"]
    assert after.content != before.content


def test_each_language_keeps_its_own_fragment(live_urls):
    english = Client().get(live_urls["table"], headers=HTMX)
    chinese = Client().get(live_urls["table"], headers={**HTMX, "Accept-Language": "zh-hans"})

    assert chinese.content != english.content
    assert chinese["ETag"] != english["ETag"]


def test_a_private_tournament_keeps_nothing(client, live_urls, tournament, organiser):
    tournament.public = False
    tournament.save()
    client.force_login(organiser)

    client.get(live_urls["table"], headers=HTMX)

    assert _kept_count() == 0


def test_a_whole_page_keeps_nothing(live_urls):
    Client().get(live_urls["table"])

    assert _kept_count() == 0


@pytest.mark.parametrize("personal", ["cookie", "csrf"])
def test_a_fragment_personal_beyond_its_tag_is_not_kept(board, personal):
    """A fragment that sets a cookie, or holds a CSRF token made for this visitor's cookie,
    is rendered for each visitor."""
    calls = []

    @live.conditional_live
    def view(request, slug, number, table):
        calls.append(1)
        response = HttpResponse("<p>fragment</p>")
        if personal == "cookie":
            response.set_cookie("seen", "1")
        else:
            request.META["CSRF_COOKIE_NEEDS_UPDATE"] = True
        return response

    def ask():
        request = RequestFactory().get("/", headers=HTMX)
        request.htmx = True
        request.LANGUAGE_CODE = "en"
        return view(request, "spring-cup", number=board["round"].number, table=1)

    ask()
    ask()

    assert len(calls) == 2
    assert _kept_count() == 0


def _kept_count() -> int:
    from django.db import connection

    table = caches["live"]._table  # the DatabaseCache's table
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
        return cursor.fetchone()[0]


@pytest.mark.parametrize("stale_seconds", [0, 15])
def test_a_tournament_made_anew_at_the_same_address_is_not_shown_the_old_fragment(
    organiser, settings, stale_seconds
):
    """Not even within LIVE_STALE_SECONDS, to a viewer sending back the old one's copy."""
    settings.LIVE_STALE_SECONDS = stale_seconds
    first = make_tournament(organisers=[organiser])
    make_players(first, name="Old {}")
    url = reverse("public:standings", args=[first.slug])
    old = Client().get(url, headers=HTMX)
    first.delete()

    second = make_tournament(organisers=[organiser])
    make_players(second, name="New {}")
    new = Client().get(url, headers={**HTMX, "If-None-Match": old["ETag"]})

    assert second.slug == first.slug
    assert "New 1" in new.content.decode()
    assert "Old 1" not in new.content.decode()
    assert new["ETag"] != old["ETag"]


@pytest.mark.django_db
def test_the_kept_fragments_table_writes_no_log_on_postgresql():
    """What the live cache keeps can be rendered again: its table is UNLOGGED (migration
    0021), so keeping a fragment costs no write-ahead log and no wait for the disk."""
    if connection.vendor != "postgresql":
        pytest.skip("UNLOGGED is PostgreSQL's")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relpersistence FROM pg_class WHERE relname = %s",
            [settings.CACHES["live"]["LOCATION"]],
        )
        assert cursor.fetchone() == ("u",)
