"""A referee on shaky Wi-Fi loses nothing, and nothing is recorded twice (Chromium, phone and
desktop sizes).

- The connection drops while a hand is recorded: a banner says it was not sent, the form keeps
  what was typed; back online, pressing Record again records exactly one hand.
- The request reaches the server but the answer is lost: pressing Record again is recognised
  as already recorded; still one hand.
- What was typed survives a reload of the page, and can be discarded.
- Logged out meanwhile: the login page is not shown in place of the form, which keeps everything.
- The first load of the table screen weighs under 150 kB.

Screenshots of the screens go to /tmp/shots-referee/ (or REF_OFFLINE_SHOTS).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tournament.models import Deal, Penalty, Player, Table
from tournament.services import (
    DealInput,
    assign_referees,
    create_table,
    end_game,
    record_deal,
    start_clock,
)

from .referee_screen import (
    SIZES,
    choose,
    logged_in_context,
    make_cup,
    open_entry,
    open_table_screen,
)

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("REF_OFFLINE_SHOTS", "/tmp/shots-referee"))
PAGE_WEIGHT_LIMIT = 150_000
OFFLINE = "Not sent: no connection. What you typed is kept; press Record again."
RESTORED = "Restored what you typed here before."
RESTORED_LOST = "Restored what you typed before the connection was lost."
LOGGED_OUT = "You are logged out: log in again in another tab, then press Record again."


def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.fixture
def cup(live_server):
    table = make_cup(confirmation="referee")
    start_clock(round=table.round, actor=table.round.tournament.organisers.get(), minutes=120)
    return table


@pytest.fixture(params=list(SIZES))
def screen(request, chromium, live_server, cup) -> Iterator[Any]:
    """The referee's table screen, with script errors failing the test."""
    context = logged_in_context(chromium, live_server, "bob", request.param)
    page, errors = open_table_screen(context, live_server)
    yield SimpleNamespace(page=page, context=context, size=request.param)
    context.close()
    assert errors == [], "the page had script errors"


def type_win(page: Any) -> Any:
    """Ben wins 10 fan + 1 flower on Cai's discard (19 from Cai, 8 from the others)."""
    entry = open_entry(page, "win")
    choose(entry, "Winner", "Ben Baker")
    choose(entry, "Discarder", "Cai Chen")
    entry.locator("input[name=fan]").fill("10")
    choose(entry, "Flowers", "1")
    return entry


def record_button(entry: Any) -> Any:
    return entry.get_by_role("button", name=re.compile(r"^Record hand"))


def assert_win_kept(entry: Any) -> None:
    assert entry.locator("input[name=winner]:checked").get_attribute("value") == "2"
    assert entry.locator("input[name=discarder]:checked").get_attribute("value") == "3"
    assert entry.locator("input[name=fan]").input_value() == "10"
    assert entry.locator("input[name=flowers]:checked").get_attribute("value") == "1"


def scores(page: Any) -> list[int]:
    return [int(text) for text in page.locator("#status [data-score]").all_inner_texts()]


def drafts(page: Any) -> dict[str, str]:
    return page.evaluate(
        "() => Object.fromEntries(Object.keys(localStorage)"
        ".filter(k => k.startsWith('mcr-referee-draft:')).map(k => [k, localStorage[k]]))"
    )


def test_a_dropped_connection_keeps_the_hand_and_the_retry_records_it_once(screen, cup):
    page = screen.page
    entry = type_win(page)
    key = entry.locator("input[name=submission]").input_value()
    screen.context.set_offline(True)
    record_button(entry).click()
    banner = entry.locator(".ref-send-status")
    banner.get_by_text(OFFLINE).wait_for()
    assert banner.get_attribute("aria-live") == "assertive"
    assert_win_kept(entry)
    assert entry.locator("input[name=submission]").input_value() == key
    assert Deal.objects.count() == 0
    assert list(drafts(page)) == ["mcr-referee-draft:spring-cup/1/1:win"]
    shoot(page, f"{screen.size}-offline-banner")

    screen.context.set_offline(False)
    record_button(entry).click()
    page.locator(".messages").get_by_text("Hand 1: Ben Baker won on Cai Chen’s discard").wait_for()
    assert Deal.objects.count() == 1
    assert str(Deal.objects.get().submission) == key
    assert scores(page) == [-8, 35, -19, -8]
    assert page.locator("[data-next-hand]").inner_text() == "2"
    assert drafts(page) == {}
    # The page is the table screen again: a reload posts nothing.
    assert page.url.endswith(reverse("referee:table", args=["spring-cup", 1, 1]))
    page.reload()
    assert Deal.objects.count() == 1
    shoot(page, f"{screen.size}-after-retry")


