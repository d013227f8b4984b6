"""The standings page, the standings API and the round page ask as many queries for 64 players
as for 16 (benchmarks/tournament_scale.py measures the same at 6,400)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.factories import make_players, make_tournament, seated_round, submit

pytestmark = pytest.mark.django_db


def field(size: int, organiser) -> str:
    slug = f"cup-{size}"
    tournament = make_tournament(organisers=[organiser], slug=slug, name=f"Cup {size}")
    players = make_players(tournament, size)
    tables = [players[start : start + 4] for start in range(0, size, 4)]
    _round, seated = seated_round(tournament, organiser, tables)
    submit(seated[0], organiser)  # one game with results
    return slug


def queries(url: str) -> int:
    client = Client()
    client.get(url)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured.captured_queries)


@pytest.mark.parametrize(
    "address",
    ["/t/{slug}/standings/", "/api/tournaments/{slug}/standings", "/t/{slug}/rounds/1/"],
)
def test_queries_do_not_grow_with_players(organiser, address):
    small = queries(address.format(slug=field(16, organiser)))
    large = queries(address.format(slug=field(64, organiser)))

    assert large == small
