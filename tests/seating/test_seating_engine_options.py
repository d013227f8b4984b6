"""generate(): fixed tables, rounds by standing, late changes, progress, errors, determinism."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tournament.domain import seating
from tournament.domain.seating import Entrant, RoundSeating, SeatingError, Separation, Separations

REPO = Path(__file__).resolve().parents[2]


def field(size: int, **extra) -> list[Entrant]:
    return [Entrant(key=str(i), **extra) for i in range(1, size + 1)]


def table_of(round_: RoundSeating, key: str) -> int:
    return next(t.number for t in round_.tables if key in t.seats)


def seats_of(result: seating.Seating) -> list[list[tuple[int, tuple[str, ...]]]]:
    return [[(t.number, t.seats) for t in r.tables] for r in result.rounds]


def test_a_held_player_sits_at_their_table_every_round():
    players = field(40)
    players[6] = Entrant("7", fixed_table=3)
    result = seating.generate(players, 8, seed=4)
    assert [table_of(r, "7") for r in result.rounds] == [3] * 8
    assert result.figures.repeats == 0


def test_a_held_player_keeps_the_design_free_of_repeats():
    players = field(16)
    players[0] = Entrant("1", fixed_table=2)
    result = seating.generate(players, 5, seed=1)
    assert result.construction == "AG(2,4)"
    assert result.figures.repeats == 0
    assert {table_of(r, "1") for r in result.rounds} == {2}


def test_two_held_players_meet_only_in_the_round_the_design_leaves_out():
    # Held at different tables, 1 and 10 never meet: only 4 of the 5 rounds can be clean.
    players = field(16)
    players[0] = Entrant("1", fixed_table=2)
    players[9] = Entrant("10", fixed_table=4)
    result = seating.generate(players, 4, seed=1)
    assert result.construction == "AG(2,4)"
    assert result.figures.repeats == 0
    assert {table_of(r, "1") for r in result.rounds} == {2}
    assert {table_of(r, "10") for r in result.rounds} == {4}


def test_two_players_held_at_one_table_sit_together():
    players = field(12)
    players[0] = Entrant("1", fixed_table=1)
    players[1] = Entrant("2", fixed_table=1)
    result = seating.generate(players, 3, seed=0, effort=0.05)
    assert all(table_of(r, "1") == table_of(r, "2") == 1 for r in result.rounds)


@pytest.mark.parametrize(
    ("pins", "message"),
    [([7], "tables are numbered 1 to 3"), ([0], "tables are numbered"), ([2] * 5, "More than")],
)
def test_impossible_fixed_tables_are_refused(pins, message):
    players = field(12)
    for i, pin in enumerate(pins):
        players[i] = Entrant(str(i + 1), fixed_table=pin)
    with pytest.raises(SeatingError, match=message) as error:
        seating.generate(players, 2)
    assert error.value.code == "bad_fixed_table"


def test_round_by_standing_seats_the_top_four_together_at_table_one():
    players = field(16)
    ranking = [str(i) for i in range(16, 0, -1) if i != 3] + ["99"]  # 3 unranked, 99 unknown
    result = seating.generate(players, 4, seed=2, by_standing={4: ranking})
    last = result.round(4)
    assert [sorted(t.seats, key=int) for t in last.tables] == [
        ["13", "14", "15", "16"],
        ["9", "10", "11", "12"],
        ["5", "6", "7", "8"],
        ["1", "2", "3", "4"],  # the unranked player 3 comes last
    ]
    assert result.generated == (1, 2, 3, 4)


def test_standing_that_breaks_a_hard_separation_is_refused():
    players = [Entrant(str(i), club="Oak" if i in (1, 2) else "") for i in range(1, 9)]
    with pytest.raises(SeatingError, match="must be kept apart") as error:
        seating.generate(
            players,
            2,
            by_standing={2: [str(i) for i in range(1, 9)]},
            separations=Separations(club=Separation.HARD),
        )
    assert error.value.code == "hard_separation"


def test_a_frozen_round_cannot_be_seated_by_standing():
    first = seating.generate(field(8), 1)
    with pytest.raises(SeatingError, match="frozen") as error:
        seating.generate(field(8), 2, frozen=first.rounds, by_standing={1: ["1"]})
    assert error.value.code == "bad_standing"


def test_withdrawal_and_substitute_from_round_four_reseat_only_rounds_four_on():
    players = field(36, club="")
    before = seating.generate(players, 7, seed=8)
    changed = [p for p in players if p.key != "5"] + [Entrant("S1")]
    after = seating.generate(changed, 7, seed=8, frozen=before.rounds[:3])
    assert after.rounds[:3] == before.rounds[:3]
    assert after.generated == (4, 5, 6, 7)
    for round_ in after.rounds[3:]:
        assert "5" not in round_.players() and "S1" in round_.players()
    assert after.figures.repeats == 0  # the frozen meetings count and are avoided


@pytest.mark.parametrize(("size", "missing"), [(37, 3), (38, 2), (39, 1)])
def test_field_not_a_multiple_of_four_says_how_many_substitutes(size, missing):
    with pytest.raises(SeatingError) as error:
        seating.generate(field(size), 5)
    assert error.value.code == "substitutes_needed"
    assert error.value.substitutes == missing == seating.substitutes_needed(size)
    assert f"add {missing} substitute" in str(error.value)


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda: seating.generate(field(3), 2), "too_few_players"),
        (lambda: seating.generate(field(8), 0), "bad_rounds"),
        (lambda: seating.generate([*field(7), Entrant("1")], 2), "duplicate_player"),
        (lambda: seating.generate([*field(7), Entrant("")], 2), "bad_player"),
        (lambda: seating.generate(field(8), 2, frozen=[RoundSeating(3, ())]), "bad_frozen_round"),
        (
            lambda: seating.generate(
                field(8),
                2,
                frozen=[
                    RoundSeating(
                        1,
                        (
                            seating.TableSeating(1, ("1", "2", "3", "4")),
                            seating.TableSeating(2, ("1", "6", "7", "8")),
                        ),
                    )
                ],
            ),
            "bad_frozen_round",
        ),
        (lambda: seating.generate(field(8), 2, by_standing={5: ["1"]}), "bad_standing"),
        (lambda: seating.generate(field(8), 2, effort=0), "bad_effort"),
    ],
)
def test_bad_input_is_a_seating_error_with_a_code(call, code):
    with pytest.raises(SeatingError) as error:
        call()
    assert error.value.code == code


def test_progress_is_reported_stage_by_stage_until_done():
    seen: list[seating.Progress] = []
    # 56 players have no design, so the search runs its stages.
    players = [Entrant(str(i), club=f"c{i % 10}") for i in range(1, 57)]
    seating.generate(players, 10, seed=1, progress=seen.append)
    stages = list(dict.fromkeys(p.stage for p in seen))
    assert stages[0] == "repeats" and stages[-1] == "done"
    assert set(stages) <= {"repeats", "separation", "final", "done"}
    assert all(0 <= p.fraction <= 1 for p in seen)
    assert seen[-1].fraction == 1.0


def test_a_progress_callback_may_abandon_the_run():
    class Stop(Exception):
        pass

    def stop(progress: seating.Progress) -> None:
        raise Stop

    with pytest.raises(Stop):
        seating.generate(field(48), 10, progress=stop)


def test_same_seed_same_seating_and_another_seed_another():
    players = [Entrant(str(i), club=f"c{i % 5}") for i in range(1, 49)]
    first = seating.generate(players, 6, seed=11)
    assert seats_of(seating.generate(players, 6, seed=11)) == seats_of(first)
    assert seats_of(seating.generate(players, 6, seed=12)) != seats_of(first)


def test_same_seed_same_seating_across_processes_and_hash_seeds():
    script = (
        "import json; from tournament.domain import seating as s;"
        "p=[s.Entrant(str(i), club='c%d' % (i % 7), country='k%d' % (i % 3)) for i in range(52)];"
        "r=s.generate(p, 6, seed=3, effort=0.2);"
        "print(json.dumps([[t.seats for t in x.tables] for x in r.rounds]))"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", script],
            cwd=REPO,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for hash_seed in ("1", "2")
    }
    assert len(outputs) == 1 and json.loads(outputs.pop())


def test_two_hundred_players_over_ten_rounds_with_ten_clubs_is_clean():
    players = [Entrant(str(i), club=f"club {i % 10}") for i in range(1, 201)]
    figures = seating.generate(players, 10, seed=1).figures
    assert (figures.repeats, figures.club_conflicts) == (0, 0)
    assert (figures.wind_imbalance, figures.table_repeats) == (0, 0)


def test_fifty_six_players_over_ten_rounds_without_a_design_have_no_repeats():
    result = seating.generate(field(56), 10, seed=1)
    assert result.construction == ""
    assert result.figures.repeats == 0
