"""The tournament form reports every error at once (dates with the fields, not on the next
submit) and shows only the chosen rule preset's own settings: a Wilmington tournament is not
offered Japanese Transitional's ready-hand pool, and a value sent for another preset's setting
(by a browser without JavaScript, after switching the preset) is not read."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from factories import make_tournament
from test_organiser_tournaments import tournament_data

from tournament.models import Tournament

pytestmark = pytest.mark.django_db

CREATE = reverse("organiser:create")
JT = "japanese-transitional"
WA = "wilmington-12-tile"
SETTINGS = ("wind_rounds", "extra_hand_bonus", "ready_pool")


@pytest.fixture
def creator(client, organiser):
    organiser.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client.force_login(organiser)
    return organiser


def shown(html: str) -> dict[str, bool]:
    """For each rule setting, whether its row is shown (not of class preset-off)."""
    found = {}
    for field in SETTINGS:
        match = re.search(rf'<div class="([^"]*)">\s*<label for="id_{field}"', html)
        assert match, field
        classes = match.group(1).split()
        assert "preset-setting" in classes
        found[field] = "preset-off" not in classes
    return found


def test_every_error_comes_at_once(client, creator, tournament):
    data = tournament_data(
        slug="spring-cup",  # taken
        preset=JT,
        seat_rotation="none",
        ready_pool="100",  # not a multiple of 6
        start_date="2025-10-05",
        end_date="2025-10-04",  # before the start
    )

    response = client.post(CREATE, data)

    assert response.status_code == 422
    errors = response.context["form"].errors
    assert errors["slug"] == ["Another tournament has this slug."]
    assert errors["ready_pool"] == [
        "The ready payment after a draw is 0 to 6,000, a multiple of 6."
    ]
    assert errors["end_date"] == ["A tournament cannot end before it starts."]
    assert Tournament.objects.count() == 1


def test_a_new_tournament_shows_the_settings_of_its_preset(client, creator):
    page = client.get(CREATE).content.decode()
    assert shown(page) == dict.fromkeys(SETTINGS, False)  # MCR has none
    assert 'src="/static/tournament/preset_settings.js"' in page
    assert "preset-for-japanese-transitional" in page  # what the script switches on

    refused = client.post(CREATE, tournament_data(preset=JT, name="", seat_rotation="none"))
    assert shown(refused.content.decode()) == dict.fromkeys(SETTINGS, True)

    refused = client.post(CREATE, tournament_data(preset=WA, name="", seat_rotation="none"))
    assert shown(refused.content.decode()) == {
        "wind_rounds": True,
        "extra_hand_bonus": False,
        "ready_pool": False,
    }


def test_a_wilmington_tournament_is_not_offered_the_japanese_settings(client, creator):
    make_tournament(organisers=[creator], name="Wilmington", slug="wa-cup", preset=WA)
    settings = reverse("organiser:settings", kwargs={"slug": "wa-cup"})

    page = client.get(settings).content.decode()

    assert shown(page) == {"wind_rounds": True, "extra_hand_bonus": False, "ready_pool": False}


def test_switching_preset_keeps_only_the_new_presets_settings(client, creator):
    """A Japanese tournament with its own ready pool, switched to Wilmington by a browser
    without JavaScript: the Japanese fields are still sent, and are not read."""
    make_tournament(
        organisers=[creator],
        name="Switch",
        slug="switch",
        preset=JT,
        rule_settings={"wind_rounds": 2, "deal.ready_pool": 1200},
    )
    settings = reverse("organiser:settings", kwargs={"slug": "switch"})
    data = tournament_data(
        name="Switch",
        slug="switch",
        preset=WA,
        seat_rotation="none",
        wind_rounds="1",
        ready_pool="1200",
        extra_hand_bonus="300",
    )

    response = client.post(settings, data)

    assert response.status_code == 302, response.context["form"].errors
    switched = Tournament.objects.get(slug="switch")
    assert (switched.preset, switched.rule_settings) == (WA, {"wind_rounds": 1})


def test_a_wilmington_setting_out_of_range_is_still_refused(client, creator):
    response = client.post(
        CREATE, tournament_data(preset=WA, seat_rotation="none", wind_rounds="3")
    )
    assert response.status_code == 422
    assert response.context["form"].errors["wind_rounds"]
    assert not Tournament.objects.filter(slug="autumn-open").exists()
