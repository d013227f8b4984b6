"""A JT referee picks a winning hand's tiles on a phone (Chromium, 360 px): the JT breakdown
(final score F and its patterns) appears as the hand is built, and saving records the F."""

from __future__ import annotations

from typing import Any

import pytest

from tournament.models import Deal

from .referee_screen import SIZES, choose, logged_in_context, make_cup, open_table_screen
from .test_referee_breakdown_browser import full_entry, pick

pytestmark = pytest.mark.browser

# JT-03 of the shared cases for Dora (North) on Ann's (East's) discard: F 60.
PICKS = "3m 4m 5p 6p 7p 3s 4s 5s 6s 7s 8s 9m 9m 2m".split()


@pytest.fixture
def phone(chromium, live_server) -> Any:
    make_cup(preset="japanese-transitional", seat_rotation="none", rule_settings={"wind_rounds": 1})
    context = logged_in_context(chromium, live_server, "bob", "phone")
    page, errors = open_table_screen(context, live_server)
    yield page
    context.close()
    assert errors == [], "the page had script errors"


def test_a_japanese_hand_is_scored_as_it_is_built_and_saved_at_its_final_score(phone):
    page = phone
    entry = full_entry(page)
    choose(entry, "Winner", "Dora Diaz")
    choose(entry, "Discarder", "Ann Archer")
    pick(entry, PICKS)

    breakdown = page.locator("#breakdown")
    breakdown.locator("[data-final]").filter(has_text="60").wait_for()
    assert "with North seat wind" in breakdown.inner_text()
    assert breakdown.locator('tr[data-pattern="no_points_hand"]').count() == 1
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES["phone"]["width"], "the page scrolls sideways"

    with page.expect_navigation():
        entry.get_by_role("button", name="Save deal 1").click()
    assert Deal.objects.get().value == 60
