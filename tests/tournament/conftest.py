"""Fixtures chained tournament -> round -> table (the tournament comes from tests/conftest.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tournament.models import Player, Round
from tournament.services import create_table


@pytest.fixture
def referee(db):
    return get_user_model().objects.create_user(username="bob", password="referee-pass-42")


@pytest.fixture
def players(tournament):
    return [
        Player.objects.create(tournament=tournament, key=str(number), name=f"Player {number}")
        for number in range(1, 9)
    ]


@pytest.fixture
def round(tournament):
    return Round.objects.create(tournament=tournament, number=1, status=Round.Status.PLAYING)


@pytest.fixture
def table(round, players):
    """Table 1 of round 1: players 1, 2, 3, 4 start at East, South, West, North."""
    return create_table(round=round, number=1, players=players[:4])


@pytest.fixture
def east(players):
    return players[0]


@pytest.fixture
def south(players):
    return players[1]


@pytest.fixture
def west(players):
    return players[2]


@pytest.fixture
def north(players):
    return players[3]


@pytest.fixture
def scores():
    """Game scores of a table by starting seat E, S, W, N, as stored."""

    def read(table):
        return [seat.score for seat in sorted(table.seats.all(), key=lambda seat: seat.index)]

    return read
