"""Schemas of rounds: their tables and seats, seating, status, referees, the clock and the
live board."""

from __future__ import annotations

from typing import Annotated, Any

from django.contrib.auth import get_user_model
from pydantic import Field, WithJsonSchema

from tournament import models
from tournament.api.fields import Moment, choice, list_of, of, text
from tournament.api.schemas.base import (
    CLOCK_ACTIONS,
    CLOCK_STATES,
    MAX_TABLES,
    Answer,
    Context,
    Paged,
    Request,
    Sheet,
    UsernameList,
    for_insiders,
)
from tournament.domain.rotation import WINDS
from tournament.reads.clock import Clock as RoundClock
from tournament.reads.clock import table_clock


# Read from a round annotated with its `table_count` (`serialisers.annotated_rounds`).
class RoundSummary(Answer):
    number: int = Field(ge=1)
    status: choice(models.Round.Status.values)
    tables: int = Field(alias="table_count", description="How many tables are seated.")


class RoundList(Answer):
    rounds: list[RoundSummary]


class Seat(Answer):
    player: str = Field(alias="player.key")
    name: str = Field(alias="player.name")
    score: int = Field(description="Game score so far, penalties included.")


class Seats(Answer):
    """The players by the seat they started the game at."""

    E: Seat
    S: Seat
    W: Seat
    N: Seat


# Read from a table annotated with its `hand_count`, its seats (with their players) and
# referees prefetched (`serialisers.tables_for_summary`); the context's "clock" is its round's,
# when already worked out.
class TableSummary(Answer):
    number: int = Field(ge=1)
    seats: Seats
    hands: int = Field(alias="hand_count", description="How many hands are entered.")
    ended: bool
    ended_by_time: bool = Field(description="Ended when time was called, before the game was over.")
    sheet: Sheet
    extra_minutes: int = Field(
        ge=-60,
        le=120,
        description="Minutes of the table's own beyond the round clock (a late start, a long "
        "ruling; fewer when negative).",
    )
    remaining_seconds: int = Field(
        ge=0, description="The table's own time left: the round clock's with extra_minutes."
    )
    # Left out for outsiders (never null): None only marks it unset.
    referees: UsernameList = None  # type: ignore[assignment]

    @staticmethod
    def resolve_seats(table: models.Table) -> dict[str, models.Seat]:
        return {seat.starting_wind: seat for seat in table.seats.all()}

    @staticmethod
    def resolve_ended(table: models.Table) -> bool:
        return table.ended_at is not None

    @staticmethod
    def resolve_remaining_seconds(table: models.Table, context: Context | None) -> int:
        round_clock = (context or {}).get("clock")
        return table_clock(table, round_clock=round_clock).remaining_seconds

    @staticmethod
    def resolve_referees(table: models.Table, context: Context | None) -> list[str]:
        return for_insiders(
            context, lambda: sorted(user.get_username() for user in table.referees.all())
        )


class Round(Paged):
    """A round with one page of its tables (`count`: how many it has in all)."""

    number: int = Field(ge=1)
    status: choice(models.Round.Status.values)
    tables: list[TableSummary]


def _clock(context: Context) -> RoundClock:
    """The round's clock, worked out once for the answer (`tournament.reads.clock`)."""
    clock: RoundClock = context["clock"]
    return clock


# Read from the round, with its clock at the moment of the answer as the context's "clock".
class Clock(Answer):
    """The round clock. A table is behind when it has played more than 2 hands fewer than
    expected_hands."""

    round: int = Field(ge=1, alias="number")
    state: choice(CLOCK_STATES)
    minutes: int = Field(description="The round's time limit.")
    extra_minutes: int = Field(
        alias="clock_extra_minutes",
        description="Added (or, when negative, taken off) since the start.",
    )
    total_seconds: int
    elapsed_seconds: int = Field(description="Not counting pauses.")
    remaining_seconds: int = Field(ge=0)
    display: str = Field(description='The time left, as "1:05:09".')
    started_at: Moment | None = Field(alias="clock_started_at")
    paused_at: Moment | None = Field(alias="clock_paused_at", description="Set while paused.")
    expected_hands: int = Field(
        ge=0, le=16, description="Hands an even pace of 16 over the round has played by now."
    )

    @staticmethod
    def resolve_state(round: models.Round, context: Context) -> str:
        return _clock(context).state

    @staticmethod
    def resolve_total_seconds(round: models.Round, context: Context) -> int:
        return _clock(context).total_seconds

    @staticmethod
    def resolve_elapsed_seconds(round: models.Round, context: Context) -> int:
        return _clock(context).elapsed_seconds

    @staticmethod
    def resolve_remaining_seconds(round: models.Round, context: Context) -> int:
        return _clock(context).remaining_seconds

    @staticmethod
    def resolve_display(round: models.Round, context: Context) -> str:
        return _clock(context).display

    @staticmethod
    def resolve_expected_hands(round: models.Round, context: Context) -> int:
        return _clock(context).expected_hands

    @staticmethod
    def resolve_minutes(round: models.Round) -> int:
        return round.clock_minutes or round.tournament.round_minutes


