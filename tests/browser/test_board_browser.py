"""The live board, the projector and the public pages in Chromium, at desktop and phone sizes.

- The confirmation flow: a referee submits a sheet while the organiser's board is open; the
  board shows it awaiting confirmation without a reload; the organiser confirms it; the public
  standings then count it and its provisional mark is gone.
- The projector: the clock counts down in the browser and the panel rotates to the seating.
- The live regions (htmx polls): a lost connection or a redirect to the login page keeps the
  content and says so; no update while the tab is hidden, one at once when it is shown; none
  while the organiser types in the board; scripts in a fragment never run.
- Every page this work touched, at both sizes, without sideways scrolling.

Set BOARD_SCREENSHOTS to a folder to keep screenshots of every page at both sizes.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone
from factories import play, submit

from tournament.models import Round, Tournament
from tournament.services import start_clock

pytestmark = pytest.mark.browser

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 360, "height": 740}}
SHOTS = os.environ.get("BOARD_SCREENSHOTS")
PASSWORD = "correct-horse-42"  # the organiser's, from tests/conftest.py


@pytest.fixture(params=list(SIZES))
def sized_page(request, chromium: Any) -> Iterator[Any]:
    """A page of each size; the test fails on any script error but those it expects (messages
    starting with one of `page.expected_errors`, such as htmx's log of a failed request)."""
    context = chromium.new_context(
        viewport=SIZES[request.param], has_touch=request.param == "phone"
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.size_name = request.param
    page.expected_errors = []
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console",
        lambda message: (
            errors.append(message.text)
            if message.type == "error" and not message.text.startswith("Failed to load resource")
            else None
        ),
    )
    yield page
    context.close()
    errors = [e for e in errors if not any(e.startswith(x) for x in page.expected_errors)]
    assert errors == [], "the page logged script errors"


def shoot(page, name: str) -> None:
    if not SHOTS:
        return
    folder = Path(SHOTS)
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}-{page.size_name}.png"), full_page=True)


def fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{page.url} scrolls sideways ({width} px)"


