"""The organiser's player list and player form in Chromium at 360 and 1280 px: keys in natural
order, countries by name, the family and given names, a wrong EMA number refused on the form,
and a player added by mistake removed.

Set OUT_SCREENSHOTS to a folder to keep screenshots of the pages.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.urls import reverse

from tournament.models import Player
from tournament.services import add_player

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
def test_the_player_list_and_form(chromium, live_server, tournament, organiser, size):
    for key, name, country in [
        ("10", "Anna van der Berg", "SE"), ("2", "王小明", "CN"), ("1", "Dieter Hahn", "DE"),
        ("11", "Eva Novak", "CZ"), ("3", "Kim Minsu", "KR"),
    ]:  # fmt: skip
        add_player(tournament=tournament, key=key, name=name, country=country)
    players_url = live_server.url + reverse("organiser:players", args=[tournament.slug])

    context = logged_in_context(chromium, live_server, "alice", size)
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto(players_url)
        keys = page.locator("table.org-players-table tbody tr td:first-child").all_inner_texts()
        assert keys == ["1", "2", "3", "10", "11"]
        assert page.get_by_role("cell", name="Sweden").is_visible()
        assert fits(page)
        shoot(page, f"players-list-{size}")

        page.get_by_role("link", name="Add a player").click()
        page.get_by_label("Key").fill("12")
        page.get_by_label("Family name").fill("欧阳")
        page.get_by_label("Given name").fill("娜娜")
        page.get_by_label("Country").select_option("CN")
        page.get_by_label("EMA number").fill("4010001")
        with page.expect_navigation():  # the refused form comes back at the same address
            page.get_by_role("button", name="Add", exact=True).click()
        assert "leading zero" in page.locator("form.org-form").inner_text()
        assert fits(page)
        shoot(page, f"player-form-refused-{size}")

        page.get_by_label("EMA number").fill("04010001")
        page.get_by_role("button", name="Add", exact=True).click()
        page.wait_for_url(players_url)
        added = Player.objects.get(key="12")
        assert (added.name, added.family_name, added.given_name, added.country) == (
            "欧阳娜娜", "欧阳", "娜娜", "CN",
        )  # fmt: skip

        page.get_by_role("link", name="欧阳娜娜").click()
        page.wait_for_url(
            live_server.url + reverse("organiser:player", args=[tournament.slug, "12"])
        )
        assert fits(page)
        shoot(page, f"player-form-{size}")
        page.get_by_role("button", name="Remove player 12").click()
        page.wait_for_url(players_url)
        assert "12 欧阳娜娜 is removed." in page.inner_text("body")
        assert not Player.objects.filter(key="12").exists()
    finally:
        context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_seat_at_random_on_the_round_page(chromium, live_server, tournament, organiser, size):
    """The round page seats by the seating plan's rules: here clubs always apart."""
    from tournament.models import Seat
    from tournament.services import create_round

    for number in range(1, 9):
        add_player(tournament=tournament, key=str(number), name=f"Player {number}",
                   club=f"Club {number % 4}")  # fmt: skip
    tournament.separate_clubs = "hard"
    tournament.save()
    round = create_round(tournament=tournament, actor=organiser)

    context = logged_in_context(chromium, live_server, "alice", size)
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto(live_server.url + reverse("organiser:round", args=[tournament.slug, 1]))
        assert page.get_by_role("link", name="seating plan").is_visible()
        page.get_by_role("button", name="Seat round 1").click()
        page.wait_for_selector("#table-2")
        assert "Round 1 is seated at random at 2 tables." in page.inner_text("body")
        assert fits(page)
        shoot(page, f"round-seated-{size}")
    finally:
        context.close()
    for table in round.tables.all():
        clubs = [seat.player.club for seat in Seat.objects.filter(table=table)]
        assert len(set(clubs)) == 4