class BoardTable(TableSummary):
    behind: bool = Field(
        description="Falling behind the table's own clock: more than 2 hands fewer than an "
        "even pace needs, game not ended."
    )

    @staticmethod
    def resolve_behind(table: Any, context: Context) -> bool:
        own = _clock(context).plus(table.extra_minutes)
        return bool(own.behind(table.hand_count, table.ended_at is not None))


class SheetCounts(Answer):
    """How many tables' sheets are in each state."""

    open: int
    submitted: int
    confirmed: int


class Board(Paged):
    """The clock, the counts over every table, and one page of the tables (`count`: how many
    the round has in all)."""

    round: int = Field(ge=1)
    status: choice(models.Round.Status.values)
    clock: Clock
    sheets: SheetCounts
    behind: int = Field(description="How many tables are behind.")
    tables: list[BoardTable]


#: The most referees one table of the seating takes.
MAX_TABLE_REFEREES = 100


class SeatingRequest(Request):
    """Seat the round at random ({"random": true, "seed": 1}, avoiding repeat opponents
    greedily) or as given ({"tables": [{"E": key, "S": key, "W": key, "N": key}, ...]}).

    A table given may name its referees ({"E": ..., "referees": ["referee-01"]}; [] for
    none): referee accounts of the tournament, or users already refereeing one of its tables.
    A table that does not name them keeps its referees when the round is seated again, and
    takes those of the previous round's table of the same number when it is seated for the
    first time, as the seating pages do."""

    random: bool = False
    seed: int | None = Field(None, description="Repeats the same draw.")
    tables: list_of(
        Annotated[
            dict[str, Any],
            WithJsonSchema(
                {
                    "type": "object",
                    "properties": {wind: {"type": "string"} for wind in WINDS}
                    | {
                        "referees": {
                            "type": "array",
                            "items": {"type": "string"},
                            "maxItems": MAX_TABLE_REFEREES,
                            "description": "Usernames of the table's referees (referee "
                            "accounts of the tournament). Left out: kept on seating again, "
                            "carried from the previous round on a first seating.",
                        }
                    },
                    "required": list(WINDS),
                    "additionalProperties": False,
                    "description": "The keys of the players starting at E, S, W and N, and "
                    "perhaps the table's referees.",
                }
            ),
        ],
        "objects",
        MAX_TABLES,
    ) = Field(None, description="Table 1 first.")


class RoundStatusRequest(Request):
    status: of(models.Round, "status")
    confirm: bool = Field(
        False,
        description="Start play (seated -> playing) although some tables have no active "
        "referee; without it that is refused with 409 tables_without_referees.",
    )


class TableTimeRequest(Request):
    """Give the table minutes of its own beyond what it has (negative takes some back)."""

    minutes: int = Field(
        ge=-180,
        le=180,
        description="Minutes to add to the table's extra_minutes, not 0; the result stays "
        "from -60 to 120.",
    )
    reason: text(200) = Field("", description="Why (a late start, a long ruling); optional.")


class Referees(Request):
    referees: list_of(
        text(get_user_model()._meta.get_field(get_user_model().USERNAME_FIELD).max_length),
        "texts",
        100,
    ) = Field(description="Usernames of active users.")


class ClockRequest(Request):
    action: choice(CLOCK_ACTIONS)
    # May be left out, not sent as null: None only marks it unset.
    minutes: int = Field(  # type: ignore[assignment]
        None,
        ge=-600,
        le=600,
        description="For start: the time limit (10 to 600; default the tournament's "
        "round_minutes). For extend (required): minutes to add, or to take off when negative.",
    )
