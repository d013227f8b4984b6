"""A WA referee types in the boxes a phone's on-screen keyboard would cover (Chromium at
360 x 640): a further winner's points in quick entry and the tiles in full entry; and so does
the organiser correcting a deal.

Headless Chromium has no on-screen keyboard; the keyboard is stood in for by the window
growing shorter while the box is focused, as it does on a phone whose keyboard shrinks the
page. The box tapped near the bottom of the screen must then be brought back into view, with
its label, without the page scrolling sideways.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tournament.models import Table
from tournament.services import DealInput, record_deal

from .referee_screen import choose, logged_in_context, make_cup, open_entry, open_table_screen

pytestmark = pytest.mark.browser

SCREEN = {"width": 360, "height": 640}
KEYBOARD = 300  # the height the keyboard leaves to the page


@pytest.fixture
def cup(live_server) -> Table:
    return make_cup(preset="wilmington-12-tile", seat_rotation="none")


@pytest.fixture
def phone(chromium, live_server, cup) -> Any:
    context = logged_in_context(chromium, live_server, "bob", "phone")
    page, errors = open_table_screen(context, live_server)
    page.set_viewport_size(SCREEN)
    yield page
    context.close()
    assert errors == [], "the page had script errors"


def tap_with_keyboard(page: Any, box: Any) -> None:
    """Put `box` near the bottom of the screen, tap it, and open the keyboard."""
    page.set_viewport_size(SCREEN)
    top = page.evaluate(
        "(box) => box.getBoundingClientRect().top + window.scrollY", box.element_handle()
    )
    page.evaluate("(y) => window.scrollTo(0, y)", top - (SCREEN["height"] - 70))
    assert box.bounding_box()["y"] > KEYBOARD, "the box starts where the keyboard comes"
    box.tap()
    page.set_viewport_size({"width": SCREEN["width"], "height": KEYBOARD})
    page.wait_for_timeout(400)  # the keyboard's animation, then the page's answer


def in_view(page: Any, element: Any) -> bool:
    box = element.bounding_box()
    height = page.evaluate("window.visualViewport.height")
    return box["y"] >= 0 and box["y"] + box["height"] <= height


def check(page: Any, box: Any, label: Any) -> None:
    assert box.evaluate("(box) => box === document.activeElement")
    assert in_view(page, box), box.bounding_box()
    assert in_view(page, label), label.bounding_box()
    assert box.bounding_box()["height"] >= 44
    assert page.evaluate("document.documentElement.scrollWidth") <= SCREEN["width"]


def test_the_focused_box_comes_back_into_view_above_the_keyboard(phone):
    page = phone
    win = open_entry(page, "win")
    choose(win, "Winner", "Ben Baker")
    choose(win, "Discarder", "Cai Chen")
    # Dora also wins on Cai's discard: her box is the last of the further winners'.
    also = win.locator("fieldset.ref-also")
    # The winner and the discarder are not further winners: their boxes are disabled.
    assert [also.get_by_label(name).is_disabled() for name in ("Ben Baker", "Cai Chen")] == [
        True,
        True,
    ]
    box = also.get_by_label("Dora Diaz")
    tap_with_keyboard(page, box)
    check(page, box, also.locator("label", has_text="Dora Diaz"))
    box.fill("10")
    page.screenshot(path="/tmp/refcorrect-shots/keyboard-wa-also.png")

    full = open_entry(page, "full")
    tiles = full.locator("input[name=tiles]")
    tap_with_keyboard(page, tiles)
    check(page, tiles, full.locator(f'label[for="{tiles.get_attribute("id")}"]'))
    page.screenshot(path="/tmp/refcorrect-shots/keyboard-wa-tiles.png")


def test_the_organisers_correction_keeps_its_box_in_view_too(chromium, live_server, cup):
    seats = sorted(cup.seats.select_related("player"), key=lambda seat: seat.index)
    ann, ben, cai, dora = (seat.player for seat in seats)
    record_deal(
        table=cup,
        number=1,
        deal=DealInput(result="win", winner=ben, discarder=cai, value=45),
        entered_by=cup.round.tournament.organisers.get(),
    )
    context = logged_in_context(chromium, live_server, "alice", "phone")
    page = context.new_page()
    page.goto(live_server.url + reverse("organiser:hand", args=["spring-cup", 1, 1, 1]))
    box = page.get_by_label("Dora Diaz also wins, with")
    tap_with_keyboard(page, box)
    check(page, box, page.locator(f'label[for="{box.get_attribute("id")}"]'))
    context.close()
