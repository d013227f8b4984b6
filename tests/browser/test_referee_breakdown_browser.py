"""The full entry's breakdown appears as the tiles are picked, without pressing Check.

On a 360 x 740 phone (and once at 1280 x 800 for the screenshots): the referee picks the tiles
of a known hand, the total and the fan appear; changing the winner rescores it for the new
winner's seat wind; a late answer to an older request does not replace a newer one; offline,
a small note says the breakdown is unavailable. Nothing is recorded. Screenshots go to
REF_BREAKDOWN_SHOTS (default /tmp/shots-breakdown).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tournament.models import Deal, Penalty

from .referee_screen import SIZES, choose, logged_in_context, make_cup, open_table_screen

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("REF_BREAKDOWN_SHOTS", "/tmp/shots-breakdown"))
# "345p 78s [EEE] [PPP] 11m 6s": 12 fan for East in hand 1 (All Types 6, Dragon Pung 2,
# Prevalent Wind 2, Seat Wind 2), 10 for anyone else (no Seat Wind).
PICKS = "3p 4p 5p 7s 8s [ E E E ] [ P P P ] 1m 1m 6s".split()
OFFLINE_NOTE = "Breakdown unavailable offline."


@pytest.fixture
def cup(live_server):
    return make_cup()


def open_page(chromium: Any, live_server: Any, size: str) -> tuple[Any, Any, list[str]]:
    context = logged_in_context(chromium, live_server, "bob", size)
    page, errors = open_table_screen(context, live_server)
    return context, page, errors


@pytest.fixture
def phone(chromium, live_server, cup) -> Iterator[tuple[Any, Any]]:
    context, page, errors = open_page(chromium, live_server, "phone")
    yield context, page
    context.close()
    assert errors == [], "the page had script errors"


def full_entry(page: Any) -> Any:
    entry = page.locator("#entry-full")
    if entry.get_attribute("open") is None:
        entry.locator("summary").click()
    return entry


def pick(entry: Any, codes: list[str]) -> None:
    for code in codes:
        if code in "[]":
            entry.locator(f'#tile-picker [data-key="{code}"]').click()
        else:
            entry.locator(f'#tile-picker .tile[data-tile="{code}"]').click()


def build_hand(page: Any, winner: str = "Ann Archer") -> Any:
    entry = full_entry(page)
    choose(entry, "Winner", winner)
    choose(entry, "Discarder", "Cai Chen")
    pick(entry, PICKS)
    assert entry.locator("input[name=tiles]").input_value() == "345p 78s [EEE] [PPP] 11m 6s"
    return entry


def total(page: Any) -> Any:
    return page.locator("#breakdown [data-total]")


def test_the_breakdown_appears_as_the_tiles_are_picked_and_follows_the_winner(phone):
    _context, page = phone
    url = page.url
    entry = build_hand(page)
    breakdown = page.locator("#breakdown")
    assert breakdown.get_attribute("aria-live") == "polite"
    total(page).filter(has_text="12").wait_for()
    assert "scored for Ann Archer with East seat wind" in breakdown.inner_text()
    assert breakdown.locator('tr[data-fan="门风刻"] .fan-name').inner_text() == "Seat Wind"
    assert "All Types" in breakdown.inner_text()

    choose(entry, "Winner", "Ben Baker")
    total(page).filter(has_text="10").wait_for()
    assert "scored for Ben Baker with South seat wind" in breakdown.inner_text()
    assert breakdown.locator('tr[data-fan="门风刻"]').count() == 0

    choose(entry, "Flowers", "2")
    total(page).filter(has_text="12").wait_for()

    # Nothing pressed, nothing recorded, no page load.
    assert page.url == url
    assert Deal.objects.count() == 0 and Penalty.objects.count() == 0
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES["phone"]["width"], "the page scrolls sideways"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#breakdown").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "phone-breakdown.png"))
    page.screenshot(path=str(SHOTS / "phone-breakdown-full.png"), full_page=True)


def test_an_unfinished_hand_says_how_many_tiles_are_missing_and_a_small_hand_the_false_win(
    phone,
):
    _context, page = phone
    entry = full_entry(page)
    choose(entry, "Winner", "Cai Chen")
    choose(entry, "Discarder", "Ann Archer")
    pick(entry, ["1m", "2m", "3m"])
    page.locator("#breakdown", has_text="11 tiles are missing").wait_for()
    assert page.locator("#breakdown .verdict--error").count() == 0
    assert total(page).count() == 0
    pick(entry, ["4m"])
    page.locator("#breakdown", has_text="10 tiles are missing").wait_for()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#breakdown").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "phone-tiles-missing.png"))
    # 2 fan to West in hand 1: offered as a false win, and Save is hidden meanwhile.
    entry.locator("input[name=tiles]").fill("234m 456p 78s [WWW] 99s 6s")
    page.locator("#breakdown [data-false-win]").wait_for()
    assert entry.get_by_role("button", name="Record a false win by Cai Chen").is_visible()
    assert not entry.get_by_role("button", name="Save hand 1").is_visible()
    entry.locator("input[name=tiles]").fill("345p 78s [EEE] [PPP] 11m 6s")
    total(page).filter(has_text="10").wait_for()
    assert entry.get_by_role("button", name="Save hand 1").is_visible()
    assert Deal.objects.count() == 0 and Penalty.objects.count() == 0


@pytest.mark.parametrize("size", list(SIZES))
def test_the_pickers_buttons_are_at_least_44_px(chromium, live_server, cup, size):
    context, page, errors = open_page(chromium, live_server, size)
    try:
        full_entry(page)
        boxes = page.eval_on_selector_all(
            "#tile-picker button",
            "buttons => buttons.map(b => [b.textContent.trim(), b.getBoundingClientRect().width,"
            " b.getBoundingClientRect().height])",
        )
        width = page.evaluate("document.documentElement.scrollWidth")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.locator("#tile-picker").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"{size}-picker.png"))
    finally:
        context.close()
    assert len(boxes) >= 40  # the six keys and the tiles
    small = [box for box in boxes if box[1] < 44 or box[2] < 44]
    assert small == [], small
    assert width <= SIZES[size]["width"]
    assert errors == []


def test_a_late_answer_to_an_older_request_is_ignored(phone):
    _context, page = phone
    held: list[Any] = []

    def hold_first(route: Any) -> None:
        if not held:
            held.append(route)  # answered later, after the newer request
        else:
            route.continue_()

    page.route("**/full/", hold_first)  # the breakdown region posts to the full entry
    build_hand(page)  # Ann: 12, held back
    entry = full_entry(page)
    page.wait_for_function("() => document.querySelector('#breakdown').getAttribute('aria-busy')")
    choose(entry, "Winner", "Ben Baker")  # 10, answered at once
    total(page).filter(has_text="10").wait_for()
    try:
        held[0].continue_()
    except Exception:  # noqa: BLE001 - the script may have aborted the older request already
        pass
    page.wait_for_timeout(800)
    assert total(page).inner_text() == "10"
    assert "Ben Baker" in page.locator("#breakdown").inner_text()


def test_offline_the_breakdown_is_unavailable_and_check_still_works(phone):
    context, page = phone
    entry = build_hand(page)
    total(page).filter(has_text="12").wait_for()
    context.set_offline(True)
    choose(entry, "Winner", "Ben Baker")
    page.locator("#breakdown .ref-breakdown-note", has_text=OFFLINE_NOTE).wait_for()
    assert page.locator("#breakdown[data-state=offline]").count() == 1
    assert entry.locator("input[name=tiles]").input_value() == "345p 78s [EEE] [PPP] 11m 6s"
    context.set_offline(False)
    entry.get_by_role("button", name="Check").click()
    total(page).filter(has_text="10").wait_for()
    assert Deal.objects.count() == 0


def test_desktop_screenshot(chromium, live_server, cup):
    context, page, errors = open_page(chromium, live_server, "desktop")
    build_hand(page)
    total(page).filter(has_text="12").wait_for()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#breakdown").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "desktop-breakdown.png"))
    page.screenshot(path=str(SHOTS / "desktop-breakdown-full.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    context.close()
    assert width <= SIZES["desktop"]["width"]
    assert errors == []
