"""Putting four players at a table."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tournament.models import Player, Round
from tournament.services import create_table

pytestmark = pytest.mark.django_db


def test_table_seats_players_east_south_west_north(table, players):
    seated = {seat.starting_wind: seat.player for seat in table.seats.all()}
    assert seated == dict(zip("ESWN", players[:4], strict=True))


def test_same_player_twice_is_refused(round, players):
    with pytest.raises(ValidationError) as error:
        create_table(round=round, number=2, players=[players[4]] * 2 + players[5:7])
    assert error.value.code == "four_players"


def test_player_already_seated_in_the_round_is_refused(round, table, players):
    with pytest.raises(ValidationError) as error:
        create_table(round=round, number=2, players=[players[0], *players[5:8]])
    assert error.value.code == "already_seated"


def test_player_of_another_tournament_is_refused(round, players, tournament):
    stranger = Player.objects.create(
        tournament=type(tournament).objects.create(name="Other", slug="other"), key="1", name="X"
    )
    with pytest.raises(ValidationError) as error:
        create_table(round=round, number=2, players=[stranger, *players[5:8]])
    assert error.value.code == "wrong_tournament"


def test_withdrawn_player_is_not_seated_from_their_round_on(tournament, players):
    players[4].withdrawn_from_round = 2
    players[4].save()
    round_two = Round.objects.create(tournament=tournament, number=2)
    with pytest.raises(ValidationError) as error:
        create_table(round=round_two, number=1, players=players[4:8])
    assert error.value.code == "withdrawn"
