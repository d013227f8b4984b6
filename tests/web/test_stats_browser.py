"""The statistics pages and a printout in Chromium at 360 px and at desktop width.

The demo tournament is played on to three rounds, so that the charts have something to draw.
The pages must not scroll sideways, the charts must be drawn at a readable size, and a
printout printed (print media) must hide the site's menus and put one game sheet on each page.
Set OUT_SCREENSHOTS to a folder to keep screenshots of every page looked at.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.urls import reverse

from tournament.management.demo import DEMO_PASSWORD, load_demo_data
from tournament.models import Round
from tournament.services import (
    DealInput,
    confirm_submitted_games,
    end_game,
    record_deal,
    seat_round,
    set_round_status,
)

pytestmark = pytest.mark.browser

SIZES = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 900}}
SHOTS = os.environ.get("OUT_SCREENSHOTS")


def shoot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


@pytest.fixture
def demo(transactional_db):
    """The demo tournament with round 2 ended by time and round 3 played for four hands, every
    game sheet confirmed."""
    data = load_demo_data()
    organiser, tournament = data.organiser, data.tournament
    two = tournament.rounds.get(number=2)
    for table in two.tables.filter(ended_at__isnull=True):
        end_game(table=table, ended_by_time=True, entered_by=organiser)
    confirm_submitted_games(round=two, confirmed_by=organiser)
    set_round_status(round=two, status=Round.Status.FINISHED, actor=organiser)
    three = tournament.rounds.get(number=3)
    seat_round(round=three, actor=organiser, seed=3)
    set_round_status(round=three, status=Round.Status.SEATED, actor=organiser)
    set_round_status(round=three, status=Round.Status.PLAYING, actor=organiser)
    for table in three.tables.all():
        players = [s.player for s in sorted(table.seats.all(), key=lambda s: s.index)]
        for number, (winner, discarder, fan) in enumerate(
            [(0, 1, 8), (2, None, 12), (3, 0, 24), (1, 2, 9)], start=1
        ):
            record_deal(
                table=table,
                number=number,
                deal=DealInput(
                    result="win",
                    winner=players[winner],
                    discarder=None if discarder is None else players[discarder],
                    fan=fan,
                ),
                entered_by=organiser,
            )
        end_game(table=table, ended_by_time=True, entered_by=organiser)
    confirm_submitted_games(round=three, confirmed_by=organiser)
    return data


def open_page(chromium, size: str):
    context = chromium.new_context(viewport=SIZES[size])
    page = context.new_page()
    page.set_default_timeout(10_000)
    return context, page


def log_in(page, live_server, username: str) -> None:
    page.goto(live_server.url + reverse("login"))
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_load_state()


def no_sideways_scroll(page) -> bool:
    return page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_statistics_pages_fit_the_screen_and_draw_their_charts(live_server, chromium, demo, size):
    context, page = open_page(chromium, size)
    slug = demo.tournament.slug
    try:
        page.goto(live_server.url + reverse("stats:tournament", kwargs={"slug": slug}))
        assert page.locator("h1").inner_text().startswith("Demo Open")
        assert no_sideways_scroll(page)
        charts = page.locator("svg.chart")
        assert charts.count() == 2
        for index in range(2):
            box = charts.nth(index).bounding_box()
            assert box["width"] >= 300 and box["height"] >= 150
        assert page.locator("table.chart-numbers").count() == 1  # the histogram's numbers
        shoot(page, f"stats-tournament-{size}")

        page.click("table.biggest tbody tr:first-child td:nth-child(2) a")
        page.wait_for_url("**/statistics/players/**")
        assert no_sideways_scroll(page)
        assert page.locator("svg.chart").count() == 2
        rounds = page.locator("table.progress tbody tr")
        assert rounds.count() == 3
        # the charts are readable at this size: axis text at least 9 px high on the screen
        size_px = page.evaluate(
            "Math.min(...[...document.querySelectorAll('svg.chart text')]"
            ".map(t => t.getBoundingClientRect().height))"
        )
        assert size_px >= 9
        shoot(page, f"stats-player-{size}")
    finally:
        context.close()


def test_game_sheets_print_one_table_per_page_without_menus(live_server, chromium, demo):
    context, page = open_page(chromium, "desktop")
    try:
        log_in(page, live_server, demo.organiser.get_username())
        url = reverse("outputs:sheets", kwargs={"slug": demo.tournament.slug, "number": 3})
        page.goto(live_server.url + url)
        assert page.locator("section.sheet").count() == 4
        assert page.locator(".site-header").is_visible()
        shoot(page, "sheets-screen-desktop")
        page.emulate_media(media="print")
        assert not page.locator(".site-header").is_visible()
        assert not page.locator(".print-tools").is_visible()
        breaks = page.evaluate(
            "[...document.querySelectorAll('section.sheet')]"
            ".map(s => getComputedStyle(s).breakAfter)"
        )
        assert breaks == ["page", "page", "page", "auto"]
        page.set_viewport_size({"width": 718, "height": 1047})  # A4 less the page margins
        assert no_sideways_scroll(page)
        shoot(page, "sheets-print")
        pdf = page.pdf(format="A4")
        assert len(re.findall(rb"/Type\s*/Page(?!s)", pdf)) == 4  # one A4 page per table
    finally:
        context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_printouts_fit_the_screen(live_server, chromium, demo, size):
    context, page = open_page(chromium, size)
    slug = demo.tournament.slug
    try:
        log_in(page, live_server, demo.organiser.get_username())
        for name, kwargs in [
            ("outputs:index", {}),
            ("outputs:ema", {}),
            ("outputs:standings", {}),
            ("outputs:player_seating", {}),
            ("outputs:round_seating", {"number": 3}),
        ]:
            page.goto(live_server.url + reverse(name, kwargs={"slug": slug, **kwargs}))
            assert page.locator("h1").count() == 1
            assert no_sideways_scroll(page), name
            shoot(page, f"{name.split(':')[1]}-{size}")
    finally:
        context.close()
