"""The public page of a player: details, rank and totals, games, hands and penalties."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from test_public_scenario import body_rows, build_field

from tournament.services import add_player


def url(key):
    return reverse("public:player", args=["spring-cup", key])


def facts(html):
    """The player's facts list as a dict."""
    block = html.split('<dl class="facts">')[1].split("</dl>")[0]
    pairs = re.findall(r"<dt>(.*?)</dt><dd[^>]*>(.*?)</dd>", block, re.S)
    return {term: " ".join(value.split()) for term, value in pairs}


def test_shows_details_rank_and_totals_of_ended_games(client, cup):
    html = client.get(url("1")).content.decode()

    assert "<h1>Ann Archer" in html
    assert facts(html) == {
        "Key": "1",
        "Country": "NL",
        "Club": "Dragons",
        "Rank": "1",
        "Table points": "4",
        "Score": "50",
        "Games counted": "1",
    }


def test_lists_every_game_with_seat_score_and_table_points(client, cup):
    html = client.get(url("1")).content.decode()

    assert body_rows(html, "games") == [
        ["1", "1", "50", "4", "East", "ended by time · score sheet"],
        ["2", "1", "-16", "–", "East", "in progress · score sheet"],
    ]
    assert f'href="{reverse("public:table", args=["spring-cup", 2, 1])}"' in html


def test_organisers_also_see_games_of_a_draft_round(client, cup, organiser):
    client.force_login(organiser)

    rows = body_rows(client.get(url("1")).content.decode(), "games")

    assert rows[2] == ["3", "1", "0", "–", "East", "not started · score sheet"]


def test_lists_every_hand_won_or_paid_with_points(client, cup):
    html = client.get(url("1")).content.decode()

    assert body_rows(html, "hands") == [
        ["1", "1", "+48", "E", "Won self-drawn, 8 fan"],
        ["1", "2", "-8", "N", "Ben Baker won on Cai Chen’s discard, 10 fan + 2 flowers"],
        ["2", "1", "-16", "E", "Discarded to Ivy Ito, 8 fan"],
    ]
    assert f'href="{reverse("public:table", args=["spring-cup", 1, 1])}#hand-2"' in html


def test_penalties_paid_and_shares_received(client, cup):
    html = client.get(url("3")).content.decode()

    assert body_rows(html, "hands") == [
        ["1", "1", "-16", "W", "Ann Archer won self-drawn, 8 fan"],
        ["1", "2", "-20", "S", "Discarded to Ben Baker, 10 fan + 2 flowers"],
    ]
    assert body_rows(html, "penalties") == [
        ["1", "4", "+10", "Share of Dora Diaz’s penalty (false win)"],
        ["1", "game", "-10", "Deduction: late return"],
    ]
    assert facts(html)["Rank"] == "6"
    assert facts(html)["Score"] == "-36"


def test_a_false_win_on_the_offenders_page(client, cup):
    html = client.get(url("4")).content.decode()

    assert body_rows(html, "penalties") == [["1", "4", "-30", "False win"]]
    assert "withdrawn from round 2" in html
    assert facts(html)["Rank"] == "8"


def test_a_shared_rank_with_fractional_table_points(client, cup):
    html = client.get(url("6")).content.decode()

    assert facts(html)["Rank"] == "2"
    assert facts(html)["Table points"] == "2 1/3"


def test_a_substitute_is_not_ranked(client, cup):
    html = client.get(url("9")).content.decode()

    assert "substitute" in html.split("<h1>")[1].split("</h1>")[0]
    assert facts(html)["Rank"] == "not ranked (substitute)"
    assert facts(html)["Games counted"] == "0"
    assert body_rows(html, "hands") == [
        ["2", "1", "+32", "W", "Won on Ann Archer’s discard, 8 fan"],
    ]
    assert "No penalties." in html


def test_a_player_without_games(client, tournament):
    add_player(tournament=tournament, key="A7", name="Zoe Zhu", ema_number="04120042")

    html = client.get(url("A7")).content.decode()

    assert facts(html)["EMA number"] == "04120042"
    assert "No games yet." in html
    assert "No hands won or paid yet." in html


def test_a_key_with_every_sign_its_alphabet_allows_has_a_working_link(client, tournament):
    add_player(tournament=tournament, key="B-12_3.4", name="Yan Yu")

    standings = client.get(reverse("public:standings", args=["spring-cup"])).content.decode()
    link = re.search(r'href="([^"]+)">Yan Yu</a>', standings).group(1)

    assert link == "/t/spring-cup/players/B-12_3.4/"
    assert "<h1>Yan Yu" in client.get(link).content.decode()


@pytest.mark.parametrize("tables", [2, 6])
def test_query_count_does_not_grow_with_the_field(
    client, tournament, organiser, tables, django_assert_max_num_queries
):
    build_field(tournament, organiser, tables=tables)

    with django_assert_max_num_queries(8):
        response = client.get(url("1"))
    assert len(body_rows(response.content.decode(), "games")) == 2
