"""The JSON shapes of the tournament API: what requests carry and what answers show.

Request schemas are strict and refuse unknown fields; their fields take lengths, choices and
bounds from the models (`tournament.api.fields.of`). A change (PATCH) schema is its create
schema with nothing required, read with `model_dump(exclude_unset=True)`: only what is sent
changes.

Seats, payments and running scores are objects keyed by the starting seat, "E", "S", "W" and
"N", as in the archive format. Usernames (referees, who entered a result) are shown only to
insiders, the organisers and the referees of the tournament; answers leave them out for others.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

import pydantic
from django.contrib.auth import get_user_model
from ninja import Body
from pydantic import BaseModel, ConfigDict, Field, SkipValidation, WithJsonSchema, create_model

from tournament import models
from tournament.api.errors import NOT_JSON, ApiError, schema_error
from tournament.api.fields import Moment, Wind, choice, list_of, of, text
from tournament.rotation import WINDS

# Far above any real hand; keeps a typing slip from being stored as a win.
MAX_FAN = 1000
MAX_FLOWERS = 8
MAX_TABLES = 1000
CLOCK_STATES = ("not_started", "running", "paused", "over")
CLOCK_ACTIONS = ("start", "pause", "resume", "extend")


class Request(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Answer(BaseModel):
    model_config = ConfigDict(extra="forbid", from_attributes=True)


# Request bodies are read by the endpoint once it has checked who is asking, so that a stranger
# gets 404 or 403 whatever they send. `Sent[Schema]` documents a body without checking it; a
# body that is not JSON arrives as its bytes (see config.api.Parser), an empty one as b"".
Sent = SkipValidation
BODY = Body(b"")
EMPTY_BODY_OK = {"requestBody": {"required": False}}  # openapi_extra where `read` has `empty`
S = TypeVar("S", bound=BaseModel)


def read(schema: type[S], body: Any, *, empty: dict[str, Any] | None = None) -> S:
    """The request body as `schema`; an empty body counts as `empty` where that is given.
    Refused with 400: a body that is not a JSON object, and each wrong field by name."""
    if isinstance(body, bytes):
        if empty is None or body.strip():
            raise ApiError(400, "bad_request", NOT_JSON)
        body = empty
    try:
        return schema.model_validate(body)
    except pydantic.ValidationError as error:
        raise schema_error(error.errors(include_url=False)) from error


def changes(schema: type[BaseModel], doc: str) -> type[BaseModel]:
    """`schema` with no field required (and none defaulted): for changing only what is sent."""
    fields: dict[str, Any] = {
        name: (field.rebuild_annotation(), Field(None, description=field.description))
        for name, field in schema.model_fields.items()
    }
    return create_model(
        schema.__name__.replace("Create", "Change"), __base__=schema, __doc__=doc, **fields
    )


Key = of(models.Player, "key")
HandNumber = Annotated[int, Field(ge=1, le=16)]
UsernameList = Annotated[list[str], Field(description="Shown to organisers and referees.")]
Username = Annotated[str | None, Field(description="Shown to organisers and referees.")]
TablePoints = Annotated[
    int | float,
    WithJsonSchema({"type": "number"}),
    Field(description="Table points: a whole number, or rounded to two decimals when shared."),
]
TablePointsExact = Annotated[
    str, Field(description='The exact table points as a fraction, such as "7/3" or "4".')
]
Sheet = Annotated[
    Literal["open", "submitted", "confirmed"],
    Field(
        description="The game sheet: open while the game is played, submitted when it has "
        "ended, confirmed once the organiser (or a second referee) has checked it."
    ),
]


# --- Tournaments ---------------------------------------------------------------------------


class TournamentCreate(Request):
    """A new tournament; the caller becomes its organiser."""

    slug: of(models.Tournament, "slug") = Field(description="The tournament's address.")
    name: of(models.Tournament, "name")
    start_date: of(models.Tournament, "start_date") = None
    end_date: of(models.Tournament, "end_date") = None
    venue: of(models.Tournament, "venue") = None
    public: of(models.Tournament, "public") = None
    preset: of(models.Tournament, "preset") = Field(None, description="Rule preset, such as mcr.")
    profile: of(models.Tournament, "profile") = None
    seat_rotation: of(models.Tournament, "seat_rotation") = None
    table_points: list_of(int, "whole numbers", 4) = Field(
        None, description=str(models.Tournament._meta.get_field("table_points").help_text)
    )
    tie_breaks: list_of(text(200), "texts", len(models.Tournament.TieBreak.values)) = Field(
        None,
        description=str(models.Tournament._meta.get_field("tie_breaks").help_text)
        + " One of: "
        + ", ".join(models.Tournament.TieBreak.values),
    )
    confirmation: of(models.Tournament, "confirmation") = None
    round_minutes: of(models.Tournament, "round_minutes") = None


TournamentChange = changes(
    TournamentCreate,
    "Only the fields given change. The slug cannot change; the preset, profile and seat "
    "rotation cannot change once a hand is recorded.",
)


class TournamentSummary(Answer):
    slug: str = Field(description="The tournament's address.")
    name: str
    start_date: of(models.Tournament, "start_date")
    end_date: of(models.Tournament, "end_date")
    venue: str
    public: of(models.Tournament, "public")


class TournamentList(Answer):
    tournaments: list[TournamentSummary]


class RoundSummary(Answer):
    number: int = Field(ge=1)
    status: choice(models.Round.Status.values)
    tables: int = Field(description="How many tables are seated.")


class Tournament(TournamentCreate):
    """A tournament's settings and its rounds."""

    model_config = ConfigDict(
        from_attributes=True, json_schema_serialization_defaults_required=True
    )

    players: int = Field(description="How many players are entered.")
    rounds: list[RoundSummary]


