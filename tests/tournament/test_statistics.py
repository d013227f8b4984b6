"""Statistics of a small hand-made tournament, every figure worked out by hand below."""

from __future__ import annotations

from fractions import Fraction

import pytest
from stats_cup import build_stats_cup

from scoring.engine import get_preset
from tournament.reads.selectors import score_sheet, score_sheets, standings
from tournament.reads.statistics import (
    WinPatterns,
    player_false_wins,
    player_hands,
    player_statistics,
    progress_of,
    standings_after_rounds,
    tournament_statistics,
    value_ranges,
)
from tournament.services import add_player


@pytest.fixture
def cup(tournament, organiser):
    """See tests/stats_cup.py for the games and their hand-computed figures."""
    return build_stats_cup(tournament, organiser)


def summary(rows):
    return [(row.player.name, row.rank, row.table_points, row.score) for row in rows]


def test_standings_after_each_round(tournament, cup):
    after = standings_after_rounds(tournament)
    assert sorted(after) == [1, 2]
    assert summary(after[1]) == [
        ("P3", 1, 4, 50),
        ("P5", 2, 4, 34),
        ("P1", 3, 2, 46),
        ("P6", 4, 2, -2),
        ("P2", 5, 1, -42),
        ("P7", 6, Fraction(1, 2), -16),
        ("P8", 6, Fraction(1, 2), -16),
        ("P4", 8, 0, -54),
    ]
    assert summary(after[2]) == [
        ("P3", 1, Fraction(23, 4), 50),
        ("P2", 2, 5, 24),
        ("P5", 3, 5, 12),
        ("P1", 4, 3, 24),
        ("P6", 5, 3, -24),
        ("P7", 6, Fraction(9, 4), -16),
        ("P8", 6, Fraction(9, 4), -16),
        ("P4", 8, Fraction(7, 4), -54),
    ]


def test_standings_after_the_last_round_are_the_standings(tournament, cup):
    assert standings_after_rounds(tournament)[2] == standings(tournament)


def test_a_players_progress_round_by_round(tournament, cup):
    p1, p2 = cup["players"][:2]
    after = standings_after_rounds(tournament)
    assert [(number, row.rank, row.score) for number, row in progress_of(p1, after)] == [
        (1, 3, 46),
        (2, 4, 24),
    ]
    assert [(number, row.rank, row.score) for number, row in progress_of(p2, after)] == [
        (1, 5, -42),
        (2, 2, 24),
    ]


def test_substitutes_are_not_ranked_after_any_round(tournament, organiser, cup):
    substitute = add_player(tournament=tournament, key="S", name="Sub", substitute=True)
    after = standings_after_rounds(tournament)
    assert [row.rank for _, row in progress_of(substitute, after)] == [None, None]
    assert after[1][-1].player == substitute


def statistics_of(tournament, player):
    return player_statistics(
        player,
        player_hands(player),
        player_false_wins(player),
        WinPatterns.of_tournament(tournament),
    )


def test_player_who_won_a_hand_entered_with_tiles(tournament, cup):
    stats = statistics_of(tournament, cup["players"][0])
    assert stats.hands_played == 4  # three at round 1 table 1, one at round 2 table 1
    assert stats.wins == 1
    assert stats.self_drawn_share == 0
    assert stats.discarded == 0
    assert stats.false_wins == 0
    assert stats.average_fan == 27
    assert (stats.largest.fan, stats.largest.flowers, stats.largest.number) == (27, 1, 1)
    assert stats.fan_hands == 1
    assert [(fan.en, fan.hands) for fan in stats.fans] == [
        ("Full Flush", 1),
        ("Concealed Hand", 1),
        ("Pung of Terminals or Honors", 1),
    ]
    assert stats.favourite_fans[0].en == "Full Flush"  # level on hands: the higher fan first
    assert stats.favourite_fans[0].zh == "清一色"


