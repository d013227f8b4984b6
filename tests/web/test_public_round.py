"""The public seating page of a round."""

from __future__ import annotations

import pytest
from django.urls import reverse
from test_public_scenario import build_field, table_rows

from tournament.models import Round
from tournament.services import create_round, set_round_status


def url(number):
    return reverse("public:round", args=["spring-cup", number])


def test_finished_round_shows_each_table_with_scores_and_table_points(client, cup):
    html = client.get(url(1)).content.decode()

    assert table_rows(html, "seats") == [
        ["Seat", "Player", "Score", "Table points"],
        ["E", "Ann Archer 1", "50", "4"],
        ["S", "Ben Baker 2", "30", "2"],
        ["W", "Cai Chen 3", "-36", "1"],
        ["N", "Dora Diaz 4", "-54", "0"],
        ["Seat", "Player", "Score", "Table points"],
        ["E", "Eve Evans 5", "16", "2 1/3"],
        ["S", "Fay Fox 6", "16", "2 1/3"],
        ["W", "Gus Green 7", "16", "2 1/3"],
        ["N", "Hal Hill 8", "-48", "0"],
    ]
    assert "ended by time" in html
    assert f'href="{reverse("public:table", args=["spring-cup", 1, 2])}"' in html


def test_a_game_in_progress_shows_scores_so_far_and_a_game_not_started_only_seats(client, cup):
    html = client.get(url(2)).content.decode()

    assert table_rows(html, "seats") == [
        ["Seat", "Player", "Score", "Table points so far"],
        ["E", "Ann Archer 1", "-16", "0"],
        ["S", "Eve Evans 5", "-8", "1 1/2"],
        ["W", "Ivy Ito 9", "32", "4"],
        ["N", "Ben Baker 2", "-8", "1 1/2"],
        ["Seat", "Player"],
        ["E", "Cai Chen 3"],
        ["S", "Fay Fox 6"],
        ["W", "Gus Green 7"],
        ["N", "Hal Hill 8"],
    ]
    assert "in progress, 1 hand" in html


def test_seated_round_shows_seats_without_scores(client, tournament, organiser, cup):
    round = Round.objects.get(tournament=tournament, number=3)
    set_round_status(round=round, status=Round.Status.SEATED, actor=organiser)

    html = client.get(url(3)).content.decode()

    assert table_rows(html, "seats")[0] == ["Seat", "Player"]
    assert "Score" not in html.split('class="seats"')[1].split("</table>")[0]


def test_lists_every_player_by_name_with_table_and_seat(client, cup):
    rows = table_rows(client.get(url(2)).content.decode(), "by-name")

    assert rows == [
        ["Player", "Table", "Seat"],
        ["Ann Archer 1", "1", "East"],
        ["Ben Baker 2", "1", "North"],
        ["Cai Chen 3", "2", "East"],
        ["Eve Evans 5", "1", "South"],
        ["Fay Fox 6", "2", "South"],
        ["Gus Green 7", "2", "West"],
        ["Hal Hill 8", "2", "North"],
        ["Ivy Ito 9", "1", "West"],
    ]


def test_a_draft_round_is_hidden_from_the_public(client, cup):
    assert client.get(url(3)).status_code == 404


def test_a_draft_round_is_shown_to_organisers(client, cup, organiser):
    client.force_login(organiser)

    response = client.get(url(3))

    assert response.status_code == 200
    assert "only organisers see it" in response.content.decode()


def test_a_round_without_tables(client, tournament, organiser):
    create_round(tournament=tournament, actor=organiser)
    client.force_login(organiser)

    assert "not seated yet" in client.get(url(1)).content.decode()


@pytest.mark.parametrize("tables", [2, 6])
def test_query_count_does_not_grow_with_the_field(
    client, tournament, organiser, tables, django_assert_max_num_queries
):
    build_field(tournament, organiser, tables=tables)

    # Access, round, every seat's name and table, the table numbers, one page of tables and
    # their seats: six, whatever the size.
    with django_assert_max_num_queries(6):
        response = client.get(url(1))
    assert len(table_rows(response.content.decode(), "by-name")) == 1 + 4 * tables
