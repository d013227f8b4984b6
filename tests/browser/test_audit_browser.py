"""The audit trail in a browser, at a phone's width and a desktop's: the filters fit the screen
and filter, and the entries name players and seat winds, not keys. AUDIT_SCREENSHOTS names a
folder to keep a screenshot at both sizes."""

from __future__ import annotations

import os
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from tournament.management.demo import DEMO_TOURNAMENT_SLUG
from tournament.management.demo import DEMO_USERNAME as ORGANISER_USERNAME
from tournament.models import Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 800}}
SHOTS = os.environ.get("AUDIT_SCREENSHOTS")


@pytest.fixture
def demo(live_server):
    call_command("load_demo", stdout=StringIO())
    return live_server


def session_cookie(username: str, url: str) -> dict:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": url}


@pytest.mark.parametrize("size", SIZES)
def test_the_audit_trail_filters_and_names_players_at_every_width(chromium, demo, size):
    table = Table.objects.get(round__tournament__slug=DEMO_TOURNAMENT_SLUG, round__number=1,
                              number=2)  # fmt: skip
    context = chromium.new_context(viewport=SIZES[size])
    context.add_cookies([session_cookie(ORGANISER_USERNAME, demo.url)])
    page = context.new_page()
    page.goto(f"{demo.url}/manage/{DEMO_TOURNAMENT_SLUG}/audit/")

    page.select_option("select[name=table]", str(table.pk))
    page.select_option("select[name=kind]", "hand_recorded")
    page.get_by_role("button", name="Filter").click()
    # The filtered page, not the one still shown while the browser asks for it.
    page.wait_for_url(lambda url: "kind=hand_recorded" in url)

    heads = page.locator(".org-audit-head").all_inner_texts()
    assert heads and all("Round 1, table 2" in head for head in heads)
    text = page.locator(".org-audit").inner_text()
    assert "Hand recorded" in text
    seated = [seat.player.name for seat in table.seats.select_related("player")]
    assert any(name in text for name in seated)
    assert "E +" in text or "E −" in text
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES[size]["width"] + 1
    if SHOTS:
        folder = Path(SHOTS)
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / f"audit-{size}.png"), full_page=False)
    context.close()
