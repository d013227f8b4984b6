"""Figures of a small seating worked out by hand, and the placement helpers."""

from __future__ import annotations

import random
from itertools import permutations

import pytest

from tournament.domain.seating import Entrant, RoundSeating, TableSeating, measure, meetings
from tournament.domain.seating.metrics import conflicts, wind_counts
from tournament.domain.seating.placement import assign_winds, cheapest_assignment


def table(number, *seats):
    return TableSeating(number=number, seats=seats)


# Eight players over two rounds; players 1, 2 and 7, 8 stay at the same table number.
ROUNDS = [
    RoundSeating(1, (table(1, "1", "2", "3", "4"), table(2, "5", "6", "7", "8"))),
    RoundSeating(2, (table(1, "1", "5", "2", "6"), table(2, "8", "7", "4", "3"))),
]
PLAYERS = [
    Entrant("1", club="Oak"),
    Entrant("2", club="Oak", country="NL"),
    Entrant("5", club="Elm", country="NL"),
    Entrant("7", club="Elm"),
    Entrant("3", team="red"),
    Entrant("8", team="red"),
]


def test_figures_of_a_hand_checked_seating():
    figures = measure(ROUNDS, PLAYERS)
    # (1,2), (3,4), (5,6), (7,8) meet twice.
    assert figures.repeats == 4
    assert figures.repeated_pairs == 4
    assert figures.most_meetings == 2
    # Oak: 1-2 in both rounds; Elm: 5-7 in round 1.  NL: 2-5 in round 2.  red: 3-8 in round 2.
    assert figures.club_conflicts == 3
    assert figures.country_conflicts == 1
    assert figures.team_conflicts == 1
    # Player 1 starts East twice (spread 2); everyone else starts at two different winds.
    assert figures.wind_imbalance == 1
    assert figures.unbalanced_players == 1
    # Players 1, 2 at table 1 twice; 7, 8 at table 2 twice.
    assert figures.table_repeats == 4


def test_meetings_and_conflicts_are_listed_by_pair():
    met = meetings(ROUNDS)
    assert met["1", "2"] == 2 and met["1", "5"] == 1 and ("1", "7") not in met
    assert conflicts(ROUNDS, PLAYERS, "club") == [
        (1, 1, "1", "2"),
        (1, 2, "5", "7"),
        (2, 1, "1", "2"),
    ]
    assert wind_counts(ROUNDS)["1"] == {"E": 2, "S": 0, "W": 0, "N": 0}


def test_unknown_attribute_is_refused():
    with pytest.raises(ValueError, match="unknown attribute"):
        conflicts(ROUNDS, PLAYERS, "city")


@pytest.mark.parametrize("size", [1, 2, 3, 5, 6])
def test_cheapest_assignment_matches_brute_force(size):
    rng = random.Random(size)
    for _ in range(30):
        cost = [[rng.randrange(6) for _ in range(size)] for _ in range(size)]
        matched = cheapest_assignment(cost)
        assert sorted(matched) == list(range(size))
        best = min(sum(cost[i][p[i]] for i in range(size)) for p in permutations(range(size)))
        assert sum(cost[i][j] for i, j in enumerate(matched)) == best


def test_winds_of_four_rounds_at_one_table_give_everyone_each_wind_once():
    counts = [[0] * 4 for _ in range(4)]
    assign_winds([[[0, 1, 2, 3]]] * 4, counts, random.Random(0))
    assert counts == [[1, 1, 1, 1]] * 4
