"""Property tests: any field and round count gives valid rounds; frozen rounds never change;
hard separations hold whenever they can, and otherwise fail loudly.

HYPOTHESIS_PROFILE=long runs more and larger examples.
"""

from __future__ import annotations

import os
from collections import Counter
from itertools import combinations

from hypothesis import given, note, settings
from hypothesis import strategies as st

from tournament.domain import seating
from tournament.domain.seating import Entrant, SeatingError, Separation, Separations

LONG = os.environ.get("HYPOTHESIS_PROFILE") == "long"
EXAMPLES = 200 if LONG else 25
MAX_TABLES = 25 if LONG else 12
EFFORT = 0.2 if LONG else 0.02

properties = settings(max_examples=EXAMPLES, deadline=None)

separations = st.builds(
    Separations,
    club=st.sampled_from(Separation),
    country=st.sampled_from([Separation.OFF, Separation.SOFT]),
    team=st.sampled_from([Separation.OFF, Separation.SOFT]),
)


@st.composite
def fields(draw):
    size = 4 * draw(st.integers(1, MAX_TABLES))
    clubs = draw(st.integers(1, 8))
    return [
        Entrant(
            key=f"p{i}",
            club=draw(st.sampled_from(["", *(f"club {c}" for c in range(clubs))])),
            country=draw(st.sampled_from(["", "NL", "DE", "FR"])),
            team=draw(st.sampled_from(["", "red", "blue"])),
        )
        for i in range(size)
    ]


