"""Referee administration in Chromium at phone and desktop sizes: making referee accounts and
printing their login slips (A4, eight a page, a QR code each), the one form that assigns the
referees of a round, and the new tournament form filling in the slug from the name. No page
breaks the content security policy or needs sideways scrolling.

Set OUT_SCREENSHOTS to a folder to keep screenshots of the pages.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from factories import make_players, seated_round

from tournament.models import RefereeAccount, Table

from .referee_screen import SIZES, logged_in_context

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("OUT_SCREENSHOTS")

LISTEN = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(`${event.effectiveDirective} ${event.blockedURI || "inline"}`);
});
"""


def shoot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def fits(page) -> bool:
    return page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


def violations(page) -> list[str]:
    return page.evaluate("window.__violations.splice(0)")


def organiser_page(chromium, live_server, size: str):
    context = logged_in_context(chromium, live_server, "alice", size)
    context.add_init_script(LISTEN)
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page, errors


@pytest.mark.parametrize("size", list(SIZES))
def test_make_accounts_print_slips_and_assign_a_round(
    chromium, live_server, tournament, organiser, size
):
    players = make_players(tournament, count=16)
    round, _tables = seated_round(
        tournament, organiser, [players[i : i + 4] for i in range(0, 16, 4)], status="draft"
    )
    context, page, errors = organiser_page(chromium, live_server, size)
    try:
        page.goto(live_server.url + reverse("organiser:referees", args=[tournament.slug]))
        form = page.locator("#create-many")
        form.get_by_label("How many").fill("10")
        form.get_by_role("button", name="Create accounts and print slips").click()
        page.wait_for_url("**/referees/slips/")
        assert page.locator(".slip").count() == 10
        assert page.locator(".slip svg.slip-qr").count() == 10
        assert page.get_by_role("button", name="Print").is_visible()  # slips.js ran
        first = page.locator(".slip").first.inner_text()
        assert "referee-01" in first
        assert fits(page)
        assert violations(page) == []
        shoot(page, f"referee-slips-{size}")
        # On A4 paper: eight slips a page, so ten take two pages.
        pdf = page.pdf(format="A4", print_background=False)
        assert len(re.findall(rb"/Type\s*/Page(?!s)", pdf)) == 2
        if SHOTS:
            page.emulate_media(media="print")
            shoot(page, f"referee-slips-print-{size}")
            page.emulate_media(media="screen")
        assert RefereeAccount.objects.filter(tournament=tournament).count() == 10

        page.goto(live_server.url + reverse("organiser:referees", args=[tournament.slug]))
        assert page.locator("#referee-list tbody tr").count() == 10
        assert fits(page)
        shoot(page, f"referee-accounts-{size}")

        page.goto(live_server.url + reverse("organiser:round_referees", args=[tournament.slug, 1]))
        for number, username in [(1, "referee-01"), (2, "referee-02"), (3, "referee-01")]:
            page.locator(f"#id_table-{number}-0").select_option(label=username)
        page.locator("#id_table-4-1").select_option(label="referee-03")
        with page.expect_navigation():  # the same address again: wait for the new page
            page.get_by_role("button", name="Save the referees of round 1").click()
        assert page.get_by_text("The referees of round 1 are saved.").is_visible()
        assigned = {
            table.number: sorted(user.username for user in table.referees.all())
            for table in Table.objects.filter(round=round).prefetch_related("referees")
        }
        assert assigned == {
            1: ["referee-01"],
            2: ["referee-02"],
            3: ["referee-01"],
            4: ["referee-03"],
        }
        assert page.locator("#id_table-3-0").input_value() == str(
            RefereeAccount.objects.get(user__username="referee-01").user_id
        )
        assert fits(page)
        assert violations(page) == []
        shoot(page, f"round-referees-{size}")
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_new_tournament_slug_follows_the_name(chromium, live_server, organiser, size):
    organiser.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    context, page, errors = organiser_page(chromium, live_server, size)
    try:
        page.goto(live_server.url + reverse("organiser:create"))
        page.locator("#id_name").fill("Été Open 2026")
        slug = page.locator("#id_slug")
        assert slug.input_value() == "ete-open-2026"
        slug.fill("summer")
        page.locator("#id_name").fill("Été Open 2027")
        assert slug.input_value() == "summer"  # typed by the organiser: kept
        assert page.get_by_text("A tournament is private until it is made public").is_visible()
        assert page.locator("#id_planned_rounds").is_visible()
        assert fits(page)
        assert violations(page) == []
        shoot(page, f"new-tournament-{size}")
        assert errors == []
    finally:
        context.close()
