"""A referee plays Japanese Transitional and Wilmington deals on a phone (Chromium, 360 px):
the screen shows the points from the initial points, the dealer, the deal and the dealer's
extra hands as the deals follow each other.

JT: a self-drawn win by the dealer with a riichi by another player, the dealer's extra hand, a
draw with a ready player, a faulty out, and a dealer's win on a discard. WA: two winners on one
discard, then a win below 15 points turned into a faulty out.
"""

from __future__ import annotations

import re

import pytest

from .referee_screen import choose, logged_in_context, make_cup, open_table_screen
from .test_referee_game import shoot

pytestmark = pytest.mark.browser


class Screen:
    def __init__(self, page):
        self.page = page

    def entry(self, name: str):
        entry = self.page.locator(f"#entry-{name}")
        if entry.get_attribute("open") is None:
            entry.locator("summary").click()
        return entry

    def submit(self, button) -> None:
        with self.page.expect_navigation():
            button.click()

    def points(self) -> list[int]:
        return [int(text) for text in self.page.locator("#status [data-score]").all_inner_texts()]

    def dealer(self) -> str:
        return self.page.locator("#status .ref-player.is-dealer .ref-name").inner_text()

    def heading(self) -> str:
        return " ".join(self.page.locator("#status-heading").inner_text().split())

    def message(self) -> str:
        return self.page.locator(".messages").inner_text()

    def fits(self) -> bool:
        width = self.page.evaluate("document.documentElement.scrollWidth")
        return width <= self.page.viewport_size["width"]


@pytest.fixture
def screen(chromium, live_server, request):
    make_cup(preset=request.param, seat_rotation="none", rule_settings={"wind_rounds": 1})
    context = logged_in_context(chromium, live_server, "bob", "phone")
    page, errors = open_table_screen(context, live_server)
    yield Screen(page)
    assert errors == []
    context.close()


@pytest.mark.parametrize("screen", ["japanese-transitional"], indirect=True)
def test_a_referee_plays_japanese_transitional_deals(screen):
    assert screen.points() == [8000, 8000, 8000, 8000]
    assert screen.heading().startswith("Deal 1")
    assert screen.dealer().startswith("Ann Archer")

    # Deal 1: Ann, the dealer, wins self-drawn, F = 60: 2F from each; Dora's riichi stake.
    entry = screen.entry("win")
    choose(entry, "Winner", "Ann Archer")
    choose(entry, "Discarder", "Self-drawn")
    entry.locator("input[name=value]").fill("60")
    choose(entry, "Riichi declared", "Dora Diaz")
    screen.submit(entry.get_by_role("button", name=re.compile(r"^Record deal 1")))
    assert "Deal 1: Ann Archer won by self-draw, 60 points." in screen.message()
    assert screen.points() == [8460, 7880, 7880, 7780]
    assert screen.dealer().startswith("Ann Archer")  # the dealer keeps the deal
    assert "extra hand 1" in screen.heading()
    assert screen.fits()
    shoot(screen.page, "phone-jt-extra-hand")

    # Deal 2: drawn, only Ben shows a ready hand: 600 to him, 200 from each other.
    entry = screen.entry("draw")
    choose(entry, "Ready hands shown", "Ben Baker")
    screen.submit(entry.get_by_role("button", name=re.compile(r"as drawn$")))
    assert screen.points() == [8260, 8480, 7680, 7580]
    assert screen.dealer().startswith("Ben Baker")  # a draw passes the deal
    assert screen.heading() == "Deal 3"

    # Deal 3: a faulty out by Cai: 750 to each, the dealer (Ben) double; Ben deals again.
    entry = screen.entry("faulty-out")
    choose(entry, "Offender", "Cai Chen")
    screen.submit(entry.get_by_role("button", name=re.compile(r"as a faulty out$")))
    assert screen.points() == [9010, 9980, 4680, 8330]
    assert screen.dealer().startswith("Ben Baker")

    # Deal 4: Ben, the dealer, wins on Dora's discard, F = 100: 6F from the discarder.
    entry = screen.entry("win")
    choose(entry, "Winner", "Ben Baker")
    choose(entry, "Discarder", "Dora Diaz")
    entry.locator("input[name=value]").fill("100")
    screen.submit(entry.get_by_role("button", name=re.compile(r"^Record deal 4")))
    assert screen.points() == [9010, 10580, 4680, 7730]
    assert "extra hand 1" in screen.heading()


@pytest.mark.parametrize("screen", ["wilmington-12-tile"], indirect=True)
def test_a_referee_plays_wilmington_deals(screen):
    assert screen.points() == [500, 500, 500, 500]

    # Deal 1: Ben (45) and Dora (35) both win on Cai's discard: 1.5 times each, halves up.
    entry = screen.entry("win")
    choose(entry, "Winner", "Ben Baker")
    choose(entry, "Discarder", "Cai Chen")
    entry.locator("input[name=value]").fill("45")
    entry.get_by_role("spinbutton", name="Dora Diaz").fill("35")
    screen.submit(entry.get_by_role("button", name=re.compile(r"^Record deal 1")))
    assert "Dora Diaz also won, 35 points." in screen.message()
    assert screen.points() == [500, 568, 379, 553]
    assert screen.dealer().startswith("Ben Baker")  # a non-dealer won: the deal passes

    # Deal 2: Ann declares a self-drawn win of 9 points: below 15, a faulty out.
    entry = screen.entry("win")
    choose(entry, "Winner", "Ann Archer")
    choose(entry, "Discarder", "Self-drawn")
    entry.locator("input[name=value]").fill("9")
    screen.submit(entry.get_by_role("button", name=re.compile(r"^Record deal 2")))
    assert "A win needs at least 15 points" in screen.page.locator("#entry-win").inner_text()
    screen.submit(screen.page.get_by_role("button", name="Record a faulty out instead"))
    assert screen.points() == [380, 608, 419, 593]
    assert screen.heading().startswith("Deal 2")  # play goes on
    assert screen.fits()
    screen.entry("win")
    shoot(screen.page, "phone-wa-win-entry", "#entry-win")


@pytest.mark.parametrize("screen", ["japanese-transitional"], indirect=True)
def test_under_jt_the_faulty_out_is_the_only_way_to_record_a_win_that_is_not_one(screen):
    """JT has no false win beside the deal (spec section 11): the screen offers only the faulty
    out, which ends the deal and charges the dealer's double."""
    page = screen.page
    assert page.locator("#entry-false-win").count() == 0
    assert "false win" not in page.locator("main").inner_text().lower()

    # Ann, the dealer, declares a win that is not one: 1,500 to each other player.
    entry = screen.entry("faulty-out")
    choose(entry, "Offender", "Ann Archer")
    screen.submit(entry.get_by_role("button", name=re.compile(r"as a faulty out$")))

    assert screen.points() == [3500, 9500, 9500, 9500]
    assert screen.dealer().startswith("Ben Baker")  # the dealer's own faulty out passes the deal
    assert screen.heading() == "Deal 2"
    assert screen.fits()
