"""Settling a deal under each preset: the worked examples of the Japanese Transitional and
Wilmington specifications (`jt-cases.jsonl`, `wa-cases.jsonl`), each case's expected final
values entered as quick entry, must give exactly its expected payments; and every deal's
payments sum to zero.

The cases come from the shared folder when it is there, else from the copies in tests/data/.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine import get_preset
from scoring.engine.settlement import (
    DRAW,
    FAULTY_OUT,
    WIN,
    Deal,
    Win,
    deal_payments,
    faulty_out_payments,
    half_up,
    hand_payments,
)

from .oracle import shared_dir

DATA = Path(__file__).resolve().parents[1] / "data"
WINDS = ("E", "S", "W", "N")
JT = get_preset("japanese-transitional")
WA = get_preset("wilmington-12-tile")


def cases(name: str) -> list[dict[str, Any]]:
    shared = shared_dir() / "data" / name
    path = shared if shared.exists() else DATA / name
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def seat(wind: str) -> int:
    """Seats by seat wind: the cases' dealer is East, seat 0."""
    return WINDS.index(wind)


def seats(winds: list[str] | None) -> tuple[int, ...]:
    return tuple(seat(wind) for wind in winds or ())


def add(total: list[int], more: list[int]) -> list[int]:
    return [a + b for a, b in zip(total, more, strict=True)]


def settle(case: dict[str, Any]) -> list[int]:
    """The case's payments from its deal facts and expected final values, as quick entry."""
    preset = JT if case["preset"] == "JT" else WA
    facts, expected = case.get("deal", {}), case["expected"]
    discarder = seat(facts["discarder"]) if facts.get("discarder") else None
    common = {"dealer": 0, "riichi": seats(facts.get("riichi"))}
    if case["kind"] == "draw":
        deal = Deal(
            result=DRAW,
            ready=seats(facts.get("ready")),
            faulty_riichi=seats(facts.get("faulty_riichi")),
            **common,
        )
        return deal_payments(deal, preset)
    if case["kind"] == "faulty_out":
        offender = seat(facts["offender"])
        if preset.faulty_out.ends_deal:
            return deal_payments(Deal(result=FAULTY_OUT, offender=offender, **common), preset)
        return faulty_out_payments(offender=offender, preset=preset, dealer=0)
    hands = [expected["hand"]] if "hand" in expected else expected["hands"]
    winners = [case, *case.get("extra_winners", [])]
    total, wins = [0] * 4, []
    for claimer, hand in zip(winners, hands, strict=True):
        if hand["error"] is None:
            wins.append(Win(seat(claimer["seat_wind"]), hand["final"]))
        else:  # below the minimum: a faulty out, and play goes on
            offender = seat(claimer["seat_wind"])
            total = add(total, faulty_out_payments(offender=offender, preset=preset, dealer=0))
    if wins:
        deal = Deal(
            result=WIN,
            wins=tuple(wins),
            discarder=discarder,
            faulty_claims=seats(facts.get("faulty_claims")),
            extra_hands=facts.get("extra_hands", 0),
            **common,
        )
        total = add(total, deal_payments(deal, preset))
    return total


ALL = cases("jt-cases.jsonl") + cases("wa-cases.jsonl")


@pytest.mark.parametrize("case", ALL, ids=[case["id"] for case in ALL])
def test_a_worked_example_pays_what_the_specification_says(case):
    expected = case["expected"]["payments"]

    assert settle(case) == [expected[wind] for wind in WINDS]


def test_the_worked_examples_are_all_there():
    assert (len(cases("jt-cases.jsonl")), len(cases("wa-cases.jsonl"))) == (32, 29)


@pytest.mark.parametrize("name", ["jt-cases.jsonl", "wa-cases.jsonl"])
def test_the_committed_copies_follow_the_shared_cases(name):
    shared = shared_dir() / "data" / name
    if not shared.exists():
        pytest.skip("the shared folder is not beside the repository")
    assert (DATA / name).read_text() == shared.read_text()


# --- Payment rules one by one ---------------------------------------------------------------


def test_wilmington_rounds_one_and_a_half_halves_up():
    assert hand_payments(winner=0, discarder=2, value=15, preset=WA) == [23, 0, -23, 0]
    assert (half_up(Fraction(45, 2)), half_up(Fraction(89, 2)), half_up(Fraction(7, 3))) == (
        23,
        45,
        2,
    )


