"""A tournament whose planned rounds are all played, in Chromium at phone and desktop sizes: the
dashboard offers finishing it (not another round), the finished round's board shows its clock
stopped (no countdown running), and a referee's header has no "Organise" link.

Set OUT_SCREENSHOTS to a folder to keep screenshots of the pages.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.urls import reverse
from factories import make_players, make_user, seated_round, submit

from tournament.models import Tournament
from tournament.services import confirm_game, set_round_status, start_clock

from .referee_screen import SIZES, logged_in_context

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("OUT_SCREENSHOTS")


def shoot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def fits(page) -> bool:
    return page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


@pytest.mark.parametrize("size", list(SIZES))
def test_a_finished_tournament_offers_finishing_and_a_stopped_clock(
    chromium, live_server, tournament, organiser, size
):
    Tournament.objects.filter(pk=tournament.pk).update(planned_rounds=1)
    players = make_players(tournament, count=4)
    round, tables = seated_round(tournament, organiser, [players])
    start_clock(round=round, actor=organiser)
    tables[0].referees.add(make_user("bob"))
    confirm_game(table=submit(tables[0], organiser, hands=3), confirmed_by=organiser)
    set_round_status(round=round, status="finished", actor=organiser)

    context = logged_in_context(chromium, live_server, "alice", size)
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto(live_server.url + reverse("organiser:dashboard", args=[tournament.slug]))
        finish = page.locator("section.org-finish")
        assert finish.get_by_role("heading", name="Finish the tournament").is_visible()
        assert finish.get_by_role("link", name="Send the EMA results file").is_visible()
        assert page.get_by_role("button", name="Create round 2").is_hidden()
        assert fits(page)
        shoot(page, f"dashboard-finished-{size}")

        page.goto(live_server.url + reverse("organiser:board", args=[tournament.slug, 1]))
        clock = page.locator("#clock")
        assert "The round is finished: its clock is stopped." in clock.inner_text()
        assert clock.locator("[data-countdown-running]").count() == 0
        assert clock.get_by_role("button", name="Pause").count() == 0
        assert fits(page)
        shoot(page, f"board-finished-{size}")
    finally:
        context.close()

    context = logged_in_context(chromium, live_server, "bob", size)
    try:
        page = context.new_page()
        page.goto(live_server.url + reverse("referee:index"))
        nav = page.locator(".site-nav")
        assert nav.get_by_role("link", name="My tables").is_visible()
        assert nav.get_by_role("link", name="Organise").count() == 0
        shoot(page, f"referee-header-{size}")
    finally:
        context.close()