def test_an_answer_lost_after_the_hand_arrived_is_not_recorded_twice(screen, cup):
    page = screen.page
    entry = type_win(page)

    def lose_the_answer(route: Any) -> None:
        route.fetch(max_redirects=0)  # the server records the hand...
        route.abort("connectionreset")  # ...but the answer never arrives

    page.route("**/spring-cup/1/1/win/", lose_the_answer)
    record_button(entry).click()
    entry.locator(".ref-send-status").get_by_text(OFFLINE).wait_for()
    assert Deal.objects.count() == 1
    assert_win_kept(entry)
    page.unroute("**/spring-cup/1/1/win/")

    record_button(entry).click()
    page.locator(".messages").get_by_text(
        "Hand 1 was already recorded; nothing was recorded twice."
    ).wait_for()
    assert Deal.objects.count() == 1
    assert scores(page) == [-8, 35, -19, -8]
    assert drafts(page) == {}
    shoot(page, f"{screen.size}-recognised-retry")


def test_logged_out_the_form_is_kept_and_says_to_log_in_again(screen, cup):
    page = screen.page
    entry = type_win(page)
    key = entry.locator("input[name=submission]").input_value()
    screen.context.clear_cookies(name="sessionid")  # the answer is the login page
    record_button(entry).click()
    entry.locator(".ref-send-status").get_by_text(LOGGED_OUT).wait_for()
    assert_win_kept(entry)
    assert entry.locator("input[name=submission]").input_value() == key
    assert page.locator("input[name=password]").count() == 0  # not swapped in
    assert Deal.objects.count() == 0
    assert list(drafts(page)) == ["mcr-referee-draft:spring-cup/1/1:win"]


def test_a_draft_of_a_hand_recorded_after_all_is_dropped_on_reload(screen, cup):
    page = screen.page
    entry = type_win(page)
    page.route(
        "**/spring-cup/1/1/win/", lambda route: (route.fetch(max_redirects=0), route.abort())
    )
    record_button(entry).click()
    entry.locator(".ref-send-status").get_by_text(OFFLINE).wait_for()
    page.unroute("**/spring-cup/1/1/win/")
    page.reload()
    assert page.locator("[data-next-hand]").inner_text() == "2"
    assert page.locator(".ref-draft-note").count() == 0
    assert drafts(page) == {}
    assert Deal.objects.count() == 1


