"""`manage.py standings SLUG --teams [--json]`: the team standings."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from factories import seated_round, submit

from tournament.services import confirm_game, update_player
from tournament.services.tournaments import update_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def teams(tournament, organiser, players):
    """Table 1 (players 1-4): player 1 wins 16 self-drawn hands, confirmed. Players 1 and 5
    are "Oak", 2 and 3 "東京", 4 alone in "Elm"; each team's best 2 count."""
    _, (table1, _table2) = seated_round(tournament, organiser, [players[:4], players[4:]])
    submit(table1, organiser)
    confirm_game(table=table1, confirmed_by=organiser)
    for index, team in [(0, "Oak"), (4, "Oak"), (1, "東京"), (2, "東京"), (3, "Elm")]:
        update_player(player=players[index], team=team)
    update_tournament(tournament=tournament, team_best_of=2)
    return players


def run(*args: str) -> str:
    out = StringIO()
    call_command("standings", "spring-cup", "--teams", *args, stdout=out)
    return out.getvalue()


def test_json_gives_each_team_its_best_players_sums(teams):
    answer = json.loads(run("--json"))
    assert answer["best_of"] == 2
    assert [(t["rank"], t["team"], t["complete"]) for t in answer["teams"]] == [
        (1, "Oak", True),
        (2, "東京", True),
        (3, "Elm", False),
    ]
    oak = answer["teams"][0]
    assert [m["player"] for m in oak["members"]] == ["1", "5"]
    assert all(m["counted"] for m in oak["members"])
    assert oak["table_points"] == sum(m["table_points"] for m in oak["members"])
    assert oak["score"] == sum(m["score"] for m in oak["members"])
    assert oak["table_points_exact"] == str(oak["table_points"])


def test_text_marks_the_players_counted_and_incomplete_teams(teams):
    text = run()
    assert "1. Oak" in text
    assert "3. Elm (incomplete)" in text
    assert "+ 1 Player 1" in text
    assert "the best 2 count" in text


def test_a_tournament_without_teams_says_so(tournament, players):
    assert "No teams yet." in run()
    assert json.loads(run("--json")) == {"best_of": None, "teams": []}
