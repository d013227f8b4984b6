"""The team standings through the API, and the tournament's `team_best_of`."""

from __future__ import annotations

import pytest
from factories import make_players

from tournament.models import Player
from tournament.services import DealInput, confirm_game, create_table, end_game, record_deal
from tournament.services.tournaments import update_tournament

pytestmark = pytest.mark.django_db

T = "/api/tournaments/spring-cup"


@pytest.fixture
def teams(tournament, organiser, round):
    """Table 1: player 1 self-draws 8 fan (+48, the others -16), game confirmed. Players 1
    and 2 are "Oak", 3 and 4 "Elm", 5 alone in "橡树", 6 a substitute of "Oak"."""
    players = make_players(tournament, 6)
    for player, team in zip(players, ["Oak", "Oak", "Elm", "Elm", "橡树", "Oak"], strict=True):
        player.team = team
        player.substitute = player.key == "6"
        player.save()
    table = create_table(round=round, number=1, players=players[:4])
    record_deal(
        table=table,
        number=1,
        deal=DealInput(result="win", winner=players[0], fan=8),
        entered_by=organiser,
    )
    end_game(table=table, ended_by_time=True, entered_by=organiser)
    confirm_game(table=table, confirmed_by=organiser)
    update_tournament(tournament=tournament, team_best_of=2)
    return players


def test_team_standings_count_the_best_players(anonymous, teams):
    response = anonymous.get(f"{T}/teams")
    assert response.status_code == 200
    answer = response.json()
    assert (answer["best_of"], answer["provisional"]) == (2, False)
    assert [(t["rank"], t["team"], t["complete"]) for t in answer["teams"]] == [
        (1, "Oak", True),
        (2, "Elm", True),
        (3, "橡树", False),
    ]
    oak = answer["teams"][0]
    # 1 first (4 points, +48); 2, 3 and 4 level at -16 share 2 + 1 + 0 = 1 each.
    assert (oak["table_points"], oak["score"]) == (5, 32)
    assert [(m["player"], m["counted"], m["substitute"]) for m in oak["members"]] == [
        ("1", True, False),
        ("2", True, False),
        ("6", False, True),
    ]


def test_below_two_teams_there_are_none(anonymous, tournament):
    Player.objects.create(tournament=tournament, key="1", name="A", team="Oak")
    assert anonymous.get(f"{T}/teams").json()["teams"] == []


def test_a_bad_provisional_is_400(anonymous, teams):
    assert anonymous.get(f"{T}/teams?provisional=maybe").status_code == 400


def test_a_private_tournament_is_404(anonymous, tournament, teams):
    tournament.public = False
    tournament.save()
    assert anonymous.get(f"{T}/teams").status_code == 404


def test_the_tournament_carries_team_best_of_and_an_organiser_sets_it(as_organiser, tournament):
    assert as_organiser.get(T).json()["team_best_of"] is None
    response = as_organiser.patch(T, {"team_best_of": 3})
    assert response.status_code == 200
    assert response.json()["team_best_of"] == 3
    assert as_organiser.patch(T, {"team_best_of": 0}).status_code == 400
    tournament.refresh_from_db()
    assert tournament.team_best_of == 3
