"""The statistics pages: who may read them, the figures they show and their query counts."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from stats_cup import PURE_DOTS, build_stats_cup

from tournament.models import Tournament
from tournament.services import (
    DealInput,
    add_player,
    confirm_submitted_games,
    create_round,
    end_game,
    record_deal,
    record_false_win,
    set_round_status,
    set_seating,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(tournament, organiser):
    """The two-round cup of tests/stats_cup.py (without its draft round 3); its players."""
    return build_stats_cup(tournament, organiser, draft_round=False)["players"]


def tournament_url(slug="spring-cup"):
    return reverse("stats:tournament", kwargs={"slug": slug})


def player_url(key="1", slug="spring-cup"):
    return reverse("stats:player", kwargs={"slug": slug, "key": key})


def figure(html: str, ident: str) -> str:
    """The text of the figure with this id, tags removed."""
    match = re.search(rf'<dd id="{ident}">(.*?)</dd>', html, re.S)
    assert match, ident
    return " ".join(re.sub(r"<[^>]+>", " ", match.group(1)).split())


# --- Who may read them ----------------------------------------------------------------------


def test_the_urls_sit_under_the_public_tournament():
    assert tournament_url() == "/t/spring-cup/statistics/"
    assert player_url("12") == "/t/spring-cup/statistics/players/12/"


def test_anyone_may_read_the_statistics_of_a_public_tournament(client, cup):
    assert client.get(tournament_url()).status_code == 200
    assert client.get(player_url()).status_code == 200


@pytest.mark.parametrize("who", [None, "stranger"])
def test_a_private_tournament_is_404_for_those_who_may_not_read_it(client, cup, who):
    Tournament.objects.filter(slug="spring-cup").update(public=False)
    if who:
        client.force_login(get_user_model().objects.create_user(username=who))
    assert client.get(tournament_url()).status_code == 404
    assert client.get(player_url()).status_code == 404


def test_a_private_tournament_is_readable_by_its_organisers_and_referees(
    client, tournament, organiser, cup
):
    Tournament.objects.filter(slug="spring-cup").update(public=False)
    client.force_login(organiser)
    assert client.get(player_url()).status_code == 200
    referee = get_user_model().objects.create_user(username="bob")
    tournament.rounds.get(number=2).tables.get(number=1).referees.add(referee)
    client.force_login(referee)
    assert client.get(tournament_url()).status_code == 200


def test_unknown_tournament_or_player_is_404(client, cup):
    assert client.get(tournament_url("no-such-cup")).status_code == 404
    assert client.get(player_url("99")).status_code == 404


def test_post_is_refused(client, cup):
    assert client.post(tournament_url()).status_code == 405
    assert client.post(player_url()).status_code == 405


# --- What they show -------------------------------------------------------------------------


def test_player_page_figures(client, cup):
    html = client.get(player_url("1")).content.decode()
    assert figure(html, "hands-played") == "4"
    assert figure(html, "hands-won") == "1"
    assert figure(html, "self-drawn") == "0% 0 of 1 wins"
    assert figure(html, "discarded") == "0"
    assert figure(html, "false-wins") == "0"
    assert figure(html, "average-fan") == "27.0 fan, flowers not counted"
    assert figure(html, "largest") == "27 fan + 1 flower, round 1, hand 1"
    assert figure(html, "favourite-fan") == (
        "Full Flush 清一色 · in 1 hand, level with 2 other fans"
        " Based on 1 of 1 win entered with its tiles"
    )
    assert "Fan names come from the 1 of 1 won hand entered with their tiles" in html
    # the largest hand links to its line on the public score sheet
    table = reverse("public:table", kwargs={"slug": "spring-cup", "number": 1, "table": 1})
    assert f'href="{table}#hand-1"' in html


def test_player_page_figures_without_tiles(client, cup):
    html = client.get(player_url("2")).content.decode()
    assert figure(html, "self-drawn") == "100% 1 of 1 wins"
    assert figure(html, "discarded") == "1"
    assert figure(html, "average-fan") == "12.0 fan, flowers not counted"
    # No fan names to count, and the page says why: no win was entered with its tiles.
    assert figure(html, "favourite-fan") == "– Based on 0 of 1 win entered with its tiles"
    assert "Fan names come from the 0 of 1 won hand entered with their tiles" in html


def test_player_page_charts_score_and_rank_after_each_round(client, cup):
    html = client.get(player_url("1")).content.decode()
    assert html.count('<svg class="chart"') == 2
    assert '<title id="chart-score-after-each-round-title">Score after each round</title>' in html
    assert '<title id="chart-rank-after-each-round-title">Rank after each round</title>' in html
    rows = re.findall(
        r'<tr><th scope="row" class="number">(\d+)</th><td class="number">([^<]*)</td>'
        r'<td class="number">([^<]*)</td><td class="number">([^<]*)</td>',
        html,
    )
    assert rows == [("1", "3", "2", "46"), ("2", "4", "3", "24")]


def test_a_substitute_has_a_score_chart_but_no_rank(client, tournament, cup):
    add_player(tournament=tournament, key="S", name="Sub", substitute=True)
    html = client.get(player_url("S")).content.decode()
    assert html.count('<svg class="chart"') == 1
    assert "Substitutes are not ranked." in html


def test_tournament_page_figures(client, cup):
    html = client.get(tournament_url()).content.decode()
    assert figure(html, "hands") == "8"
    assert figure(html, "wins") == "5"
    assert figure(html, "self-drawn") == "40% 2 of 5 wins"
    assert figure(html, "draws") == "3"
    assert figure(html, "false-wins") == "1"
    assert figure(html, "average-fan") == "16.8 fan, flowers not counted"
    assert figure(html, "favourite-fan") == (
        "Full Flush 清一色 · in 2 of 2 hands, level with 2 other fans"
        " Based on the 2 of 5 wins entered with their tiles"
    )
    assert "Shares of the 2 wins entered with their tiles" in html
    assert "From the 2 of 5 wins entered with their tiles" in html


def test_tournament_page_histogram_of_hand_values(client, cup):
    html = client.get(tournament_url()).content.decode()
    assert '<title id="chart-hand-values-wins-by-fan-title">' in html
    numbers = re.findall(
        r'<tr><th scope="row">([^<]+)</th><td class="number">(\d+)</td></tr>', html
    )
    assert numbers == [
        ("8", "1"),
        ("9–11", "1"),
        ("12–15", "1"),
        ("16–23", "0"),
        ("24–31", "2"),
        ("32–47", "0"),
        ("48–63", "0"),
        ("64–87", "0"),
        ("88+", "0"),
    ]


def test_tournament_page_biggest_hands_link_to_score_sheets(client, cup):
    html = client.get(tournament_url()).content.decode()
    biggest = html.split('<table class="biggest">')[1].split("</table>")[0]
    sheets = re.findall(r'href="/t/spring-cup/rounds/(\d+)/tables/(\d+)/#hand-(\d+)"', biggest)
    assert sheets == [("1", "1", "1"), ("1", "2", "1"), ("2", "1", "1"), ("1", "2", "2"),
                      ("1", "1", "3")]  # fmt: skip
    assert reverse("stats:player", kwargs={"slug": "spring-cup", "key": "5"}) in biggest


def test_tournament_page_draws_and_false_wins_per_round(client, cup):
    html = client.get(tournament_url()).content.decode()
    rounds = html.split('<table class="rounds">')[1].split("</table>")[0]
    cells = [
        re.findall(r"<t[hd][^>]*>(?:<a [^>]+>)?([^<]*)", row)
        for row in re.findall(r"<tr>(.*?)</tr>", rounds.split("<tbody>")[1], re.S)
    ]
    assert cells == [["1", "5", "4", "1", "1", "1"], ["2", "3", "1", "1", "2", "0"]]
    assert '<title id="chart-drawn-hands-and-false-wins-per-round-title">' in html


def test_an_empty_tournament_has_empty_statistics(client, tournament):
    html = client.get(tournament_url()).content.decode()
    assert figure(html, "hands") == "0"
    assert figure(html, "average-fan") == "– fan, flowers not counted"
    assert "Nothing to draw yet." in html
    assert "No wins yet." in html


# --- Query counts ---------------------------------------------------------------------------


def build(tournament, organiser, tables: int) -> None:
    """Two rounds of `tables` tables; every table has a win with tiles, a drawn hand and a
    false win, and has ended."""
    players = [
        add_player(tournament=tournament, key=str(n), name=f"Player {n}")
        for n in range(1, 4 * tables + 1)
    ]
    groups = [players[i : i + 4] for i in range(0, len(players), 4)]
    for number in (1, 2):
        round = create_round(tournament=tournament, actor=organiser)
        shift = number - 1
        set_seating(round=round, tables=[g[shift:] + g[:shift] for g in groups], actor=organiser)
        set_round_status(round=round, status="seated", actor=organiser)
        set_round_status(round=round, status="playing", actor=organiser)
        for table in round.tables.all():
            seats = sorted(table.seats.all(), key=lambda seat: seat.index)
            record_deal(
                table=table,
                number=1,
                deal=DealInput(
                    result="win", winner=seats[0].player, discarder=seats[1].player, tiles=PURE_DOTS
                ),
                entered_by=organiser,
            )
            record_deal(table=table, number=2, deal=DealInput(result="draw"), entered_by=organiser)
            record_false_win(table=table, number=3, offender=seats[3].player,
                             invalid_hand=False, entered_by=organiser)  # fmt: skip
            end_game(table=table, ended_by_time=True, entered_by=organiser)
        confirm_submitted_games(round=round, confirmed_by=organiser)
        set_round_status(round=round, status="finished", actor=organiser)


@pytest.mark.parametrize("tables", [2, 6])
def test_query_counts_do_not_grow_with_the_tournament(
    client, tournament, organiser, django_assert_max_num_queries, tables
):
    build(tournament, organiser, tables)
    # tournament, rounds, hands, false wins
    with django_assert_max_num_queries(4):
        assert client.get(tournament_url()).status_code == 200
    # tournament, player, players, seats of ended games, the player's hands, false wins
    with django_assert_max_num_queries(6):
        assert client.get(player_url("1")).status_code == 200
