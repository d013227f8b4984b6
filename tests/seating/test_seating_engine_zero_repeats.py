"""Zero repeats wherever a repeat-free seating is known and the engine has a way to it.

The field sizes of benchmarks/seating_sweep.py that matter most: the designs built at run time
and the sizes the local search seats alone, over 7 and 10 rounds and up to the designs' ends.
"""

from __future__ import annotations

import pytest

from tournament.domain import seating


def plain_field(players: int) -> list[seating.Entrant]:
    return [seating.Entrant(key=str(i)) for i in range(1, players + 1)]


@pytest.mark.parametrize(
    ("players", "rounds"),
    [
        (24, 7),
        (28, 7),
        (32, 7),
        (32, 10),
        (40, 7),
        (40, 10),
        (44, 10),
        (48, 10),
        (52, 10),
        (56, 10),
        (60, 10),
        (68, 10),
        (72, 10),
        (96, 10),
        (104, 10),
        (120, 10),
    ],
)
def test_seven_and_ten_rounds_have_no_repeats(players, rounds):
    assert seating.generate(plain_field(players), rounds, seed=1).figures.repeats == 0


@pytest.mark.parametrize(
    ("players", "rounds", "design"),
    [
        (24, 7, "three layers over Z7"),
        (32, 10, "sixteen pairs"),
        (36, 11, "three layers over Z11"),
        (40, 13, "three layers over GF(13)"),
        (48, 15, "three layers over Z15"),
        (52, 17, "three layers over GF(17)"),
        (60, 19, "three layers over Z19"),
        (72, 23, "three layers over Z23"),
        (84, 27, "three layers over Z27"),
        (100, 33, "three layers over Z33 and a point"),
        (120, 39, "five groups of 24, then three layers over Z7"),
        (136, 45, "mirrored layers over Z45 and a point"),
        (156, 51, "mirrored layers over Z51 and three points"),
        (180, 59, "mirrored layers over Z59 and three points"),
    ],
)
def test_the_designs_reach_the_bound_without_repeats(players, rounds, design):
    assert rounds == seating.repeat_free_bound(players)
    result = seating.generate(plain_field(players), rounds, seed=1)
    assert result.construction == design
    assert result.figures.repeats == 0


def test_forty_players_are_seated_the_same_for_a_seed_and_otherwise_for_another():
    def seats(seed: int) -> list[list[tuple[str, ...]]]:
        result = seating.generate(plain_field(40), 13, seed=seed)
        return [[table.seats for table in round_.tables] for round_ in result.rounds]

    assert seats(4) == seats(4)
    assert seats(4) != seats(5)


def test_an_eleventh_round_for_32_players_costs_no_more_than_it_must():
    # After ten rounds each player has met everyone but one; at an eleventh table of four at
    # most two pairs can be new, so every table adds at least four repeats: 8 tables, 32.
    assert seating.generate(plain_field(32), 11, seed=1).figures.repeats == 32


def test_fields_up_to_300_start_from_a_design():
    # 268 = 4 x 67 players: four groups of 67 (the cap on designs used to be 256 players).
    result = seating.generate(plain_field(268), 10, seed=1)
    assert result.construction == "four groups of 67"
    assert result.figures.repeats == 0
