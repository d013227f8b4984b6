"""The day before the games, end to end in Chromium on 360 px phones (issue 31):

1. a player registers on the public page and the organiser approves the registration;
2. at the check-in desk the organiser checks one player in by searching their name and another
   by a photo of the QR code of their private link, making 57 regular players checked in;
3. closing check-in offers the three substitutes that fill the last table, and round 1 is
   seated with 60;
4. a player who missed check-in arrives late and joins in round 2, a substitute stepping out,
   round 2's draft seating changing only that seat;
5. the registered player follows their private link through two rounds: their table in
   round 1, a correction of a hand at that table marked as new, then round 2's seat marked
   when it is published.

Set OUT_SCREENSHOTS to a folder to keep screenshots of the pages.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import segno
from django.urls import reverse
from factories import make_players, make_tournament, make_user

from tournament.models import Deal, Player, Registration, Round, Seat
from tournament.services import (
    DealInput,
    add_player,
    correct_deal,
    create_round,
    record_deal,
    seat_round,
    set_round_status,
)
from tournament.services.check_in import desk_check_in, set_desk_open
from tournament.services.player_links import issue_link

from .referee_screen import logged_in_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

expect = pytest.importorskip("playwright.sync_api").expect
SHOTS = os.environ.get("OUT_SCREENSHOTS")
PHONE = {"width": 360, "height": 740}


def shoot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/event-day-{name}.png", full_page=True)


def fits(page) -> bool:
    return page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


def new_page(context):
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page, errors


def test_registration_check_in_close_late_arrival_and_a_players_link(
    chromium, live_server, tmp_path
):
    alice = make_user("alice")
    tournament = make_tournament(
        organisers=[alice], planned_rounds=3, registration="approval", registration_cap=64
    )
    # 57 players entered by the organiser, four substitutes.
    make_players(tournament, 57)
    for number in range(1, 5):
        add_player(tournament=tournament, key=f"S{number}", name=f"Sub {number}", substitute=True)

    # 1. A player registers on a phone; the organiser approves.
    visitor = chromium.new_context(viewport=PHONE, has_touch=True)
    organiser = logged_in_context(chromium, live_server, "alice", "phone")
    holder = chromium.new_context(viewport=PHONE, has_touch=True)  # the player's phone
    try:
        page, visitor_errors = new_page(visitor)
        page.goto(f"{live_server.url}/t/spring-cup/register/")
        page.fill("#id_family_name", "王")
        page.fill("#id_given_name", "小明")
        page.select_option("#id_country", "CN")
        page.click("button[type=submit]")
        page.wait_for_url("**/register/done/")
        assert "awaits the organiser's approval" in page.content().replace("&#x27;", "'")
        assert fits(page)
        shoot(page, "registered")
        registration = Registration.objects.get(name="王小明")
        assert registration.status == Registration.Status.PENDING

        desk, errors = new_page(organiser)
        desk.goto(live_server.url + reverse("organiser:registrations", args=["spring-cup"]))
        with desk.expect_navigation():
            desk.get_by_role("button", name="Accept").click()
        registration.refresh_from_db()
        assert registration.status == Registration.Status.ACCEPTED
        wang = registration.player
        assert wang is not None and wang.key == "58"
        shoot(desk, "registrations")

        # 2. Check-in: 55 at the desk already; one found by name, one by their link's QR code.
        set_desk_open(tournament, True, actor=alice)
        for player in Player.objects.filter(tournament=tournament, substitute=False).exclude(
            key__in=["56", "57", "58"]
        ):
            desk_check_in(player, True, actor=alice)
        for key in ("S1", "S2"):
            desk_check_in(Player.objects.get(key=key), True, actor=alice)
        secret_56 = issue_link(Player.objects.get(key="56"), actor=alice)
        wang_secret = issue_link(wang, actor=alice)

        desk.goto(live_server.url + reverse("organiser:check_in", args=["spring-cup"]))
        desk.get_by_label("Name, number, EMA number").fill("小明")
        expect(desk.locator(".desk-player")).to_have_count(1)
        desk.get_by_role("button", name="Check in 王小明").click()
        desk.get_by_role("button", name="Check out 王小明").wait_for()
        photo = tmp_path / "link.png"
        segno.make(f"{live_server.url}/p/{secret_56}/", error="m").save(photo, scale=8)
        with desk.expect_navigation():
            desk.locator("#desk-photo").set_input_files(str(photo))
        desk.get_by_text("56 Player 56 is checked in.").wait_for()
        expect(desk.locator('[data-count="checked_in"]')).to_have_text("57")
        assert fits(desk)
        shoot(desk, "desk")

        # 3. Closing check-in: 57 regular players here, three substitutes offered and ticked.
        desk.goto(live_server.url + reverse("organiser:attendance", args=["spring-cup"]))
        ticked = [
            key
            for key in ("S1", "S2", "S3", "S4")
            if desk.get_by_label(f"{key} Sub {key[1]}").is_checked()
        ]
        assert ticked == ["S1", "S2", "S3"]  # the checked-in ones first
        assert fits(desk)
        shoot(desk, "close")
        with desk.expect_navigation():
            desk.get_by_role("button", name="Close check-in").click()
        assert "Check-in is closed" in desk.content()
        assert Player.objects.get(key="57").withdrawn_from_round == 1  # absent
        round_1 = create_round(tournament=tournament, actor=alice)
        seat_round(round=round_1, actor=alice, seed=1)
        assert Seat.objects.filter(round=round_1).count() == 60
        set_round_status(round=round_1, status=Round.Status.SEATED, actor=alice)
        set_round_status(round=round_1, status=Round.Status.PLAYING, actor=alice)
        round_2 = create_round(tournament=tournament, actor=alice)
        seat_round(round=round_2, actor=alice, seed=2)
        before = dict(Seat.objects.filter(round=round_2).values_list("player__key", "table_id"))

        # 5 (first half). The registered player opens their link: their table in round 1.
        mine, mine_errors = new_page(holder)
        mine.goto(f"{live_server.url}/p/{wang_secret}/")
        table = Seat.objects.get(round=round_1, player=wang).table
        assert f"Your table now: table {table.number}" in mine.content()
        assert fits(mine)
        shoot(mine, "link-round-1")

        # 4. Player 57 arrives during round 1 and joins from round 2; S3 steps out.
        desk.goto(live_server.url + reverse("organiser:attendance", args=["spring-cup"]))
        desk.get_by_label("Player who has arrived").select_option("57")
        desk.get_by_label("From round").first.select_option("2")
        desk.get_by_label("Substitute who steps out").select_option("S3")
        with desk.expect_navigation():
            desk.get_by_role("button", name="Arrived late").click()
        assert "57 plays from round 2 on." in desk.content()
        after = dict(Seat.objects.filter(round=round_2).values_list("player__key", "table_id"))
        assert after["57"] == before["S3"] and "S3" not in after
        assert {k: v for k, v in after.items() if k != "57"} == {
            k: v for k, v in before.items() if k != "S3"
        }
        assert fits(desk)
        shoot(desk, "late")

        # 5 (second half). A hand at their table is corrected: marked on the next look.
        hand = record_deal(table=table, number=1, deal=DealInput(result="draw"), entered_by=alice)
        correct_deal(
            hand=Deal.objects.get(pk=hand.pk), deal=DealInput(result="draw"), entered_by=alice
        )
        mine.goto(f"{live_server.url}/p/{wang_secret}/")
        assert "Round 1: hand 1 was corrected." in mine.content()
        shoot(mine, "link-corrected")
        # Round 2 is published: its seat is marked on the next look, the correction no more.
        set_round_status(round=round_2, status=Round.Status.SEATED, actor=alice)
        seat_2 = Seat.objects.get(round=round_2, player=wang)
        mine.goto(f"{live_server.url}/p/{wang_secret}/")
        text = mine.content()
        assert f"Round 2 is seated: table {seat_2.table.number}" in text
        assert "hand 1 was corrected" not in text
        assert fits(mine)
        shoot(mine, "link-round-2")
        assert visitor_errors == errors == mine_errors == []
    finally:
        for context in (visitor, organiser, holder):
            context.close()