def test_player_who_won_self_drawn_and_paid_as_discarder(tournament, cup):
    stats = statistics_of(tournament, cup["players"][1])
    assert (stats.hands_played, stats.wins, stats.self_drawn, stats.discarded) == (4, 1, 1, 1)
    assert stats.self_drawn_share == 1
    assert stats.average_fan == 12  # flowers not counted
    assert stats.fan_hands == 0 and stats.fans == [] and stats.favourite_fans == []


def test_player_with_a_false_win_and_no_wins(tournament, cup):
    stats = statistics_of(tournament, cup["players"][3])
    assert (stats.hands_played, stats.wins, stats.false_wins) == (5, 0, 1)
    assert stats.average_fan is None and stats.self_drawn_share is None
    assert stats.largest is None


def test_tournament_statistics(tournament, cup):
    stats = tournament_statistics(tournament, WinPatterns.of_tournament(tournament))
    assert (stats.hands, stats.wins, stats.self_drawn, stats.draws, stats.false_wins) == (
        8,
        5,
        2,
        3,
        1,
    )
    assert stats.self_drawn_share == Fraction(2, 5)
    assert stats.average_fan == Fraction(27 + 8 + 27 + 10 + 12, 5)  # 16.8
    assert [(item.label, item.hands) for item in stats.values] == [
        ("8", 1),
        ("9–11", 1),
        ("12–15", 1),
        ("16–23", 0),
        ("24–31", 2),
        ("32–47", 0),
        ("48–63", 0),
        ("64–87", 0),
        ("88+", 0),
    ]
    assert stats.fan_hands == 2
    assert [(fan.en, fan.hands) for fan in stats.favourite_fans] == [
        ("Full Flush", 2),
        ("Concealed Hand", 2),
        ("Pung of Terminals or Honors", 2),
    ]
    assert [
        (hand.fan, hand.winner.player.name, hand.table.round.number, hand.table.number)
        for hand in stats.biggest
    ] == [(27, "P1", 1, 1), (27, "P5", 1, 2), (12, "P2", 2, 1), (10, "P6", 1, 2), (8, "P3", 1, 1)]
    assert [
        (line.round.number, line.hands, line.wins, line.self_drawn, line.draws, line.false_wins)
        for line in stats.rounds
    ] == [(1, 5, 4, 1, 1, 1), (2, 3, 1, 1, 2, 0)]  # the draft round 3 is left out


def test_fan_names_score_each_hand_once(tournament, cup, monkeypatch):
    calls = []
    fan_names = WinPatterns.of_tournament(tournament)
    real = fan_names.rulebook.score
    monkeypatch.setattr(
        fan_names.rulebook,
        "score",
        lambda case, profile: calls.append(1) or real(case, profile=profile),
    )
    tournament_statistics(tournament, fan_names)
    for player in cup["players"]:
        player_statistics(player, player_hands(player), 0, fan_names)
    assert len(calls) == 2  # the two hands entered with tiles


def test_values_below_the_minimum_get_a_range_of_their_own():
    ranges = value_ranges([6, 8, 100], get_preset("mcr").value_tiers)
    assert [(item.label, item.hands) for item in ranges][:2] == [("6–7", 1), ("8", 1)]
    assert ranges[-1].hands == 1


def test_points_fall_in_the_tiers_of_their_preset():
    ranges = value_ranges([20, 90, 1500], get_preset("japanese-transitional").value_tiers)
    assert [(item.label, item.hands) for item in ranges] == [
        ("20–99", 2),
        ("100–299", 0),
        ("300–599", 0),
        ("600–999", 0),
        ("1000–1499", 0),
        ("1500+", 1),
    ]


def test_score_sheets_of_many_tables_match_score_sheet(tournament, cup, django_assert_num_queries):
    tables = cup["tables"]
    for table in tables:
        table.refresh_from_db()
        table.round.tournament = tournament
    with django_assert_num_queries(2):
        sheets = score_sheets(tables)
    for table in tables:
        assert sheets[table.pk] == score_sheet(table)
    assert [line.running for line in sheets[tables[0].pk]][-1] == (46, -42, 50, -54)
