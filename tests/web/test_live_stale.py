"""A public live fragment drawn less than LIVE_STALE_SECONDS ago is sent again after a change
rather than drawn for each viewer (tournament.web.live.Kept), and a viewer never sees an older
sheet than the one they have."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from tournament.services import DealInput, record_deal
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
    return lambda: record_deal(
        table=board["tables"][0],
        number=next(numbers),
        deal=DealInput(result="draw"),
        entered_by=organiser,
    )


@pytest.fixture
def changed(clock, live_urls, hand):
    """`changed(seconds)`: a viewer's first poll of table 1, then a hand entered there and
    `seconds` gone by; the address and that first answer."""

    def change(seconds: float) -> tuple[str, Any]:
        url = live_urls["table"]
        first = Client().get(url, headers=HTMX)
        hand()
        clock.now += seconds
        return url, first

    return change


def again(url: str, answer) -> object:
    """A poll that sends back the copy `answer` gave, as the browser does."""
    return Client().get(url, headers={**HTMX, "If-None-Match": answer["ETag"]})


def test_within_the_window_a_change_leaves_the_viewers_with_their_copy(
    django_assert_max_num_queries, changed
):
    url, first = changed(STALE - 1)

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


def test_after_the_window_the_change_is_drawn(changed):
    url, first = changed(STALE)

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


# --- While the machine is busy ---------------------------------------------------------------

BUSY = 45


@pytest.fixture
def busy(settings, monkeypatch):
    """LIVE_BUSY_SECONDS set; `busy.now` says whether the machine is busy (it is, at first)."""
    settings.LIVE_BUSY_SECONDS = BUSY

    class Busy:
        now = True

    monkeypatch.setattr(live, "busy", lambda: Busy.now)
    return Busy


def test_while_busy_a_change_leaves_the_viewers_with_their_copy_longer(clock, busy, changed):
    url, first = changed(BUSY - 1)

    assert again(url, first).status_code == 304

    clock.now += 1
    answer = again(url, first)
    assert answer.status_code == 200
    assert answer["ETag"] != first["ETag"]


def test_once_no_longer_busy_the_usual_window_counts_again(busy, changed):
    url, first = changed(STALE)
    busy.now = False

    assert again(url, first).status_code == 200


def test_a_busy_window_shorter_than_the_usual_one_changes_nothing(busy, settings, changed):
    settings.LIVE_BUSY_SECONDS = STALE - 5
    url, first = changed(STALE - 1)

    assert again(url, first).status_code == 304


# --- How long a cache in front may keep an answer --------------------------------------------


def test_a_drawn_fragment_may_be_kept_in_front_for_the_whole_window(clock, live_urls, hand):
    answer = Client().get(live_urls["table"], headers=HTMX)

    assert answer["X-Accel-Expires"] == str(STALE)


def test_a_kept_older_version_may_be_kept_in_front_for_what_is_left_of_it(clock, live_urls, hand):
    url = live_urls["table"]
    oldest = Client().get(url, headers=HTMX)
    hand()
    Client().get(url, headers=HTMX)  # drawn and kept
    hand()
    clock.now += 10

    answer = again(url, oldest)

    assert answer.status_code == 200
    assert answer["X-Accel-Expires"] == str(STALE - 10)


def test_the_current_version_kept_may_be_kept_in_front_for_the_whole_window(clock, live_urls, hand):
    url = live_urls["table"]
    Client().get(url, headers=HTMX)
    clock.now += 10

    answer = Client().get(url, headers=HTMX)  # the kept fragment, still the current version

    assert answer.status_code == 200
    assert answer["X-Accel-Expires"] == str(STALE)


def test_while_busy_an_answer_may_be_kept_in_front_longer(clock, busy, live_urls):
    assert Client().get(live_urls["table"], headers=HTMX)["X-Accel-Expires"] == str(BUSY)


def test_with_no_window_nothing_is_kept_in_front(settings, live_urls):
    settings.LIVE_STALE_SECONDS = 0

    assert Client().get(live_urls["table"], headers=HTMX)["X-Accel-Expires"] == "0"


def test_a_private_page_says_nothing_to_a_cache_in_front(board, client, organiser):
    client.force_login(organiser)
    url = reverse("organiser:board", args=[board["round"].tournament.slug, 1])
    answer = client.get(url, headers=HTMX)

    assert answer.status_code == 200
    assert "ETag" in answer  # answered by answer_live, not shared
    assert "X-Accel-Expires" not in answer


# --- What busy means ---------------------------------------------------------------------------

PRESSURE = (
    "some avg10={} avg60=10.00 avg300=3.00 total=1234567\n"
    "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
)


@pytest.mark.parametrize(
    ("share", "expected"), [("25.00", True), ("87.59", True), ("24.99", False)]
)
def test_busy_when_some_task_waited_for_a_processor_a_quarter_of_the_last_10_s(
    tmp_path, monkeypatch, share, expected
):
    pressure = tmp_path / "cpu"
    pressure.write_text(PRESSURE.format(share))
    monkeypatch.setattr(live, "CPU_PRESSURE", pressure)
    monkeypatch.setattr(live.os, "getloadavg", lambda: (99.0, 0.0, 0.0))  # not read

    assert live.busy() is expected


@pytest.mark.parametrize(
    ("load", "processors", "expected"),
    [(2.0, 2, True), (1.99, 2, False), (3.5, 2, True), (0.5, 1, False), (1.0, 1, True)],
)
def test_without_pressure_information_busy_when_the_load_average_reaches_one_a_processor(
    tmp_path, monkeypatch, load, processors, expected
):
    monkeypatch.setattr(live, "CPU_PRESSURE", tmp_path / "absent")
    monkeypatch.setattr(live.os, "getloadavg", lambda: (load, 0.0, 0.0))
    monkeypatch.setattr(live.os, "sched_getaffinity", lambda pid: set(range(processors)))

    assert live.busy() is expected


def test_pressure_information_it_cannot_read_falls_back_to_the_load_average(tmp_path, monkeypatch):
    pressure = tmp_path / "cpu"
    pressure.write_text("something else\n")
    monkeypatch.setattr(live, "CPU_PRESSURE", pressure)
    monkeypatch.setattr(live.os, "getloadavg", lambda: (4.0, 0.0, 0.0))
    monkeypatch.setattr(live.os, "sched_getaffinity", lambda pid: {0, 1})

    assert live.busy() is True


def test_not_busy_where_the_system_keeps_neither(tmp_path, monkeypatch):
    def no_load() -> tuple[float, float, float]:
        raise OSError("no load average")

    monkeypatch.setattr(live, "CPU_PRESSURE", tmp_path / "absent")
    monkeypatch.setattr(live.os, "getloadavg", no_load)

    assert live.busy() is False


# --- nginx filling again what it keeps ----------------------------------------------------------

REFILL = {**HTMX, "X-Live-Refill": "1"}


def test_nginx_filling_again_within_the_window_gets_the_last_fragment_drawn(
    django_assert_max_num_queries, changed
):
    """nginx passes on no copy of the viewer's, but every copy it gave out is no newer than
    the last fragment drawn (hosting.live_cache sends X-Live-Refill)."""
    url, first = changed(STALE - 4)

    with django_assert_max_num_queries(2):
        answer = Client().get(url, headers=REFILL)

    assert answer.status_code == 200
    assert answer["ETag"] == first["ETag"]
    assert answer.content == first.content
    assert answer["X-Accel-Expires"] == "4"  # what is left of the window


def test_nginx_filling_again_after_the_window_gets_the_change_drawn(changed):
    url, first = changed(STALE)

    answer = Client().get(url, headers=REFILL)

    assert answer["ETag"] != first["ETag"]
    assert answer["X-Accel-Expires"] == str(STALE)


def test_while_busy_nginx_filling_again_gets_the_last_fragment_longer(busy, changed):
    url, first = changed(STALE + 5)  # what nginx kept before the machine was busy has run out

    answer = Client().get(url, headers=REFILL)

    assert answer["ETag"] == first["ETag"]
    assert answer["X-Accel-Expires"] == str(BUSY - STALE - 5)
