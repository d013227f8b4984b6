"""What every schema of the tournament API shares: request and answer bases, reading a body,
and the small types (keys, hand numbers, usernames, table points, sheet status)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

import pydantic
from ninja import Body
from pydantic import BaseModel, ConfigDict, Field, SkipValidation, WithJsonSchema, create_model

from tournament import models
from tournament.api.errors import NOT_JSON, ApiError, schema_error
from tournament.api.fields import Wind, of
from tournament.clock import ClockAction, ClockState

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


# Request bodies are read by the endpoint once it has checked who is asking, so that a stranger
# gets 404 or 403 whatever they send. `Sent[Schema]` documents a body without checking it; a
# body that is not JSON arrives as its bytes (see config.api.Parser), an empty one as b"".
if TYPE_CHECKING:
    _Documented = TypeVar("_Documented")
    # As pydantic declares SkipValidation to type checkers (mypy takes no alias of it).
    Sent = Annotated[_Documented, ...]
else:
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
