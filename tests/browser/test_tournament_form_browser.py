"""The new tournament form in Chromium on a phone: switching the rule preset shows that
preset's own settings and hides (and stops sending) the others'; without JavaScript the form
shows the settings of the preset it was drawn for."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from tournament.models import Tournament

from .referee_screen import logged_in_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SETTINGS = ("wind_rounds", "extra_hand_bonus", "ready_pool")


def shown(page) -> dict[str, bool]:
    return {field: page.locator(f"#id_{field}").is_visible() for field in SETTINGS}


def enabled(page) -> dict[str, bool]:
    return {field: page.locator(f"#id_{field}").is_enabled() for field in SETTINGS}


@pytest.fixture
def creator(organiser):
    organiser.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return organiser


def test_switching_the_preset_shows_its_settings(chromium, live_server, creator):
    context = logged_in_context(chromium, live_server, "alice", "phone")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(live_server.url + reverse("organiser:create"))

    assert shown(page) == dict.fromkeys(SETTINGS, False)  # MCR has none
    page.select_option("#id_preset", "japanese-transitional")
    assert shown(page) == dict.fromkeys(SETTINGS, True)
    assert enabled(page) == dict.fromkeys(SETTINGS, True)
    page.fill("#id_ready_pool", "1200")  # then the organiser changes their mind
    page.select_option("#id_preset", "wilmington-12-tile")
    assert shown(page) == {"wind_rounds": True, "extra_hand_bonus": False, "ready_pool": False}
    assert enabled(page) == {"wind_rounds": True, "extra_hand_bonus": False, "ready_pool": False}

    page.fill("#id_name", "Wilmington Cup")
    page.select_option("#id_wind_rounds", "1")
    page.locator("form.org-form button[type=submit]").click()
    page.wait_for_url("**/manage/wilmington-cup/")

    created = Tournament.objects.get(slug="wilmington-cup")
    assert (created.preset, created.rule_settings) == ("wilmington-12-tile", {"wind_rounds": 1})
    assert errors == []
    context.close()


def test_without_javascript_the_drawn_presets_settings_show(chromium, live_server, creator):
    Tournament.objects.create(
        name="Wilmington", slug="wa-cup", preset="wilmington-12-tile"
    ).organisers.add(creator)
    context = logged_in_context(chromium, live_server, "alice", "phone", script=False)
    page = context.new_page()
    page.goto(live_server.url + reverse("organiser:settings", args=["wa-cup"]))

    assert shown(page) == {"wind_rounds": True, "extra_hand_bonus": False, "ready_pool": False}
    context.close()
