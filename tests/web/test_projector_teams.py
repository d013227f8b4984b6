"""The projector's team standings panel: in the cycle after the standings when at least two
teams have players."""

from __future__ import annotations

import re

import pytest

from tests.web.test_projector_pages import URL, panel_of, text
from tournament.services import update_player

pytestmark = pytest.mark.django_db


def test_the_cycle_shows_the_team_standings_between_standings_and_seating(client, board):
    for player, team in zip(board["players"], ["Oak", "Elm", "Oak", "東京"], strict=False):
        update_player(player=player, team=team)
    nexts = []
    url = f"{URL}?panel=standings&page=1"
    for _ in range(4):
        html = client.get(url).content.decode()
        name, page, following = panel_of(html)
        nexts.append((name, page))
        url = following
    assert nexts == [("standings", 1), ("teams", 1), ("seating", 1), ("standings", 1)]


def test_the_team_panel_lists_every_team(client, board):
    for player, team in zip(board["players"], ["Oak", "Elm", "Oak", "東京"], strict=False):
        update_player(player=player, team=team)
    html = client.get(f"{URL}?panel=teams&page=1").content.decode()
    assert panel_of(html)[:2] == ("teams", 1)
    assert len(re.findall(r"data-team=", html)) == 3
    assert "Team standings" in text(html)
    assert "None" not in text(html)


def test_without_teams_there_is_no_team_panel(client, board):
    update_player(player=board["players"][0], team="Oak")
    html = client.get(f"{URL}?panel=teams&page=1").content.decode()
    assert panel_of(html)[:2] == ("standings", 1)
