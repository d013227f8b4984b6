"""A referee corrects the last hand in one step on a phone (Chromium at 360 x 740), with the
page's script (fetch, no reload) and without it (a plain form post).

Screenshots go to /tmp/shots-correct/ (or REF_CORRECT_SHOTS).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from tournament.models import AuditEntry, Deal

from .referee_screen import SIZES, choose, logged_in_context, make_cup, open_table_screen

pytestmark = pytest.mark.browser

PHONE = SIZES["phone"]
SHOTS = Path(os.environ.get("REF_CORRECT_SHOTS", "/tmp/shots-correct"))
PAGE_WEIGHT_LIMIT = 150_000


@pytest.fixture
def cup(live_server):
    return make_cup()


def phone(chromium: Any, live_server: Any, *, script: bool) -> Any:
    return logged_in_context(chromium, live_server, "bob", "phone", script=script)


@pytest.fixture(params=["script", "no-script"])
def screen(request, chromium, live_server, cup) -> Iterator[Any]:
    context = phone(chromium, live_server, script=request.param == "script")
    page, errors = open_table_screen(context, live_server)
    page.script = request.param == "script"
    yield page
    context.close()
    assert errors == [], "the page had script errors"


def press(page: Any, button: Any) -> None:
    """Click a form's button: the script sends it with fetch, otherwise the page navigates."""
    if page.script:
        button.click()
    else:
        with page.expect_navigation():
            button.click()


def scores(page: Any) -> list[int]:
    return [int(text) for text in page.locator("#status [data-score]").all_inner_texts()]


def shoot(page: Any, name: str, *, full: bool = True) -> None:
    """The screen as seen and (`full`) the whole page. A whole-page shot resizes the page for a
    moment and leaves its scroll to be put back on the next input: not before a click."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))
    if full:
        page.screenshot(path=str(SHOTS / f"{name}-full.png"), full_page=True)


def test_a_wrong_fan_is_corrected_in_one_step(screen, cup):
    page = screen
    # Ben wins on Cai's discard; the referee types 10 fan instead of 20 (1 flower).
    entry = page.locator("#entry-win")
    if entry.get_attribute("open") is None:
        entry.locator("summary").click()
    choose(entry, "Winner", "Ben Baker")
    choose(entry, "Discarder", "Cai Chen")
    entry.locator("input[name=fan]").fill("10")
    choose(entry, "Flowers", "1")
    press(page, entry.get_by_role("button", name=re.compile(r"^Record hand")))
    page.locator(".messages").get_by_text("Hand 1: Ben Baker won").wait_for()
    assert scores(page) == [-8, 35, -19, -8]  # value 11: 19 from Cai, 8 from each other

    correct = page.locator("#correct-last")
    correct.locator("summary", has_text="Correct hand 1").click()
    # Filled in with the hand as entered.
    assert correct.locator("input[name=winner]:checked").get_attribute("value") == "2"
    assert correct.locator("input[name=discarder]:checked").get_attribute("value") == "3"
    assert correct.locator("input[name=fan]").input_value() == "10"
    assert correct.locator("input[name=flowers]:checked").get_attribute("value") == "1"
    if page.script:  # the common values as in quick entry: a tap empties the box
        choose(correct, "Fan (without flowers)", "24")
        assert correct.locator("input[name=fan]").input_value() == ""
    correct.locator("input[name=fan]").fill("20")
    if page.script:  # and typing another value lets go of the tapped one
        assert correct.locator("input[name=fan_pick]:checked").count() == 0
    correct.locator("input[name=fan]").scroll_into_view_if_needed()
    name = f"correct-form-{'script' if page.script else 'no-script'}"
    shoot(page, name, full=False)
    press(page, correct.get_by_role("button", name="Save the correction of hand 1"))
    page.locator(".messages").get_by_text("Hand 1 is corrected").wait_for()
    # Value 21: 29 from Cai, 8 from Ann and Dora, 45 to Ben.
    assert scores(page) == [-8, 45, -29, -8]
    shoot(page, f"corrected-{'script' if page.script else 'no-script'}")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], "the page scrolls sideways"
    hand = Deal.objects.get(table=cup, number=1)
    assert (hand.fan, hand.flowers) == (20, 1)
    assert AuditEntry.objects.filter(action=AuditEntry.Action.HAND_CORRECTED).count() == 1


def test_a_drawn_hand_hides_the_win_fields(screen, cup):
    page = screen
    draw = page.locator("#entry-draw")
    if draw.get_attribute("open") is None:
        draw.locator("summary").click()
    press(page, draw.get_by_role("button", name=re.compile(r"as drawn$")))
    page.locator(".messages").get_by_text("Hand 1: drawn hand").wait_for()
    correct = page.locator("#correct-last")
    correct.locator("summary").click()
    assert correct.locator(".ref-correct-win").first.is_hidden()
    choose(correct, "Result", "Win")
    assert correct.locator(".ref-correct-win").first.is_visible()
    choose(correct, "Winner", "Dora Diaz")
    choose(correct, "Discarder", "Self-drawn")
    correct.locator("input[name=fan]").fill("8")
    press(page, correct.get_by_role("button", name="Save the correction of hand 1"))
    page.locator(".messages").get_by_text("Hand 1 is corrected").wait_for()
    assert scores(page) == [-16, -16, -16, 48]


def test_the_table_screen_with_a_hand_weighs_under_150_kb(chromium, live_server, cup):
    context = phone(chromium, live_server, script=True)
    page = context.new_page()
    url = live_server.url + reverse("referee:table", args=["spring-cup", 1, 1])
    page.goto(url)
    draw = page.locator("#entry-draw")
    draw.locator("summary").click()
    draw.get_by_role("button", name=re.compile(r"as drawn$")).click()
    page.locator(".messages").get_by_text("Hand 1: drawn hand").wait_for()
    sizes: dict[str, int] = {}

    wire: dict[str, int] = {}

    def on_response(response: Any) -> None:
        if not 300 <= response.status < 400:
            sizes[response.url] = len(response.body())
            wire[response.url] = response.request.sizes()["responseBodySize"]

    fresh = context.new_page()
    cdp = context.new_cdp_session(fresh)  # a first load: nothing from the browser's cache
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    fresh.on("response", on_response)
    fresh.goto(url, wait_until="networkidle")
    assert fresh.locator("#correct-last").count() == 1
    context.close()
    total, sent = sum(sizes.values()), sum(wire.values())
    print(
        f"\nReferee table screen with a hand to correct, first load: {sent} bytes sent,"
        f" {total} read"
    )
    # What a phone downloads: the pages are compressed when the browser accepts it.
    assert sent < PAGE_WEIGHT_LIMIT
