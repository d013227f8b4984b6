"""Score sheets, standings and printed game sheets of Japanese Transitional and Wilmington
games: deal by deal, with the dealer's extra hands, faulty outs, several winners and the
initial points."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tournament.models import Tournament
from tournament.reads.selectors import standings
from tournament.services import DealInput, record_deal

pytestmark = pytest.mark.django_db


def played(world, preset: str, deals: list[dict]) -> None:
    Tournament.objects.filter(pk=world.tournament.pk).update(preset=preset, seat_rotation="none")
    world.tournament.refresh_from_db()
    players = world.players
    for number, facts in enumerate(deals, start=1):
        facts = {
            name: players[value] if name in ("winner", "discarder", "offender") else value
            for name, value in facts.items()
        }
        if "extra_winners" in facts:
            facts["extra_winners"] = [(players[i], v) for i, v in facts["extra_winners"]]
        record_deal(
            table=world.table, number=number, entered_by=world.referee, deal=DealInput(**facts)
        )


def table_page(client, world) -> str:
    url = reverse("public:table", args=["spring-cup", 1, 1])
    return client.get(url).content.decode()


def test_a_japanese_score_sheet_marks_extra_hands_and_faulty_outs(client, world):
    played(
        world,
        "japanese-transitional",
        [
            {"result": "win", "winner": 0, "discarder": 1, "value": 60},
            {"result": "faulty_out", "offender": 2},
            {"result": "draw"},
        ],
    )

    html = table_page(client, world)

    assert "+1</small>" in html  # deal 2 is East's first extra hand
    assert "Faulty out by Player 3" in html
    assert "60 points" in html


def test_several_wilmington_winners_are_on_the_score_sheet(client, world):
    played(
        world,
        "wilmington-12-tile",
        [{"result": "win", "winner": 1, "discarder": 2, "value": 45, "extra_winners": [(3, 35)]}],
    )

    assert "Player 4 also wins, 35 points" in table_page(client, world)


def test_standings_count_the_score_from_the_initial_points(world):
    played(world, "japanese-transitional", [{"result": "win", "winner": 0, "value": 60}])
    world.table.ended_at = world.table.confirmed_at = world.table.round.tournament.created
    world.table.save()

    rows = {row.player.key: row.score for row in standings(world.tournament)}

    assert (rows["1"], rows["2"]) == (360, -120)  # 8,360 and 7,880 points, less 8,000


def test_a_printed_japanese_sheet_shows_the_initial_points_and_room_for_kept_deals(client, world):
    played(world, "japanese-transitional", [{"result": "win", "winner": 0, "value": 60}])
    client.force_login(world.organiser)

    html = client.get(reverse("outputs:sheets", args=["spring-cup", 1])).content.decode()

    assert "Every player starts with 8000 points." in html
    assert html.count('<th scope="row" class="hand">') >= 24  # 16 deals and room for more
    assert "8360" in html  # the running points after deal 1


def test_a_japanese_score_sheet_totals_points_from_the_initial_points(client, world):
    # East wins 60 self-drawn as dealer: 2F = 120 from each, 360 in all.
    played(world, "japanese-transitional", [{"result": "win", "winner": 0, "value": 60}])

    html = table_page(client, world)
    running = re.findall(r'<td class="number running">(-?\d+)</td>', html)
    game = re.findall(r'<td colspan="3" class="number total">(-?\d+)</td>', html)

    assert running == ["8360", "7880", "7880", "7880"]
    assert game == ["360", "-120", "-120", "-120"]  # what the standings count
    assert "from 8000 at the start" in html


def test_an_mcr_score_sheet_totals_from_zero(client, world):
    played(world, "mcr", [{"result": "win", "winner": 0, "fan": 8}])

    running = re.findall(r'<td class="number running">(-?\d+)</td>', table_page(client, world))

    assert running == ["48", "-16", "-16", "-16"]
