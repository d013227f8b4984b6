"""The public pages on a 360 px phone screen with JavaScript turned off (Debian's Chromium).

No page may scroll sideways as a whole; wide tables scroll inside their wrapper instead.
Skips, saying why, when Chromium or the playwright package is missing.
"""

from __future__ import annotations

import pytest
from test_public_scenario import build_cup

pytestmark = pytest.mark.browser

PAGES = [
    "/t/spring-cup/",
    "/t/spring-cup/standings/",
    "/t/spring-cup/standings/?sort=-table_points",
    "/t/spring-cup/rounds/1/",
    "/t/spring-cup/rounds/2/",
    "/t/spring-cup/rounds/1/tables/1/",
    "/t/spring-cup/players/3/",
    "/",
]


@pytest.fixture
def phone(chromium):
    """A 360 px wide page with JavaScript turned off (the browser is tests/conftest.py's)."""
    context = chromium.new_context(
        viewport={"width": 360, "height": 740}, java_script_enabled=False
    )
    yield context.new_page()
    context.close()


def test_pages_fit_a_phone_and_tables_scroll_in_their_wrapper(
    phone, live_server, transactional_db, tournament, organiser
):
    build_cup(tournament, organiser)
    for path in PAGES:
        response = phone.goto(live_server.url + path)
        assert response.status == 200, path
        page_width = phone.evaluate("document.documentElement.scrollWidth")
        assert page_width <= 360, f"{path} is {page_width} px wide"
        stylesheet = phone.evaluate(
            "[...document.styleSheets].some(s => (s.href || '').endsWith('public.css'))"
        )
        assert stylesheet or path == "/", path

    phone.goto(live_server.url + "/t/spring-cup/rounds/1/tables/1/")
    wrapper = phone.locator(".score-sheet").locator("xpath=..")
    widths = wrapper.evaluate("el => [el.scrollWidth, el.clientWidth]")
    # Laid out for a phone: every player's columns in view, no sideways scrolling.
    assert widths[0] <= widths[1], "the score sheet fits the phone"
    assert phone.locator(".score-sheet").is_visible()


def test_sorting_works_without_javascript(
    phone, live_server, transactional_db, tournament, organiser
):
    build_cup(tournament, organiser)
    phone.goto(live_server.url + "/t/spring-cup/standings/")

    phone.locator('table.standings th a[href="?sort=score"]').click()
    phone.wait_for_url("**sort=score")

    keys = phone.locator("table.standings tbody tr").evaluate_all(
        "rows => rows.map(row => row.dataset.key)"
    )
    assert keys == ["4", "8", "3", "9", "5", "6", "7", "2", "1"]
