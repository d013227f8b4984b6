"""The organiser confirms a submitted game sheet from the table's correction page."""

from __future__ import annotations

import pytest
from django.urls import reverse
from factories import make_players, seated_round, submit

from tournament.models import AuditEntry
from tournament.reads.selectors import standings

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(tournament, organiser):
    """Round 1 in play; table 1's sheet submitted: P1 won hand 1 self-drawn for 8, time called."""
    _, (table,) = seated_round(tournament, organiser, [make_players(tournament, 4, name="P{}")])
    submit(table, organiser, hands=1)
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
