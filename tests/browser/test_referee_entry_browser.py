"""Entering hands quickly on a phone (Chromium at 360 x 740) and at 1280 px, measured.

- After a recording the screen shows the message and the next entry: the winner's buttons are
  in view without a swipe, with the script (htmx) and without it (the redirect's #next).
- The common fan values are one tap; another value is typed in a box beside the Record button,
  so that a phone's keyboard below the box leaves the button in view.
- Every button of the entries and of the tile picker is at least 44 px both ways.
- A player who declared a false win in the hand is shown as unable to win it.
- A hand number taken meanwhile by another referee redraws the table for the next hand, with a
  reload button.

Screenshots go to /tmp/shots-entry/ (or REF_ENTRY_SHOTS).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tournament.models import Deal
from tournament.services import DealInput, record_deal, record_false_win

from .referee_screen import SIZES, choose, logged_in_context, make_cup, open_table_screen

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("REF_ENTRY_SHOTS", "/tmp/shots-entry"))
TARGET = 44  # px: the smallest target a finger hits reliably


@pytest.fixture
def cup(live_server):
    return make_cup()


@pytest.fixture
def open_screen(chromium, live_server, cup) -> Iterator[Any]:
    """Opens table 1's screen as bob at a size, with or without the script."""
    contexts: list[Any] = []
    pages: list[tuple[Any, list[str]]] = []

    def opener(size: str, *, script: bool = True) -> Any:
        context = logged_in_context(chromium, live_server, "bob", size, script=script)
        contexts.append(context)
        page, errors = open_table_screen(context, live_server)
        page.script = script
        pages.append((page, errors))
        return page

    yield opener
    for _page, errors in pages:
        assert errors == [], "the page had script errors"
    for context in contexts:
        context.close()


def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def press(page: Any, button: Any) -> None:
    """Click a form's button: the script sends it with htmx, otherwise the page navigates."""
    if page.script:
        button.click()
    else:
        with page.expect_navigation():
            button.click()


def in_view(page: Any, locator: Any) -> bool:
    """Whether the element's box lies wholly inside the viewport."""
    box = locator.bounding_box()
    size = page.viewport_size
    return (  # within half a pixel: boxes have fractional edges
        box is not None
        and box["y"] >= -0.5
        and box["y"] + box["height"] <= size["height"] + 0.5
        and box["x"] >= -0.5
        and box["x"] + box["width"] <= size["width"] + 0.5
    )


def boxes(locator: Any) -> list[dict[str, float]]:
    return [item.bounding_box() for item in locator.all()]


def small(found: list[dict[str, float]]) -> list[tuple[float, float]]:
    return [
        (round(box["width"], 1), round(box["height"], 1))
        for box in found
        if box["width"] < TARGET or box["height"] < TARGET
    ]


def record_button(scope: Any) -> Any:
    return scope.get_by_role("button", name=re.compile(r"^Record hand \d+$"))


# --- After a recording -------------------------------------------------------------------------