def test_what_was_typed_survives_a_reload_and_can_be_discarded(screen, cup):
    page = screen.page
    entry = type_win(page)
    key = entry.locator("input[name=submission]").input_value()
    penalty = open_entry(page, "penalty")
    choose(penalty, "Player", "Dora Diaz")
    penalty.locator("input[name=points]").fill("10")
    penalty.locator("input[name=reason]").fill("Slow play")
    penalty.locator("select[name=hand]").select_option("")
    page.reload()

    # Both forms come back; the one typed in last is open.
    penalty = page.locator("#entry-penalty")
    assert penalty.get_attribute("open") is not None
    assert RESTORED in penalty.locator(".ref-draft-note").inner_text()
    notes = " ".join(page.locator(".ref-draft-note").all_inner_texts())
    assert RESTORED_LOST not in notes  # no connection was lost
    assert penalty.locator("input[name=player]:checked").get_attribute("value") == "4"
    assert penalty.locator("input[name=reason]").input_value() == "Slow play"
    assert penalty.locator("select[name=hand]").input_value() == ""
    shoot(page, f"{screen.size}-restored-draft")
    entry = open_entry(page, "win")
    assert RESTORED in entry.locator(".ref-draft-note").inner_text()
    assert_win_kept(entry)
    assert entry.locator("input[name=submission]").input_value() == key

    # Discarding the win's draft empties its form; the penalty's draft stays.
    entry.get_by_role("button", name="Discard it").click()
    assert entry.locator(".ref-draft-note").count() == 0
    assert entry.locator("input[name=winner]:checked").count() == 0
    assert entry.locator("input[name=fan]").input_value() == ""
    assert entry.locator("input[name=submission]").input_value() != key
    assert list(drafts(page)) == ["mcr-referee-draft:spring-cup/1/1:penalty"]

    # The restored penalty is recorded as it was typed.
    penalty = open_entry(page, "penalty")
    penalty.get_by_role("button", name="Record the penalty").click()
    page.locator(".messages").get_by_text("Deduction for Dora Diaz").wait_for()
    recorded = Penalty.objects.get()
    assert (recorded.points, recorded.reason, recorded.deal_number) == (10, "Slow play", None)
    assert drafts(page) == {}


def test_a_draft_left_by_a_lost_connection_says_so_when_reopened(screen, cup):
    page = screen.page
    entry = type_win(page)
    screen.context.set_offline(True)
    record_button(entry).click()
    entry.locator(".ref-send-status").get_by_text(OFFLINE).wait_for()
    screen.context.set_offline(False)
    entry.locator("input[name=fan]").fill("9")  # typing on after the failure keeps the reason
    page.reload()

    entry = page.locator("#entry-win")
    assert RESTORED_LOST in entry.locator(".ref-draft-note").inner_text()
    assert entry.locator("input[name=fan]").input_value() == "9"
    assert Deal.objects.count() == 0


def test_a_refused_hand_is_shown_on_its_form_without_leaving_the_page(screen, cup):
    page = screen.page
    entry = type_win(page)
    entry.locator("input[name=fan]").fill("6")
    key = entry.locator("input[name=submission]").input_value()
    record_button(entry).click()
    entry = page.locator("#entry-win")
    entry.get_by_text("A win needs at least 8 fan").wait_for()
    assert entry.locator("input[name=fan]").input_value() == "6"
    assert entry.locator("form[data-draft] input[name=submission]").input_value() == key
    assert page.url.endswith(reverse("referee:table", args=["spring-cup", 1, 1]))
    assert Deal.objects.count() == 0
    # The focus goes to what needs correcting.
    assert page.evaluate("document.activeElement.closest('#entry-win') !== null")
    entry.locator("input[name=fan]").fill("8")
    record_button(entry).click()
    page.locator(".messages").get_by_text("Hand 1: Ben Baker won").wait_for()
    assert str(Deal.objects.get().submission) == key


def test_the_clock_counts_down_and_the_sheet_is_submitted_after_a_summary(screen, cup):
    page = screen.page
    clock = page.locator("#table-live .ref-clock-time")
    first = clock.inner_text()
    assert re.fullmatch(r"1:59:\d\d|2:00:00", first)
    page.wait_for_function(  # the next tick of the countdown, however late it comes
        "first => document.querySelector('#table-live .ref-clock-time').innerText !== first",
        arg=first,
    )
    assert clock.inner_text() != first
    for number in range(1, 16):
        record_deal(
            table=cup, number=number, deal=DealInput(result="draw"), entered_by=cup.referees.get()
        )
    page.reload()
    shoot(page, f"{screen.size}-table-clock")
    end = open_entry(page, "end")
    end.locator("input[name=time_called]").check()
    with page.expect_navigation():
        end.get_by_role("button", name="Submit the game sheet…").click()
    assert page.get_by_role("heading", name="Submit the game sheet of table 1?").is_visible()
    assert page.locator(".ref-final tbody tr").count() == 4
    shoot(page, f"{screen.size}-submit-summary")
    with page.expect_navigation():
        page.get_by_role("button", name="Submit the game sheet").click()
    status = page.locator("#status")
    assert "Submitted, awaiting confirmation" in status.inner_text()
    assert "A second referee of the tournament" in status.inner_text()
    assert Table.objects.get(pk=cup.pk).ended_at is not None
    shoot(page, f"{screen.size}-sheet-submitted")


