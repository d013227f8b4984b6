"""The EMA readiness page on a 360 px phone: no sideways scrolling of the page, the problems,
the weight and the base ranks in reach, and the download's confirmation box. EMA_SCREENSHOTS
names a folder to keep a screenshot of the page."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from preset_world import build

from tournament.models import Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
SHOTS = os.environ.get("EMA_SCREENSHOTS")


def session_cookie(username: str, url: str) -> dict:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": url}


def test_the_readiness_page_fits_a_phone(chromium, live_server):
    world = build("mcr")
    for index, player in enumerate(world.players, start=1):  # eight digits take room
        Player.objects.filter(pk=player.pk).update(ema_number=f"040100{index:02}", country="SE")
    context = chromium.new_context(viewport=PHONE)
    context.add_cookies([session_cookie("alice", live_server.url)])
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/manage/spring-cup/print/ema/readiness/")
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / "ema-readiness-phone.png"), full_page=True)

    assert page.get_by_role("heading", name="Blocking problems").is_visible()
    assert page.get_by_role("heading", name="MERS weight (estimate)").is_visible()
    assert page.locator("table.ema-ranks tbody tr").count() == 8
    width, visible = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert width <= visible, f"the page scrolls sideways: {width} > {visible}"
    for table in ("ema-factors", "ema-ranks"):
        inner, wrapper = page.evaluate(
            f"(() => {{ const e = document.querySelector('table.{table}').parentElement;"
            " return [e.scrollWidth, e.clientWidth]; })()"
        )
        assert inner <= wrapper, f"{table} scrolls sideways: {inner} > {wrapper}"
    box = page.get_by_label("I know; download the file anyway")
    assert box.is_visible()
    box_right = page.evaluate(
        "document.querySelector('.ema-confirm button').getBoundingClientRect().right"
    )
    assert box_right <= visible
    context.close()
