"""One object per rule preset that every edge of the application asks: how a win's tiles are
read and scored, which facts of the situation a win may carry, what a deal and its value are
called, what a foul may cost, and which ways of entering a deal exist. Plain Python.

`RulePreset` holds the numbers of a rule set; its `rulebook` (`rulebook_for`) holds what the
rule set *does* with them. Pages, prints, statistics, the archive, the API and the calculator
read the rulebook instead of naming a preset: a new rule set is a new rulebook here, and
nothing outside the engine changes.

Words come as keys that the presentation layer translates (`scoring.words`): the engine knows
no language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from . import errors
from .errors import HandError
from .jt import FLAGS as JT_FLAGS
from .jt import JtResult, parse_jt_compact, score_jt_case, score_jt_hand, settle_jt_case
from .notation import count_compact_tiles, parse_compact
from .presets import PRESETS, RulePreset
from .profiles import DEFAULT_PROFILE
from .result import ScoreResult
from .scoring import score_case, score_hand
from .wa import FLAGS as WA_FLAGS
from .wa import WaResult, parse_wa_case, parse_wa_compact, score_wa_case, score_wa_hand
from .wa.hand import compact_case
from .wa.scoring import failure as wa_failure

Verdict = ScoreResult | JtResult | WaResult

#: MCR's flower points: scored as a fan, but apart from the hand's value.
FLOWERS = "flower_tiles"

#: A whole hand in the compact notation: 14 tiles, a declared set (a kong too) counted as three.
HAND_TILES = 14

#: What a deal is called: MCR calls each deal a hand (the Green Book's word); the presets whose
#: dealer repeats call it a deal.
HAND, DEAL = "hand", "deal"


@dataclass(frozen=True)
class Scored:
    """A win's tiles as the preset scores them.

    `value` is what the deal records (MCR: fan without flowers, with `flowers` apart; JT: the
    final score F; WA: the hand value F). `error` is None for a win, `BELOW_MINIMUM` for a
    hand that is a winning shape worth less than the minimum (MCR's false win, WA's faulty
    out: `value` holds its worth), or the engine's code for tiles that are no hand at all
    (`value` None). `verdict` is the engine's own result, for breakdowns and messages."""

    value: int | None
    flowers: int
    error: str | None
    verdict: Verdict

    @property
    def below_minimum(self) -> bool:
        return self.error == BELOW_MINIMUM

    @property
    def refused(self) -> bool:
        """Tiles that are no hand: neither a win nor one below the minimum."""
        return self.error is not None and not self.below_minimum


#: The one code every preset gives a winning shape worth less than its minimum.
BELOW_MINIMUM = "below_minimum"

#: The units a pattern's value comes in: MCR fan, points (JT, WA), JT doubles, JT's share of
#: the limit (100 = the whole limit).
FAN, POINTS, DOUBLES, LIMIT_SHARE = "fan", "pts", "dbl", "%"


@dataclass(frozen=True)
class Pattern:
    """One pattern (MCR: fan) a win scored, whatever the preset: its stable `key`, the
    engine's English name `en` (and `zh` where the engine keeps a Chinese one: MCR's fans),
    its `value` in `unit` and how many times the win scored it."""

    key: str
    en: str
    zh: str
    value: int
    unit: str
    count: int


@dataclass(frozen=True)
class Figures:
    """What a scored win is made of: its patterns (MCR: without flowers), its doubles (None
    where the preset counts none) and whether it reached the limit (None where the preset has
    none)."""

    patterns: tuple[Pattern, ...]
    doubles: int | None
    limit: bool | None


@dataclass(frozen=True)
class PenaltyScale:
    """What a deduction for a foul may be: `least` to `most`, a multiple of `step`."""

    least: int
    most: int
    step: int

    def allows(self, points: int) -> bool:
        return self.least <= points <= self.most and points % self.step == 0


