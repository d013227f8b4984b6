"""Finite fields and the algebraic designs: every pair meets at most once, as many rounds as
the design promises."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from tournament.domain import seating
from tournament.domain.seating import constructions
from tournament.domain.seating import sixteen_pairs as sixteen_pairs_module
from tournament.domain.seating import stored_layers as stored_layers_module
from tournament.domain.seating.constructions import (
    affine_geometry,
    best_design,
    four_groups,
    mirrored_layers_and_a_point,
    mirrored_layers_and_three_points,
    repeat_free_bound,
    three_layers_and_a_point,
)
from tournament.domain.seating.exact_cover import exact_cover
from tournament.domain.seating.fields import FiniteField, prime_power, ring_with_four_units_apart
from tournament.domain.seating.inflation import five_groups, groups_of, inflate
from tournament.domain.seating.sixteen_pairs import sixteen_pairs
from tournament.domain.seating.starters import (
    cyclic_starter,
    is_repeat_free,
    three_layers_and_three_points,
)
from tournament.domain.seating.stored_layers import (
    stored_layers_and_a_point,
    stored_layers_and_three_points,
)


def pair_counts(design) -> Counter:
    counts: Counter = Counter()
    for round_ in design:
        for table in round_:
            for a, b in combinations(sorted(table), 2):
                counts[a, b] += 1
    return counts


def assert_resolvable(design, points: int) -> None:
    for round_ in design:
        assert all(len(table) == 4 for table in round_)
        assert sorted(p for table in round_ for p in table) == list(range(points))
    assert max(pair_counts(design).values()) == 1


def test_gf4_multiplication_is_the_hand_computed_table():
    # 0, 1, x = 2, x + 1 = 3 with x^2 = x + 1.
    field = FiniteField(4)
    assert field.mul == ((0, 0, 0, 0), (0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2))
    assert field.add == ((0, 1, 2, 3), (1, 0, 3, 2), (2, 3, 0, 1), (3, 2, 1, 0))


@pytest.mark.parametrize("order", [2, 3, 4, 5, 7, 8, 9, 16, 25, 27, 49])
def test_field_axioms(order):
    field = FiniteField(order)
    elements = range(order)
    for a in elements:
        assert field.add[a][0] == a and field.mul[a][1] == a
        assert sum(field.add[a][b] == 0 for b in elements) == 1  # one additive inverse
        if a:
            assert sum(field.mul[a][b] == 1 for b in elements) == 1  # one multiplicative inverse
        for b in elements:
            assert field.mul[a][b] == field.mul[b][a]
            for c in (0, 1, order - 1):
                assert field.mul[a][field.add[b][c]] == field.add[field.mul[a][b]][field.mul[a][c]]


def test_not_a_prime_power_has_no_field():
    assert prime_power(12) is None and prime_power(1) is None
    assert prime_power(27) == (3, 3)
    with pytest.raises(ValueError, match="not a prime power"):
        FiniteField(6)


def test_ring_exists_exactly_when_every_prime_power_factor_is_at_least_four():
    assert ring_with_four_units_apart(20) is not None  # 4 x 5
    assert ring_with_four_units_apart(45) is not None  # 9 x 5
    assert ring_with_four_units_apart(12) is None  # 4 x 3
    assert ring_with_four_units_apart(50) is None  # 2 x 25


def test_affine_plane_over_gf4_seats_16_players_five_rounds_meeting_everyone_once():
    design = affine_geometry(2)
    assert len(design) == 5 == repeat_free_bound(16)
    assert_resolvable(design, 16)
    assert len(pair_counts(design)) == 16 * 15 // 2


def test_affine_space_over_gf4_seats_64_players_21_rounds_meeting_everyone_once():
    design = affine_geometry(3)
    assert len(design) == 21 == repeat_free_bound(64)
    assert_resolvable(design, 64)
    assert len(pair_counts(design)) == 64 * 63 // 2


@pytest.mark.parametrize(
    ("group", "rounds"), [(4, 5), (5, 5), (7, 7), (8, 9), (9, 9), (13, 13), (20, 25), (25, 25)]
)
def test_four_groups_design(group, rounds):
    design = four_groups(group)
    assert len(design) == rounds
    assert_resolvable(design, 4 * group)


def test_four_groups_needs_a_ring():
    assert four_groups(12) is None


@pytest.mark.parametrize("group", [7, 9])
def test_cyclic_starter_gives_one_round_more_than_four_groups(group):
    design = cyclic_starter(group)
    assert len(design) == group + 1
    assert_resolvable(design, 4 * group)
    # The base round's translates: round 1 + g is round 1 moved by g inside each group.
    first, second = design[1], design[2]

    def shift(p: int) -> int:
        return (p // group) * group + (p % group + 1) % group

    assert {tuple(sorted(map(shift, t))) for t in first} == {tuple(sorted(t)) for t in second}


def test_cyclic_starter_needs_an_odd_group_of_seven_or_more():
    assert cyclic_starter(8) is None and cyclic_starter(3) is None


def test_best_design_picks_the_most_rounds():
    assert best_design(64)[0] == "AG(3,4)"
    assert best_design(100, 25)[0] == "four groups of 25"
    # Four groups of 32, then the groups seated side by side by the sixteen pairs: the bound.
    name, design = best_design(128)
    assert name == "four groups of 32" and len(design) == 32 + 10 == repeat_free_bound(128)
    assert_resolvable(design, 128)
    assert best_design(56) is None and best_design(18) is None


def test_best_design_searches_only_when_the_cheap_designs_are_short():
    assert best_design(36, 9)[0] == "four groups of 9"
    assert best_design(36, 10)[0] == "three layers over Z11"
    assert best_design(36, 12)[0] == "three layers over Z11"  # the most there is
    assert best_design(44, 12)[0] == "cyclic starter over Z11"


@pytest.mark.parametrize("q", [5, 9, 13, 17, 25, 29, 37, 41, 49])
def test_three_layers_over_a_field_meet_everyone_exactly_once(q):
    # A resolvable (3q + 1, 4, 1) design: 40 players over 13 rounds for q = 13.
    design = three_layers_and_a_point(q)
    players = 3 * q + 1
    assert len(design) == q == repeat_free_bound(players)
    assert_resolvable(design, players)
    assert len(pair_counts(design)) == players * (players - 1) // 2


@pytest.mark.parametrize("q", [3, 7, 11, 15, 21, 45])
def test_three_layers_over_a_field_need_a_prime_power_one_more_than_a_multiple_of_four(q):
    assert three_layers_and_a_point(q) is None


@pytest.mark.parametrize("players", [24, 36, 48, 60])
def test_three_layers_and_three_points_reach_the_bound(players):
    design = three_layers_and_three_points(players)
    assert len(design) == players // 3 - 1 == repeat_free_bound(players)
    assert_resolvable(design, players)
    # Everyone meets all but the two others of their group of three.
    met = Counter(p for pair in pair_counts(design) for p in pair)
    assert set(met.values()) == {players - 3}


def test_three_layers_and_three_points_only_for_multiples_of_twelve_up_to_sixty():
    assert three_layers_and_three_points(40) is None
    assert three_layers_and_three_points(12) is None
    assert three_layers_and_three_points(72) is None


def test_a_design_with_a_repeat_is_refused():
    design = affine_geometry(2)
    assert is_repeat_free(design, 16)
    assert not is_repeat_free((*design, design[0]), 16)
    assert not is_repeat_free(design, 20)  # four points never seated


@pytest.mark.parametrize(
    ("players", "rounds", "design"),
    [
        (16, 5, "AG(2,4)"),
        (64, 21, "AG(3,4)"),
        (36, 9, "four groups of 9"),
        (36, 10, "three layers over Z11"),
        (36, 11, "three layers over Z11"),
        (40, 13, "three layers over GF(13)"),
        (52, 17, "three layers over GF(17)"),
        (48, 15, "three layers over Z15"),
        (24, 7, "three layers over Z7"),
        (44, 12, "cyclic starter over Z11"),
        (100, 25, "four groups of 25"),
        (80, 25, "four groups of 20"),
        (28, 7, "four groups of 7"),
    ],
)
def test_generate_reaches_zero_repeats_on_the_designs(players, rounds, design):
    field = [seating.Entrant(key=str(i)) for i in range(1, players + 1)]
    result = seating.generate(field, rounds, seed=5)
    assert result.construction == design
    assert result.figures.repeats == 0
    assert result.figures.wind_imbalance == 0


def test_more_rounds_than_the_design_spreads_repeats_evenly():
    # 16 players over 10 rounds: 240 meetings over 120 pairs, so every pair meets exactly twice.
    field = [seating.Entrant(key=str(i)) for i in range(1, 17)]
    result = seating.generate(field, 10, seed=1)
    assert set(seating.meetings(result.rounds).values()) == {2}
    assert result.figures.repeats == 120


def test_sixteen_pairs_seats_32_players_over_ten_rounds_missing_only_their_partner():
    design = sixteen_pairs()
    assert design is not None and len(design) == 10 == repeat_free_bound(32)
    assert_resolvable(design, 32)
    met = pair_counts(design)
    never = [pair for pair in combinations(range(32), 2) if pair not in met]
    assert never == [(2 * x, 2 * x + 1) for x in range(16)]
    assert best_design(32, 10) == ("sixteen pairs", design)
    assert best_design(32, 9)[0] == "four groups of 8"  # the cheap design when it is enough


def test_sixteen_pairs_base_rounds_split_the_pairs_and_the_turn_has_order_three():
    for text in sixteen_pairs_module.BASE_ROUNDS:
        blocks = sixteen_pairs_module.parse_round(text)
        assert sorted(pair for block in blocks for pair, _ in block) == list(range(16))
        assert all(len(block) == 4 for block in blocks)
    for pair in range(16):
        assert sixteen_pairs_module.turn(sixteen_pairs_module.turn(pair, 1), 2) == pair
    assert sorted(sixteen_pairs_module.turn(pair, 1) for pair in range(16)) == list(range(16))


def test_sixteen_pairs_refuses_damaged_base_rounds(monkeypatch):
    damaged = list(sixteen_pairs_module.BASE_ROUNDS)
    damaged[1] = damaged[1].replace("4'", "4", 1)  # one bit flipped: some pairs meet twice
    sixteen_pairs.cache_clear()
    monkeypatch.setattr(sixteen_pairs_module, "BASE_ROUNDS", tuple(damaged))
    try:
        assert sixteen_pairs() is None
    finally:
        monkeypatch.undo()
        sixteen_pairs.cache_clear()
    assert sixteen_pairs() is not None


def test_stored_layers_seat_100_players_over_33_rounds_meeting_everyone_once():
    design = stored_layers_and_a_point(33)
    assert design is not None and len(design) == 33 == repeat_free_bound(100)
    assert_resolvable(design, 100)
    assert len(pair_counts(design)) == 100 * 99 // 2  # every pair exactly once
    assert best_design(100, 33)[0] == "three layers over Z33 and a point"
    assert best_design(100, 25)[0] == "four groups of 25"
    assert stored_layers_and_a_point(45) is None  # nothing stored


def test_stored_layer_tables_hold_every_value_once():
    for m, text in stored_layers_module.BASE_TABLES.items():
        tables = stored_layers_module.parse_tables(text)
        assert len(tables) == (m - 1) // 4 and all(len(table) == 4 for table in tables)
        assert sorted(value for table in tables for _, value in table) == list(range(1, m))
        assert {layer for table in tables for layer, _ in table} <= {0, 1, 2}


def test_stored_layers_refuse_damaged_tables(monkeypatch):
    text = stored_layers_module.BASE_TABLES[33].replace("0.1 ", "1.1 ", 1)
    stored_layers_and_a_point.cache_clear()
    monkeypatch.setattr(stored_layers_module, "BASE_TABLES", {33: text})
    try:
        assert stored_layers_and_a_point(33) is None
    finally:
        monkeypatch.undo()
        stored_layers_and_a_point.cache_clear()
    assert stored_layers_and_a_point(33) is not None


@pytest.mark.parametrize("m", sorted(stored_layers_module.THREE_POINT_TABLES))
def test_stored_three_point_layers_reach_the_bound(m):
    players = 3 * m + 3
    design = stored_layers_and_three_points(m)
    assert design is not None and len(design) == m == repeat_free_bound(players)
    assert_resolvable(design, players)
    # Everyone meets all but the two others of their group of three, once.
    met = Counter(p for pair in pair_counts(design) for p in pair)
    assert set(met.values()) == {players - 3}
    assert best_design(players, m) == (f"three layers over Z{m}", design)


def test_stored_three_point_tables_hold_every_value_once():
    assert min(stored_layers_module.THREE_POINT_TABLES) == 23  # the search does up to 19
    for m, text in stored_layers_module.THREE_POINT_TABLES.items():
        assert m % 4 == 3
        tables = stored_layers_module.parse_tables(text)
        assert [layer for layer, _ in tables[0]] == [0, 1, 2]
        assert len(tables) == 1 + (m - 3) // 4 and all(len(table) == 4 for table in tables[1:])
        assert sorted(value for table in tables for _, value in table) == list(range(m))
        assert {layer for table in tables for layer, _ in table} <= {0, 1, 2}


def test_stored_three_point_layers_refuse_damaged_tables(monkeypatch):
    m = min(stored_layers_module.THREE_POINT_TABLES)
    text = stored_layers_module.THREE_POINT_TABLES[m]
    first, rest = text.split("|", 1)
    swapped = rest.replace(" 0.", " 9.", 1).replace(" 1.", " 0.", 1).replace(" 9.", " 1.", 1)
    assert swapped != rest
    for damaged in (
        first + "|" + swapped,  # two layers exchanged: the classes no longer match
        first.replace("1.", "2.", 1) + "|" + rest,  # P0 without a point of layer 1
    ):
        stored_layers_and_three_points.cache_clear()
        monkeypatch.setattr(stored_layers_module, "THREE_POINT_TABLES", {m: damaged})
        try:
            assert stored_layers_and_three_points(m) is None
        finally:
            monkeypatch.undo()
            stored_layers_and_three_points.cache_clear()
    assert stored_layers_and_three_points(m) is not None
    assert stored_layers_and_three_points(m + 4 * 1000) is None  # nothing stored


@pytest.mark.parametrize("k", [4, 8])
def test_five_groups_meet_everyone_outside_their_group_once(k):
    points = 15 * k
    design = five_groups(k)
    assert design is not None and len(design) == 4 * k
    assert_resolvable(design, points)
    groups = groups_of(design, points)
    assert groups is not None and sorted(len(group) for group in groups) == [3 * k] * 5
    assert len(pair_counts(design)) == points * (points - 1) // 2 - 5 * (3 * k) * (3 * k - 1) // 2


def test_five_groups_only_for_the_sizes_searched():
    assert five_groups(12) is None
    assert five_groups(5) is None


def test_groups_of_needs_a_group_design():
    assert groups_of(affine_geometry(2)[:2], 16) is None  # non-meeting is no partition
    assert groups_of(affine_geometry(2), 16) == [[p] for p in range(16)]
    assert [len(g) for g in groups_of(three_layers_and_three_points(24), 24)] == [3] * 8


@pytest.mark.parametrize(
    ("players", "name"),
    [
        (120, "five groups of 24, then three layers over Z7"),
        (192, "three layers over Z7 by 8, then three layers over Z7"),
        (240, "five groups of 12 by 4, then three layers over Z15"),
        (300, "five groups of 12 by 5, then three layers over Z19"),
    ],
)
def test_inflated_designs_reach_the_bound(players, name):
    named = best_design(players, repeat_free_bound(players))
    assert named is not None and named[0] == name
    assert len(named[1]) == repeat_free_bound(players) == players // 3 - 1
    assert_resolvable(named[1], players)
    met = Counter(p for pair in pair_counts(named[1]) for p in pair)
    assert set(met.values()) == {players - 3}  # everyone misses two others only


def test_inflation_needs_a_ring_and_a_group_design():
    master = three_layers_and_three_points(24)
    assert inflate(master, 24, 6, None) is None  # no ring of order 6 with four units apart
    assert inflate(affine_geometry(2)[:2], 16, 4, None) is None
    inflated = inflate(master, 24, 4, None)  # groups of 12 left unseated
    assert inflated is not None and len(inflated) == 4 * len(master)
    assert_resolvable(inflated, 96)


@pytest.mark.parametrize(
    ("build", "m", "points", "missed_each"),
    [(mirrored_layers_and_a_point, m, 1, 0) for m in (5, 9, 33, 45, 65)]
    + [(mirrored_layers_and_three_points, m, 3, 2) for m in (19, 23, 51, 75, 87)],
)
def test_mirrored_layers_reach_the_bound(build, m, points, missed_each):
    players = 3 * m + points
    design = build(m)
    assert design is not None and len(design) == m == repeat_free_bound(players)
    assert_resolvable(design, players)
    met = pair_counts(design)
    missed = [pair for pair in combinations(range(players), 2) if pair not in met]
    each = Counter(p for pair in missed for p in pair)
    assert each == (dict.fromkeys(range(players), missed_each) if missed_each else {})
    # With three points: P0, P1 and P2 miss each other, every other point two of its layer.
    assert all(p >= 3 * m or p // m == q // m for p, q in missed)


def test_mirrored_layers_need_m_one_more_than_a_multiple_of_four():
    assert mirrored_layers_and_a_point(7) is None
    assert mirrored_layers_and_a_point(1) is None


@pytest.mark.parametrize("players", [136, 172, 196, 232, 280])
def test_fields_without_a_field_get_mirrored_layers(players):
    m = (players - 1) // 3
    assert best_design(players) == (
        f"mirrored layers over Z{m} and a point",
        mirrored_layers_and_a_point(m),
    )


def test_mirrored_layers_with_three_points_need_m_three_more_than_a_multiple_of_four():
    assert mirrored_layers_and_three_points(21) is None
    assert mirrored_layers_and_three_points(25) is None
    assert mirrored_layers_and_three_points(15) is None  # too small to try


def test_mirrored_layers_with_three_points_give_up_within_their_limits(monkeypatch):
    monkeypatch.setattr(constructions, "MOST_MIRRORED_CHOICES", 1)
    monkeypatch.setattr(constructions, "MOST_MIRRORED_TRIES", 3)
    assert mirrored_layers_and_three_points.__wrapped__(51) is None


@pytest.mark.parametrize("players", [156, 168, 180, 216, 228, 252, 264])
def test_multiples_of_twelve_without_another_design_get_mirrored_layers(players):
    m = players // 3 - 1
    assert best_design(players) == (
        f"mirrored layers over Z{m} and three points",
        mirrored_layers_and_three_points(m),
    )


def test_exact_cover_finds_a_cover_and_says_when_there_is_none():
    options = {
        "A": [1, 4, 7],
        "B": [1, 4],
        "C": [4, 5, 7],
        "D": [3, 5, 6],
        "E": [2, 3, 6, 7],
        "F": [2, 7],
    }
    assert sorted(exact_cover(options, 1000)) == ["B", "D", "F"]
    assert exact_cover({"A": [1, 2], "B": [2, 3]}, 1000) is None  # 2 would be covered twice
    assert exact_cover(options, 1) is None  # gives up
