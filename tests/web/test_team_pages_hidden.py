"""The team standings while rounds are hidden until the prize-giving: the public's count the
rounds before the hidden ones, as the individual standings do; organisers see every round."""

from __future__ import annotations

import pytest
from django.urls import reverse
from prize_world import build

from tournament.services import update_player
from tournament.services.prize_giving import hide_standings_from, reveal_standings

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(tournament, organiser, referee):
    """Ann and Ben play for "East", Cat and Dan for "West": East leads after round 1, West
    after round 2 (Dan wins every hand of it)."""
    made = build(tournament, organiser, referee)
    for player, team in zip(made["players"], ["East", "East", "West", "West"], strict=True):
        update_player(player=player, team=team)
    tournament.team_best_of = 1
    tournament.save()
    hide_standings_from(tournament=tournament, round=2, actor=organiser)
    return made


def leader(client, tournament) -> str:
    teams = client.get(f"/api/tournaments/{tournament.slug}/teams").json()["teams"]
    return teams[0]["team"]


def test_the_public_sees_the_teams_before_the_hidden_round(client, tournament, organiser, world):
    page = client.get(reverse("public:teams", args=[tournament.slug])).content.decode()
    assert "Standings from round 2 on are hidden until the prize-giving." in page
    assert leader(client, tournament) == "East"
    client.force_login(organiser)
    assert leader(client, tournament) == "West"
    page = client.get(reverse("public:teams", args=[tournament.slug])).content.decode()
    assert "You see the full standings as an organiser." in page


def test_the_reveal_shows_the_public_every_round(client, tournament, organiser, world):
    assert leader(client, tournament) == "East"
    reveal_standings(tournament=tournament, actor=organiser)
    assert leader(client, tournament) == "West"