@pytest.mark.parametrize("script", [True, False], ids=["script", "no-script"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_after_recording_the_next_entrys_winner_buttons_are_in_view(open_screen, size, script):
    page = open_screen(size, script=script)
    entry = page.locator("#entry-win")
    choose(entry, "Winner", "Ben Baker")
    choose(entry, "Discarder", "Cai Chen")
    choose(entry, "Fan (without flowers)", "12")
    press(page, record_button(entry))
    message = page.locator(".messages").get_by_text("Hand 1: Ben Baker won on Cai Chen’s discard")
    message.wait_for()
    page.locator("[data-next-hand]", has_text="2").wait_for()
    page.wait_for_function("document.activeElement !== document.body || !window.htmx")
    shoot(page, f"after-recording-{size}-{'script' if script else 'no-script'}")
    assert in_view(page, message)
    winners = page.locator("#entry-win fieldset.ref-choices").first.locator("label.ref-choice")
    assert winners.count() == 4
    for label in winners.all():
        assert in_view(page, label), label.bounding_box()
    assert page.locator("#entry-win").get_attribute("open") is not None
    assert Deal.objects.get().fan == 12
    # The correction of that hand: its buttons too are 44 px at least
    correct = page.locator("#correct-last")
    correct.locator("summary").click()
    labels = correct.locator("label.ref-choice")
    # result, winner, discarder, flowers and the common fan values, as in quick entry
    assert labels.count() == 2 + 4 + 5 + 9 + 14
    assert small(boxes(labels)) == []
    # its fan box beside its Save button, as in quick entry
    save = correct.get_by_role("button", name="Save the correction of hand 1")
    typed, button = correct.locator("input[name=fan]").bounding_box(), save.bounding_box()
    assert typed["x"] + typed["width"] <= button["x"]
    assert abs((typed["y"] + typed["height"]) - (button["y"] + button["height"])) <= 2
    shoot(correct, f"correction-{size}-{'script' if script else 'no-script'}")
    choose(correct, "Result", "Drawn hand")  # no fan: the button takes the row
    assert not correct.locator("input[name=fan]").is_visible()
    form = correct.locator("form").bounding_box()
    assert save.bounding_box()["width"] > form["width"] - 40


# --- Button sizes -----------------------------------------------------------------------------


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_entry_and_picker_buttons_are_at_least_44_px(open_screen, size):
    page = open_screen(size)
    quick = page.locator("#entry-win")
    choices = quick.locator("label.ref-choice")
    assert choices.count() == 4 + 5 + 9 + 14  # winner, discarder, flowers, fan
    assert small(boxes(choices)) == []
    assert small(boxes(record_button(quick))) == []
    shoot(page.locator("#entry-win"), f"quick-entry-{size}")

    full = page.locator("#entry-full")
    full.locator("summary").click()
    picker = page.locator("#tile-picker")
    picker.wait_for()
    buttons = picker.locator("button")
    assert buttons.count() == 6 + 34  # the keys and every kind of tile
    assert small(boxes(buttons)) == []
    flowers = full.locator("fieldset.ref-choices", has=page.locator("legend:text-is('Flowers')"))
    assert small(boxes(flowers.locator("label.ref-choice"))) == []
    assert small(boxes(full.locator("label.ref-choice"))) == []
    picker.screenshot(path=str(SHOTS / f"picker-{size}.png"))
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES[size]["width"], "the page scrolls sideways"


# --- The fan: tapped, or typed beside the Record button ---------------------------------------


def test_the_record_button_stays_in_view_while_the_fan_is_typed(open_screen):
    page = open_screen("phone")
    entry = page.locator("#entry-win")
    box = entry.locator("input[name=fan]")
    button = record_button(entry)
    typed, record = box.bounding_box(), button.bounding_box()
    # one row: side by side, bottoms level
    assert typed["x"] + typed["width"] <= record["x"]
    assert abs((typed["y"] + typed["height"]) - (record["y"] + record["height"])) <= 2

    # The phone's keyboard: the page's visible height shrinks to about 400 px and the browser
    # brings the focused box into view just above the keyboard.
    box.focus()
    page.set_viewport_size({"width": 360, "height": 400})
    box.evaluate("element => element.scrollIntoView({block: 'end'})")
    shoot(page, "fan-typed-with-keyboard-phone")
    assert in_view(page, box)
    assert in_view(page, button)


@pytest.mark.parametrize("preset", ["japanese-transitional", "wilmington-12-tile"])
def test_the_points_box_sits_beside_the_record_button(open_screen, cup, preset):
    """JT and WA values are too spread out for a row of buttons: they are typed, beside the
    Record button as the MCR fan is."""
    tournament = cup.round.tournament
    tournament.preset = preset
    tournament.seat_rotation = "none"
    tournament.save()
    page = open_screen("phone")
    entry = page.locator("#entry-win")
    assert entry.locator("input[name=fan_pick]").count() == 0
    box = entry.locator("input[name=value]")
    button = entry.get_by_role("button", name="Record deal 1")
    typed, record = box.bounding_box(), button.bounding_box()
    assert typed["x"] + typed["width"] <= record["x"]
    assert abs((typed["y"] + typed["height"]) - (record["y"] + record["height"])) <= 2
    assert small([typed, record]) == []
    shoot(entry, f"points-row-{preset}-phone")
    choose(entry, "Winner", "Ben Baker")
    choose(entry, "Discarder", "Self-drawn")
    box.fill("60")
    box.press("Enter")  # the keyboard's Go key records
    page.locator(".messages").get_by_text("Deal 1").wait_for()
    assert Deal.objects.get().value == 60


def test_a_tapped_fan_empties_the_box_and_a_typed_one_lets_the_tap_go(open_screen):
    page = open_screen("phone")
    entry = page.locator("#entry-win")
    box = entry.locator("input[name=fan]")
    box.fill("17")
    choose(entry, "Fan (without flowers)", "24")
    assert box.input_value() == ""
    assert entry.locator("input[name=fan_pick]:checked").get_attribute("value") == "24"
    box.fill("17")
    assert entry.locator("input[name=fan_pick]:checked").count() == 0
    choose(entry, "Winner", "Ann Archer")
    choose(entry, "Discarder", "Self-drawn")
    press(page, record_button(entry))
    page.locator(".messages").get_by_text("17 fan").wait_for()
    assert Deal.objects.get().fan == 17


def test_without_the_script_a_tap_and_a_different_typed_fan_are_refused_and_kept(open_screen):
    page = open_screen("phone", script=False)
    entry = page.locator("#entry-win")
    choose(entry, "Winner", "Ann Archer")
    choose(entry, "Discarder", "Self-drawn")
    choose(entry, "Fan (without flowers)", "24")
    entry.locator("input[name=fan]").fill("17")
    press(page, record_button(entry))
    error = page.get_by_text("24 fan is chosen and 17 typed: keep only one of them.")
    assert in_view(page, error)
    shoot(page, "fan-both-refused-phone")
    assert page.locator("#entry-win input[name=fan]").input_value() == "17"
    assert not Deal.objects.exists()


# --- A false win: that player cannot win the hand ---------------------------------------------


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_offender_of_a_false_win_is_shown_unable_to_win(chromium, live_server, cup, size):
    record_false_win(
        table=cup,
        number=1,
        offender=next(seat.player for seat in cup.seats.all() if seat.player.name == "Cai Chen"),
        invalid_hand=False,
        entered_by=get_user_model().objects.get(username="bob"),
    )
    context = logged_in_context(chromium, live_server, "bob", size)
    page, errors = open_table_screen(context, live_server)
    entry = page.locator("#entry-win")
    winners = entry.locator("fieldset.ref-choices").first
    cai = winners.locator("label.ref-choice", has_text="Cai Chen")
    assert "false win: cannot win this hand" in cai.inner_text()
    assert cai.locator("input").is_disabled()
    assert winners.locator("input:disabled").count() == 1
    assert small(boxes(winners.locator("label.ref-choice"))) == []
    cai.click(force=True)  # a tap on it chooses nothing
    assert winners.locator("input:checked").count() == 0
    winners.screenshot(path=str(SHOTS / f"false-win-winner-{size}.png"))
    # Cai may still discard
    assert not entry.locator("#win_discarder_2").is_disabled()
    context.close()
    assert errors == []


# --- Another referee took the hand number -----------------------------------------------------


@pytest.mark.parametrize("script", [True, False], ids=["script", "no-script"])
def test_a_hand_taken_by_another_referee_redraws_the_table_with_a_reload_button(
    open_screen, cup, script
):
    page = open_screen("phone", script=script)
    entry = page.locator("#entry-win")
    choose(entry, "Winner", "Ben Baker")
    choose(entry, "Discarder", "Cai Chen")
    choose(entry, "Fan (without flowers)", "10")
    # meanwhile the organiser enters hand 1 from another device
    record_deal(
        table=cup,
        number=1,
        deal=DealInput(result="draw"),
        entered_by=get_user_model().objects.get(username="alice"),
    )
    press(page, record_button(entry))
    message = page.locator(".messages .conflict")
    message.get_by_text("Hand 1 at table 1 was already entered by alice").wait_for()
    assert "What you entered was not recorded." in message.inner_text()
    page.locator("[data-next-hand]", has_text="2").wait_for()
    shoot(page, f"conflict-{'script' if script else 'no-script'}-phone")
    reload = message.get_by_role("link", name="Reload the table")
    assert in_view(page, reload)
    assert small(boxes(reload)) == []
    # the form is for hand 2 now, empty
    assert page.locator("#entry-win input[name=number]").input_value() == "2"
    assert page.locator("#entry-win input:checked").count() == 1  # the flowers' 0 only
    assert record_button(page.locator("#entry-win")).inner_text() == "Record hand 2"
    with page.expect_navigation():
        reload.click()
    assert page.locator(".messages").count() == 0
    # nothing of the refused entry comes back as a draft
    assert page.locator(".ref-draft-note").count() == 0
    assert Deal.objects.get().result == "draw"
