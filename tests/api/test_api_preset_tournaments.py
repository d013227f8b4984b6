"""Tournaments of every rule preset through the API: the preset and its rule settings on
creation and change, the rules the answers show, and the settings fixed once a deal is
recorded."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission

from tournament.models import Player, Round, Tournament
from tournament.services import DealInput, create_table, record_deal

pytestmark = pytest.mark.django_db

JT = "japanese-transitional"
WA = "wilmington-12-tile"


@pytest.fixture
def desk(api_as, make_user):
    user = make_user("dora")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return api_as(user)


def test_a_japanese_tournament_takes_its_settings_and_shows_its_rules(desk):
    body = {
        "name": "Riichi Spring",
        "slug": "riichi-spring",
        "preset": JT,
        "rule_settings": {"wind_rounds": 2, "deal.ready_pool": 1200},
    }

    response = desk.post("/api/tournaments", body)

    assert response.status_code == 201
    created = response.json()
    assert created["preset"] == JT
    assert created["rule_settings"] == {"wind_rounds": 2, "deal.ready_pool": 1200}
    # JT: no seat changes between wind rounds unless asked for.
    assert created["seat_rotation"] == "none"
    assert created["rules"] == {
        "name": "Japanese Transitional",
        "initial_points": 8000,
        "value_unit": "points",
        "minimum": 0,
        "least_value": 20,
        "value_step": 10,
        "limit": 1500,
        "hands_per_game": None,
        "wind_rounds": 2,
        "several_winners": False,
        "faulty_out_ends_deal": True,
        "riichi": True,
        "faulty_claims": True,
        "ready": True,
        "settings": {"wind_rounds": 2, "deal.extra_hand_bonus": 100, "deal.ready_pool": 1200},
    }
    stored = Tournament.objects.get(slug="riichi-spring")
    assert (stored.rules.wind_rounds, stored.rules.deal.ready_pool) == (2, 1200)


def test_a_wilmington_tournament_shows_its_rules_with_the_presets_own_values(desk):
    created = desk.post(
        "/api/tournaments",
        {"name": "Wilmington Open", "slug": "wa-open", "preset": WA, "seat_rotation": "half"},
    ).json()

    assert (created["preset"], created["seat_rotation"], created["rule_settings"]) == (
        WA,
        "half",
        {},
    )
    rules = created["rules"]
    assert (rules["initial_points"], rules["minimum"], rules["limit"]) == (500, 15, 600)
    assert (rules["several_winners"], rules["faulty_out_ends_deal"], rules["riichi"]) == (
        True,
        False,
        False,
    )
    assert rules["settings"] == {"wind_rounds": 4}


def test_an_mcr_tournament_is_as_before(desk):
    created = desk.post("/api/tournaments", {"name": "Classic", "slug": "classic"}).json()

    assert (created["preset"], created["seat_rotation"], created["rule_settings"]) == (
        "mcr",
        "wmo",
        {},
    )
    assert created["rules"]["initial_points"] == 0
    assert created["rules"]["hands_per_game"] == 16
    assert created["rules"]["value_unit"] == "fan"
    assert created["rules"]["settings"] == {}


@pytest.mark.parametrize(
    ("preset", "settings", "wrong"),
    [
        (JT, {"wind_rounds": 3}, "The number of wind rounds in a game is one of 1, 2, 4."),
        (
            JT,
            {"deal.ready_pool": 100},
            "The ready payment after a draw is 0 to 6,000, a multiple of 6.",
        ),
        (JT, {"deal.extra_hand_bonus": 0}, "The dealer's extra-hand bonus is 1 to 2,000."),
        (WA, {"deal.ready_pool": 600}, "has no setting 'deal.ready_pool'"),
        ("mcr", {"wind_rounds": 1}, "has no setting 'wind_rounds'"),
    ],
)
def test_a_setting_the_preset_does_not_allow_is_refused(desk, preset, settings, wrong):
    body = {"name": "X", "slug": "x", "preset": preset, "rule_settings": settings}

    response = desk.post("/api/tournaments", body)

    assert response.status_code == 400
    assert response.json()["error"] == "bad_rule_setting"
    assert wrong in response.json()["fields"]["rule_settings"]
    assert not Tournament.objects.filter(slug="x").exists()


def test_a_setting_is_a_whole_number(desk):
    body = {"name": "X", "slug": "x", "preset": JT, "rule_settings": {"wind_rounds": "2"}}

    response = desk.post("/api/tournaments", body)

    assert response.status_code == 400
    assert response.json()["error"] == "invalid"
    assert list(response.json()["fields"]) == ["rule_settings"]


def test_an_unknown_preset_keeps_its_code(desk):
    response = desk.post("/api/tournaments", {"name": "X", "slug": "x", "preset": "riichi"})

    assert response.status_code == 400
    assert response.json()["error"] == "unknown_preset"


def test_the_organiser_changes_the_preset_and_its_settings_before_play(as_organiser, tournament):
    response = as_organiser.patch(
        "/api/tournaments/spring-cup", {"preset": WA, "rule_settings": {"wind_rounds": 1}}
    )

    assert response.status_code == 200
    assert response.json()["rules"]["wind_rounds"] == 1
    assert response.json()["rules"]["initial_points"] == 500
    tournament.refresh_from_db()
    assert (tournament.preset, tournament.rule_settings) == (WA, {"wind_rounds": 1})


def test_the_rule_settings_are_fixed_once_a_deal_is_recorded(as_organiser, tournament, organiser):
    tournament.preset, tournament.seat_rotation = JT, "none"
    tournament.save()
    players = [
        Player.objects.create(tournament=tournament, key=str(n), name=f"P{n}") for n in range(4)
    ]
    round = Round.objects.create(tournament=tournament, number=1, status="playing")
    table = create_table(round=round, number=1, players=players)
    record_deal(table=table, number=1, deal=DealInput(result="draw"), entered_by=organiser)

    response = as_organiser.patch(
        "/api/tournaments/spring-cup", {"rule_settings": {"wind_rounds": 1}, "venue": "Hall"}
    )

    assert response.status_code == 400
    assert response.json()["error"] == "rules_locked"
    assert list(response.json()["fields"]) == ["rule_settings"]
    tournament.refresh_from_db()
    assert (tournament.rule_settings, tournament.venue) == ({}, "")
    # The same settings sent again change nothing, so they are not refused.
    same = as_organiser.patch("/api/tournaments/spring-cup", {"rule_settings": {}, "venue": "H"})
    assert same.status_code == 200
