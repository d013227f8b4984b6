"""Properties of the WA engine over random winning hands (hypothesis).

Hands are four sets and a pair drawn at random, one tile of a standing unit (or of a declared
set, with its `joker_as`) turned into the joker, a real standing tile as the winning tile, some
sets declared. Never more than four real copies of a tile. HYPOTHESIS_PROFILE=long runs ten
times as many examples."""

from __future__ import annotations

import os
from collections import Counter
from fractions import Fraction

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.engine.settlement import half_up
from scoring.engine.tiles import INDEX
from scoring.engine.wa import parse_wa_case, score_wa_case, score_wa_hand

SUITED = [f"{rank}{suit}" for suit in "mps" for rank in range(1, 10)]
TILES = SUITED + list("ESWNCFP")
WINDS = "ESWN"
EXAMPLES = 2_000 if os.environ.get("HYPOTHESIS_PROFILE") == "long" else 200


@st.composite
def unit_tiles(draw, size: int) -> list[str]:
    if size == 2:
        return [draw(st.sampled_from(TILES))] * 2
    if draw(st.booleans()):
        suit = draw(st.sampled_from("mps"))
        start = draw(st.integers(1, 7))
        return [f"{start + step}{suit}" for step in range(3)]
    return [draw(st.sampled_from(TILES))] * 3


@st.composite
def wa_hands(draw, seat_wind: str | None = None) -> dict:
    sets = [draw(unit_tiles(3)) for _ in range(4)]
    pair = draw(unit_tiles(2))
    counts = Counter(tile for unit in [*sets, pair] for tile in unit)
    n_declared = draw(st.integers(0, 2))
    declared, standing_sets = sets[:n_declared], sets[n_declared:]
    standing = [tile for unit in [*standing_sets, pair] for tile in unit]
    joker_declared = bool(declared) and draw(st.booleans())
    melds = []
    for number, unit in enumerate(declared):
        tiles = list(unit)
        entry: dict = {"type": "pung" if len(set(unit)) == 1 else "chow", "concealed": False}
        if joker_declared and number == 0:
            entry["joker_as"] = tiles[0]
            tiles[0] = "J"
        entry["tiles"] = tiles
        melds.append(entry)
    if joker_declared:
        joker_value = declared[0][0]
    else:
        joker_value = standing.pop(draw(st.integers(0, len(standing) - 1)))
    # At most four real copies: the joker may be the fifth.
    counts[joker_value] -= 1
    assume(max(counts.values()) <= 4)
    win = standing.pop(draw(st.integers(0, len(standing) - 1)))
    if not joker_declared:
        standing.append("J")
    return {
        "concealed": draw(st.permutations(standing)),
        "melds": melds,
        "win_tile": win,
        "self_drawn": draw(st.booleans()),
        "seat_wind": seat_wind or draw(st.sampled_from(WINDS)),
        "prevalent_wind": draw(st.sampled_from(WINDS)),
    }


@settings(max_examples=EXAMPLES)
@given(wa_hands())
def test_a_drawn_hand_is_a_winning_hand(raw):
    result = score_wa_hand(parse_wa_case(raw))

    assert result.error in (None, "BELOW_MINIMUM"), (result.error, result.message, raw)


@settings(max_examples=EXAMPLES)
@given(wa_hands(), st.sampled_from(TILES))
def test_the_chosen_joker_value_is_never_below_another_value(raw, value):
    hand = parse_wa_case(raw)
    best = score_wa_hand(hand)
    forced = score_wa_hand(hand, joker_values=[INDEX[value]])

    if forced.scored:
        assert (best.final, best.total) >= (forced.final, forced.total), raw


@settings(max_examples=EXAMPLES)
@given(wa_hands(), st.randoms(use_true_random=False))
def test_the_value_does_not_depend_on_the_order_of_the_tiles(raw, rng):
    shuffled = dict(raw)
    shuffled["concealed"] = rng.sample(raw["concealed"], len(raw["concealed"]))
    shuffled["melds"] = rng.sample(raw["melds"], len(raw["melds"]))

    first = score_wa_hand(parse_wa_case(raw))
    second = score_wa_hand(parse_wa_case(shuffled))

    assert (first.final, first.total, first.joker_as) == (
        second.final,
        second.total,
        second.joker_as,
    )
    assert set(first.patterns) == set(second.patterns)


@st.composite
def several_winners(draw) -> dict:
    discarder = draw(st.sampled_from(WINDS))
    others = [wind for wind in WINDS if wind != discarder]
    seats = draw(st.lists(st.sampled_from(others), min_size=2, max_size=3, unique=True))
    hands = [draw(wa_hands(seat_wind=seat)) for seat in seats]
    for hand in hands:
        hand["self_drawn"] = False
    main = hands[0]
    return {**main, "extra_winners": hands[1:], "deal": {"discarder": discarder}}


@settings(max_examples=EXAMPLES)
@given(several_winners())
def test_several_winners_are_each_paid_by_the_discarder(deal):
    verdict = score_wa_case(deal)
    winners = [deal, *deal["extra_winners"]]
    discarder = deal["deal"]["discarder"]
    expected = dict.fromkeys(WINDS, 0)
    for hand, result in zip(winners, verdict.hands, strict=True):
        seat = hand["seat_wind"]
        if result.error is None:
            amount = half_up(Fraction(3, 2) * result.final)
            expected[seat] += amount
            expected[discarder] -= amount
        else:  # a faulty out: 40 to each other player
            for wind in WINDS:
                expected[wind] += -120 if wind == seat else 40

    assert verdict.payments == expected
    assert sum(verdict.payments.values()) == 0
