"""manage.py generate_seating: a synthetic field seated by the engine."""

from __future__ import annotations

import json
from io import StringIO
from itertools import combinations

import pytest
from django.core.management import CommandError, call_command


def run(*args: str) -> str:
    out = StringIO()
    call_command("generate_seating", *args, stdout=out)
    return out.getvalue()


def test_json_has_every_round_table_and_seat():
    data = json.loads(run("--players", "16", "--rounds", "5", "--seed", "3", "--json"))
    assert list(data) == ["rounds"]
    assert [r["number"] for r in data["rounds"]] == [1, 2, 3, 4, 5]
    met = set()
    for round_ in data["rounds"]:
        assert [t["number"] for t in round_["tables"]] == [1, 2, 3, 4]
        assert all(list(t["seats"]) == ["E", "S", "W", "N"] for t in round_["tables"])
        keys = [key for t in round_["tables"] for key in t["seats"].values()]
        assert sorted(keys, key=int) == [str(i) for i in range(1, 17)]
        for t in round_["tables"]:
            for pair in combinations(sorted(t["seats"].values()), 2):
                assert pair not in met  # 16 over 5 rounds: nobody meets twice
                met.add(pair)
    assert len(met) == 120


def test_same_seed_same_output_and_clubs_kept_apart():
    args = ("--players", "40", "--rounds", "4", "--seed", "9", "--clubs", "10", "--json")
    first = run(*args)
    assert run(*args) == first
    for round_ in json.loads(first)["rounds"]:
        for t in round_["tables"]:
            clubs = [int(key) % 10 for key in t["seats"].values()]
            assert len(set(clubs)) == 4


def test_hard_clubs_that_cannot_sit_apart_is_a_clear_error():
    with pytest.raises(CommandError, match="cannot sit apart at 4 tables"):
        run("--players", "16", "--rounds", "2", "--clubs", "2", "--hard-clubs")


def test_text_output_ends_with_the_figures():
    assert run("--players", "8", "--rounds", "1").splitlines()[-1].startswith("repeats 0,")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--players", "18", "--rounds", "3"), "not a multiple of four: add 2 substitutes"),
        (("--players", "2", "--rounds", "3"), "at least 4"),
        (("--players", "8", "--rounds", "0"), "--rounds must be at least 1"),
        (("--players", "8", "--rounds", "2", "--clubs", "0"), "--clubs must be at least 1"),
        (("--players", "8", "--rounds", "2", "--hard-clubs"), "--hard-clubs needs --clubs"),
    ],
)
def test_bad_arguments_are_command_errors(args, message):
    with pytest.raises(CommandError, match=message):
        run(*args)
