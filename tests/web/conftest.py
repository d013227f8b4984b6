"""Fixtures of the referee table-screen tests: `world` (round 1 in play, two refereed tables; see
build_world in test_referee_pages.py) and `referee_client` (logged in as table 1's referee).

A module that defines its own `world` uses it instead, `referee_client` included.
"""

from __future__ import annotations

import pytest
from test_referee_pages import build_world


@pytest.fixture
def world(tournament, organiser):
    return build_world(tournament, organiser)


@pytest.fixture
def referee_client(client, world):
    client.force_login(world.referee)
    return client