def log_in(page, live_server, username="alice", password=PASSWORD) -> None:
    page.goto(f"{live_server.url}{reverse('login')}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    with page.expect_navigation():
        page.locator("form button[type=submit]").last.click()


@pytest.fixture
def world(live_server, board):
    """The `board` of tests/conftest.py, served by the live server."""
    return board


def test_confirmation_flow_without_reloads(sized_page, live_server, world, organiser):
    page = sized_page
    table_one, table_two = world["tables"]
    play(table_two, 3, organiser)
    log_in(page, live_server)
    board = f"{live_server.url}{reverse('organiser:board', args=['spring-cup', 1])}"
    page.goto(f"{board}?every=2")
    card = page.locator("#board-table-1")
    assert card.locator("[data-sheet-status]").get_attribute("data-sheet-status") == "not_started"
    page.evaluate("window.boardMarker = 'still the same page'")
    fits(page)
    shoot(page, "board-start")

    # The referee plays the game out and submits the sheet (through the services).
    submit(table_one, world["referee"])
    page.wait_for_selector('#board-table-1 [data-sheet-status="submitted"]', timeout=10_000)
    assert page.evaluate("window.boardMarker") == "still the same page"  # no reload
    assert "submitted — awaiting confirmation" in card.inner_text()
    assert "16 of 16 hands" in card.inner_text()
    assert "Awaiting confirmation:" in page.locator(".board-summary").inner_text()
    fits(page)
    shoot(page, "board-submitted")

    # The public standings count confirmed games; the provisional ones show the game marked.
    public = page.context.new_page()
    standings = f"{live_server.url}{reverse('public:standings', args=['spring-cup'])}"
    public.goto(f"{standings}?provisional=1")
    ann = public.locator('tr[data-key="1"]')
    assert "includes 1 unconfirmed game" in ann.inner_text()
    public.size_name = page.size_name
    fits(public)
    shoot(public, "standings-provisional")
    public.goto(standings)
    # Rank, name, table points and score (the games column shows on wider screens only).
    assert re.search(r"\b0\s+0$", public.locator('tr[data-key="1"]').inner_text().strip())

    # The organiser confirms the sheet from the board.
    with page.expect_navigation():
        card.get_by_role("button", name="Confirm the sheet of table 1").click()
    assert "The sheet of table 1 is confirmed" in page.locator(".messages").inner_text()
    card = page.locator("#board-table-1")
    assert card.locator("[data-sheet-status]").get_attribute("data-sheet-status") == "confirmed"
    shoot(page, "board-confirmed")

    public.goto(f"{standings}?provisional=1")
    row = public.locator('tr[data-key="1"]').inner_text()
    assert "unconfirmed" not in row
    public.goto(standings)
    row = public.locator('tr[data-key="1"]').inner_text()
    # Table points, score and (on wider screens) games.
    assert re.search(r"\b4\s+768(\s+1)?$", row.strip()), row
    assert "1 game counted" in public.locator(".note").inner_text()
    fits(public)
    shoot(public, "standings")


def test_the_board_clock_and_a_refusal(sized_page, live_server, world, organiser):
    page = sized_page
    log_in(page, live_server)
    page.goto(f"{live_server.url}{reverse('organiser:board', args=['spring-cup', 1])}")
    page.fill("#clock-start-minutes", "5")
    with page.expect_navigation():
        page.get_by_role("button", name="Start the clock").click()
    assert "A round lasts 10 to 600 minutes." in page.locator("[role=alert]").inner_text()
    assert page.input_value("#clock-start-minutes") == "5"
    fits(page)
    shoot(page, "board-refused")
    page.fill("#clock-start-minutes", "90")
    with page.expect_navigation():
        page.get_by_role("button", name="Start the clock").click()
    first = page.locator(".board-remaining").inner_text()
    assert re.fullmatch(r"1:29:5\d|1:30:00", first), first
    page.wait_for_function(
        "(first) => document.querySelector('.board-remaining').textContent !== first", arg=first
    )
    with page.expect_navigation():
        page.get_by_role("button", name="Extend by 10 minutes").click()
    assert re.match(r"1:39:", page.locator(".board-remaining").inner_text())
    fits(page)
    shoot(page, "board-clock")


def test_the_projector_counts_down_and_rotates(sized_page, live_server, world, organiser):
    page = sized_page
    round = world["round"]
    start_clock(round=round, actor=organiser, minutes=60)
    Round.objects.filter(pk=round.pk).update(
        clock_started_at=timezone.now() - timedelta(minutes=50)
    )
    projector = f"{live_server.url}{reverse('public:projector', args=['spring-cup'])}"
    page.goto(f"{projector}?every=3")
    clock = page.locator("#pj-clock [data-countdown]")
    first = clock.inner_text()
    assert re.fullmatch(r"(9|10):\d\d", first), first
    # The first panel, read before waiting on the clock: the panels turn every 3 s.
    assert page.locator("[data-panel]").get_attribute("data-panel") == "standings"
    page.wait_for_function(
        "(first) => document.querySelector('#pj-clock [data-countdown]').textContent !== first",
        arg=first,
    )
    fits(page)
    shoot(page, "projector-standings")
    page.evaluate("window.projectorMarker = 1")
    page.wait_for_selector('[data-panel="seating"]', timeout=10_000)
    assert page.evaluate("window.projectorMarker") == 1  # rotated without a reload
    assert "Table 1" in page.locator("#pj-panel").inner_text()
    fits(page)
    shoot(page, "projector-seating")
    page.wait_for_selector('[data-panel="standings"]', timeout=10_000)  # and round again

    # Paused and over, as the server tells it.
    Round.objects.filter(pk=round.pk).update(clock_paused_at=timezone.now())
    page.goto(projector)
    assert "Paused" in page.locator("#pj-clock").inner_text()
    shoot(page, "projector-paused")
    Round.objects.filter(pk=round.pk).update(
        clock_paused_at=None, clock_started_at=timezone.now() - timedelta(minutes=70)
    )
    page.goto(projector)
    assert "Time is up" in page.locator("#pj-clock").inner_text()
    assert page.locator("#pj-clock [data-countdown]").inner_text() == "0:00"
    fits(page)
    shoot(page, "projector-over")


REFRESH = "htmx.trigger('#{}', 'live:refresh')"  # what a tab shown again does

# An answer handled, swapped in or not (an unchanged one is not: no afterSettle then).
ANSWERED_NOTED = """id => {
  window.answered = false;
  document.addEventListener("htmx:afterRequest", () => { window.answered = true }, {once: true});
  htmx.trigger("#" + id, "live:refresh");
}"""


def test_a_lost_connection_is_said_and_the_content_kept(sized_page, live_server, world):
    page = sized_page
    page.expected_errors += ["htmx:sendError", "htmx:afterRequest"]  # htmx logs the failure
    url = f"{live_server.url}{reverse('public:round', args=['spring-cup', 1])}"
    page.goto(url)
    before = page.locator("#round-live").inner_html()
    page.context.set_offline(True)
    page.evaluate(REFRESH.format("round-live"))
    page.wait_for_selector("#round-live[data-live-stale]")
    note = page.locator(".live-stale-note")
    assert note.is_visible() and "Connection lost" in note.inner_text()
    assert page.locator("#round-live").inner_html() == before
    shoot(page, "round-stale")
    page.context.set_offline(False)
    page.evaluate(REFRESH.format("round-live"))
    page.wait_for_selector("#round-live:not([data-live-stale])")
    assert not note.is_visible()


def test_a_redirect_to_the_login_page_is_a_failure_not_an_update(sized_page, live_server, world):
    page = sized_page
    page.expected_errors.append("Response Status Error Code 200")  # htmx logs the refusal
    log_in(page, live_server)
    page.goto(f"{live_server.url}{reverse('organiser:board', args=['spring-cup', 1])}")
    before = page.locator("#board-live").inner_html()
    page.context.clear_cookies()  # logged out: the board's address now leads to the login page
    page.evaluate(REFRESH.format("board-live"))
    page.wait_for_selector("#board-live[data-live-stale]")
    assert page.locator(".live-stale-note").is_visible()
    assert page.locator("#board-live").inner_html() == before
    assert page.locator("#board-live input[name=password]").count() == 0


def test_no_update_while_hidden_and_one_at_once_when_shown(sized_page, live_server, world):
    page = sized_page
    log_in(page, live_server)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if "board" in request.url else 0)
    page.goto(f"{live_server.url}{reverse('organiser:board', args=['spring-cup', 1])}?every=2")
    page.evaluate(
        "Object.defineProperty(document, 'hidden', {configurable: true, get: () => true})"
    )
    asked.clear()
    page.wait_for_timeout(4500)  # two updates skipped
    assert asked == []
    # At once, not at the next tick of the poll (every 2 s).
    with page.expect_request(lambda request: "board" in request.url, timeout=2000):
        page.evaluate(
            "Object.defineProperty(document, 'hidden', {configurable: true, get: () => false});"
            "document.dispatchEvent(new Event('visibilitychange'))"
        )
    assert len(asked) >= 1


