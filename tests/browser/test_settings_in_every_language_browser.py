"""Saving the tournament settings unchanged keeps every value, in every language, at phone and
desktop sizes: the browser's date inputs show the dates (they reject 2025/10/04, which Django
writes in Chinese unless told otherwise), and the saved tournament still has them.

Set OUT_SCREENSHOTS to a folder to keep screenshots of the settings page.
"""

from __future__ import annotations

import datetime
import os
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tournament.models import Tournament

pytestmark = pytest.mark.browser

SIZES = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 800}}
SHOTS = os.environ.get("OUT_SCREENSHOTS")
PASSWORD = "correct-horse-42"  # the organiser's, from tests/conftest.py


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_saving_the_settings_unchanged_keeps_the_dates(
    live_server, chromium, tournament, language, size
):
    Tournament.objects.filter(pk=tournament.pk).update(
        start_date=datetime.date(2025, 10, 4),
        end_date=datetime.date(2025, 10, 5),
        venue="Town hall",
        round_minutes=150,
    )
    before = Tournament.objects.get(pk=tournament.pk)
    context = chromium.new_context(viewport=SIZES[size], has_touch=size == "phone")
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language,
                          "url": live_server.url}])  # fmt: skip
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        page.goto(live_server.url + reverse("login"))
        page.fill("input[name=username]", "alice")
        page.fill("input[name=password]", PASSWORD)
        with page.expect_navigation():
            page.locator("form button[type=submit]").last.click()
        page.goto(live_server.url + reverse("organiser:settings", args=[tournament.slug]))
        assert page.locator("html").get_attribute("lang") == language
        # What the browser itself holds in the date inputs (empty when it refused the value).
        assert page.input_value("input[name=start_date]") == "2025-10-04"
        assert page.input_value("input[name=end_date]") == "2025-10-05"
        assert page.input_value("input[name=round_minutes]") == "150"
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=f"{SHOTS}/settings-{language}-{size}.png", full_page=True)
        with page.expect_navigation():
            page.locator("main form button[type=submit]").last.click()
        assert page.locator(".errors, .errorlist").count() == 0
    finally:
        context.close()
    after = Tournament.objects.get(pk=tournament.pk)
    assert (after.start_date, after.end_date) == (before.start_date, before.end_date)
    assert (after.venue, after.round_minutes, after.table_points, after.tie_breaks) == (
        before.venue,
        before.round_minutes,
        before.table_points,
        before.tie_breaks,
    )
