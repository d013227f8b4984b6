"""Reads take a fixed number of queries, however many hands, tables or players there are."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournament.models import Player
from tournament.services import DealInput, create_table, record_deal, record_penalty

pytestmark = pytest.mark.django_db

T = "/api/tournaments/spring-cup"


def queries(client, url) -> int:
    # Not counted: a token's first use, which notes when it was used (tournament.infra.tokens).
    client.get(url)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured.captured_queries)


@pytest.mark.parametrize("reader", ["anonymous", "as_organiser"])
def test_score_sheet_queries_do_not_grow_with_hands(request, reader, table, bob, players):
    client = request.getfixturevalue(reader)
    url = f"{T}/rounds/1/tables/1"
    record_deal(table=table, number=1, deal=DealInput(result="draw"), entered_by=bob)
    one_hand = queries(client, url)

    for number in range(2, 17):
        record_deal(
            table=table,
            number=number,
            deal=DealInput(result="win", winner=players[number % 4], fan=8),
            entered_by=bob,
        )
    record_penalty(
        table=table,
        player=players[0],
        points=10,
        distributed=False,
        reason="Late",
        entered_by=bob,
    )

    assert queries(client, url) == one_hand


@pytest.mark.parametrize("preset", ["japanese-transitional", "wilmington-12-tile"])
def test_score_sheet_queries_do_not_grow_with_deals_of_points_presets(
    anonymous, table, tournament, bob, players, preset
):
    """Further winners (WA), offenders (JT) and the facts of each deal are read with the
    deals, not one by one."""
    tournament.preset, tournament.seat_rotation = preset, "none"
    tournament.save()
    url = f"{T}/rounds/1/tables/1"
    east, south, west, north = players[:4]
    if preset == "wilmington-12-tile":
        kinds = [{"winner": south, "discarder": east, "value": 20, "extra_winners": [(west, 30)]}]
    else:
        kinds = [
            {"result": "faulty_out", "offender": west},
            {"winner": north, "value": 40, "riichi": [east, north], "faulty_claims": [south]},
        ]
    deals = [kinds[number % len(kinds)] for number in range(8)]

    def enter(number: int) -> None:
        facts = {"result": "win"} | deals[number - 1]
        record_deal(table=table, number=number, entered_by=bob, deal=DealInput(**facts))

    for number in range(1, len(kinds) + 1):
        enter(number)
    first_deals = queries(anonymous, url)
    for number in range(len(kinds) + 1, 9):
        enter(number)

    assert queries(anonymous, url) == first_deals


def test_round_queries_do_not_grow_with_tables(as_organiser, table, round, tournament):
    one_table = queries(as_organiser, f"{T}/rounds/1")
    extra = [Player.objects.create(tournament=tournament, key=f"x{n}", name="X") for n in range(8)]
    create_table(round=round, number=3, players=extra[:4])
    create_table(round=round, number=4, players=extra[4:])

    assert queries(as_organiser, f"{T}/rounds/1") == one_table


def test_standings_queries_do_not_grow_with_players(anonymous, table, tournament):
    few = queries(anonymous, f"{T}/standings")
    for n in range(40):
        Player.objects.create(tournament=tournament, key=f"p{n}", name=f"P{n}")

    assert queries(anonymous, f"{T}/standings") == few
