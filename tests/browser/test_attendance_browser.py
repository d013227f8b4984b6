"""The attendance page in Chromium at 360 and 1280 px: the proposal's substitutes ticked,
closing check-in in one submit, a refused late arrival with its message, nothing wider than
the screen and every checkbox a finger can hit."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone
from factories import make_players

from tournament.models import Player
from tournament.services import add_player

from .referee_screen import SIZES, logged_in_context

pytestmark = pytest.mark.browser


def fits(page) -> bool:
    return page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


@pytest.mark.parametrize("size", list(SIZES))
def test_closing_check_in_and_a_late_arrival(chromium, live_server, tournament, organiser, size):
    tournament.planned_rounds = 3
    tournament.save()
    make_players(tournament, 8)
    add_player(tournament=tournament, key="S1", name="Sam Stand-in", substitute=True)
    Player.objects.exclude(key="8").update(checked_in_at=timezone.now())
    url = live_server.url + reverse("organiser:attendance", args=[tournament.slug])

    context = logged_in_context(chromium, live_server, "alice", size)
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto(url)
        assert fits(page)
        box = page.get_by_label("S1 Sam Stand-in")
        assert box.is_checked()  # suggested
        label = page.locator("label.check", has_text="S1 Sam Stand-in").bounding_box()
        assert label is not None and label["height"] >= 44
        with page.expect_navigation():
            page.get_by_role("button", name="Close check-in").click()
        assert "Check-in is closed" in page.content()
        assert Player.objects.get(key="8").withdrawn_from_round == 1
        assert Player.objects.get(key="S1").withdrawn_from_round is None
        assert fits(page)

        page.get_by_label("Player who has arrived").select_option("8")
        page.get_by_label("From round").first.select_option("2")
        with page.expect_navigation():
            page.get_by_role("button", name="Arrived late").click()
        assert "Round 2 would have 9 players" in page.locator("#late").inner_text()
        assert fits(page)
        page.get_by_label("Substitute who steps out").select_option("S1")
        with page.expect_navigation():
            page.get_by_role("button", name="Arrived late").click()
        assert "8 plays from round 2 on." in page.content()
        assert Player.objects.get(key="8").joins_from_round == 2
    finally:
        context.close()