# --- Players -------------------------------------------------------------------------------


class PlayerCreate(Request):
    key: Key
    name: of(models.Player, "name")
    country: of(models.Player, "country") = None
    club: of(models.Player, "club") = None
    team: of(models.Player, "team") = None
    ema_number: of(models.Player, "ema_number") = None
    substitute: of(models.Player, "substitute") = None
    withdrawn_from_round: of(models.Player, "withdrawn_from_round", ge=1) = None


PlayerChange = changes(
    PlayerCreate, "Only the fields given change (also to withdraw a player from a round on)."
)


class Player(PlayerCreate):
    model_config = ConfigDict(
        from_attributes=True, json_schema_serialization_defaults_required=True
    )


class PlayerList(Answer):
    players: list[Player]


# --- Standings -----------------------------------------------------------------------------


class Standing(Answer):
    rank: int | None = Field(
        ge=1, description="Shared by players level on everything; null for substitutes."
    )
    player: str
    name: str
    table_points: TablePoints
    table_points_exact: TablePointsExact
    score: int
    substitute: bool
    provisional_games: int = Field(
        ge=0,
        description="Games counted whose sheets are not confirmed yet (0 unless provisional).",
    )


class Standings(Answer):
    provisional: bool = Field(description="Whether submitted, unconfirmed game sheets count too.")
    standings: list[Standing] = Field(description="Ranked players in order, then substitutes.")


# --- Rounds and tables ---------------------------------------------------------------------


class RoundList(Answer):
    rounds: list[RoundSummary]


class Seat(Answer):
    player: str
    name: str
    score: int = Field(description="Game score so far, penalties included.")


class Seats(Answer):
    """The players by the seat they started the game at."""

    E: Seat
    S: Seat
    W: Seat
    N: Seat


class Points(Answer):
    """Points by starting seat: gained (+) or paid (-)."""

    E: int
    S: int
    W: int
    N: int


class SeatWinds(Answer):
    """The seat wind in this hand of each player, by the seat they started at."""

    E: Wind
    S: Wind
    W: Wind
    N: Wind


class TableSummary(Answer):
    number: int = Field(ge=1)
    seats: Seats
    hands: int = Field(description="How many hands are entered.")
    ended: bool
    ended_by_time: bool = Field(description="Ended before hand 16.")
    sheet: Sheet
    referees: UsernameList = None


