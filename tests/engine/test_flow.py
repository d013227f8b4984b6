"""The order of deals: who deals, the wind rounds, the extra-hand number, the end of a game."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine import get_preset
from scoring.engine.flow import FIRST, Outcome, Position, next_position, positions
from scoring.engine.settlement import DRAW, FAULTY_OUT, WIN

MCR = get_preset("mcr")
JT = get_preset("japanese-transitional")
WA = get_preset("wilmington-12-tile")

DEALER_WINS = Outcome(WIN, dealer_won=True)
OTHER_WINS = Outcome(WIN)
DRAWN = Outcome(DRAW)


def test_mcr_passes_the_deal_after_every_hand_and_ends_after_sixteen():
    found = positions(MCR, [DEALER_WINS] * 16, wind_rounds=4)

    assert [(p.wind_round, p.dealer_turn) for p in found[:16]] == [
        (round_, turn) for round_ in range(4) for turn in range(4)
    ]
    assert found[16] is None


def test_a_japanese_dealer_repeats_after_his_own_win_counting_extra_hands():
    found = positions(JT, [DEALER_WINS, DEALER_WINS, OTHER_WINS], wind_rounds=4)

    assert [(p.dealer_turn, p.extra_hands) for p in found] == [(0, 0), (0, 1), (0, 2), (1, 0)]


def test_a_japanese_draw_passes_the_deal_even_after_the_dealer_won():
    found = positions(JT, [DEALER_WINS, DRAWN], wind_rounds=4)

    assert (found[2].dealer_turn, found[2].extra_hands) == (1, 0)


def test_a_japanese_faulty_out_by_another_player_keeps_the_dealer_and_the_counter():
    found = positions(
        JT,
        [DEALER_WINS, Outcome(FAULTY_OUT), Outcome(FAULTY_OUT, dealer_offended=True)],
        wind_rounds=4,
    )

    assert [(p.dealer_turn, p.extra_hands) for p in found] == [(0, 0), (0, 1), (0, 1), (1, 0)]


def test_a_wilmington_dealer_keeps_the_deal_through_draws_once_he_has_won():
    found = positions(WA, [DRAWN, DEALER_WINS, DRAWN, DRAWN, OTHER_WINS], wind_rounds=4)

    assert [p.dealer_turn for p in found] == [0, 1, 1, 1, 1, 2]


def test_the_wind_round_changes_after_four_passes_and_the_game_ends_after_the_last():
    found = positions(JT, [OTHER_WINS] * 8, wind_rounds=2)

    assert [p.wind_round for p in found[:8]] == [0, 0, 0, 0, 1, 1, 1, 1]
    assert found[8] is None


def test_nothing_is_recorded_after_the_end_of_the_game():
    with pytest.raises(ValueError, match="after the end"):
        positions(JT, [OTHER_WINS] * 5, wind_rounds=1)


outcomes = st.builds(
    Outcome,
    result=st.sampled_from([WIN, DRAW, FAULTY_OUT]),
    dealer_won=st.booleans(),
    dealer_offended=st.booleans(),
)


def playable(preset, outcome: Outcome) -> Outcome:
    """An outcome the preset can have: a faulty out ends a deal only under JT."""
    if outcome.result == FAULTY_OUT and not preset.faulty_out.ends_deal:
        return Outcome(DRAW)
    return outcome


@given(
    preset=st.sampled_from([JT, WA]),
    wind_rounds=st.sampled_from([1, 2, 4]),
    results=st.lists(outcomes, max_size=60),
)
def test_any_sequence_of_deals_follows_the_rules(preset, wind_rounds, results):
    position: Position | None = FIRST
    passes = 0
    for outcome in (playable(preset, outcome) for outcome in results):
        if position is None:
            break
        following = next_position(preset, position, outcome, wind_rounds=wind_rounds)
        if following is None:
            # A game ends only when the deal passes from the last dealer of the last round.
            assert (position.wind_round, position.dealer_turn) == (wind_rounds - 1, 3)
        elif following.dealer_turn == position.dealer_turn and (
            following.wind_round == position.wind_round
        ):
            # The dealer kept the deal: after his own win, a JT faulty out by another player,
            # or a WA draw in a continued deal; never after another player's win.
            assert not (outcome.result == WIN and not outcome.dealer_won)
            assert following.extra_hands >= position.extra_hands
        else:
            passes += 1
            assert following.extra_hands == 0
            assert following.wind_round * 4 + following.dealer_turn == passes
        assert following is None or following.number == position.number + 1
        position = following


@given(results=st.lists(outcomes, max_size=80))
def test_a_japanese_game_does_not_end_before_its_last_wind_round(results):
    position = FIRST
    for outcome in results:
        following = next_position(JT, position, outcome, wind_rounds=4)
        if following is None:
            assert position.wind_round == 3
            return
        position = following
