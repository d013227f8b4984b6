"""What every schema of the tournament API shares: request and answer bases, and the small
types (keys, hand numbers, usernames, table points, sheet status)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema, create_model

from tournament import models
from tournament.api.fields import Wind, of
from tournament.reads.clock import ClockAction, ClockState

# Far above any real hand; keeps a typing slip from being stored as a win.
MAX_FAN = 1000


MAX_FLOWERS = 8


MAX_TABLES = 1000


CLOCK_STATES = tuple(state.value for state in ClockState)


CLOCK_ACTIONS = tuple(ClockAction.values)


class Request(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Answer(BaseModel):
    model_config = ConfigDict(extra="forbid", from_attributes=True)


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


HandNumber = Annotated[int, Field(ge=1, description="A deal's number in its game (MCR: 1 to 16).")]


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


class Empty(Request):
    """No fields: the body is empty or {}."""


EMPTY = Empty()  # the default of a body that may be left out


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


class Paged(Answer):
    """What an answer holding one page of a list says about the whole list."""

    count: int = Field(ge=0, description="How many items the whole list has.")
    limit: int = Field(ge=1, description="The most items this answer holds.")
    offset: int = Field(ge=0, description="How many items of the list come before this page.")
    next: str | None = Field(
        description="The address of the next page (path and query), or null on the last page."
    )
