"""The "submit the game sheet" review in Chromium, at phone and desktop sizes: reloading it,
going back to it and reopening its address show it again (never a bare browser error such as
HTTP 405 or "confirm form resubmission"), and once the sheet is submitted, going back to it
lands on the table screen, which says the game has ended.

Set OUT_SCREENSHOTS to a folder to keep screenshots of the review.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tournament.services import DealInput, record_deal

from .referee_screen import SIZES, logged_in_context, make_cup, open_table_screen

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("OUT_SCREENSHOTS")
REVIEW = "Submit the game sheet of table 1?"


@pytest.mark.parametrize("size", list(SIZES))
def test_the_review_survives_reload_back_and_reopening(chromium, live_server, size):
    table = make_cup()
    referee = table.referees.get()
    for number in range(1, 17):
        record_deal(table=table, number=number, deal=DealInput(result="draw"), entered_by=referee)
    context = logged_in_context(chromium, live_server, "bob", size)
    try:
        page, errors = open_table_screen(context, live_server)
        documents: list[int] = []
        page.on(
            "response",
            lambda response: (
                documents.append(response.status)
                if response.request.resource_type == "document"
                else None
            ),
        )
        with page.expect_navigation():
            page.locator("#entry-end").get_by_role("button", name="Submit the game sheet…").click()
        assert page.locator("h1").inner_text() == REVIEW
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=f"{SHOTS}/review-{size}.png", full_page=True)
        page.reload()
        assert page.locator("h1").inner_text() == REVIEW
        page.go_back()
        assert page.locator("#entry-end").is_visible()
        page.go_forward()
        assert page.locator("h1").inner_text() == REVIEW
        reopened = context.new_page()
        reopened.goto(page.url)
        assert reopened.locator("h1").inner_text() == REVIEW
        reopened.close()

        with page.expect_navigation():
            page.get_by_role("button", name="Submit the game sheet", exact=True).click()
        assert "Game ended after 16 hands." in page.locator(".messages").inner_text()
        page.go_back()  # to the review's address: the sheet is submitted now
        page.wait_for_load_state()
        assert "This game has already ended." in page.locator(".messages").inner_text()
        assert page.locator("#entry-end").count() == 0
        assert all(status < 400 for status in documents), documents
        assert errors == []
    finally:
        context.close()
    table.refresh_from_db()
    assert table.ended_at is not None
