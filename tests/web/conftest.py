"""Fixtures of the page tests.

- `world`: the referee table-screen tests' round 1 in play, from the chain of tests/conftest.py:
  players 1-4 at table 1 (East to North) refereed by bob, players 5-8 at table 2 refereed by
  carol. `referee_client` is logged in as bob.
- `cup`: the public pages' tournament of test_public_scenario.py.
- `live_urls`: the addresses the public pages poll (standings, round, each table) for `board`.

A module that defines its own `world` or `cup` uses it instead.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.urls import reverse
from test_public_scenario import build_cup

from tournament.services import assign_referees


@pytest.fixture
def world(tournament, organiser, players, round, table, table2, referee, other_referee):
    assign_referees(table=table, referees=[referee], actor=organiser)
    return SimpleNamespace(
        tournament=tournament,
        organiser=organiser,
        players=players,
        round=round,
        table=table,
        table2=table2,
        referee=referee,
        other_referee=other_referee,
    )


@pytest.fixture
def referee_client(client, world):
    client.force_login(world.referee)
    return client


@pytest.fixture
def cup(tournament, organiser):
    return build_cup(tournament, organiser)


@pytest.fixture
def live_urls(board) -> dict[str, str]:
    """The public standings, round and table addresses of `board` (tournament "spring-cup"):
    "table" is table 1, "table 2" the other."""
    round, tables = board["round"], board["tables"]
    return {
        "standings": reverse("public:standings", args=["spring-cup"]),
        "round": reverse("public:round", args=["spring-cup", round.number]),
        "table": reverse("public:table", args=["spring-cup", round.number, tables[0].number]),
        "table 2": reverse("public:table", args=["spring-cup", round.number, tables[1].number]),
    }