def test_no_update_while_the_organiser_types_in_the_board(sized_page, live_server, world):
    page = sized_page
    log_in(page, live_server)
    page.goto(f"{live_server.url}{reverse('organiser:board', args=['spring-cup', 1])}?every=2")
    page.evaluate(
        "document.body.addEventListener('htmx:afterSwap', () => { window.updates += 1 });"
        "window.updates = 0"
    )
    field = page.locator("#clock-start-minutes")
    field.fill("45")  # and the focus stays in it
    page.wait_for_timeout(4500)
    assert field.input_value() == "45" and page.evaluate("window.updates") == 0
    page.locator("h1").click()  # typing is over: the next update replaces the board
    page.wait_for_function("() => window.updates > 0", timeout=5000)
    assert page.input_value("#clock-start-minutes") == "120"  # the tournament's round time


def test_scripts_in_a_fragment_never_run(sized_page, live_server, world):
    page = sized_page
    url = f"{live_server.url}{reverse('public:round', args=['spring-cup', 1])}"
    page.route(
        url,
        lambda route: (
            route.fulfill(
                body='<p id="arrived">new</p><script>window.ran = true</script>',
                content_type="text/html",
            )
            if route.request.headers.get("hx-request")
            else route.continue_()
        ),
    )
    page.goto(url)
    page.evaluate(REFRESH.format("round-live"))
    page.wait_for_selector("#round-live #arrived")
    assert page.evaluate("window.ran") is None
    assert page.locator("#round-live script").count() == 0