def assert_valid(result: seating.Seating, players: list[Entrant], rounds: int) -> None:
    keys = sorted(p.key for p in players)
    assert [r.number for r in result.rounds] == list(range(1, rounds + 1))
    for number in result.generated:
        round_ = result.round(number)
        assert sorted(t.number for t in round_.tables) == list(range(1, len(keys) // 4 + 1))
        assert all(len(t.seats) == 4 for t in round_.tables)
        assert sorted(round_.players()) == keys
    assert result.figures == seating.measure(result.rounds, players)


def hard_pairs(result, players, attribute):
    value = {p.key: getattr(p, attribute) for p in players}
    return [
        (number, a, b)
        for number in result.generated
        for t in result.round(number).tables
        for a, b in combinations(t.seats, 2)
        if value[a] and value[a] == value[b]
    ]


@properties
@given(players=fields(), rounds=st.integers(1, 9), seed=st.integers(0, 2**32))
def test_every_player_sits_once_per_round_at_tables_of_four(players, rounds, seed):
    result = seating.generate(players, rounds, seed=seed, effort=EFFORT)
    assert_valid(result, players, rounds)
    assert result.generated == tuple(range(1, rounds + 1))


@properties
@given(
    players=fields(),
    rounds=st.integers(2, 8),
    data=st.data(),
    options=separations,
)
def test_frozen_rounds_never_change_when_the_field_changes(players, rounds, data, options):
    soft = Separations(
        club=Separation.SOFT if options.club is Separation.HARD else options.club,
        country=options.country,
        team=options.team,
    )
    first = seating.generate(players, rounds, separations=soft, effort=EFFORT)
    kept = data.draw(st.integers(1, rounds - 1), label="frozen rounds")
    leaving = data.draw(st.integers(0, min(3, len(players) - 4)), label="withdrawals")
    arriving = data.draw(st.integers(0, 4), label="substitutes and late entries")
    changed = players[leaving:] + [Entrant(f"s{i}") for i in range(arriving)]
    changed = changed[: len(changed) - len(changed) % 4]
    frozen = first.rounds[:kept]
    note(f"{len(players)} -> {len(changed)} players, rounds 1..{kept} frozen")
    after = seating.generate(
        changed, rounds, frozen=frozen, separations=soft, seed=7, effort=EFFORT
    )
    assert after.rounds[:kept] == frozen
    assert after.generated == tuple(range(kept + 1, rounds + 1))
    assert_valid(after, changed, rounds)


@st.composite
def satisfiable_clubs(draw):
    """A field whose clubs never outnumber the tables, so clubs can always sit apart."""
    tables = draw(st.integers(1, MAX_TABLES))
    sizes = draw(st.lists(st.integers(1, tables), min_size=1, max_size=4 * tables))
    clubs = [f"club {c}" for c, size in enumerate(sizes) for _ in range(size)][: 4 * tables]
    clubs += [""] * (4 * tables - len(clubs))
    order = draw(st.permutations(clubs))
    return [Entrant(f"p{i}", club=club) for i, club in enumerate(order)]


@properties
@given(players=satisfiable_clubs(), rounds=st.integers(1, 8), seed=st.integers(0, 1000))
def test_hard_club_separation_holds_whenever_it_can(players, rounds, seed):
    result = seating.generate(
        players,
        rounds,
        seed=seed,
        effort=EFFORT,
        separations=Separations(club=Separation.HARD),
    )
    assert_valid(result, players, rounds)
    assert hard_pairs(result, players, "club") == []


@properties
@given(players=satisfiable_clubs(), data=st.data())
def test_a_club_larger_than_the_tables_gives_a_clear_error(players, data):
    tables = len(players) // 4
    crowd = data.draw(st.integers(tables + 1, len(players)), label="club size")
    crowded = [Entrant(p.key, club="big" if i < crowd else p.club) for i, p in enumerate(players)]
    try:
        seating.generate(crowded, 2, separations=Separations(club=Separation.HARD))
    except SeatingError as error:
        assert error.code == "hard_separation"
        assert f"The {crowd} players of club 'big' cannot sit apart at {tables} tables" in str(
            error
        )
    else:
        raise AssertionError("a club larger than the number of tables was seated")


@st.composite
def latin_fields(draw):
    """Clubs and countries that one seating keeps apart (so it can be done): table t, seat s
    gets club s and country (s + t) mod 4.  The field is then shuffled."""
    tables = draw(st.integers(1, min(MAX_TABLES, 8)))
    players = [
        Entrant(f"p{4 * t + s}", club=f"club {s}", country=f"country {(s + t) % 4}")
        for t in range(tables)
        for s in range(4)
    ]
    return draw(st.permutations(players))


@properties
@given(players=latin_fields(), rounds=st.integers(1, 6), seed=st.integers(0, 1000))
def test_club_and_country_both_hard_hold_when_a_seating_exists(players, rounds, seed):
    result = seating.generate(
        players,
        rounds,
        seed=seed,
        effort=EFFORT,
        separations=Separations(club=Separation.HARD, country=Separation.HARD),
    )
    assert hard_pairs(result, players, "club") == []
    assert hard_pairs(result, players, "country") == []


@st.composite
def held_fields(draw):
    """Fields where some players are held at tables: up to four at one table."""
    tables = draw(st.integers(1, MAX_TABLES))
    players = [Entrant(f"p{i}", club=f"club {i % 5}") for i in range(4 * tables)]
    held = draw(st.lists(st.integers(0, 4 * tables - 1), unique=True, max_size=2 * tables))
    pins = draw(st.lists(st.integers(1, tables), min_size=len(held), max_size=len(held)))
    for i, pin in zip(held, pins, strict=True):
        players[i] = Entrant(players[i].key, club=players[i].club, fixed_table=pin)
    return players


@properties
@given(players=held_fields(), rounds=st.integers(1, 6), seed=st.integers(0, 1000))
def test_held_players_sit_at_their_table_in_every_generated_round(players, rounds, seed):
    crowded = max(Counter(p.fixed_table for p in players if p.fixed_table).values(), default=0)
    try:
        result = seating.generate(players, rounds, seed=seed, effort=EFFORT)
    except SeatingError as error:
        assert crowded > 4 and error.code == "bad_fixed_table"
        return
    assert crowded <= 4
    assert_valid(result, players, rounds)
    for number in result.generated:
        round_ = result.round(number)
        for player in players:
            if player.fixed_table:
                assert player.key in round_.tables[player.fixed_table - 1].seats