class Round(Answer):
    number: int = Field(ge=1)
    status: choice(models.Round.Status.values)
    tables: list[TableSummary]


class Hand(Answer):
    number: HandNumber
    result: choice(models.Hand.Result.values)
    winner: str | None
    discarder: str | None
    self_drawn: bool
    fan: int | None
    flowers: int
    tiles: dict[str, Any] | None = Field(
        description="The winning hand in the case format, when it was entered."
    )
    payments: Points
    entered_at: Moment
    entered_by: Username = None


class Penalty(Answer):
    id: int
    player: str
    kind: choice(models.Penalty.Kind.values)
    points: int = Field(description="What the player loses.")
    distributed: bool
    reason: str
    hand_number: HandNumber | None
    entered_at: Moment
    entered_by: Username = None


class ScoreSheetLine(Answer):
    number: HandNumber | None = Field(
        description="The hand; null for the line of penalties on the whole game."
    )
    prevailing_wind: Wind | None
    seat_winds: SeatWinds | None
    hand: Hand | None = Field(
        description="Null on a line of penalties only (a false win in the hand in play, or game "
        "penalties)."
    )
    penalties: list[Penalty]
    payments: Points = Field(description="The hand and its penalties.")
    running: Points = Field(description="Game scores after this line.")


class NextHand(Answer):
    number: HandNumber
    prevailing_wind: Wind
    seat_winds: SeatWinds


class TableResult(Answer):
    player: str
    seat: Wind = Field(description="The starting seat.")
    score: int
    place: int = Field(ge=1, le=4)
    table_points: TablePoints
    table_points_exact: TablePointsExact


class GameSheet(Answer):
    """The game sheet: submitted when the game ends, then confirmed by the organiser (or a
    second referee, as the tournament says). The standings count confirmed games."""

    status: Sheet
    submitted_at: Moment | None = Field(
        description="When the game ended and its sheet was submitted."
    )
    confirmed_at: Moment | None
    submitted_by: Username = None
    confirmed_by: Username = None


class Table(TableSummary):
    """A table with its score sheet hand by hand, the next hand's winds and the results so
    far."""

    round: int = Field(ge=1)
    game_sheet: GameSheet
    lines: list[ScoreSheetLine]
    next_hand: NextHand | None = Field(
        description="The hand to enter next; null when the game has ended."
    )
    results: list[TableResult] = Field(
        description="Places and table points on the scores so far, best first."
    )


class TableAnswer(Answer):
    table: Table


class HandAnswer(Answer):
    hand: Hand
    table: Table


class PenaltyAnswer(Answer):
    penalty: Penalty
    table: Table


class Clock(Answer):
    """The round clock. A table is behind when it has played more than 2 hands fewer than
    expected_hands."""

    round: int = Field(ge=1)
    state: choice(CLOCK_STATES)
    minutes: int = Field(description="The round's time limit.")
    extra_minutes: int = Field(description="Added (or, when negative, taken off) since the start.")
    total_seconds: int
    elapsed_seconds: int = Field(description="Not counting pauses.")
    remaining_seconds: int = Field(ge=0)
    display: str = Field(description='The time left, as "1:05:09".')
    started_at: Moment | None
    paused_at: Moment | None = Field(description="Set while paused.")
    expected_hands: int = Field(
        ge=0, le=16, description="Hands an even pace of 16 over the round has played by now."
    )


class BoardTable(TableSummary):
    behind: bool = Field(
        description="Falling behind the clock: more than 2 hands fewer than an even pace "
        "needs, game not ended."
    )


class SheetCounts(Answer):
    """How many tables' sheets are in each state."""

    open: int
    submitted: int
    confirmed: int


class Board(Answer):
    round: int = Field(ge=1)
    status: choice(models.Round.Status.values)
    clock: Clock
    sheets: SheetCounts
    behind: int = Field(description="How many tables are behind.")
    tables: list[BoardTable]


# --- Requests of rounds and tables ---------------------------------------------------------


