"""Rule presets: everything that makes MCR differ from another rule set, as data.

A preset says whether hands have flowers and whether they count toward the minimum, the minimum
a win needs, how a hand is paid, what a false win costs, how many hands a game has, how the
deal passes and which engine scores a hand's tiles. The code reads these fields and never asks
which preset is in force. MCR is complete; Japanese Transitional and Wilmington Advanced
12-Tile are described from rules/preset-*.txt so that tournaments can be planned with them, but
no engine scores their tiles yet (`scorer` is None and the app says so).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PaymentScheme:
    """Who pays a win worth `value`.

    - `base`: what every other player pays the winner before the hand's value (MCR: 8).
    - `self_drawn_each`: share of the value each other player pays on a self-drawn win.
    - `discarder_share`: share of the value the discarder pays on a discard win.
    - `others_pay_base_on_discard`: whether the two non-discarders pay `base` on a discard win.
    """

    base: int
    self_drawn_each: float
    discarder_share: float
    others_pay_base_on_discard: bool


@dataclass(frozen=True)
class FalseWinPenalty:
    """What a declared win that is not one costs: points paid to each other player."""

    below_minimum_each: int
    invalid_hand_each: int
    offender_may_win_hand: bool


@dataclass(frozen=True)
class RulePreset:
    key: str
    name: str
    flowers: bool  # whether a hand may have flowers (bonus tiles) at all
    minimum_fan: int
    flowers_count_toward_minimum: bool
    payment: PaymentScheme
    false_win: FalseWinPenalty
    deal_passes: str  # "every_hand" or "when_non_dealer_wins_or_draw"
    hands_per_game: int
    scorer: str | None  # the engine that scores a hand's tiles; None: enter the value

    @property
    def hand_scoring_available(self) -> bool:
        """Whether an engine scores this preset's hands from their tiles."""
        return self.scorer is not None


MCR = RulePreset(
    key="mcr",
    name="Mahjong Competition Rules (Chinese Official)",
    flowers=True,
    minimum_fan=8,
    flowers_count_toward_minimum=False,
    payment=PaymentScheme(
        base=8, self_drawn_each=1.0, discarder_share=1.0, others_pay_base_on_discard=True
    ),
    false_win=FalseWinPenalty(
        below_minimum_each=10, invalid_hand_each=20, offender_may_win_hand=False
    ),
    deal_passes="every_hand",
    hands_per_game=16,
    scorer="mcr",
)

JAPANESE_TRANSITIONAL = RulePreset(
    key="japanese-transitional",
    name="Japanese Transitional",
    flowers=False,
    minimum_fan=0,
    flowers_count_toward_minimum=False,
    # Paid to the winner only, on the Japanese scheme (not modelled yet: see module docstring).
    payment=PaymentScheme(
        base=0, self_drawn_each=1.0, discarder_share=1.0, others_pay_base_on_discard=False
    ),
    false_win=FalseWinPenalty(
        below_minimum_each=0, invalid_hand_each=0, offender_may_win_hand=False
    ),
    deal_passes="when_non_dealer_wins_or_draw",
    hands_per_game=16,
    scorer=None,
)

WILMINGTON_12_TILE = RulePreset(
    key="wilmington-12-tile",
    name="Wilmington Advanced 12-Tile",
    flowers=False,
    minimum_fan=15,
    flowers_count_toward_minimum=False,
    # "The discarder of the winning tile is ... the sole loser ... paying 50% more".
    payment=PaymentScheme(
        base=0, self_drawn_each=1.0, discarder_share=1.5, others_pay_base_on_discard=False
    ),
    false_win=FalseWinPenalty(
        below_minimum_each=40, invalid_hand_each=40, offender_may_win_hand=False
    ),
    deal_passes="when_non_dealer_wins_or_draw",
    hands_per_game=16,
    scorer=None,
)

PRESETS: dict[str, RulePreset] = {
    preset.key: preset for preset in (MCR, JAPANESE_TRANSITIONAL, WILMINGTON_12_TILE)
}


def get_preset(key: str) -> RulePreset:
    try:
        return PRESETS[key]
    except KeyError:
        raise ValueError(
            f"Unknown rule preset {key!r}; choose one of {', '.join(PRESETS)}."
        ) from None
