"""The public round page is bounded: its tables and its seating by name come in pages, and a
search finds a player's table (tournament.web.round_list). Round 2 of the `cup` fixture has two
tables; the pages are made small here so that two tables make two pages."""

from __future__ import annotations

import pytest
from django.urls import reverse
from test_public_scenario import table_rows

from tournament.web import round_list

HTMX = {"HX-Request": "true"}


def url(query=""):
    return reverse("public:round", args=["spring-cup", 2]) + query


def board_titles(html):
    return [part.split('"')[0] for part in html.split('class="card board" id="')[1:]]


@pytest.fixture
def small_pages(monkeypatch):
    monkeypatch.setattr(round_list, "TABLES_PER_PAGE", 1)
    monkeypatch.setattr(round_list, "NAMES_PER_PAGE", 3)


def test_a_round_on_one_page_has_no_page_links_and_no_search_box(client, cup):
    html = client.get(url()).content.decode()

    assert board_titles(html) == ["table-1", "table-2"]
    assert 'class="pagination"' not in html
    assert 'name="q"' not in html
    assert len(table_rows(html, "by-name")) == 1 + 8


def test_tables_come_in_pages(client, cup, small_pages):
    first = client.get(url()).content.decode()
    second = client.get(url("?page=2")).content.decode()

    assert board_titles(first) == ["table-1"]
    assert board_titles(second) == ["table-2"]
    assert "Tables 1 to 1 of 2." in first
    assert 'href="?page=2#tables"' in first
    assert 'name="q"' in first  # the search box, once there are pages


def test_the_seating_by_name_comes_in_pages_linking_to_the_page_of_each_table(
    client, cup, small_pages
):
    first = client.get(url()).content.decode()
    second = client.get(url("?names=2")).content.decode()

    assert table_rows(first, "by-name")[1:] == [
        ["Ann Archer 1", "1", "East"],
        ["Ben Baker 2", "1", "North"],
        ["Cai Chen 3", "2", "East"],
    ]
    assert table_rows(second, "by-name")[1][0] == "Eve Evans 5"
    assert 'href="#table-1"' in first  # on this page of tables
    assert 'href="?page=2#table-2"' in first  # on the other one
    assert 'href="?names=2#seating"' in first


@pytest.mark.parametrize(
    ("query", "shown"),
    [
        ("?page=abc", ["table-1"]),
        ("?page=", ["table-1"]),
        ("?page=-3", ["table-1"]),
        ("?page=0", ["table-1"]),
        ("?page=%C2%B2", ["table-1"]),
        ("?page=99", ["table-2"]),
        ("?page=" + "9" * 40, ["table-2"]),
        ("?page=2&page=x", ["table-1"]),
        ("?names=zz&q=" + "a" * 500, ["table-1"]),
        ("?q=%00", ["table-1"]),
    ],
)
def test_a_bad_parameter_gives_a_page(client, cup, small_pages, query, shown):
    response = client.get(url(query))

    assert response.status_code == 200
    assert board_titles(response.content.decode()) == shown


def test_find_your_table_by_name(client, cup, small_pages):
    html = client.get(url("?q=FAY")).content.decode()

    assert "1 player found for “FAY”." in html
    found = html.split('id="found"')[1].split("</section>")[0]
    assert table_rows(found, "by-name")[1:] == [["Fay Fox 6", "2", "South"]]
    assert 'href="?page=2#table-2"' in found


def test_find_your_table_by_start_number_and_by_part_of_names(client, cup):
    by_key = client.get(url("?q=9")).content.decode().split('id="found"')[1]
    by_words = client.get(url("?q=ann+archer")).content.decode().split('id="found"')[1]

    assert table_rows(by_key, "by-name")[1] == ["Ivy Ito 9", "1", "West"]
    assert table_rows(by_words, "by-name")[1] == ["Ann Archer 1", "1", "East"]
    # The board of a small round is on the page: the search links to the anchor.
    assert 'href="#table-1"' in by_key


def test_a_search_that_finds_nobody_says_so(client, cup):
    html = client.get(url("?q=nobody")).content.decode()

    assert "0 players found for “nobody”." in html
    assert 'name="q" value="nobody"' in html


def test_many_players_found_are_cut(client, cup, monkeypatch):
    monkeypatch.setattr(round_list, "MOST_FOUND", 2)

    html = client.get(url("?q=a")).content.decode()

    assert "The first 2 are listed" in html
    found = html.split('id="found"')[1].split("</section>")[0]
    assert len(table_rows(found, "by-name")) == 1 + 2


def test_the_live_fragment_keeps_its_page_and_answers_304(client, cup, small_pages):
    page = client.get(url("?page=2")).content.decode()
    assert 'hx-get="/t/spring-cup/rounds/2/?page=2"' in page

    first = client.get(url("?page=2"), headers=HTMX)
    assert first.status_code == 200
    assert board_titles(first.content.decode()) == ["table-2"]
    assert "<html" not in first.content.decode()
    other = client.get(url("?page=1"), headers=HTMX)
    assert other["ETag"] != first["ETag"]

    again = client.get(url("?page=2"), headers={**HTMX, "If-None-Match": first["ETag"]})
    assert again.status_code == 304
