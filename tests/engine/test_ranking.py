"""Places, shared table points and the ranking with its tie-breaks: plain arithmetic."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from scoring.engine.ranking import places, rank, ranking_key, share_table_points


@dataclass(frozen=True)
class Row:
    name: str
    table_points: Fraction
    score: int
    game_scores: tuple[int, ...]


def row(name: str, points: int, score: int, *games: int) -> Row:
    return Row(name, Fraction(points), score, tuple(sorted(games, reverse=True)))


def test_equal_scores_share_a_place_and_the_next_place_is_skipped():
    assert places([10, 30, 10, -50]) == [2, 1, 2, 4]


@given(st.lists(st.integers(-500, 500), min_size=4, max_size=4))
def test_shared_table_points_add_up_to_the_points_given(scores):
    assert sum(share_table_points(scores, [4, 2, 1, 0])) == 7


def test_level_players_share_a_rank():
    rows = [row("a", 6, 10), row("b", 8, -5), row("c", 6, 10), row("d", 2, 40)]

    ranked = rank(rows, key=lambda item: ranking_key(item, []))

    assert [(position, item.name) for position, item in ranked] == [
        (1, "b"),
        (2, "a"),
        (2, "c"),
        (4, "d"),
    ]


def test_best_game_breaks_a_tie_of_table_points_and_score():
    low, high = row("low", 6, 40, 20, 20), row("high", 6, 40, 50, -10)

    ranked = rank([low, high], key=lambda item: ranking_key(item, ["best_game"]))

    assert [(position, item.name) for position, item in ranked] == [(1, "high"), (2, "low")]


def test_game_scores_compare_the_best_games_first():
    first = row("first", 6, 40, 30, 10, 0)
    second = row("second", 6, 40, 30, 5, 5)

    key = ranking_key(first, ["game_scores"])

    assert key > ranking_key(second, ["game_scores"])


def test_no_player_breaks_a_tie_without_tie_breaks():
    a, b = row("a", 6, 40, 50, -10), row("b", 6, 40, 20, 20)

    assert [position for position, _ in rank([a, b], key=lambda i: ranking_key(i, []))] == [1, 1]
