"""How the table screen answers an entry: a refusal shown on its form with what was typed,
or back to the table with a message saying what was recorded (post/redirect/get)."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from tournament.models import Deal, Penalty, Table
from tournament.web.referee.describe import describe_hand, describe_penalty, penalty_title
from tournament.web.referee.screen import render_table, table_url

# Which form field a service's error code is about; the others go above the form's fields.
ERROR_FIELDS = {
    "winner_required": "winner",
    "not_seated": "winner",
    "offender_cannot_win": "winner",
    "discarder_is_winner": "discarder",
    "below_minimum": "fan",
    "fan_required": "fan",
    "bad_flowers": "flowers",
    "scoring_unavailable": "tiles",
    "invalid_tiles": "tiles",
    "fan_mismatch": "tiles",
    "value_disagrees_with_tiles": "value",
    "offender_won": "offender",
    "bad_hand_number": "number",
    "reason_required": "reason",
    "not_divisible": "points",
    "deduction_out_of_range": "points",
}


# The form's idempotency key cannot be used: the form gets a new one (see `refused`).
KEY_ERRORS = {"submission_key_reused", "bad_submission_key"}


# Errors about the whole table rather than one entry: shown at the top of the page.
PAGE_ERRORS = {"round_not_playing", "game_ended", "already_ended", "faulty_out_ends_deal"}


# The entry's hand number was taken meanwhile (by another referee or device) or is not the next
# one any more: the screen is drawn again as the table is now, ready for the next hand.
STALE_NUMBER = {"conflict", "out_of_order", "game_complete"}
HAND_FORMS = {"win", "full", "draw", "faulty_out"}


# Full entry has no fan field: what the tiles are worth is about the tiles.
TILE_ERRORS = {"below_minimum": "tiles", "fan_required": "tiles"}


def refused(
    request: HttpRequest,
    table: Table,
    name: str,
    form: forms.Form,
    error: ValidationError,
    *,
    fields: dict[str, str] | None = None,
    **extra: Any,
) -> HttpResponse:
    """Show a service's refusal on the form it answers, keeping what was typed.

    `fields` names the field an error code is about where the form differs from ERROR_FIELDS.
    """
    code = getattr(error, "code", None) or ""
    if code in KEY_ERRORS:
        renew_key(form)
        error = ValidationError(
            _(
                "This form was sent with a key already used for another entry, so nothing was "
                "recorded. It has a new key now: check the values and record again."
            ),
            code=code,
        )
    if code in PAGE_ERRORS:
        return render_table(request, table, page_errors=list(error.messages), **extra)
    if code in STALE_NUMBER and name in HAND_FORMS:
        return stale_number(request, table, error)
    field = {**ERROR_FIELDS, **(fields or {})}.get(code)
    form.add_error(field if field in form.fields else None, error)
    return render_table(request, table, bound=(name, form), **extra)


def stale_number(request: HttpRequest, table: Table, error: ValidationError) -> HttpResponse:
    """Back to the table, drawn again for the next hand, after an entry for a hand that was
    entered meanwhile: the message says what happened (the page shows a reload button by
    it). Nothing of the entry was recorded."""
    text = " ".join(
        [
            *error.messages,
            _(
                "What you entered was not recorded. The table is shown as it is now: check the "
                "score sheet before you enter the next hand."
            ),
        ]
    )
    messages.error(request, text, extra_tags="conflict")
    return back_to_table(table)


def renew_key(form: forms.Form) -> None:
    """Give a bound form a new submission key (its old one cannot record anything)."""
    assert isinstance(form.data, QueryDict)  # bound to request.POST
    data = form.data.copy()
    data[form.add_prefix("submission")] = str(uuid.uuid4())
    form.data = data


def invalid(request: HttpRequest, table: Table, name: str, form: forms.Form) -> HttpResponse:
    """A form that did not validate, shown again with what was typed (and its key, unless the
    key itself was damaged)."""
    if "submission" in form.errors:
        renew_key(form)
    return render_table(request, table, bound=(name, form))


def recorded(request: HttpRequest, table: Table, record: Deal | Penalty) -> HttpResponse:
    """Back to the table after a hand or a penalty was recorded, or found already recorded
    under the form's key (a resubmission: nothing new was recorded)."""
    if getattr(record, "replayed", False):
        if isinstance(record, Deal):
            text = _("%(deal)s was already recorded; nothing was recorded twice.") % {
                "deal": table.round.tournament.words.deal_named(record.number)
            }
        else:
            text = _("%(entry)s was already recorded; nothing was recorded twice.") % {
                "entry": penalty_title(record)
            }
        messages.info(request, text)
        return back_to_table(table)
    if isinstance(record, Deal):
        return done(request, table, describe_hand(record))
    return done(request, table, describe_penalty(record))


def back_to_table(table: Table) -> HttpResponse:
    # "#next": the screen opens at the message and the next entry (on a phone the status
    # above it takes most of the screen). The forms post to an address with their own
    # fragment (to show a refusal next to the form); the redirect's fragment replaces it.
    return redirect(table_url(table) + "#next")


def done(request: HttpRequest, table: Table, message: str) -> HttpResponse:
    messages.success(request, message)
    return back_to_table(table)
