"""The seats of table 1 by starting wind, and its scores (the chain organiser -> tournament ->
players -> round -> table is in tests/conftest.py)."""

from __future__ import annotations

import pytest


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
