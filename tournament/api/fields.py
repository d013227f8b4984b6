"""Field types of the API's schemas that pydantic has not as such: text without NUL, a strict
request's date, moments as the archive writes them, a list refused as a whole, and `of`, a
model field's rules (length, choices, bounds, help text) as a type."""

from __future__ import annotations

import datetime
from typing import Annotated, Any, Literal

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from pydantic import (
    BeforeValidator,
    Field,
    PlainSerializer,
    StringConstraints,
    ValidationError,
    WithJsonSchema,
    WrapValidator,
)
from pydantic_core import PydanticCustomError

from tournament.domain.rotation import WINDS


def _without_nul(value: Any) -> Any:
    if isinstance(value, str) and "\x00" in value:
        raise PydanticCustomError("nul_character", "Text cannot contain NUL characters.")
    return value


def text(max_length: int | None) -> Any:
    """At most `max_length` characters (None: any), without NUL (the database refuses it)."""
    return Annotated[str, StringConstraints(max_length=max_length), BeforeValidator(_without_nul)]


def _iso_date(value: Any) -> Any:
    """A date as YYYY-MM-DD (a strict schema takes no text); else left for the type check."""
    if isinstance(value, str):
        try:
            return datetime.date.fromisoformat(value)
        except ValueError:
            return value
    return value


Day = Annotated[datetime.date, BeforeValidator(_iso_date)]
# Moments are answered as Python writes them (isoformat), as the archive does.
Moment = Annotated[
    datetime.datetime,
    PlainSerializer(datetime.datetime.isoformat),
    WithJsonSchema({"type": "string", "format": "date-time"}),
]
Wind = Literal[WINDS]


def choice(values: list[str] | tuple[str, ...]) -> Any:
    return Literal[tuple(values)]


def list_of(item: Any, what: str, max_items: int) -> Any:
    """At most `max_items` items; any fault in it is named for the whole list."""

    def check(value: Any, handler: Any) -> Any:
        try:
            return handler(value)
        except ValidationError as error:
            raise PydanticCustomError(
                "list_of",
                "Give a list of at most {max_items} {what}.",
                {"max_items": max_items, "what": what},
            ) from error

    return Annotated[list[item], Field(max_length=max_items), WrapValidator(check)]


def of(model: type[models.Model], name: str, **bounds: int) -> Any:
    """The type of the model field `name` in a request; `bounds` (ge=1) narrow its own."""
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)  # a column of the model, not a reverse relation
    kind: Any
    if field.choices:
        kind = choice([value for value, _label in field.choices])
    elif isinstance(field, models.CharField):
        kind = text(field.max_length)
    elif isinstance(field, models.BooleanField):
        kind = bool
    elif isinstance(field, models.DateField):
        kind = Day
    elif isinstance(field, models.IntegerField):
        ge = [v.limit_value for v in field.validators if isinstance(v, MinValueValidator)]
        le = [v.limit_value for v in field.validators if isinstance(v, MaxValueValidator)]
        ge += [bounds["ge"]] if "ge" in bounds else []
        le += [bounds["le"]] if "le" in bounds else []
        kind = Annotated[int, Field(ge=max(ge, default=None), le=min(le, default=None))]
    else:
        raise TypeError(f"No API type for {model.__name__}.{name}")
    if field.help_text:
        kind = Annotated[kind, Field(description=str(field.help_text))]
    return kind | None if field.null else kind
