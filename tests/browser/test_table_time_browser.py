"""A table's own time in Chromium at 360 px: the organiser gives table 1 ten minutes more from
the live board, and the referee's table screen then counts down the table's own time.

Set TABLE_TIME_SCREENSHOTS to a folder to keep screenshots of both pages.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from tournament.models import AuditEntry, Round, Table
from tournament.services import start_clock

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("TABLE_TIME_SCREENSHOTS")


def log_in(page: Any, live_server: Any, username: str, password: str) -> None:
    page.goto(f"{live_server.url}{reverse('login')}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    with page.expect_navigation():
        page.locator("form button[type=submit]").last.click()


def fits(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{page.url} scrolls sideways ({width} px)"


def shoot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def countdown(locator: Any) -> int:
    return int(locator.get_attribute("data-countdown"))


def test_the_organiser_gives_ten_minutes_and_the_referee_sees_the_tables_time(
    phone_page, chromium, live_server, board, organiser
):
    round = board["round"]
    start_clock(round=round, actor=organiser, minutes=60)
    page = phone_page
    log_in(page, live_server, "alice", "correct-horse-42")
    page.goto(f"{live_server.url}{reverse('organiser:board', args=['spring-cup', 1])}")

    card = page.locator("#board-table-1")
    card.locator("summary", has_text="Extra time").click()
    card.get_by_label("Reason (optional)").fill("Late start")
    fits(page)
    with page.expect_navigation():
        card.get_by_role("button", name="Give table 1 10 minutes more").click()

    assert "Table 1 now has +10 min of its own" in page.locator(".messages").inner_text()
    card = page.locator("#board-table-1")
    own = card.locator(".board-own-time [data-countdown]")
    assert 69 * 60 < countdown(own) <= 70 * 60
    assert "+10 min" in card.locator(".board-own-time").inner_text()
    assert page.locator("#board-table-2 .board-own-time").count() == 0
    fits(page)
    shoot(page, "board-phone")
    assert Table.objects.get(pk=board["tables"][0].pk).extra_minutes == 10
    entry = AuditEntry.objects.get(action="table_time")
    assert entry.after["reason"] == "Late start"

    # Too much is refused on the table's card, the form open with what was typed.
    card.locator("summary", has_text="Extra time").click()
    card.get_by_label("Minutes (negative takes some back)").fill("115")
    with page.expect_navigation():
        card.get_by_role("button", name="Give", exact=True).click()
    card = page.locator("#board-table-1")
    alert = card.locator("[role=alert]")
    assert "from -60 to 120 minutes of its own in all" in alert.inner_text()
    assert card.get_by_label("Minutes (negative takes some back)").input_value() == "115"
    fits(page)
    shoot(page, "board-refused-phone")
    assert Table.objects.get(pk=board["tables"][0].pk).extra_minutes == 10

    context = chromium.new_context(viewport={"width": 360, "height": 740}, has_touch=True)
    referee = context.new_page()
    referee.set_default_timeout(10_000)
    log_in(referee, live_server, "bob", "referee-pass-42")
    referee.goto(f"{live_server.url}{reverse('referee:table', args=['spring-cup', 1, 1])}")

    clock = referee.locator(".ref-clock")
    assert "+10 min for this table" in clock.inner_text()
    timer = clock.locator("[data-countdown]")
    assert 69 * 60 < countdown(timer) <= 70 * 60
    # The browser counts down from the table's own end: more than the round's 60 minutes.
    minutes = int(timer.inner_text().split(":")[1]) if timer.inner_text().count(":") == 2 else 0
    assert timer.inner_text().startswith("1:0") and minutes >= 9
    fits(referee)
    shoot(referee, "referee-phone")
    context.close()
    assert Round.objects.get(pk=round.pk).clock_extra_minutes == 0  # the round is untouched
