"""The printouts and the EMA file count confirmed game sheets only, and say what is left out."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from sheets_world import build_sheets_round

from tournament.services import add_player, confirm_game, end_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def waiting(tournament, organiser, client):
    """Round 1 in play: table 1 (A-D) confirmed, A self-drawn 8 fan; table 2 (E-H) submitted,
    E self-drawn 8 fan, waiting for confirmation; table 3 (I-L) still being played."""
    players = [
        add_player(
            tournament=tournament, key=str(n), name=f"Player {name}", ema_number=f"040100{n:02d}"
        )
        for n, name in enumerate("ABCDEFGHIJKL", start=1)
    ]
    tables = build_sheets_round(tournament, organiser, players)
    client.force_login(organiser)
    return tables


def page_text(client, name) -> str:
    response = client.get(reverse(name, kwargs={"slug": "spring-cup"}))
    assert response.status_code == 200
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


@pytest.mark.parametrize("name", ["outputs:ema", "outputs:standings"])
def test_printouts_say_which_games_are_not_counted(client, waiting, name):
    assert (
        "Provisional: only games with a confirmed sheet count. 1 game of published rounds has "
        "not ended. 1 game sheet waits for confirmation." in page_text(client, name)
    )


def test_no_note_once_every_sheet_is_confirmed(client, waiting, organiser):
    for table in waiting[1:]:
        table.refresh_from_db()
        if table.ended_at is None:
            end_game(table=table, ended_by_time=True, entered_by=organiser)
        confirm_game(table=table, confirmed_by=organiser)

    assert "Provisional" not in page_text(client, "outputs:standings")


def test_ema_file_counts_the_confirmed_game_only(client, waiting):
    response = client.get(reverse("outputs:ema_csv", kwargs={"slug": "spring-cup"}))
    lines = response.content.decode("utf-8-sig").splitlines()

    assert lines[1] == "1,04010001,A,Player,,4,48,1000"
    # E won the game waiting for confirmation: it does not count yet
    assert "5,04010005,E,Player,,0,0,636" in lines
    assert [line.split(",")[0] for line in lines[2:]] == ["2"] * 3 + ["5"] * 8
