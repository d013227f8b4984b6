"""The organiser confirms a submitted game sheet from the table's correction page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournament.models import AuditEntry
from tournament.selectors import standings
from tournament.services import (
    add_player,
    create_round,
    end_game,
    record_hand,
    set_round_status,
    set_seating,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(tournament, organiser):
    players = [add_player(tournament=tournament, key=str(n), name=f"P{n}") for n in range(1, 5)]
    round = create_round(tournament=tournament, actor=organiser)
    (table,) = set_seating(round=round, tables=[players], actor=organiser)
    set_round_status(round=round, status="seated", actor=organiser)
    set_round_status(round=round, status="playing", actor=organiser)
    record_hand(table=table, number=1, result="win", winner=players[0], fan=8,
                entered_by=organiser)  # fmt: skip
    end_game(table=table, ended_by_time=True, entered_by=organiser)
    return table


def page_url(table) -> str:
    return reverse(
        "organiser:table", kwargs={"slug": "spring-cup", "number": 1, "table": table.number}
    )


def test_a_submitted_sheet_is_confirmed_from_the_table_page(client, organiser, table):
    client.force_login(organiser)
    page = client.get(page_url(table)).content.decode()
    assert "waits for confirmation" in page
    assert "Confirm the sheet" in page
    assert all(row.table_points == 0 for row in standings(table.round.tournament))

    confirm = reverse(
        "organiser:confirm_game", kwargs={"slug": "spring-cup", "number": 1, "table": 1}
    )
    response = client.post(confirm, {"next": page_url(table)})
    assert response.status_code == 302
    assert response["Location"] == page_url(table)
    table.refresh_from_db()
    assert table.confirmed_by == organiser
    assert AuditEntry.objects.filter(action=AuditEntry.Action.GAME_CONFIRMED).count() == 1
    page = client.get(page_url(table)).content.decode()
    assert "Confirm the sheet" not in page
    assert "The sheet was confirmed" in page
    winner = standings(table.round.tournament)[0]
    assert (winner.player.key, winner.table_points) == ("1", 4)
