"""A public live fragment drawn less than LIVE_STALE_SECONDS ago is sent again after a change
rather than drawn for each viewer (tournament.web.live.Kept), and a viewer never sees an older
sheet than the one they have."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.test import Client

from tournament.services import record_hand
from tournament.web import live

HTMX = {"HX-Request": "true"}
STALE = 15


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(settings, monkeypatch) -> Clock:
    settings.LIVE_STALE_SECONDS = STALE
    clock = Clock()
    monkeypatch.setattr(live, "_now", clock)
    return clock


@pytest.fixture
def hand(board, organiser):
    """Enter the next hand at table 1 of `board`."""
    numbers = iter(range(1, 17))
    return lambda: record_hand(
        table=board["tables"][0], number=next(numbers), result="draw", entered_by=organiser
    )


def again(url: str, answer) -> object:
    """A poll that sends back the copy `answer` gave, as the browser does."""
    return Client().get(url, headers={**HTMX, "If-None-Match": answer["ETag"]})


def test_within_the_window_a_change_leaves_the_viewers_with_their_copy(
    clock, live_urls, hand, django_assert_max_num_queries
):
    url = live_urls["table"]
    first = Client().get(url, headers=HTMX)
    hand()
    clock.now += STALE - 1

    # The tag's query and the cache's read: nothing is drawn.
    with django_assert_max_num_queries(2):
        answer = again(url, first)

    assert answer.status_code == 304
    assert answer["ETag"] == first["ETag"]


def test_a_viewer_with_an_older_copy_gets_the_kept_one_within_the_window(
    clock, live_urls, hand, django_assert_max_num_queries
):
    url = live_urls["table"]
    oldest = Client().get(url, headers=HTMX)
    hand()
    kept = Client().get(url, headers=HTMX)  # a first poll: drawn, and kept
    hand()
    clock.now += STALE - 1

    with django_assert_max_num_queries(2):
        answer = again(url, oldest)

    assert answer.status_code == 200
    assert answer["ETag"] == kept["ETag"] != oldest["ETag"]
    assert answer.content == kept.content
    assert answer["Cache-Control"] == "no-cache"


def test_after_the_window_the_change_is_drawn(clock, live_urls, hand):
    url = live_urls["table"]
    first = Client().get(url, headers=HTMX)
    hand()
    clock.now += STALE

    answer = again(url, first)

    assert answer.status_code == 200
    assert answer["ETag"] != first["ETag"]
    assert answer.content != first.content
    assert again(url, answer).status_code == 304


def test_a_first_poll_gets_the_current_version_whatever_is_kept(clock, live_urls, hand):
    """The page it polls from was just drawn from the current data: an older fragment would
    take the sheet back."""
    url = live_urls["table"]
    first = Client().get(url, headers=HTMX)
    hand()

    answer = Client().get(url, headers=HTMX)

    assert answer["ETag"] != first["ETag"]
    assert answer.content != first.content


def test_a_viewer_is_never_sent_a_copy_older_than_their_own(clock, live_urls, hand):
    url = live_urls["table"]
    older = Client().get(url, headers=HTMX)
    hand()
    newer = Client().get(url, headers=HTMX)
    hand()
    # A slower request of the older version keeps it last (as two servers may).
    caches["live"].set(
        live.Kept.key(_digest(url)),
        (older["ETag"], clock.now, older.content, {"Content-Type": older["Content-Type"]}),
    )

    answer = again(url, newer)

    assert answer.status_code == 200
    assert answer["ETag"] not in (older["ETag"], newer["ETag"])
    assert answer.content != older.content


def test_a_newer_kept_fragment_is_not_replaced_by_an_older_one_drawn_meanwhile(
    clock, live_urls, hand
):
    url = live_urls["table"]
    older = Client().get(url, headers=HTMX)
    hand()
    newer = Client().get(url, headers=HTMX)
    request = _request(url)
    digest = live.request_digest(request)
    kept = live.Kept.read(digest)
    assert kept is not None and kept.etag == newer["ETag"]

    live._keep_fragment(request, digest, older["ETag"], older, kept)

    assert live.Kept.read(digest).etag == newer["ETag"]


def test_each_table_has_its_own_kept_fragment(clock, live_urls, hand):
    first = Client().get(live_urls["table"], headers=HTMX)
    other = Client().get(live_urls["table 2"], headers=HTMX)
    hand()
    clock.now += 1

    answer = again(live_urls["table 2"], first)  # the other table's copy

    assert answer.status_code == 200
    assert answer.content == other.content


def test_no_window_draws_after_every_change(settings, live_urls, hand):
    settings.LIVE_STALE_SECONDS = 0
    url = live_urls["table"]
    first = Client().get(url, headers=HTMX)
    hand()

    answer = again(url, first)

    assert answer.status_code == 200
    assert answer["ETag"] != first["ETag"]


def _request(url: str):
    """A request at `url` as the test client's polls make it (for the key of its fragment)."""
    from django.test import RequestFactory

    request = RequestFactory().get(url, headers=HTMX)
    request.LANGUAGE_CODE = "en"
    return request


def _digest(url: str) -> str:
    return live.request_digest(_request(url))