class Rulebook:
    """The rule set of a preset, asked by every edge. Subclasses fill in the scorer."""

    key: ClassVar[str]  # the short name requests and the calculator use: "mcr", "jt", "wa"
    #: The facts of the situation a win may carry besides its winds, self-draw and (JT) riichi,
    #: which the deal itself says; in the order forms show them.
    situation_flags: ClassVar[tuple[str, ...]]
    #: The tiles a compact hand may hold beyond the 34 kinds (WA's joker "J").
    extra_tile_codes: ClassVar[tuple[str, ...]] = ()
    #: What a deal is called (HAND or DEAL).
    deal_noun: ClassVar[str] = DEAL
    #: The kind of value a win carries: "fan" (with flowers apart), "final_score" (JT's F, in
    #: points, from points and doubles) or "points".
    value_kind: ClassVar[str]
    #: A foul's deduction.
    penalty_scale: ClassVar[PenaltyScale] = PenaltyScale(5, 60, 1)
    #: Whether the tournament's ruling profile (Green Book 2006 or the 1998 rules) applies.
    uses_ruling_profile: ClassVar[bool] = False
    #: What a declared win that is not one is called: MCR's "false win"; the other presets'
    #: "faulty out" (JT's ends the deal, WA's is a penalty and play goes on).
    calls_false_win_faulty_out: ClassVar[bool] = True
    #: The situation a hand in the compact notation may be sent with (the scoring API, the
    #: calculator): the case format's field names.
    compact_fields: ClassVar[tuple[str, ...]]
    #: The hand calculator's fields the preset reads besides the hand, its winds and
    #: self-draw (`calculator_request`): the calculator shows them when the preset is chosen.
    calculator_fields: ClassVar[tuple[str, ...]]

    #: The EMA ranking (Mahjong Europe Ranking System) that takes tournaments played under
    #: the rule set: "MCR"; None where the EMA ranks none (it ranks MCR and its own Riichi
    #: Competition Rules, which none of the other presets is).
    ema_ranking: ClassVar[str | None] = None

    def __init__(self, preset: RulePreset):
        self.preset = preset

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.preset.key}>"

    # --- Entry -----------------------------------------------------------------------------

    @property
    def counts_fan(self) -> bool:
        """Whether a win is entered as fan and flowers (MCR) rather than as points."""
        return self.value_kind == "fan"

    @property
    def false_win_penalty(self) -> bool:
        """Whether a declared win that is not one is a penalty beside the deal, which goes on
        (MCR's false win, WA's faulty out); otherwise it is a result that ends the deal
        (JT's faulty out)."""
        return not self.preset.faulty_out.ends_deal

    @property
    def faulty_out_result(self) -> bool:
        """Whether a faulty out is a result of its own that ends the deal (JT)."""
        return self.preset.faulty_out.ends_deal

    @property
    def several_winners(self) -> bool:
        return self.preset.deal.several_winners

    @property
    def dealer_repeats(self) -> bool:
        """Whether the dealer may deal again, so a game has no fixed number of deals."""
        return self.preset.deals_vary

    def game_total(self, deductions: int) -> int:
        """What the four players' points add up to at the end of a game: each starts with the
        preset's initial points (MCR 0, JT 8000, WA 500); every payment of a deal passes from
        player to player (`settlement`: wins, riichi stakes and faulty claims go to the winner,
        the ready pool to the ready players, a faulty out to the others) and so does a
        distributed penalty; only `deductions`, given to nobody, leave the table."""
        return 4 * self.preset.initial_points - deductions

    # --- Tiles -----------------------------------------------------------------------------

    def situation(
        self,
        tiles: Mapping[str, Any],
        *,
        seat_wind: str,
        prevailing_wind: str,
        self_drawn: bool,
        riichi: bool = False,
    ) -> dict[str, Any]:
        """A winner's tiles (the case format) with the situation of the deal: the winner's
        seat wind, the prevailing wind and self-draw, as the game's flow gives them."""
        case = {
            **tiles,
            "seat_wind": seat_wind,
            # The case format, read and written here, calls the prevailing wind so.
            "prevalent_wind": prevailing_wind,
            "self_drawn": self_drawn,
        }
        case.pop("deal", None)
        return case | self._situation_of_its_own(tiles, riichi=riichi)

    def _situation_of_its_own(self, tiles: Mapping[str, Any], *, riichi: bool) -> dict[str, Any]:
        """What the preset's own situation adds (MCR: the flowers; JT: the winner's riichi)."""
        return {}

    def score(self, case: Mapping[str, Any], *, profile: str) -> Scored:
        """The tiles of one win in the case format, scored under this preset."""
        raise NotImplementedError

    def case_answer(self, case: dict[str, Any] | None, case_id: Any, *, profile: str) -> dict:
        """The answer to one line of a case file (shared/data/README.md): the shape of the
        case format's `expected` for this preset, with the case's id. `case` None: a line that
        is no case (BAD_INPUT)."""
        raise NotImplementedError

    def calculator_request(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """A scoring request (`scoring.services.score_request`) from the hand calculator's
        fields: its compact hand, winds and self-draw, and what the preset reads of the
        others. The calculator has one box for a kong (a supplement tile when self-drawn,
        robbing a kong on a discard) and one for the last tile (from the wall, or the last
        discard): a preset that tells them apart reads them with the self-draw."""
        drawn = bool(data.get("self_drawn"))
        return {
            "preset": self.key,
            "compact": data.get("hand", ""),
            "seat_wind": data.get("seat_wind") or "E",
            "prevalent_wind": data.get("prevalent_wind") or "E",
            "self_drawn": drawn,
            **self._calculator_situation(data, drawn),
        }

    def _calculator_situation(self, data: Mapping[str, Any], drawn: bool) -> dict[str, Any]:
        """The preset's own situation from the calculator's fields (JT and WA: the kong and
        last-tile boxes read with the self-draw; the flags the preset has as they are)."""
        situation: dict[str, Any] = {
            "supplement_tile": bool(data.get("kong_related")) and drawn,
            "robbing_kong": bool(data.get("kong_related")) and not drawn,
            "last_wall_tile": bool(data.get("last_wall_tile")) and drawn,
            "last_discard": bool(data.get("last_wall_tile")) and not drawn,
        }
        for name in self.calculator_fields:
            if name in self.compact_fields and name not in situation:
                situation[name] = bool(data.get(name))
        return situation

    def tiles_held(self, text: str) -> int:
        """How many tiles a hand being built in the compact notation holds, a declared set (a
        kong too) counted as three and the preset's extra tiles (WA's joker) as tiles; a whole
        hand holds HAND_TILES. HandError for text that is not tiles."""
        return count_compact_tiles(text, joker=bool(self.extra_tile_codes))

    def compact_tiles(self, text: str, *, joker_as: str | None = None) -> dict[str, Any]:
        """A hand in the compact notation as the case format's tiles (`concealed`, `melds`,
        `win_tile`; under WA the joker's value in a declared set, `joker_as`); HandError for
        text that cannot be read."""
        case = parse_compact(text).to_case()
        return {key: case[key] for key in ("concealed", "melds", "win_tile")}

    def score_compact(self, text: str, *, profile: str, **situation: Any) -> Scored:
        """A hand in the compact notation with its situation, scored under this preset;
        HandError for text that cannot be read."""
        raise NotImplementedError

    #: Whether a win's value counts doubles (JT), which statistics show apart.
    counts_doubles: ClassVar[bool] = False

    @property
    def has_limit(self) -> bool:
        """Whether a win's value is capped at a limit (JT, WA)."""
        return bool(self.preset.limit)

    def figures(self, scored: Scored) -> Figures | None:
        """The patterns, doubles and limit of a win scored by `score` (None for tiles that
        scored no win)."""
        raise NotImplementedError


class McrRulebook(Rulebook):
    key = "mcr"
    ema_ranking = "MCR"
    situation_flags = ("last_tile_of_kind", "kong_related", "last_wall_tile")
    deal_noun = HAND
    value_kind = "fan"
    uses_ruling_profile = True
    calls_false_win_faulty_out = False
    compact_fields = (
        "self_drawn", "seat_wind", "prevalent_wind", "flowers", *situation_flags,
    )  # fmt: skip
    calculator_fields = (*situation_flags, "flowers", "profile")

    def calculator_request(self, data: Mapping[str, Any]) -> dict[str, Any]:
        request = {
            "compact": data.get("hand", ""),
            "seat_wind": data.get("seat_wind") or "E",
            "prevalent_wind": data.get("prevalent_wind") or "E",
            "self_drawn": bool(data.get("self_drawn")),
            "flowers": data.get("flowers") or 0,
            "profile": data.get("profile") or DEFAULT_PROFILE,
        }
        return request | {flag: bool(data.get(flag)) for flag in self.situation_flags}

    def _situation_of_its_own(self, tiles: Mapping[str, Any], *, riichi: bool) -> dict[str, Any]:
        return {"flowers": tiles.get("flowers", 0)}

    def score(self, case: Mapping[str, Any], *, profile: str) -> Scored:
        return self._scored(score_case(dict(case), profile=profile))

    def score_compact(self, text: str, *, profile: str, **situation: Any) -> Scored:
        return self._scored(score_hand(parse_compact(text, **situation), profile=profile))

    def case_answer(self, case: dict[str, Any] | None, case_id: Any, *, profile: str) -> dict:
        """{"id", "error", "total", "total_excl_flowers", "fans"}."""
        if case is None:
            return {"id": case_id, "error": errors.BAD_INPUT, "total": None,
                    "total_excl_flowers": None, "fans": []}  # fmt: skip
        verdict = score_case(case, profile=profile).to_dict()
        return {
            "id": case.get("id"),
            "error": verdict["error"],
            "total": verdict["total"],
            "total_excl_flowers": verdict["total_excl_flowers"],
            "fans": [
                {"en": fan["en"], "zh": fan["zh"], "points": fan["points"], "count": fan["count"]}
                for fan in verdict["fans"]
            ],
        }

    def figures(self, scored: Scored) -> Figures | None:
        verdict = scored.verdict
        if scored.error is not None or not isinstance(verdict, ScoreResult):
            return None
        patterns = tuple(
            Pattern(fan.key, fan.en, fan.zh, fan.points, FAN, fan.count)
            for fan in verdict.fans
            if fan.key != FLOWERS
        )
        return Figures(patterns, None, None)

    @staticmethod
    def _scored(verdict: ScoreResult) -> Scored:
        error = BELOW_MINIMUM if verdict.error == errors.BELOW_8_FAN else verdict.error
        if error is not None and error != BELOW_MINIMUM:
            return Scored(None, 0, error, verdict)
        assert verdict.total is not None and verdict.total_excl_flowers is not None
        flowers = verdict.total - verdict.total_excl_flowers
        return Scored(verdict.total_excl_flowers, flowers, error, verdict)


class JtRulebook(Rulebook):
    key = "jt"
    situation_flags = tuple(flag for flag in JT_FLAGS if flag not in ("self_drawn", "riichi"))
    value_kind = "final_score"
    compact_fields = ("seat_wind", "prevalent_wind", *JT_FLAGS)
    calculator_fields = ("kong_related", "last_wall_tile", "riichi", "heavenly", "earthly")
    penalty_scale = PenaltyScale(5, 1500, 5)  # ruling R-19 of the JT specification
    counts_doubles = True

    def _situation_of_its_own(self, tiles: Mapping[str, Any], *, riichi: bool) -> dict[str, Any]:
        return {"riichi": riichi}

    def score(self, case: Mapping[str, Any], *, profile: str) -> Scored:
        return self._scored(score_jt_case(dict(case)))

    def case_answer(self, case: dict[str, Any] | None, case_id: Any, *, profile: str) -> dict:
        return _jt_case_answer(case, case_id)

    def score_compact(self, text: str, *, profile: str, **situation: Any) -> Scored:
        return self._scored(score_jt_hand(parse_jt_compact(text, **situation)))

    def figures(self, scored: Scored) -> Figures | None:
        verdict = scored.verdict
        if scored.error is not None or not isinstance(verdict, JtResult):
            return None
        patterns = tuple(
            Pattern(line.key, line.en, "", line.value, line.unit, line.count)
            for line in verdict.patterns
        )
        return Figures(patterns, verdict.doubles or 0, verdict.limit)

    @staticmethod
    def _scored(verdict: JtResult) -> Scored:
        if verdict.error is not None or verdict.final is None:
            return Scored(None, 0, verdict.error or errors.BAD_INPUT, verdict)
        return Scored(verdict.final, 0, None, verdict)


class WaRulebook(Rulebook):
    key = "wa"
    situation_flags = tuple(flag for flag in WA_FLAGS if flag != "self_drawn")
    extra_tile_codes = ("J",)
    value_kind = "points"
    # "joker_as": the tile the joker stands for in a declared set
    compact_fields = ("seat_wind", "prevalent_wind", *WA_FLAGS, "joker_as")
    calculator_fields = (
        "last_tile_of_kind", "kong_related", "last_wall_tile", "heavenly", "earthly",
        "four_kongs_immediate", "thirteen_discarded_orphans", "joker_as",
    )  # fmt: skip

    def _calculator_situation(self, data: Mapping[str, Any], drawn: bool) -> dict[str, Any]:
        situation = super()._calculator_situation(data, drawn)
        situation["last_available"] = bool(data.get("last_tile_of_kind"))  # the last of a kind
        if data.get("joker_as"):
            situation["joker_as"] = data["joker_as"]
        else:
            situation.pop("joker_as", None)
        return situation

    def compact_tiles(self, text: str, *, joker_as: str | None = None) -> dict[str, Any]:
        return compact_case(text, joker_as)

    def case_answer(self, case: dict[str, Any] | None, case_id: Any, *, profile: str) -> dict:
        return _wa_case_answer(case, case_id)

    def score(self, case: Mapping[str, Any], *, profile: str) -> Scored:
        try:
            hand = parse_wa_case(dict(case))
        except HandError as error:
            return self._scored(wa_failure(error))
        return self._scored(score_wa_hand(hand))

    def score_compact(self, text: str, *, profile: str, **situation: Any) -> Scored:
        return self._scored(score_wa_hand(parse_wa_compact(text, **situation)))

    def figures(self, scored: Scored) -> Figures | None:
        verdict = scored.verdict
        if scored.error is not None or not isinstance(verdict, WaResult):
            return None
        patterns = tuple(
            Pattern(line.key, line.en, "", line.points, POINTS, line.count)
            for line in verdict.patterns
        )
        return Figures(patterns, None, verdict.limit)

    @staticmethod
    def _scored(verdict: WaResult) -> Scored:
        if verdict.error == errors.BELOW_MINIMUM:
            return Scored(verdict.final, 0, BELOW_MINIMUM, verdict)
        if verdict.error is not None or verdict.final is None:
            return Scored(None, 0, verdict.error or errors.BAD_INPUT, verdict)
        return Scored(verdict.final, 0, None, verdict)


#: The rulebook of each engine, by the preset's `scorer`.
RULEBOOKS: dict[str, type[Rulebook]] = {
    book.key: book for book in (McrRulebook, JtRulebook, WaRulebook)
}


def rulebook_named(key: str) -> Rulebook:
    """The rulebook of the engine `key` ("mcr", "jt", "wa": what a scoring request names),
    under the preset of that engine with its own settings; ValueError for another key."""
    for preset in PRESETS.values():
        if preset.scorer == key:
            return rulebook_for(preset)
    raise ValueError(f"No rule preset is scored by {key!r}.")


def rulebook_for(preset: RulePreset) -> Rulebook:
    """The rulebook of `preset` (with the tournament's settings already applied to it)."""
    if preset.scorer not in RULEBOOKS:
        raise ValueError(f"No rulebook scores the preset {preset.key!r}.")
    return RULEBOOKS[preset.scorer](preset)


#: A JT line that is no case: its hand's shape with nothing scored.
_JT_BAD_INPUT: dict[str, Any] = {
    "error": errors.BAD_INPUT,
    "patterns": [],
    "points": None,
    "doubles": None,
    "raw": None,
    "final": None,
    "limit": False,
}


def _jt_case_answer(case: dict[str, Any] | None, case_id: Any) -> dict[str, Any]:
    """A JT deal: {"id", "hand", "payments"} (a draw or a faulty out has no hand)."""
    if case is None:
        return {"id": case_id, "hand": dict(_JT_BAD_INPUT), "payments": None}
    verdict = settle_jt_case(case)
    return {
        "id": case_id,
        "hand": None if verdict.hand is None else verdict.hand.case_hand(),
        "payments": verdict.payments,
    }


def _wa_case_answer(case: dict[str, Any] | None, case_id: Any) -> dict[str, Any]:
    """A WA deal: {"id", "hands", "payments"}, with "error" (and "message" once the line was
    read) when the deal cannot be settled."""
    if case is None:
        return {"id": case_id, "hands": [], "payments": None, "error": errors.BAD_INPUT}
    verdict = score_wa_case(case)
    answer: dict[str, Any] = {"id": case_id, **verdict.to_case()}
    if verdict.error is not None:
        answer["error"] = verdict.error
        answer["message"] = verdict.message
    return answer
