"""Kinds of values in the archive, read the way JSON gives them, with the Django models' rules
and defaults for them (the JSON Schema of each says the same), and `Problem`, which the schema's
own checks raise."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime
from typing import Annotated, Any

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations
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

from tournament.domain.text import storable


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
    """The bounds that the Django model field's validators set, within those its column holds
    (the same on every database Django supports)."""
    field = _model_field(model, name)
    low, high = BaseDatabaseOperations.integer_field_ranges[field.get_internal_type()]
    for validator in field.validators:
        if isinstance(validator, MinValueValidator):
            low = max(low, validator.limit_value)
        if isinstance(validator, MaxValueValidator):
            high = min(high, validator.limit_value)
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


def between(model: type[models.Model], name: str, *, low: int | None = None) -> Any:
    """A whole number within the bounds of the Django model field (from `low` if given)."""
    most_low, high = _range(model, name)
    low = most_low if low is None else max(low, most_low)

    def check(value: int) -> int:
        if not low <= value <= high:
            raise PydanticCustomError(
                "range", "Input should be {low} to {high}", {"low": low, "high": high}
            )
        return value

    schema = {"type": "integer", "minimum": low, "maximum": high}
    return Annotated[int, AfterValidator(check), WithJsonSchema(schema)]


def _check_text(value: str, most: int) -> str:
    if not storable(value):
        raise Problem("the text holds a NUL character or a lone surrogate, which cannot be stored.")
    if len(value) > most:
        raise Problem(f"the text is {len(value):,} characters long; at most {most:,}.")
    return value


def text(model: type[models.Model], name: str, *, optional: bool = False) -> Any:
    """A string as long as the Django model field holds, without a character the database
    cannot store; `optional`: it may also be null, read as ""."""
    most = _model_field(model, name).max_length
    assert most is not None  # a CharField

    def check(value: str) -> str:
        return _check_text(value, most)

    if optional:
        schema: dict[str, Any] = {"type": ["string", "null"], "maxLength": most}
        return Annotated[
            str, BeforeValidator(_none_as_empty), AfterValidator(check), WithJsonSchema(schema)
        ]
    return Annotated[
        str, AfterValidator(check), WithJsonSchema({"type": "string", "maxLength": most})
    ]


def within(most: int) -> Any:
    """A list of at most `most` items (the item's kind is given with it), empty if left out."""
    return Field(default_factory=list, max_length=most)


def bounded_json(*, depth: int, values: int, length: int) -> Any:
    """A JSON object kept as it is (tiles): nested at most `depth` deep, with at most `values`
    values in all, each string (and key) at most `length` characters that the database can
    store. Checked without recursion, so a document nested 100,000 deep is refused plainly."""

    def check(value: dict[str, Any]) -> dict[str, Any]:
        pending: list[tuple[Any, int]] = [(value, 1)]
        seen = 0
        while pending:
            node, level = pending.pop()
            seen += 1
            if seen > values:
                raise Problem(f"it holds more than {values:,} values.")
            if isinstance(node, dict):
                items = list(node.values())
                for key in node:
                    _check_text(key, length)
            elif isinstance(node, list):
                items = node
            else:
                if isinstance(node, str):
                    _check_text(node, length)
                continue
            if items and level >= depth:
                raise Problem(f"it is nested more than {depth} deep.")
            pending.extend((item, level + 1) for item in items)
        return value

    return AfterValidator(check)


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
