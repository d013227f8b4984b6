"""Schemas of a tournament's registrations and its registration settings (organisers only)."""

from __future__ import annotations

import datetime
from typing import Annotated, Any, Literal

from django.utils import timezone
from django.utils.dateparse import parse_datetime
from pydantic import BeforeValidator, Field, WithJsonSchema

from tournament import models
from tournament.api.fields import choice, of
from tournament.api.schemas.base import Answer, Request

STATUSES = models.Registration.Status.values
MODES = models.Tournament.RegistrationMode.values


def _moment(value: Any) -> Any:
    """A date and time written as ISO 8601; without an offset, in the server's time zone.
    Anything else is left for the type check to refuse."""
    if isinstance(value, str):
        try:
            moment = parse_datetime(value)
        except ValueError:
            return value
        if moment is None:
            return value
        return moment if timezone.is_aware(moment) else timezone.make_aware(moment)
    return value


Moment = Annotated[
    datetime.datetime,
    BeforeValidator(_moment),
    WithJsonSchema({"type": "string", "format": "date-time"}),
]


class Registration(Answer):
    """A registration made on the tournament's public page."""

    id: int = Field(description="The registration's number, in the addresses of its actions.")
    created: datetime.datetime = Field(description="When it arrived; the waiting list's order.")
    status: Annotated[str, WithJsonSchema({"type": "string", "enum": STATUSES})] = Field(
        description="pending (awaiting the organiser), accepted (a player of the field), "
        "waiting (on the waiting list), rejected or withdrawn."
    )
    waiting_place: int | None = Field(
        description="The place on the waiting list (1: next to get a place); null unless waiting."
    )
    player: str | None = Field(description="The player's key once accepted; else null.")
    name: str
    family_name: str
    given_name: str
    country: str = Field(description="An ISO 3166 code, or empty.")
    club: str
    team: str
    ema_number: str
    contact: str = Field(description="How to reach the player: for the organisers only.")


class RegistrationCounts(Answer):
    accepted: int
    pending: int
    waiting: int
    rejected: int
    withdrawn: int
    field: int = Field(
        description="The players who play (not withdrawn), registered or entered by an organiser."
    )
    cap: int | None = Field(description="Places in the field; null: no cap.")
    more_for_full_tables: int = Field(description="Players to add for full tables of four.")
    fewer_for_full_tables: int = Field(description="Players to remove for full tables of four.")


class RegistrationList(Answer):
    registrations: list[Registration] = Field(description="In order of arrival.")
    counts: RegistrationCounts


class RegistrationMove(Request):
    to: Literal["field", "waiting"] = Field(
        description="field: from the waiting list (or pending) into the field, refused with "
        "field_full when it is full; waiting: a pending or accepted registration to the "
        "waiting list (an accepted one's player is removed; refused while seated)."
    )


class RegistrationSettings(Request):
    """When and how players may register themselves."""

    registration: choice(MODES) = Field(
        description="off (the organiser enters the players), instant (accepted at once while "
        "places are free) or approval (pending until an organiser accepts)."
    )
    registration_opens: Moment | None = Field(
        description="When registration opens (ISO 8601); null: now."
    )
    registration_closes: Moment | None = Field(
        description="When registration closes (ISO 8601); null: never."
    )
    registration_cap: of(models.Tournament, "registration_cap")
    open: bool = Field(False, description="Whether the public may register now (answers only).")


class RegistrationSettingsChange(Request):
    """Only the fields given change."""

    registration: choice(MODES) = None
    registration_opens: Moment | None = None
    registration_closes: Moment | None = None
    registration_cap: of(models.Tournament, "registration_cap") = None
