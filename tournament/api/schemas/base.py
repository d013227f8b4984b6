"""What every schema of the tournament API shares: request and answer bases, and the small
types (keys, hand numbers, usernames, table points, sheet status)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Annotated, Any, Literal, TypeVar

from ninja import Schema
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    WithJsonSchema,
    create_model,
    model_validator,
)

from tournament import models
from tournament.api.auth import reach
from tournament.api.fields import Wind, of
from tournament.domain.rotation import WINDS
from tournament.reads.clock import ClockAction, ClockState

V = TypeVar("V")

#: What an answer is read with: the request's (`context["request"]`, as ninja gives it) and,
#: where an endpoint works them out once for the whole answer, the round's clock ("clock"),
#: the score sheet ("lines", "preset", "keys", "usernames") or whether the caller is an
#: insider ("insider").
Context = dict[str, Any]

# Far above any real hand; keeps a typing slip from being stored as a win.
MAX_FAN = 1000


MAX_FLOWERS = 8


MAX_TABLES = 1000


CLOCK_STATES = tuple(state.value for state in ClockState)


CLOCK_ACTIONS = tuple(ClockAction.values)


class Request(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Answer(Schema):
    """An answer, read from a model instance or a read-model object (`from_attributes`): a
    field reads the attribute of its name, or of its alias (a path such as "player.key"), or
    its `resolve_<field>(obj, context)` works it out.

    Not extra="forbid": ninja would then read the object without the aliases and resolvers
    first. The document still says that an answer has no other fields."""

    model_config = ConfigDict(
        from_attributes=True, json_schema_extra={"additionalProperties": False}
    )

    @model_validator(mode="wrap")
    @classmethod
    def _read_once(cls, value: Any, handler: ModelWrapValidatorHandler[Any]) -> Any:
        """An answer already read (put in a larger one, or kept in a cache) stays as it is:
        read again, its aliases and resolvers would find nothing, and its unset fields must
        stay unset."""
        if isinstance(value, cls):
            return value
        return handler(value)


def insider(context: Context | None) -> bool:
    """Whether the answer goes to an insider, an organiser or a referee of the tournament, who
    sees usernames; asked of the request once per answer."""
    if context is None:
        return False
    if "insider" not in context:
        context["insider"] = reach(context["request"]).access.insider
    return bool(context["insider"])


def for_insiders(context: Context | None, value: Callable[[], V]) -> V:
    """`value()` for insiders. For others the field is left out of the answer (unset: the
    routers answer with exclude_unset), never null."""
    if not insider(context):
        raise AttributeError("shown to insiders only")
    return value()


def by_seat(values: Sequence[V]) -> dict[str, V]:
    """Values in the order E, S, W, N, keyed by starting seat."""
    return dict(zip(WINDS, values, strict=True))


def points_number(points: Fraction | int) -> int | float:
    """Table points (or a score) as a JSON number: whole when whole, else rounded to two
    decimals."""
    points = Fraction(points)
    if points.denominator == 1:
        return points.numerator
    return round(float(points), 2)


def exact(value: Fraction | int | None) -> str | None:
    """An exact fraction as text ("7/3", "4"); None stays None."""
    return None if value is None else str(value)


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
