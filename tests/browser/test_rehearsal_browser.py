"""The dress rehearsal in Chromium, on a 360 px phone and a 1280 px laptop: the organiser
plays it (in the background thread, as on the day), the page follows it until it is played,
the copy's public pages open, and one tap deletes it. Nothing wider than the screen, no
Content-Security-Policy violation, no script error.
Set OUT_SCREENSHOTS to a folder to keep screenshots of the pages.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from factories import make_players, make_tournament, make_user

from tournament.models import Deal, Rehearsal, Tournament

from .referee_screen import logged_in_context
from .test_check_in_browser import WATCH, fits, shoot

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_play_look_and_delete_a_rehearsal(chromium, live_server, transactional_db, size):
    organiser = make_user("alice")
    tournament = make_tournament(
        organisers=[organiser], preset="japanese-transitional", planned_rounds=2
    )
    tournament.seat_rotation = "none"
    tournament.rule_settings = {"wind_rounds": 1}
    tournament.save()
    make_players(tournament, 9, name="Player {}")

    context = logged_in_context(chromium, live_server, "alice", size)
    context.add_init_script(WATCH)
    page = context.new_page()
    page.set_default_timeout(60_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(live_server.url + reverse("organiser:dashboard", args=["spring-cup"]))
        page.get_by_role("link", name="Dress rehearsal").click()
        page.get_by_label("Seed (optional)").fill("2006")
        page.get_by_role("button", name="Play a dress rehearsal").click()
        page.get_by_text("Played through: 6 games.").wait_for()
        assert fits(page)
        shoot(page, f"rehearsal-{size}")
        copy = Rehearsal.objects.get().copy
        assert Deal.objects.filter(table__round__tournament=copy).exists()

        page.get_by_role("link", name="Its public pages").click()
        page.get_by_role("heading", name="Spring Cup (dress rehearsal)").wait_for()
        page.go_back()
        page.get_by_role("button", name="Delete this rehearsal").click()
        page.get_by_text("The dress rehearsal is deleted").wait_for()
        assert not Tournament.objects.filter(pk=copy.pk).exists()
        assert page.evaluate("window.__violations") == []
        assert errors == []
    finally:
        context.close()
