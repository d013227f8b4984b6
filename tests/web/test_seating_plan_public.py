"""The "Seating" section of the public player page: table and starting seat in every published
round, never a draft round."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournament.services import create_round, set_round_status, set_seating

pytestmark = pytest.mark.django_db


def url(key: str) -> str:
    return reverse("public:player", args=["spring-cup", key])


def seating_rows(html: str) -> list[list[str]]:
    block = html.split('<section id="seating">')[1].split("</section>")[0]
    rows = re.findall(r"<tr id=\"seating-\d+\">(.*?)</tr>", block, re.S)
    return [
        [
            " ".join(re.sub("<[^>]+>", "", cell).split())
            for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        ]
        for row in rows
    ]


@pytest.fixture
def player_name():
    """The `players` of tests/conftest.py are P1 to P8 here."""
    return "P{}"


@pytest.fixture
def rounds(tournament, organiser, players):
    """Round 1 in play, round 2 seated (published), round 3 a draft."""
    seatings = [
        [[0, 1, 2, 3], [4, 5, 6, 7]],
        [[4, 0, 5, 1], [2, 6, 3, 7]],
        [[0, 2, 4, 6], [1, 3, 5, 7]],
    ]
    made = []
    for tables in seatings:
        round = create_round(tournament=tournament, actor=organiser)
        set_seating(round=round, tables=[[players[i] for i in t] for t in tables], actor=organiser)
        made.append(round)
    for status in ("seated", "playing"):
        set_round_status(round=made[0], status=status, actor=organiser)
    set_round_status(round=made[1], status="seated", actor=organiser)
    return made


def test_every_published_round_with_table_seat_and_opponents(client, rounds):
    html = client.get(url("1")).content.decode()

    assert seating_rows(html) == [
        ["1", "1", "East", "P2 (S), P3 (W), P4 (N)"],
        ["2", "1", "South", "P5 (E), P6 (W), P2 (N)"],
    ]
    assert f'href="{url("5")}">P5</a>' in html


def test_organisers_do_not_see_draft_rounds_there_either(client, rounds, organiser):
    client.force_login(organiser)
    html = client.get(url("7")).content.decode()
    assert seating_rows(html) == [
        ["1", "2", "West", "P5 (E), P6 (S), P8 (N)"],
        ["2", "2", "South", "P3 (E), P4 (W), P8 (N)"],
    ]


def test_a_round_put_back_to_draft_disappears(client, rounds, organiser):
    set_round_status(round=rounds[1], status="draft", actor=organiser)
    html = client.get(url("1")).content.decode()
    assert [row[0] for row in seating_rows(html)] == ["1"]


def test_no_published_seating_yet(client, tournament, players, organiser):
    round = create_round(tournament=tournament, actor=organiser)
    set_seating(round=round, tables=[players[:4], players[4:]], actor=organiser)
    html = client.get(url("1")).content.decode()
    assert seating_rows(html) == []
    assert "No published seating yet." in html


def test_the_query_count_does_not_grow_with_the_rounds(client, tournament, organiser, players):
    counts = []
    for _ in range(2):
        round = create_round(tournament=tournament, actor=organiser)
        set_seating(round=round, tables=[players[:4], players[4:]], actor=organiser)
        set_round_status(round=round, status="seated", actor=organiser)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url("1"))
        counts.append(len(queries))
        assert len(seating_rows(response.content.decode())) == round.number
    assert counts[0] == counts[1] <= 8
