"""The public pages as players see them on a 360 px phone and a 1280 px screen (Debian's
Chromium): the standings without sideways scrolling on a phone, finding oneself by name
without JavaScript, the next table at the top of one's page, the score sheet's scroll hint.

Set PUBLIC_SCREENSHOTS to a folder to keep a screenshot of every page at both sizes.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
from test_public_scenario import build_cup  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 800}}
SHOTS = os.environ.get("PUBLIC_SCREENSHOTS")
SLUG = "spring-cup"


@pytest.fixture(params=list(SIZES))
def screen(request, chromium):
    """A page of one of SIZES, JavaScript off (everything here works without it)."""
    context = chromium.new_context(viewport=SIZES[request.param], java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.size_name = request.param
    yield page
    context.close()


def shot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}-{page.size_name}.png"), full_page=True)


def widths(page, selector: str = "document.documentElement") -> list[int]:
    """[scrollWidth, clientWidth] of the element the script expression `selector` gives."""
    script = f"(() => {{ const e = {selector}; return [e.scrollWidth, e.clientWidth]; }})()"
    return page.evaluate(script)


def test_standings_show_rank_name_points_and_score_without_sideways_scrolling(
    screen, live_server, tournament, organiser
):
    build_cup(tournament, organiser)
    screen.goto(f"{live_server.url}/t/{SLUG}/standings/")
    shot(screen, "standings")

    page_width, visible = widths(screen)
    assert page_width <= visible, f"the page scrolls sideways: {page_width} > {visible}"
    table_width, wrapper = widths(screen, "document.querySelector('.standings').parentElement")
    assert table_width <= wrapper, f"the standings scroll sideways: {table_width} > {wrapper}"
    headings = screen.locator("table.standings thead th")
    shown = [
        " ".join(headings.nth(index).inner_text().split())
        for index in range(headings.count())
        if headings.nth(index).is_visible()
    ]
    if screen.size_name == "phone":
        assert shown == ["Rank", "Name", "Table points", "Score"]
        assert screen.get_by_text("turn the phone sideways").is_visible()
    else:
        assert len(shown) == 8
        assert not screen.get_by_text("turn the phone sideways").is_visible()
    first = screen.locator("table.standings tbody tr").first
    assert first.locator("td").nth(0).inner_text() == "1"
    assert first.locator("td.name").inner_text() == "Ann Archer"


def test_a_player_finds_themselves_by_name_and_sees_their_table(
    screen, live_server, tournament, organiser
):
    build_cup(tournament, organiser)
    screen.goto(f"{live_server.url}/t/{SLUG}/standings/")

    screen.get_by_label("Find a player by name or key").fill("eve")
    screen.get_by_role("button", name="Find").click()
    screen.wait_for_url("**q=eve")
    shot(screen, "standings-search")
    rows = screen.locator("table.standings tbody tr")
    assert rows.count() == 1
    assert screen.get_by_text("1 player found for “eve”.").is_visible()

    rows.first.get_by_role("link", name="Eve Evans").click()
    screen.wait_for_url("**/players/5/")
    shot(screen, "player")
    heading = screen.locator(".next-table h2")
    assert heading.inner_text() == "Your table now: table 1, seat South"
    # At the top: above the fold on a phone.
    assert heading.bounding_box()["y"] < SIZES["phone"]["height"]
    page_width, visible = widths(screen)
    assert page_width <= visible
    # Each of the page's tables that scrolls sideways says so just above it.
    for wrap in screen.locator(
        "#seating .table-wrap, #games .table-wrap, #hands .table-wrap"
    ).all():
        scrolls = wrap.evaluate("e => e.scrollWidth > e.clientWidth")
        hint = wrap.locator("xpath=preceding-sibling::p[contains(@class, 'scroll-hint')][1]")
        assert not scrolls or hint.is_visible()
    if screen.size_name == "desktop":
        assert screen.locator(".scroll-hint-phone").first.is_hidden()


def test_players_list_search_and_score_sheet_hint(screen, live_server, tournament, organiser):
    build_cup(tournament, organiser)
    screen.goto(f"{live_server.url}/t/{SLUG}/")
    screen.get_by_label("Find a player by name or key").fill("gus")
    screen.get_by_role("button", name="Find").click()
    screen.wait_for_url("**q=gus**")
    shot(screen, "tournament-search")
    assert screen.locator("table.players tbody tr").count() == 1

    screen.goto(f"{live_server.url}/t/{SLUG}/rounds/1/tables/1/")
    shot(screen, "table")
    page_width, visible = widths(screen)
    assert page_width <= visible
    result, around = widths(screen, "document.querySelector('table.results').parentElement")
    assert result <= around, "the game's result fits without scrolling sideways"
    sheet, wrapper = widths(screen, "document.querySelector('.score-sheet').parentElement")
    hint = screen.locator(".scroll-hint")
    # On a phone the sheet is laid out to fit (tests/browser/test_touch_targets_browser.py);
    # it needs no hint to scroll there, nor on a desktop.
    assert sheet <= wrapper
    assert not hint.is_visible()


def test_statistics_and_projector_seating_by_name(screen, live_server, tournament, organiser):
    build_cup(tournament, organiser)
    screen.goto(f"{live_server.url}/t/{SLUG}/statistics/players/1/")
    shot(screen, "stats-player")
    assert widths(screen)[0] <= widths(screen)[1]
    screen.goto(f"{live_server.url}/t/{SLUG}/statistics/")
    shot(screen, "stats")
    screen.goto(f"{live_server.url}/t/{SLUG}/projector/?panel=seating&page=1&seating=name")
    shot(screen, "projector-by-name")
    names = screen.locator(".pj-by-name .pj-name").all_inner_texts()
    assert names == sorted(names, key=str.casefold) and len(names) == 8


def test_a_round_in_pages_finds_your_table_without_sideways_scrolling(
    screen, live_server, tournament, organiser, monkeypatch
):
    from tournament.web import round_list

    monkeypatch.setattr(round_list, "TABLES_PER_PAGE", 1)
    monkeypatch.setattr(round_list, "NAMES_PER_PAGE", 3)
    build_cup(tournament, organiser)
    screen.goto(f"{live_server.url}/t/{SLUG}/rounds/2/")
    shot(screen, "round-paged")
    assert screen.locator("section.board").count() == 1

    screen.fill("#find-table", "fay")
    screen.click("form.find-player button")
    screen.wait_for_url("**q=fay**")
    screen.wait_for_selector("#found table.by-name")
    shot(screen, "round-found")
    found = screen.locator("#found table.by-name tbody tr")
    assert found.count() == 1
    assert found.first.inner_text().split("\t")[:2] == ["Fay Fox 6", "2"]
    page_width, visible = widths(screen)
    assert page_width <= visible, f"the page scrolls sideways: {page_width} > {visible}"

    found.first.locator("a").nth(1).click()
    screen.wait_for_url(lambda url: url.endswith("?page=2#table-2"))
    assert screen.locator("#table-2").is_visible()
