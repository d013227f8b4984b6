"""JSON API: POST /api/score scores one hand (`scoring.services.score_request`), under MCR
(the default), Japanese Transitional ("preset": "jt") or Wilmington Advanced 12-Tile
("preset": "wa").

The endpoint only computes, so it needs no login and no CSRF token. 200 for a scored hand
(including an MCR false win and a Wilmington hand below its minimum), 400 for a request that
cannot be scored, 405 for anything but POST.
The body is validated by the request schemas below; what they refuse is answered with the
engine's code and message (a referee's words), as a hand the engine refuses is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from django.http import HttpRequest, JsonResponse
from ninja import Body, Router
from ninja.responses import Status
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    ValidationError,
    WrapValidator,
    field_validator,
)
from pydantic_core import PydanticCustomError

from scoring.engine import DEFAULT_PROFILE, PROFILES, TILE_CODES, compare_profiles, errors
from scoring.engine.jt import JtResult
from scoring.engine.rulebook import JtRulebook, WaRulebook
from scoring.engine.tiles import CODES, WIND_CODES
from scoring.engine.wa import JOKER, WaResult
from scoring.engine.wa.rules import CHOW, KONG, PAIR, PUNG
from scoring.engine.wa.scoring import MINIMUM
from scoring.engine_messages import engine_message
from scoring.pattern_names import jt_pattern_name, wa_pattern_name
from scoring.services import COMPARE_FIELD, PRESETS, SCORED_ERRORS, Refusal, score_request

router = Router(tags=["scoring"])


# The engine's leniency, kept: tiles and winds may be padded (winds in any case), passed on as
# sent (the engine quotes them); null is the default of a flag, the flowers, the profile, the
# preset and the declared sets.
def _as_sent(read: Callable[[str], str]) -> WrapValidator:
    def check(value: Any, validate: Callable[[Any], Any]) -> Any:
        if isinstance(value, str) and read(value) != value:
            validate(read(value))
            return value
        return validate(value)

    return WrapValidator(check)


def _or(default: Any) -> BeforeValidator:
    return BeforeValidator(lambda value: default if value is None else value)


Tile = Annotated[
    Literal[TILE_CODES],
    _as_sent(str.strip),
    Field(
        description="1m-9m characters, 1p-9p dots, 1s-9s bamboo, E S W N winds, C red, F green, "
        "P white dragon."
    ),
]
Wind = Annotated[Literal[WIND_CODES], _as_sent(lambda value: value.strip().upper())]
Flag = Annotated[bool, _or(False)]
Profile = Literal[tuple(PROFILES)]


class HandRequest(BaseModel):
    # Strict as the engine is (`true` is no number); fields of the case format that the API
    # does not describe (such as a JT deal's riichi) reach the engine as they were sent.
    model_config = ConfigDict(strict=True, extra="allow")


class CaseFormat(HandRequest):
    # A body with `compact` is read as compact notation, whatever else it holds.
    model_config = ConfigDict(json_schema_extra={"not": {"required": ["compact"]}})


class WinSituation(HandRequest):
    self_drawn: Flag = Field(
        False, description="The winning tile was drawn from the wall (not a discard)."
    )
    seat_wind: Wind = Field("E", description="The winner's seat wind.")
    # The bodies are the case format (shared/data/README.md), which calls the prevailing wind
    # `prevalent_wind`; clients keep that name.
    prevalent_wind: Wind = Field("E", description="The prevalent wind.")
    flowers: Annotated[int, _or(0)] = Field(
        0,
        ge=0,
        le=8,
        description="Number of flower tiles; 1 point each, not counted for the minimum.",
    )
    last_tile_of_kind: Flag = Field(
        False, description="The winning tile is the last of its kind (Last Tile)."
    )
    kong_related: Flag = Field(
        False,
        description="Self-drawn: Out with Replacement Tile. On a discard: Robbing the Kong.",
    )
    last_wall_tile: Flag = Field(
        False, description="Self-drawn: Last Tile Draw. On a discard: Last Tile Claim."
    )
    profile: Annotated[Profile, _or(DEFAULT_PROFILE)] = Field(
        DEFAULT_PROFILE, description="Rule profile: fan values that differ between rulebooks."
    )
    compare_profiles: bool = Field(
        False,
        description="Also score the same tiles under the other rule profile: the answer then "
        "carries `comparison`.",
    )
    preset: Annotated[Literal["mcr"], _or("mcr")] = Field(
        "mcr", description="Mahjong Competition Rules (the default)."
    )


class Meld(HandRequest):
    """A declared set. A kong with concealed true is a concealed kong."""

    type: Literal["chow", "pung", "kong"]
    tiles: list[Tile] = Field(min_length=3)
    concealed: Flag = False
    claimed: Tile | None = Field(None, description="Chows: the claimed tile.")
    from_: Literal["left", "across", "right"] | None = Field(
        None, alias="from", description="Pungs and kongs: whom the tile was claimed from."
    )

    @field_validator("from_", mode="wrap")
    @classmethod
    def _ignored_on_a_chow(cls, value: Any, validate: Callable[[Any], Any], info: Any) -> Any:
        return value if info.data.get("type") == "chow" else validate(value)


class CaseRequest(WinSituation, CaseFormat):
    """The case format: standing tiles without the winning tile."""

    concealed: list[Tile]
    melds: Annotated[list[Meld], _or([])] = []
    win_tile: Tile


class CompactRequest(WinSituation):
    """Compact notation, e.g. `2345p 78s EE [PPP] [789m] 6s`: digit runs with a suit letter,
    honours as letters, declared sets in [brackets], concealed kongs in (parentheses); the last
    tile written is the winning tile."""

    compact: str


class LimitSituation(HandRequest):
    """The flags Japanese Transitional and Wilmington share, each preset adding its own."""

    seat_wind: Wind = Field("E", description="The winner's seat wind; East is the dealer.")
    last_wall_tile: Flag = Field(False, description="Self-drawn on the last tile of the wall.")
    supplement_tile: Flag = Field(False, description="Self-drawn on the tile after a kong.")
    robbing_kong: Flag = Field(False, description="Won on a tile added to a melded pung.")
    heavenly: Flag = Field(False, description="The dealer's dealt tiles win (a limit hand).")


class JtSituation(LimitSituation):
    """The situation of a Japanese Transitional win (section 6 of its specification)."""

    preset: Literal["jt"] = Field(description="Japanese Transitional.")
    self_drawn: Flag = Field(
        False, description="The winning tile was drawn from the wall (also a supplement tile)."
    )
    prevalent_wind: Wind = Field("E", description="The wind of the round.")
    last_discard: Flag = Field(False, description="Won on the discard after the last wall tile.")
    earthly: Flag = Field(
        False, description="A non-dealer wins before any claim or kong (a limit hand)."
    )
    riichi: Flag = Field(False, description="The winner had declared riichi (1 double).")


class JtCaseRequest(JtSituation, CaseFormat):
    """The case format: standing tiles without the winning tile."""

    concealed: list[Tile]
    melds: Annotated[list[Meld], _or([])] = []
    win_tile: Tile


class JtCompactRequest(JtSituation):
    """Compact notation, as for MCR; the last tile written is the winning tile."""

    compact: str


WaTile = Annotated[
    Literal[(*TILE_CODES, JOKER)],
    # The joker is J as it is: " J" is no tile.
    _as_sent(lambda value: value if value.strip() == JOKER else value.strip()),
    Field(description="A tile code, or J for the joker (one per hand)."),
]


class WaSituation(LimitSituation):
    """The situation of a Wilmington win (sections 4 and 11 of its specification)."""

    preset: Literal["wa"] = Field(description="Wilmington Advanced 12-Tile.")
    self_drawn: Flag = Field(False, description="The winning tile was drawn from the wall.")
    prevalent_wind: Wind = Field("E", description="The prevalent wind.")
    last_discard: Flag = Field(False, description="Won on the last discard of the deal.")
    earthly: Flag = Field(False, description="Won on the dealer's first discard (a limit hand).")
    last_available: Flag = Field(
        False, description="The winning tile was the last one of its kind still available."
    )
    four_kongs_immediate: Flag = Field(
        False, description="Out at once on the fourth kong (the winning tile is in it)."
    )
    thirteen_discarded_orphans: Flag = Field(
        False, description="Thirteen Discarded Orphans (a limit hand; needs no tiles)."
    )


class WaMeld(HandRequest):
    """A declared set; one holding the joker (J) says in `joker_as` which tile it stands for."""

    type: Literal["chow", "pung", "kong"]
    tiles: list[WaTile] = Field(min_length=3)
    concealed: Flag = False
    joker_as: Tile | None = Field(None, description="The tile the joker of this set stands for.")


class WaCaseRequest(WaSituation, CaseFormat):
    """The case format: standing tiles (the joker among them, or in a declared set) without
    the winning tile."""

    # Thirteen Discarded Orphans needs no tiles.
    concealed: list[WaTile] | None = None
    melds: Annotated[list[WaMeld], BeforeValidator(lambda value: value or [])] = []
    win_tile: Tile | None = None


class WaCompactRequest(WaSituation):
    """Compact notation with J for the joker, written as a tile of its own (`46p J`, or
    `[57m J]` in a declared set, whose value `joker_as` gives); the last tile written is the
    winning tile."""

    compact: str
    joker_as: Tile | None = Field(
        None, description="The joker's value when it is in a declared set."
    )


class ScoringAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Fan(ScoringAnswer):
    key: str
    en: str
    zh: str
    points: int
    count: int = Field(ge=1)
    sets: list[Annotated[int, Field(ge=0)]] = Field(
        description="Indexes into `arrangement` of the sets this fan used."
    )


class ArrangementSet(ScoringAnswer):
    kind: Literal["chow", "pung", "kong", "pair", "knitted", "honors", "tiles"]
    tiles: list[Tile]
    declared: bool
    concealed: bool


class FanDifference(ScoringAnswer):
    key: str
    en: str
    zh: str
    points: int = Field(description="The fan's value under the profile that scored the hand.")
    count: int = Field(ge=0, description="How often it counts there; 0: not at all.")
    other_points: int = Field(description="Its value under the other profile.")
    other_count: int = Field(ge=0, description="How often it counts there; 0: not at all.")


class ProfileComparison(ScoringAnswer):
    """The other profile's verdict on the same tiles; `differences` lists the fans it counts
    differently (empty when both profiles score the hand alike)."""

    profile: Profile
    error: Literal[tuple(SCORED_ERRORS)] | None
    total: int
    total_excl_flowers: int
    differences: list[FanDifference]


class ScoreResult(ScoringAnswer):
    """`error` is null for a valid win, or BELOW_8_FAN for a winning shape worth less than 8 fan
    without flowers (a false win); both carry the total and fans."""

    error: Literal[tuple(SCORED_ERRORS)] | None
    message: str
    profile: Profile
    total: int
    total_excl_flowers: int
    minimum: int
    meets_minimum: bool
    fans: list[Fan]
    arrangement: list[ArrangementSet]
    # Left out unless asked for, never sent as null: None only marks it unset.
    comparison: ProfileComparison = Field(None, description="Only when `compare_profiles` is set.")  # type: ignore[assignment]


class JtPattern(ScoringAnswer):
    key: str = Field(description="The stable key of the pattern (section 4 of the rules).")
    en: str
    name: str = Field(description="The name in the language of the request.")
    value: int
    unit: Literal["pts", "dbl", "%"] = Field(
        description="Points before doubling, doubles, or a share of the limit (100 = 1,500)."
    )
    count: int = Field(ge=1)
    sets: list[Annotated[int, Field(ge=0)]] = Field(
        description="Indexes into `reading` of the sets this pattern counted."
    )


class JtReadingSet(ScoringAnswer):
    kind: Literal["chow", "pung", "kong", "pair"]
    tiles: list[Tile]
    declared: bool
    concealed: bool = Field(
        description="Concealed for scoring: a set completed by a winning discard is melded."
    )
    winning: bool = Field(description="The set or pair the winning tile completed.")


class JtScoreResult(ScoringAnswer):
    """A Japanese Transitional win: F = raw rounded to the nearest ten, at most 1,500, where
    raw = points x 2^doubles (a limit hand: 1,500). The reading kept is the highest-scoring
    one; `patterns` point at its sets."""

    preset: Literal["jt"]
    error: None
    message: str
    final: int
    points: int
    doubles: int
    raw: int
    limit: bool
    shape: Literal["regular", "seven_pairs", "thirteen_orphans"]
    patterns: list[JtPattern]
    reading: list[JtReadingSet]


class WaPattern(ScoringAnswer):
    key: str = Field(description="The stable key of the pattern (section 4 of the rules).")
    en: str
    name: str = Field(description="The name in the language of the request.")
    points: int
    count: int = Field(ge=1)


class WaReadingSet(ScoringAnswer):
    kind: Literal["chow", "pung", "kong", "pair"]
    tiles: list[Tile] = Field(description="With the joker as the tile it stands for.")
    declared: bool


class WaScoreResult(ScoringAnswer):
    """A Wilmington hand: T = the sum of its patterns, F = T capped at the limit (600).
    `error` is null for a win, or BELOW_MINIMUM for a hand worth less than `minimum` (a
    faulty out); both carry the full breakdown. `joker_as` is the tile the joker stands for:
    the value that gives the highest hand for a standing joker, the declared one in a set."""

    preset: Literal["wa"]
    error: Literal["BELOW_MINIMUM"] | None
    message: str
    total: int
    final: int
    limit: bool
    minimum: int
    joker_as: Tile | None
    patterns: list[WaPattern]
    reading: list[WaReadingSet] = Field(
        description="The sets and pair of the reading scored; empty for Thirteen Orphans and "
        "Thirteen Discarded Orphans."
    )


class ScoringError(ScoringAnswer):
    error: Literal[(*sorted(errors.WA_STRUCTURAL), "METHOD_NOT_ALLOWED")]
    message: str = Field(description="Plain-language reason.")


def _shape(body: Any) -> str | None:
    """The request schema of a body, as `score_request` reads it: its preset (MCR when it names
    none), then compact notation or the case format."""
    if not isinstance(body, dict):
        return None
    preset = body.get("preset")
    preset = "mcr" if preset is None else preset
    if not isinstance(preset, str) or preset not in PRESETS:
        return None
    return f"{preset} {'compact' if 'compact' in body else 'case'}"


def _in_the_engines_words(body: Any, validate: Callable[[Any], Any]) -> Any:
    """A body its schema refuses is refused with the code and message the engine gives it
    (answered by `tournament.api.errors`, which reads a "refusal" error's context)."""
    try:
        return validate(body)
    except ValidationError as error:
        if isinstance(body, bytes):  # not JSON (config.api.Parser), or no body at all
            refusal = Refusal(errors.BAD_INPUT, "The request body is not valid JSON.")
        else:
            problem = error.errors(include_url=False)[0]
            where = ".".join(str(part) for part in problem["loc"][1:])
            refusal = Refusal(errors.BAD_INPUT, f"{where}: {problem['msg']}")
            try:
                outcome = score_request(body)
            except TypeError:  # a value of the wrong type the engine does not check (joker_as)
                outcome = refusal
            refusal = outcome if isinstance(outcome, Refusal) else refusal
        raise PydanticCustomError(
            "refusal", "{message}", {"code": refusal.code, "message": refusal.message}
        ) from error


# An empty body is validated too: b"" is not JSON.
HAND = Body(b"", validate_default=True)
Hand = Annotated[
    Annotated[CompactRequest, Tag("mcr compact")]
    | Annotated[CaseRequest, Tag("mcr case")]
    | Annotated[JtCompactRequest, Tag("jt compact")]
    | Annotated[JtCaseRequest, Tag("jt case")]
    | Annotated[WaCompactRequest, Tag("wa compact")]
    | Annotated[WaCaseRequest, Tag("wa case")],
    Discriminator(_shape),
    WrapValidator(_in_the_engines_words),
]


@router.post(
    "/score",
    url_name="score",
    auth=None,
    response={
        200: ScoreResult | JtScoreResult | WaScoreResult,
        400: ScoringError,
        405: ScoringError,
    },
    summary="Score one hand",
    exclude_unset=True,  # `comparison` is left out unless asked for
    openapi_extra={"requestBody": {"required": True}},  # its default only lets it refuse b""
)
def score_hand(
    request: HttpRequest,
    hand: Hand = HAND,
) -> Any:
    """Scores one hand under MCR (the default), Japanese Transitional (`"preset": "jt"`) or
    Wilmington Advanced 12-Tile (`"preset": "wa"`, J the joker).
    The body is either the case format (standing tiles, declared sets and the winning tile as
    separate fields) or a compact notation string with the same situation fields. Unknown
    fields are ignored.

    * 200: the hand was scored (see ScoreResult for MCR, JtScoreResult for JT, WaScoreResult
      for WA, including a hand below the WA minimum).
    * 400: the body could not be scored: not JSON, wrong types, unknown preset or profile, a
      malformed hand or a hand that is not a winning shape.
    * 405: any method but POST.

    The endpoint only computes; it needs no login and no CSRF token."""
    outcome = score_request(hand.model_dump(by_alias=True, exclude_unset=True))
    if isinstance(outcome, Refusal):
        return Status(400, {"error": outcome.code, "message": outcome.message})
    if isinstance(outcome, JtResult):
        return Status(200, jt_answer(outcome))
    if isinstance(outcome, WaResult):
        return Status(200, wa_answer(outcome))
    body = outcome.to_dict()
    if getattr(hand, COMPARE_FIELD, False):
        comparison = compare_profiles(outcome)
        if comparison is not None:
            body["comparison"] = comparison.to_dict()
    # For people: in the language the request asks for (Accept-Language or the site's language
    # cookie); the code stays the stable, untranslated part.
    body["message"] = engine_message(outcome)
    return Status(200, body)


@router.api_operation(
    ["GET", "PUT", "PATCH", "DELETE", "OPTIONS"], "/score", auth=None, include_in_schema=False
)
def refuse_other_methods(request: HttpRequest) -> JsonResponse:
    body = {"error": "METHOD_NOT_ALLOWED", "message": "Send the hand with POST."}
    return JsonResponse(body, status=405, headers={"Allow": "POST"})


def jt_answer(result: JtResult) -> dict[str, Any]:
    """A scored JT win as JtScoreResult, pattern names in the request's language."""
    body = result.to_dict()
    for pattern in body["patterns"]:
        pattern["name"] = jt_pattern_name(pattern["key"])
    return {"preset": JtRulebook.key, **body}


_WA_KINDS = {CHOW: "chow", PUNG: "pung", KONG: "kong", PAIR: "pair"}


def wa_answer(result: WaResult) -> dict[str, Any]:
    """A scored WA hand as WaScoreResult, pattern names in the request's language."""
    assert result.total is not None and result.final is not None
    declared = len(result.hand.melds) if result.hand is not None else 0
    units = result.reading.units if result.reading is not None else ()
    reading = []
    for index, (kind, first, _melded) in enumerate(units):
        size = 3 if kind in (CHOW, PUNG) else 4 if kind == KONG else 2
        tiles = [first + i for i in range(3)] if kind == CHOW else [first] * size
        reading.append(
            {
                "kind": _WA_KINDS[kind],
                "tiles": [CODES[tile] for tile in tiles],
                "declared": index < declared,
            }
        )
    return {
        "preset": WaRulebook.key,
        "error": result.error,
        "message": engine_message(result),
        "total": result.total,
        "final": result.final,
        "limit": result.limit,
        "minimum": MINIMUM,
        "joker_as": None if result.joker_as is None else CODES[result.joker_as],
        "patterns": [
            {
                "key": line.key,
                "en": line.en,
                "name": wa_pattern_name(line.key),
                "points": line.points,
                "count": line.count,
            }
            for line in result.patterns
        ],
        "reading": reading,
    }
