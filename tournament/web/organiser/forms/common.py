"""What the organiser forms share: a service's refusal shown on the form, and choosing a
player."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django import forms
from django.core.exceptions import ValidationError

from tournament.models import Player

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def add_service_error(
    form: forms.Form, error: ValidationError, fields_by_code: dict[str, str] | None = None
) -> None:
    """Show a service's ValidationError on `form`: on the field it names or its code points to,
    otherwise above the form."""
    if hasattr(error, "error_dict"):
        for field, errors in error.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
        return
    for item in error.error_list:
        named = (fields_by_code or {}).get(item.code or "")
        form.add_error(named if named in form.fields else None, item)


def player_choices(
    players: Sequence[Player], blank: StrOrPromise | None = None
) -> list[tuple[str, StrOrPromise]]:
    choices: list[tuple[str, StrOrPromise]] = [("", blank)] if blank is not None else []
    return choices + [(str(player.pk), f"{player.key} {player.name}") for player in players]


class PlayerChoiceField(forms.TypedChoiceField):
    """A choice among given players, cleaned to the Player (or None when left blank)."""

    def __init__(
        self, *, players: Sequence[Player], blank: StrOrPromise | None = None, **kwargs: Any
    ):
        by_pk = {str(player.pk): player for player in players}
        super().__init__(
            choices=player_choices(players, blank),
            coerce=by_pk.__getitem__,
            empty_value=None,
            required=blank is None,
            **kwargs,
        )