class Empty(Request):
    """No fields: the body is empty or {}."""


class SeatingRequest(Request):
    """Seat the round at random ({"random": true, "seed": 1}, avoiding repeat opponents
    greedily) or as given ({"tables": [{"E": key, "S": key, "W": key, "N": key}, ...]})."""

    random: bool = False
    seed: int | None = Field(None, description="Repeats the same draw.")
    tables: list_of(
        Annotated[
            dict[str, Any],
            WithJsonSchema(
                {
                    "type": "object",
                    "properties": {wind: {"type": "string"} for wind in WINDS},
                    "required": list(WINDS),
                    "additionalProperties": False,
                    "description": "The keys of the players starting at E, S, W and N.",
                }
            ),
        ],
        "objects",
        MAX_TABLES,
    ) = Field(None, description="Table 1 first.")


class RoundStatusRequest(Request):
    status: of(models.Round, "status")


class Referees(Request):
    referees: list_of(
        text(get_user_model()._meta.get_field(get_user_model().USERNAME_FIELD).max_length),
        "texts",
        100,
    ) = Field(description="Usernames of active users.")


class ClockRequest(Request):
    action: choice(CLOCK_ACTIONS)
    minutes: int = Field(
        None,
        ge=-600,
        le=600,
        description="For start: the time limit (10 to 600; default the tournament's "
        "round_minutes). For extend (required): minutes to add, or to take off when negative.",
    )


class Situation(Request):
    last_tile_of_kind: bool = None
    kong_related: bool = Field(
        None,
        description="Self-drawn: Out with Replacement Tile; on a discard: Robbing the Kong.",
    )
    last_wall_tile: bool = None


class HandCorrection(Situation):
    """The whole hand as it should be; `number`, if given, must be the one in the address. The
    scores after it are recomputed."""

    number: int = Field(None, ge=1)
    result: of(models.Hand, "result")
    winner: Key | None = Field(None, description="The winner's key; null for a drawn hand.")
    discarder: Key | None = Field(
        None, description="Who discarded the winning tile; null or absent for a self-drawn win."
    )
    fan: of(models.Hand, "fan", le=MAX_FAN) = Field(
        None,
        description="Fan without flowers (at least 8 for a win). May be left out when tiles "
        "are given: the engine computes it; when both are given they must agree.",
    )
    flowers: of(models.Hand, "flowers", le=MAX_FLOWERS) = 0
    tiles: dict[str, Any] | None = Field(
        None,
        description="The winning hand in the case format (as POST /api/score takes it). Seat "
        "wind, prevailing wind and self-drawn follow from the table and are filled in.",
    )
    compact: text(200) | None = Field(
        None,
        description="The winning hand in compact notation (as POST /api/score takes it), "
        "instead of tiles; the situation flags may be given next to it.",
    )


class HandSubmission(HandCorrection):
    """Quick entry: winner, discarder (null when self-drawn), fan and flowers. Full entry: the
    tiles (or compact) as well; the engine scores them for the winner's seat wind and the
    prevailing wind of the hand. A hand under 8 fan is refused (below_minimum): record it as a
    false win."""

    number: int = Field(ge=1)


class FalseWinRequest(Request):
    number: int = Field(ge=1, description="The hand in play or one entered.")
    player: Key
    invalid_hand: bool = Field(
        False, description="Wrong tiles or count: 20 to each other player instead of 10."
    )


class PenaltyCreate(Request):
    player: Key
    points: of(models.Penalty, "points", ge=1)
    distributed: bool = Field(
        False,
        description="Paid in equal thirds to the other three (a multiple of 3); otherwise a "
        "deduction of 5 to 60 given to nobody.",
    )
    reason: of(models.Penalty, "reason")
    hand_number: of(models.Penalty, "hand_number", ge=1) = Field(
        None, description="The hand it belongs to; null for a penalty on the whole game."
    )


PenaltyChange = changes(PenaltyCreate, "Only the fields given change.")


class EndRequest(Request):
    ended_by_time: bool = Field(
        False, description="Time was called: end before all 16 hands are entered."
    )
