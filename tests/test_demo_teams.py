"""Demo Open's players are in teams, so the team pages have something to show."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournament.management.demo import DEMO_TOURNAMENT_SLUG, load_demo_data
from tournament.reads.teams import team_standings

pytestmark = pytest.mark.django_db


def test_demo_open_has_team_standings_with_an_incomplete_team(client):
    data = load_demo_data()
    teams = team_standings(data.tournament)
    assert len(teams) == 4
    assert [team.complete for team in teams] == [True, True, True, False]
    assert all(len(team.counted) == 3 for team in teams[:3])
    assert client.get(reverse("public:teams", args=[DEMO_TOURNAMENT_SLUG])).status_code == 200
    for team in teams:
        url = reverse("public:team", args=[DEMO_TOURNAMENT_SLUG, team.slug])
        assert client.get(url).status_code == 200
