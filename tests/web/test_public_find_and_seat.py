"""Players on the public pages: finding themselves by name, where they sit next, and the
standings written without django-tables2 (sorting, pages, the narrow layout's columns)."""

from __future__ import annotations

import re

import pytest
from django.test import RequestFactory
from django.urls import reverse
from factories import seated_round
from test_public_scenario import build_cup

from tournament.models import Round
from tournament.services import add_player, end_game, set_round_status
from tournament.web.standings_list import folded, matching, sort_order

pytestmark = pytest.mark.django_db

STANDINGS = reverse("public:standings", args=["spring-cup"])
TOURNAMENT = reverse("public:tournament", args=["spring-cup"])


def keys(response) -> list[str]:
    return re.findall(r'<tr[^>]*data-key="([^"]+)"', response.content.decode())


def text(response) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


@pytest.fixture
def cup(tournament, organiser):
    return build_cup(tournament, organiser)


# --- Finding a player by name ---------------------------------------------------------------


def test_the_standings_find_a_player_by_part_of_their_name(client, cup):
    response = client.get(STANDINGS, {"q": "evan"})

    assert keys(response) == ["5"]
    assert "1 player found for “evan”." in text(response)
    # The rank is the one in the whole field, not in the search result.
    assert re.search(r'data-key="5"><td class="number">2</td>', response.content.decode())


def test_the_search_ignores_case_accents_and_word_order(client, tournament, cup):
    add_player(tournament=tournament, key="10", name="Zoë Müller")

    assert keys(client.get(STANDINGS, {"q": "MULLER zoe"})) == ["10"]
    assert keys(client.get(STANDINGS, {"q": "  fox   FAY "})) == ["6"]


def test_a_start_number_finds_its_player(client, cup):
    assert keys(client.get(STANDINGS, {"q": "7"})) == ["7"]


def test_no_match_says_so_and_offers_everyone_back(client, cup):
    response = client.get(STANDINGS, {"q": "nobody", "sort": "score"})

    assert keys(response) == []
    assert "No player has this name." in text(response)
    assert 'href="?sort=score">Show everyone</a>' in response.content.decode()


def test_the_search_form_works_without_scripts_and_keeps_the_sort(client, cup):
    html = client.get(STANDINGS, {"sort": "-score", "provisional": "1", "q": "an"}).content
    html = html.decode()

    form = re.search(r'<form class="find-player" method="get".*?</form>', html, re.S).group(0)
    assert 'name="q" value="an"' in form
    assert '<input type="hidden" name="provisional" value="1">' in form
    assert '<input type="hidden" name="sort" value="-score">' in form


def test_a_long_or_odd_search_is_cut_never_refused(client, cup):
    for query in ["x" * 5000, "<script>", "%", "\u0000"]:
        response = client.get(STANDINGS, {"q": query})
        assert response.status_code == 200
    assert "<script>" not in client.get(STANDINGS, {"q": "<script>"}).content.decode()


def test_the_tournament_page_finds_players_by_name(client, cup):
    response = client.get(TOURNAMENT, {"q": "gus"})

    page = text(response)
    assert "Players (9)" in page  # the count of the whole field
    assert "1 player found for “gus”." in page
    assert "Gus Green" in page and "Ann Archer" not in page
    assert "No player has this name." in text(client.get(TOURNAMENT, {"q": "zzz"}))


def test_folding_and_matching():
    rows = [{"key": "1", "name": "Łukasz Żółć"}, {"key": "2", "name": "Ève Dupré"}]
    assert folded("Ève") == "eve"
    assert matching(rows, "eve") == [rows[1]]
    assert matching(rows, "") == rows
    assert matching(rows, "2") == [rows[1]]


# --- Sorting and pages without django-tables2 -------------------------------------------------


def test_sort_order_reads_columns_and_directions_and_ignores_the_rest():
    def order(value):
        return sort_order(RequestFactory().get("/", {"sort": value}))

    assert order("-score") == [("score", True)]
    assert order("name,-rank") == [("name", False), ("rank", True)]
    assert order("nonsense") == []
    assert order("score,score") == [("score", False)]


def test_headings_link_to_the_other_direction_of_the_current_sort(client, cup):
    html = client.get(STANDINGS, {"sort": "score", "page": "1"}).content.decode()

    assert '<th class="number orderable asc" aria-sort="ascending"><a href="?sort=-score">' in html
    assert '<a href="?sort=name">Name</a>' in html  # a new sort starts at page 1


def test_pages_of_a_big_field_have_links_that_keep_the_sort(client, cup):
    response = client.get(STANDINGS, {"per_page": 2, "page": 2, "sort": "name"})

    assert keys(response) == ["3", "4"]
    html = response.content.decode()
    assert '<li class="next"><a href="?per_page=2&amp;page=3&amp;sort=name">next</a>' in html
    assert re.search(r'<a href="\?[^"]*page=2[^"]*" aria-current="page">2</a>', html)


def test_the_columns_left_out_on_a_phone_are_marked(client, cup):
    html = client.get(STANDINGS).content.decode()

    for heading in ("Key", "Country", "Club", "Games"):
        assert re.search(rf'<th class="[^"]*wide-only[^"]*"><a [^>]*>{heading}</a>', html)
    for heading in ("Rank", "Name", "Table points", "Score"):
        assert not re.search(rf'<th class="[^"]*wide-only[^"]*"><a [^>]*>{heading}</a>', html)
    assert "turn the phone sideways" in html


# --- "Your next table" on the player's page ---------------------------------------------------


def player(client, key):
    return text(client.get(reverse("public:player", args=["spring-cup", key])))


def test_a_player_in_a_game_in_play_sees_their_table_first(client, cup):
    page = player(client, "1")  # Ann: round 2, table 1, East; round 3 is a draft

    assert "Your table now: table 1, seat East" in page
    assert page.index("Your table now") < page.index("Seating")
    assert "Round 2 · in progress · With Eve Evans (S), Ivy Ito (W), Ben Baker (N)" in page


def test_the_next_published_round_follows_once_the_game_has_ended(
    client, tournament, organiser, cup
):
    second = tournament.rounds.get(number=2)
    for table in second.tables.all():
        end_game(table=table, ended_by_time=True, entered_by=organiser)
    assert "Your table" not in player(client, "1")  # round 3 is a draft: not published

    third = tournament.rounds.get(number=3)
    set_round_status(round=third, status=Round.Status.SEATED, actor=organiser)
    page = player(client, "1")
    assert "Your next table: table 1, seat East" in page
    assert "Round 3 · not started" in page


def test_a_player_not_seated_sees_no_next_table(client, tournament, organiser):
    ann = add_player(tournament=tournament, key="1", name="Ann", substitute=True)
    others = [add_player(tournament=tournament, key=str(n), name=f"P{n}") for n in range(2, 6)]
    seated_round(tournament, organiser, [others], status=Round.Status.SEATED)

    page = text(client.get(reverse("public:player", args=["spring-cup", ann.key])))
    assert "Your next table" not in page and "Your table now" not in page
    page = text(client.get(reverse("public:player", args=["spring-cup", "3"])))
    assert "Your next table: table 1, seat South" in page
