"""Lists that grow with a tournament answer a page at a time (tournament.api.pages)."""

from __future__ import annotations

import pytest

from tournament.services import add_player

pytestmark = pytest.mark.django_db

T = "/api/tournaments/spring-cup"


@pytest.fixture
def many(tournament, players):
    for number in range(9, 31):
        add_player(tournament=tournament, name=f"Player {number}", key=str(number))


@pytest.mark.parametrize("what", ["players", "standings"])
def test_a_page_and_the_next_one_cover_the_list(anonymous, many, what):
    every = anonymous.get(f"{T}/{what}").json()
    first = anonymous.get(f"{T}/{what}?limit=20").json()
    second = anonymous.get(first["next"]).json()

    assert every["count"] == 30 and len(every[what]) == 30 and every["next"] is None
    assert (first["count"], first["limit"], first["offset"]) == (30, 20, 0)
    assert first["next"].startswith(f"{T}/{what}?") and "offset=20" in first["next"]
    assert second["offset"] == 20 and second["next"] is None
    assert first[what] + second[what] == every[what]


def test_the_standings_page_keeps_the_other_parameters(anonymous, many):
    body = anonymous.get(f"{T}/standings?provisional=1&limit=5&offset=5").json()

    assert body["provisional"] is True
    assert len(body["standings"]) == 5
    assert "provisional=1" in body["next"] and "offset=10" in body["next"]


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ("limit=0", "limit", "Give a number of at least 1."),
        ("limit=1001", "limit", "Give a number of at most 1000."),
        ("limit=ten", "limit", "Give a whole number."),
        ("offset=-1", "offset", "Give a number of at least 0."),
        ("offset=99999999999999999999", "offset", "Give a number of at most 1000000."),
    ],
)
def test_a_wrong_limit_or_offset_is_400_naming_it(anonymous, many, query, field, message):
    response = anonymous.get(f"{T}/standings?{query}")

    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "invalid"
    assert body["fields"] == {field: message}


def test_an_offset_past_the_end_is_an_empty_page(anonymous, many):
    body = anonymous.get(f"{T}/players?offset=500").json()

    assert body["players"] == [] and body["count"] == 30 and body["next"] is None


def test_the_round_answers_a_page_of_tables(anonymous, board):
    body = anonymous.get(f"{T}/rounds/1?limit=1").json()
    board_body = anonymous.get(f"{T}/rounds/1/board?limit=1").json()

    assert len(body["tables"]) == 1 and body["count"] == 2
    assert body["tables"][0]["number"] == 1
    assert anonymous.get(body["next"]).json()["tables"][0]["number"] == 2
    # The board counts every table, not only the page's.
    assert len(board_body["tables"]) == 1
    assert sum(board_body["sheets"].values()) == 2


def test_the_document_lists_limit_and_offset_with_their_bounds():
    from config.api import api

    document = api.get_openapi_schema()
    parameters = document["paths"]["/api/tournaments/{slug}/standings"]["get"]["parameters"]
    by_name = {parameter["name"]: parameter for parameter in parameters}

    assert by_name["limit"]["schema"]["maximum"] == 1000
    assert by_name["limit"]["schema"]["minimum"] == 1
    assert by_name["offset"]["schema"]["minimum"] == 0