def test_every_touched_page_fits_the_screen(sized_page, live_server, world, organiser):
    page = sized_page
    table_one, table_two = world["tables"]
    play(table_one, 5, organiser)
    submit(table_two, organiser, hands=7)
    Tournament.objects.filter(pk=world["round"].tournament_id).update(public=True)
    pages = {
        "tournament": reverse("public:tournament", args=["spring-cup"]),
        "round": reverse("public:round", args=["spring-cup", 1]),
        "table": reverse("public:table", args=["spring-cup", 1, 1]),
        "table-submitted": reverse("public:table", args=["spring-cup", 1, 2]),
    }
    for name, path in pages.items():
        page.goto(f"{live_server.url}{path}")
        fits(page)
        shoot(page, name)
    log_in(page, live_server)
    organiser_pages = {
        "settings": reverse("organiser:settings", args=["spring-cup"]),
        "round-page": reverse("organiser:round", args=["spring-cup", 1]),
        "dashboard": reverse("organiser:dashboard", args=["spring-cup"]),
        "board-behind": reverse("organiser:board", args=["spring-cup", 1]),
    }
    Round.objects.filter(pk=world["round"].pk).update(
        clock_minutes=120, clock_started_at=timezone.now() - timedelta(minutes=90)
    )
    for name, path in organiser_pages.items():
        page.goto(f"{live_server.url}{path}")
        fits(page)
        shoot(page, name)
    assert "Behind the clock: 5 hands played" in page.locator("#board-table-1").inner_text()


def test_an_unchanged_fragment_is_asked_about_with_its_etag_and_kept(
    sized_page, live_server, world
):
    """The browser revalidates a live fragment itself (Cache-Control: no-cache and an ETag):
    the next poll sends If-None-Match, the server answers 304, and htmx gets the kept
    fragment, so the region neither empties nor turns stale. live.js does not swap in an
    answer identical to the one it has: the region's nodes are the same ones after it."""
    page = sized_page
    sent: list[tuple[str | None, str | None]] = []

    def note(response):  # the headers as sent, the browser's own included
        if "standings" in response.url:
            headers = response.request.all_headers()
            sent.append((headers.get("hx-request"), headers.get("if-none-match")))

    page.on("response", note)
    page.goto(f"{live_server.url}{reverse('public:standings', args=['spring-cup'])}")
    contents = []
    for _ in range(2):
        with page.expect_response(lambda response: "standings" in response.url):
            page.evaluate(ANSWERED_NOTED, "standings-live")
        page.wait_for_function("() => window.answered")
        contents.append(page.locator("#standings-live").inner_html())
        # A mark on a node of the region: gone if the region is swapped again.
        page.evaluate("() => { document.querySelector('#standings-live *').liveMark = 1 }")

    fragments = [etag for htmx, etag in sent if htmx == "true"]
    assert (
        fragments[0] is None
        and fragments[1]
        and fragments[1].removeprefix("W/").startswith('"live-')
    )
    assert "games counted" in contents[1] and contents[1] == contents[0]
    assert page.locator("#standings-live[data-live-stale]").count() == 0
    assert page.evaluate("() => document.querySelector('#standings-live *').liveMark") == 1
