"""A Wilmington referee on a phone (Chromium, 360 px): a hand with the joker tapped on the
keypad is scored as it is built and saved; two players win on one discard, one below the
15-point minimum: each verdict appears under that player's own tiles, and one tap records the
faulty out of the claimant below the minimum while the other's win is still saved."""

from __future__ import annotations

from typing import Any

import pytest

from tournament.models import Deal, ExtraWin, Penalty

from .referee_screen import SIZES, choose, logged_in_context, make_cup, open_table_screen
from .test_referee_breakdown_browser import full_entry, pick

pytestmark = pytest.mark.browser

# WA-22 of the shared cases: Ben (South) goes out on Cai's (West's) discard, the joker paired
# with the white dragon: 45 points.
DRAGONS = "C C C F F F 5p 6p 2m 3m 4m P J 7p".split()
# WA-01 of the shared cases, Ann (East) on the same discard: 5 points, below the minimum.
SMALL = "234m 567p 34567s J C C"


@pytest.fixture
def phone(chromium, live_server) -> Any:
    make_cup(preset="wilmington-12-tile", seat_rotation="none")
    context = logged_in_context(chromium, live_server, "bob", "phone")
    page, errors = open_table_screen(context, live_server)
    yield page
    context.close()
    assert errors == [], "the page had script errors"


def fits(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES["phone"]["width"], "the page scrolls sideways"


def swapped(page: Any, action: Any) -> None:
    """Do `action`, which sends the entry, and wait until htmx has put the answer's <main> in
    place of this one (a tap meanwhile would be dropped: the form is busy)."""
    page.evaluate("document.querySelector('main').dataset.before = 'yes'")
    action()
    page.locator("main:not([data-before])").wait_for(state="attached")


def test_a_hand_with_the_joker_tapped_on_the_keypad_is_scored_and_saved(phone):
    page = phone
    entry = full_entry(page)
    assert "J is the joker" in entry.locator("[data-joker-help]").inner_text()
    choose(entry, "Winner", "Ben Baker")
    choose(entry, "Discarder", "Cai Chen")
    pick(entry, DRAGONS[:-2])

    breakdown = page.locator("#breakdown")
    breakdown.filter(has_text="2 tiles are missing").wait_for()
    pick(entry, ["J"])
    breakdown.filter(has_text="1 tile is missing").wait_for()
    pick(entry, ["7p"])
    assert entry.locator("input[name=tiles]").input_value() == "CCCFFF 56p 234m PJ 7p"
    breakdown.locator("[data-final]").filter(has_text="45").wait_for()
    assert "scored for Ben Baker with South seat wind" in breakdown.inner_text()
    fits(page)

    with page.expect_navigation():
        entry.get_by_role("button", name="Save deal 1").click()
    hand = Deal.objects.get()
    assert (hand.winner.player.name, hand.value) == ("Ben Baker", 45)


def test_two_winners_one_below_the_minimum_each_verdict_under_his_tiles_and_one_tap(phone):
    page = phone
    entry = full_entry(page)
    choose(entry, "Winner", "Ben Baker")
    choose(entry, "Discarder", "Cai Chen")
    pick(entry, DRAGONS)
    entry.get_by_label("Ann Archer", exact=True).fill(SMALL)

    mine = page.locator("#breakdown")
    theirs = page.locator("#verdict-also_tiles_1")
    theirs.locator("[data-final]").filter(has_text="5").wait_for()
    mine.locator("[data-final]").filter(has_text="45").wait_for()
    assert "scored for Ann Archer with East seat wind" in theirs.inner_text()
    assert "Ann Archer made a faulty out" in theirs.inner_text()
    assert mine.locator("[data-false-win]").count() == 0
    # Ann's verdict sits under Ann's tiles, below the tiles box of the Further winners.
    box = entry.get_by_label("Ann Archer", exact=True).bounding_box()
    under = theirs.bounding_box()
    assert box and under and under["y"] >= box["y"] + box["height"]
    fits(page)

    # Check (the button) shows the same, from the server's page.
    swapped(page, lambda: entry.get_by_role("button", name="Check").click())
    page.locator("#verdict-also_tiles_1 [data-false-win]").wait_for()
    assert "scored for Ben Baker" in page.locator("#breakdown").inner_text()

    page.get_by_role("button", name="Record a faulty out by Ann Archer").click()
    page.locator(".message", has_text="Faulty out by Ann Archer in deal 1").wait_for()
    penalty = Penalty.objects.get()
    assert (penalty.seat.player.name, penalty.deal_number) == ("Ann Archer", 1)
    assert not Deal.objects.exists()
    entry = full_entry(page)
    assert entry.locator("input[name=tiles]").input_value() == "CCCFFF 56p 234m PJ 7p"
    assert entry.get_by_label("Ann Archer", exact=True).input_value() == ""
    page.locator("#breakdown [data-final]").filter(has_text="45").wait_for()
    fits(page)

    entry.get_by_role("button", name="Save deal 1").click()
    page.locator(".message", has_text="Ben Baker").wait_for()
    hand = Deal.objects.get()
    assert (hand.winner.player.name, hand.value) == ("Ben Baker", 45)
    assert not ExtraWin.objects.exists()
