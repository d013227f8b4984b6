"""Properties of Japanese Transitional scoring over random winning hands (hypothesis): F is a
multiple of ten from 20 to 1,500; making the last melded set concealed never scores less; the
reading kept is never below any single reading."""

from __future__ import annotations

from hypothesis import assume, given
from hypothesis import strategies as st

from scoring.engine.hand import CHOW, KONG, PUNG, Meld
from scoring.engine.jt import JtHand, score_jt_hand
from scoring.engine.jt.scoring import all_readings

SUITED_CHOW_STARTS = [suit * 9 + rank for suit in range(3) for rank in range(7)]


@st.composite
def winning_hands(draw, *, flags: bool = True) -> JtHand:
    """Four sets and a pair (no tile more than four times), some sets declared, the winning
    tile taken from the standing part, and the situation of the win."""
    counts = [0] * 34
    parts: list[tuple[str, int, bool, bool]] = []  # kind, tile, declared, concealed kong
    for _ in range(4):
        kind = draw(st.sampled_from([CHOW, CHOW, PUNG, PUNG, KONG]))
        tile = draw(st.sampled_from(SUITED_CHOW_STARTS) if kind == CHOW else st.integers(0, 33))
        tiles = [tile, tile + 1, tile + 2] if kind == CHOW else [tile] * (4 if kind == KONG else 3)
        for t in tiles:
            counts[t] += 1
        declared = kind == KONG or draw(st.booleans())
        concealed_kong = kind == KONG and draw(st.booleans())
        parts.append((kind, tile, declared, concealed_kong))
    pair = draw(st.integers(0, 33))
    counts[pair] += 2
    assume(max(counts) <= 4)
    standing = [pair, pair]
    melds = []
    for kind, tile, declared, concealed_kong in parts:
        if declared:
            melds.append(Meld(kind, tile, concealed_kong))
        elif kind == CHOW:
            standing += [tile, tile + 1, tile + 2]
        else:
            standing += [tile] * 3
    win = draw(st.sampled_from(sorted(set(standing))))
    standing.remove(win)
    self_drawn = draw(st.booleans())
    open_hand = any(not m.concealed for m in melds)
    situation = {}
    if flags:
        situation = {
            "riichi": not open_hand and draw(st.booleans()),
            "last_wall_tile": self_drawn and draw(st.booleans()),
            "last_discard": not self_drawn and draw(st.booleans()),
        }
    return JtHand(
        tuple(sorted(standing)),
        tuple(melds),
        win,
        self_drawn=self_drawn,
        seat_wind=draw(st.integers(0, 3)),
        prevailing_wind=draw(st.integers(0, 3)),
        **situation,
    )


@given(winning_hands())
def test_the_final_score_is_a_multiple_of_ten_from_20_to_1500(hand):
    result = score_jt_hand(hand)
    assert result.error is None, result.message
    assert result.final % 10 == 0
    assert 20 <= result.final <= 1500


@given(winning_hands())
def test_the_reading_kept_is_never_below_any_single_reading(hand):
    result = score_jt_hand(hand)
    readings = all_readings(hand)
    assert readings
    assert all(result.final >= reading.final for reading in readings)
    assert result.final == max(reading.final for reading in readings)


def concealed_last_meld(hand: JtHand) -> JtHand | None:
    """The hand with its last melded set concealed: a melded kong becomes a concealed kong, a
    melded chow or pung goes back among the standing tiles. None if nothing is melded."""
    for i in reversed(range(len(hand.melds))):
        meld = hand.melds[i]
        if meld.concealed:
            continue
        others = hand.melds[:i] + hand.melds[i + 1 :]
        if meld.kind == KONG:
            return JtHand(
                hand.concealed,
                (*others, Meld(KONG, meld.tile, True)),
                hand.win_tile,
                self_drawn=hand.self_drawn,
                seat_wind=hand.seat_wind,
                prevailing_wind=hand.prevailing_wind,
            )
        return JtHand(
            tuple(sorted(hand.concealed + meld.tiles)),
            others,
            hand.win_tile,
            self_drawn=hand.self_drawn,
            seat_wind=hand.seat_wind,
            prevailing_wind=hand.prevailing_wind,
        )
    return None


@given(winning_hands(flags=False))
def test_making_the_last_melded_set_concealed_never_scores_less(hand):
    concealed = concealed_last_meld(hand)
    assume(concealed is not None)
    before, after = score_jt_hand(hand), score_jt_hand(concealed)
    assert after.error is None, after.message
    assert after.final >= before.final
