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
    Paged,
    Request,
    Sheet,
    UsernameList,
)
from tournament.domain.rotation import WINDS


class RoundSummary(Answer):
    number: int = Field(ge=1)
    status: choice(models.Round.Status.values)
    tables: int = Field(description="How many tables are seated.")


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


class TableSummary(Answer):
    number: int = Field(ge=1)
    seats: Seats
    hands: int = Field(description="How many hands are entered.")
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


class Round(Paged):
    """A round with one page of its tables (`count`: how many it has in all)."""

    number: int = Field(ge=1)
    status: choice(models.Round.Status.values)
    tables: list[TableSummary]


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
        description="Falling behind the table's own clock: more than 2 hands fewer than an "
        "even pace needs, game not ended."
    )


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
