"""Rule presets: everything that makes one rule set differ from another, as data.

A preset says what a game starts with and how long it lasts, how the deal passes, what a hand
may be worth and what it pays, what a declared win that is not one costs, and the extras of a
deal (riichi, faulty claims, the dealer's extra hands, payments for ready hands after a draw).
The code reads these fields and never asks which preset is in force.

Three presets, each with the engine that scores a win's tiles (`scorer`): Mahjong
Competition Rules (MCR, "mcr": the tiles give the fan and flowers), and the Four Winds presets
Japanese Transitional ("jt": the final score F) and Wilmington Advanced 12-Tile ("wa": each
winner's hand value F). A win entered with its tiles is recorded at the engine's value, and a
value entered beside them must agree; a win entered by its value alone is taken as given. The
rules behind the numbers are in the shared specification: `rules/TOURNAMENT.md` for MCR,
`rules/japanese-transitional.md` and `rules/wilmington-12-tile.md` (sections 1 and 6-13).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any


def gettext_noop(message: str) -> str:
    """Marks a preset's name for translation (the pages show it through `scoring.words`); the
    engine itself speaks English only."""
    return message


#: How the deal passes, by the preset's `deal.passing`.
EVERY_HAND = "every_hand"  # MCR: after every hand
UNLESS_DEALER_WINS = "unless_dealer_wins"  # JT: the dealer repeats after his own win
UNLESS_DEALER_CONTINUES = "unless_dealer_continues"  # WA: ... and through draws after that


@dataclass(frozen=True)
class PaymentScheme:
    """Who pays a win worth `value` (MCR: fan and flowers; JT: the final score F; WA: points).

    Each loser owes `base + value`, doubled (`dealer_factor`) when the dealer wins or pays. On
    a self-drawn win every loser pays what he owes. On a discard the discarder pays what all
    three owe when `discarder_pays_for_all` (JT), else `base + value * discarder_share`,
    rounded to the nearest whole number, halves up (WA: 1.5 F), and each other player pays the
    base when `others_pay_base_on_discard` (MCR: 8).
    """

    base: int = 0
    dealer_factor: int = 1
    discarder_pays_for_all: bool = False
    discarder_share: Fraction = Fraction(1)
    others_pay_base_on_discard: bool = False


@dataclass(frozen=True)
class FaultyOut:
    """What a declared win that is not one costs: the offender pays `each` to every other
    player (`invalid_hand_each` for a hand that is no winning shape at all, MCR's 20), doubled
    where the dealer pays or receives (the payment scheme's `dealer_factor`). With `ends_deal`
    the deal ends at once (JT); otherwise play goes on and the offender may not win that deal
    (MCR's false win, WA's faulty out)."""

    each: int
    invalid_hand_each: int
    ends_deal: bool = False


@dataclass(frozen=True)
class DealRules:
    """How deals follow each other, and what a deal pays besides its winning hands.

    - `passing`: EVERY_HAND (MCR), UNLESS_DEALER_WINS (JT: the dealer repeats after his own
      win; after a faulty out by another player the same dealer deals again), or
      UNLESS_DEALER_CONTINUES (WA: as JT, and a draw in a continued deal does not pass it).
    - `several_winners`: every player who can go out on a discard wins (WA); otherwise one.
    - `riichi_stake`: each riichi declarer other than the winner pays it to the winner (JT
      100); nothing after a draw. 0: the preset has no riichi.
    - `faulty_claim`: each faulty claim pays it to the winner (JT 100); nothing after a draw.
    - `extra_hand_bonus`: in the dealer's extra hand n, the winner receives n times it from
      each loser, the discarder paying for all on a discard (JT 100).
    - `ready_pool`: after a drawn deal the non-ready players pay it to the ready ones, shared
      equally on both sides (JT 600; 0: nothing is paid after a draw).
    """

    passing: str = EVERY_HAND
    several_winners: bool = False
    riichi_stake: int = 0
    faulty_claim: int = 0
    extra_hand_bonus: int = 0
    ready_pool: int = 0


@dataclass(frozen=True)
class Setting:
    """A value of the preset that a tournament may change (section 13 of each specification
    calls them configurable): the field of the preset it replaces, and the values allowed."""

    name: str  # "wind_rounds", or "deal.ready_pool" for a field of the deal rules
    choices: tuple[int, ...] = ()  # allowed values; empty: any whole number in the range
    least: int = 0
    most: int = 1_000_000
    step: int = 1  # the value is a multiple of it

    def problem(self, value: object) -> str | None:
        """Why `value` is not allowed, or None."""
        if isinstance(value, bool) or not isinstance(value, int):
            return f"{self.name} is a whole number."
        if self.choices and value not in self.choices:
            return f"{self.name} is one of {', '.join(map(str, self.choices))}."
        if not self.least <= value <= self.most or value % self.step:
            step = f", a multiple of {self.step}" if self.step > 1 else ""
            return f"{self.name} is {self.least} to {self.most}{step}."
        return None


@dataclass(frozen=True)
class RulePreset:
    key: str
    name: str
    initial_points: int  # every player's points when a game starts
    flowers: bool  # whether a hand may have flowers (bonus tiles) at all
    value_unit: str  # what a hand's value counts: "fan" (MCR, with flowers apart) or "points"
    minimum: int  # a win worth less is a false win / faulty out (MCR fan, WA points)
    flowers_count_toward_minimum: bool
    limit: int | None  # the most a hand is worth (JT F, WA points); None: no limit
    least_value: int  # a hand's value below it is impossible (JT: F is at least 20)
    value_step: int  # a hand's value is a multiple of it (JT: F is rounded to tens)
    payment: PaymentScheme
    faulty_out: FaultyOut
    deal: DealRules
    hands_per_game: int | None  # a game of a fixed number of hands (MCR 16)...
    wind_rounds: int  # ... or of this many wind rounds, as many deals as they take
    seat_rotation: str  # the default seat change between wind rounds (rotation.SCHEMES)
    scorer: str | None  # the engine that scores a hand's tiles; None: enter the value
    # Where the statistics split hand values into tiers (MCR: the values of single fans).
    value_tiers: tuple[int, ...] = (8, 9, 12, 16, 24, 32, 48, 64, 88)
    # The values a referee enters with one tap (MCR fan); other values are typed. Empty for a
    # preset whose values are too spread out for a short list (JT's F, WA's points).
    quick_values: tuple[int, ...] = ()
    settings: tuple[Setting, ...] = field(default=())
    short_name: str = ""  # the name a short list of the rule sets shows (the calculator's)

    @property
    def hand_scoring_available(self) -> bool:
        """Whether an engine scores this preset's hands from their tiles."""
        return self.scorer is not None

    def value_of(self, setting: Setting) -> int:
        """The preset's own value of `setting`."""
        holder: object = self
        for part in setting.name.split("."):
            holder = getattr(holder, part)
        assert isinstance(holder, int)
        return holder

    def configured(self, values: Mapping[str, object]) -> RulePreset:
        """The preset with a tournament's values of its settings; ValueError for a setting the
        preset does not have or a value it does not allow."""
        preset = self
        for name, value in values.items():
            setting = next((item for item in self.settings if item.name == name), None)
            if setting is None:
                raise ValueError(f"{self.name} has no setting {name!r}.")
            problem = setting.problem(value)
            if problem:
                raise ValueError(problem)
            part, _, field_name = name.rpartition(".")
            changes: dict[str, Any] = {field_name: value}
            if part:
                changes = {part: replace(getattr(preset, part), **changes)}
            preset = replace(preset, **changes)
        return preset

    @property
    def counts_fan(self) -> bool:
        """Whether a hand's value is entered as fan and flowers (MCR), not as points."""
        return self.value_unit == "fan"

    @property
    def least_deals(self) -> int:
        """The deals of a game where the deal always passes: its length when fixed (MCR 16),
        else four a wind round; what an even pace over a round is measured against."""
        return self.hands_per_game or self.wind_rounds * 4

    @property
    def deals_vary(self) -> bool:
        """Whether a game is as many deals as its wind rounds take (not a fixed number)."""
        return self.hands_per_game is None


MCR = RulePreset(
    key="mcr",
    name=gettext_noop("Mahjong Competition Rules (Chinese Official)"),
    short_name=gettext_noop("MCR"),
    initial_points=0,
    flowers=True,
    value_unit="fan",
    minimum=8,
    flowers_count_toward_minimum=False,
    limit=None,
    least_value=0,
    value_step=1,
    payment=PaymentScheme(base=8, discarder_share=Fraction(1), others_pay_base_on_discard=True),
    faulty_out=FaultyOut(each=10, invalid_hand_each=20),
    deal=DealRules(passing=EVERY_HAND),
    hands_per_game=16,
    wind_rounds=4,
    seat_rotation="wmo",
    scorer="mcr",
    quick_values=(*range(8, 17), 24, 32, 48, 64, 88),
)

JAPANESE_TRANSITIONAL = RulePreset(
    key="japanese-transitional",
    name=gettext_noop("Japanese Transitional"),
    short_name=gettext_noop("Japanese Transitional"),
    initial_points=8000,
    flowers=False,
    value_unit="points",
    minimum=0,
    flowers_count_toward_minimum=False,
    limit=1500,
    least_value=20,
    value_step=10,
    # "Discarder pays for all; East receives and pays (for himself only) double."
    payment=PaymentScheme(dealer_factor=2, discarder_pays_for_all=True),
    # Half the limit to each other player, East double; the deal ends at once.
    faulty_out=FaultyOut(each=750, invalid_hand_each=750, ends_deal=True),
    deal=DealRules(
        passing=UNLESS_DEALER_WINS,
        riichi_stake=100,
        faulty_claim=100,
        extra_hand_bonus=100,
        ready_pool=600,
    ),
    hands_per_game=None,
    wind_rounds=4,
    seat_rotation="none",
    scorer="jt",
    value_tiers=(20, 100, 300, 600, 1000, 1500),
    settings=(
        Setting("wind_rounds", choices=(1, 2, 4)),
        Setting("deal.extra_hand_bonus", least=1, most=2000),
        Setting("deal.ready_pool", least=0, most=6000, step=6),
    ),
)

WILMINGTON_12_TILE = RulePreset(
    key="wilmington-12-tile",
    name=gettext_noop("Wilmington Advanced 12-Tile"),
    short_name=gettext_noop("Wilmington"),
    initial_points=500,
    flowers=False,
    value_unit="points",
    minimum=15,
    flowers_count_toward_minimum=False,
    limit=600,
    least_value=0,
    value_step=1,
    # Self-drawn: F from each; on a discard the discarder alone pays 1.5 F.
    payment=PaymentScheme(discarder_share=Fraction(3, 2)),
    faulty_out=FaultyOut(each=40, invalid_hand_each=40),
    deal=DealRules(passing=UNLESS_DEALER_CONTINUES, several_winners=True),
    hands_per_game=None,
    wind_rounds=4,
    seat_rotation="none",
    scorer="wa",
    value_tiers=(15, 30, 60, 120, 300, 600),
    settings=(Setting("wind_rounds", choices=(1, 2, 4)),),
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
