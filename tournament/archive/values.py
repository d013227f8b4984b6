"""Kinds of values in the archive, read the way JSON gives them, with the Django models' rules
and defaults for them (the JSON Schema of each says the same), and `Problem`, which the schema's
own checks raise."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime
from typing import Annotated, Any

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    PlainSerializer,
    PlainValidator,
    WithJsonSchema,
)
from pydantic_core import PydanticCustomError


class Problem(ValueError):
    """A rule of the format that a document breaks, raised by the schema's own checks.

    `at` continues the location of the value that was checked, down to the place the rule is
    about: the rounds list raises a misnumbered round `at` its position.
    """

    def __init__(self, sentence: str, *at: str | int) -> None:
        super().__init__(sentence)
        self.at = at


def _model_field(model: type[models.Model], name: str) -> models.Field:
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)  # a column of the model, not a reverse relation
    return field


def default(model: type[models.Model], name: str) -> Any:
    """A schema field whose default is the Django model field's."""
    return Field(default=_model_field(model, name).get_default())


def _range(model: type[models.Model], name: str) -> tuple[int, int]:
    """The bounds that the Django model field's validators set."""
    validators = _model_field(model, name).validators
    low = next(v.limit_value for v in validators if isinstance(v, MinValueValidator))
    high = next(v.limit_value for v in validators if isinstance(v, MaxValueValidator))
    return low, high


def choice(values: Iterable[str]) -> Any:
    """A string that must be one of `values`."""
    values = list(values)

    def check(value: str) -> str:
        if value not in values:
            raise PydanticCustomError(
                "choice", "Input should be one of {choices}", {"choices": ", ".join(values)}
            )
        return value

    return Annotated[str, AfterValidator(check), WithJsonSchema({"type": "string", "enum": values})]


def described(values: Iterable[str]) -> Any:
    """A string that a Django model checks; the JSON Schema lists the values it takes."""
    return Annotated[str, WithJsonSchema({"type": "string", "enum": list(values)})]


def between(model: type[models.Model], name: str) -> Any:
    low, high = _range(model, name)

    def check(value: int) -> int:
        if not low <= value <= high:
            raise PydanticCustomError(
                "range", "Input should be {low} to {high}", {"low": low, "high": high}
            )
        return value

    schema = {"type": "integer", "minimum": low, "maximum": high}
    return Annotated[int, AfterValidator(check), WithJsonSchema(schema)]


def _none_as_empty(value: Any) -> Any:
    return "" if value is None else value


def _date(value: Any) -> date:
    try:
        return date.fromisoformat(value)
    except (TypeError, ValueError):
        raise PydanticCustomError("date", "Input should be a date such as 2025-05-01") from None


def _moment(value: Any) -> datetime:
    try:
        moment = parse_datetime(value) if isinstance(value, str) else None
    except ValueError:
        moment = None
    if moment is None:
        raise PydanticCustomError("date_time", "Input should be a date and time")
    return moment if timezone.is_aware(moment) else timezone.make_aware(moment)


def _iso(value: date) -> str:
    return value.isoformat()


# Free text that may be left out or null: read as "".
OptionalText = Annotated[
    str, BeforeValidator(_none_as_empty), WithJsonSchema({"type": ["string", "null"]})
]
Day = Annotated[
    date,
    PlainValidator(_date),
    PlainSerializer(_iso, when_used="json"),
    WithJsonSchema({"type": "string", "format": "date"}),
]
# A date and time as "2025-05-01T14:30:00+02:00"; without an offset, in the server's time zone.
Moment = Annotated[
    datetime,
    PlainValidator(_moment),
    PlainSerializer(_iso, when_used="json"),
    WithJsonSchema({"type": "string", "format": "date-time"}),
]