def test_a_second_referee_confirms_the_sheet(chromium, live_server, cup):
    carol = get_user_model().objects.create_user(username="carol")
    other = create_table(
        round=cup.round,
        number=2,
        players=[
            Player.objects.create(tournament=cup.round.tournament, key=str(n), name=f"P{n}")
            for n in range(5, 9)
        ],
    )
    assign_referees(table=other, referees=[carol], actor=cup.round.tournament.organisers.get())
    for number in range(1, 17):
        record_deal(
            table=cup, number=number, deal=DealInput(result="draw"), entered_by=cup.referees.get()
        )
    end_game(table=cup, ended_by_time=False, entered_by=cup.referees.get())
    for size in ["desktop", "phone"]:  # the phone confirms, after the desktop has looked
        context = logged_in_context(chromium, live_server, "carol", size)
        page = context.new_page()
        page.goto(live_server.url + reverse("referee:index"))
        link = page.get_by_role("link", name=re.compile("game sheets? to confirm"))
        with page.expect_navigation():
            link.click()
        shoot(page, f"{size}-sheets-to-confirm")
        if size == "phone":
            with page.expect_navigation():
                page.get_by_role("button", name="Confirm table 1").click()
            page.locator(".messages").get_by_text("is confirmed").wait_for()
            shoot(page, f"{size}-sheet-confirmed")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= SIZES[size]["width"]
        context.close()
    table = Table.objects.get(pk=cup.pk)
    assert table.confirmed_by.username == "carol"


def test_the_table_screen_weighs_under_150_kb_on_first_load(chromium, live_server, cup):
    context = logged_in_context(chromium, live_server, "bob", "phone")
    page = context.new_page()
    sizes: dict[str, int] = {}

    def on_response(response: Any) -> None:
        if 300 <= response.status < 400:
            return
        sizes[response.url] = len(response.body())

    page.on("response", on_response)
    page.goto(
        live_server.url + reverse("referee:table", args=["spring-cup", 1, 1]),
        wait_until="networkidle",
    )
    context.close()
    total = sum(sizes.values())
    report = ", ".join(f"{url.rsplit('/', 2)[-1] or url}: {size}" for url, size in sizes.items())
    print(f"\nReferee table screen, first load: {total} bytes ({report})")
    assert any(url.endswith(".css") for url in sizes) and any(url.endswith(".js") for url in sizes)
    assert total < PAGE_WEIGHT_LIMIT, report


def test_a_hand_is_entered_with_the_keyboard_alone(screen, cup):
    """Tab and the arrow keys through the quick entry, Enter to record; the offline banner is
    announced (aria-live) and the focus stays on the Record button to try again."""
    page = screen.page
    page.locator("#entry-win summary").focus()
    # winner Ben, discarder Cai, 1 flower, past the fan buttons to the box for another value
    keys = ["Tab", "ArrowDown", "Tab", "ArrowDown", "Tab", "ArrowRight", "Tab", "Tab"]
    for key in keys:
        page.keyboard.press(key)
    page.keyboard.type("10")
    page.keyboard.press("Tab")  # the Record button, beside the box
    focused = page.evaluate("document.activeElement.textContent.trim()")
    assert focused == "Record hand 1"
    assert_win_kept(page.locator("#entry-win"))

    screen.context.set_offline(True)
    page.keyboard.press("Enter")
    page.locator("#entry-win .ref-send-status").get_by_text(OFFLINE).wait_for()
    assert page.evaluate("document.activeElement.textContent.trim()") == "Record hand 1"
    screen.context.set_offline(False)
    page.keyboard.press("Enter")
    page.locator(".messages").get_by_text("Hand 1: Ben Baker won").wait_for()
    assert Deal.objects.count() == 1
    # After recording, the focus is on the message saying what was recorded.
    assert page.evaluate("document.activeElement.classList.contains('messages')")