def test_a_japanese_dealer_pays_and_receives_double():
    assert hand_payments(winner=1, discarder=None, value=100, preset=JT, dealer=0) == [
        -200,
        400,
        -100,
        -100,
    ]


def test_the_japanese_discarder_pays_for_all():
    assert hand_payments(winner=1, discarder=2, value=100, preset=JT, dealer=0) == [
        0,
        400,
        -400,
        0,
    ]


def test_riichi_stakes_and_the_extra_hand_bonus_go_to_the_winner():
    deal = Deal(result=WIN, dealer=0, wins=(Win(0, 60),), riichi=(3,), extra_hands=1)

    assert deal_payments(deal, JT) == [760, -220, -220, -320]


def test_nothing_of_riichi_is_paid_after_a_draw():
    deal = Deal(result=DRAW, dealer=0, riichi=(1, 2), ready=(1, 2))

    assert deal_payments(deal, JT) == [-300, 300, 300, -300]


@pytest.mark.parametrize(
    ("facts", "message"),
    [
        ({"result": WIN, "wins": ()}, "needs a winner"),
        ({"result": WIN, "wins": (Win(1, 20), Win(2, 20)), "discarder": 3}, "several players"),
        ({"result": WIN, "wins": (Win(1, 20),), "discarder": 1}, "cannot be a winner"),
        ({"result": DRAW, "riichi": (1,), "faulty_riichi": (2,)}, "riichi declaration"),
        ({"result": FAULTY_OUT}, "offender"),
        ({"result": "lost"}, "result"),
    ],
)
def test_facts_that_cannot_go_together_are_refused(facts, message):
    with pytest.raises(ValueError, match=message):
        deal_payments(Deal(dealer=0, **facts), JT)


def test_a_faulty_out_that_does_not_end_the_deal_is_a_penalty():
    with pytest.raises(ValueError, match="penalty"):
        deal_payments(Deal(result=FAULTY_OUT, dealer=0, offender=1), WA)


def test_mcr_has_no_riichi():
    with pytest.raises(ValueError, match="no riichi"):
        deal_payments(Deal(result=DRAW, dealer=0, riichi=(1,)), get_preset("mcr"))


# --- Every deal is zero-sum -----------------------------------------------------------------

seat_numbers = st.integers(0, 3)


@st.composite
def deals(draw: Any, preset_key: str) -> tuple[Deal, str]:
    preset = get_preset(preset_key)
    dealer = draw(seat_numbers)
    riichi = draw(st.sets(seat_numbers)) if preset.deal.riichi_stake else set()
    results = [WIN, DRAW] + ([FAULTY_OUT] if preset.faulty_out.ends_deal else [])
    result = draw(st.sampled_from(results))
    step = preset.value_step
    values = st.integers(max(preset.least_value, 1) // step, (preset.limit or 400) // step).map(
        lambda value: value * step
    )
    if result == WIN:
        discarder = draw(st.one_of(st.none(), seat_numbers))
        most = 3 if preset.deal.several_winners and discarder is not None else 1
        others = [seat for seat in range(4) if seat != discarder]
        winners = draw(st.lists(st.sampled_from(others), min_size=1, max_size=most, unique=True))
        deal = Deal(
            result=WIN,
            dealer=dealer,
            wins=tuple(Win(seat, draw(values)) for seat in winners),
            discarder=discarder,
            riichi=tuple(sorted(riichi)),
            faulty_claims=tuple(draw(st.lists(seat_numbers, max_size=3)))
            if preset.deal.faulty_claim
            else (),
            extra_hands=draw(st.integers(0, 5)),
        )
    elif result == DRAW:
        deal = Deal(
            result=DRAW,
            dealer=dealer,
            riichi=tuple(sorted(riichi)),
            ready=tuple(sorted(draw(st.sets(seat_numbers)))),
            faulty_riichi=tuple(sorted(draw(st.sets(st.sampled_from(sorted(riichi))))))
            if riichi
            else (),
        )
    else:
        deal = Deal(result=FAULTY_OUT, dealer=dealer, offender=draw(seat_numbers))
    return deal, preset_key


@given(st.sampled_from(["mcr", "japanese-transitional", "wilmington-12-tile"]).flatmap(deals))
def test_the_payments_of_every_deal_sum_to_zero(deal_and_preset):
    deal, key = deal_and_preset

    assert sum(deal_payments(deal, get_preset(key))) == 0
