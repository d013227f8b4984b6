"""The attendance page's forms: closing check-in, a late arrival, an absence. Players are
chosen by their keys; a key that is not offered is refused by the form, not by a 500."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.models import Player

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def _choices(players: Sequence[Player]) -> list[tuple[str, str]]:
    return [(player.key, f"{player.key} {player.name}") for player in players]


class CloseCheckInForm(forms.Form):
    def __init__(
        self,
        *args: Any,
        substitutes: Sequence[Player],
        checked_in: Sequence[Player],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["substitutes"] = forms.MultipleChoiceField(
            label=_("Substitutes to bring in"),
            choices=_choices(substitutes),
            required=False,
            widget=forms.CheckboxSelectMultiple,
        )
        self.fields["withdraw"] = forms.MultipleChoiceField(
            label=_("Checked-in players to withdraw"),
            choices=_choices(checked_in),
            required=False,
            widget=forms.CheckboxSelectMultiple,
        )


class _RoundForm(forms.Form):
    """A player, a round not yet in play and, optionally, a substitute."""

    player_label: StrOrPromise = _("Player")
    substitute_label: StrOrPromise = _("Substitute")
    substitute_help: StrOrPromise = ""

    def __init__(
        self,
        *args: Any,
        players: Sequence[Player],
        rounds: Sequence[int],
        substitutes: Sequence[Player],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"] = forms.ChoiceField(
            label=self.player_label, choices=[("", "—"), *_choices(players)]
        )
        self.fields["round"] = forms.TypedChoiceField(
            label=_("From round"),
            choices=[(str(number), str(number)) for number in rounds],
            coerce=int,
        )
        self.fields["substitute"] = forms.ChoiceField(
            label=self.substitute_label,
            choices=[("", _("none")), *_choices(substitutes)],
            required=False,
            help_text=self.substitute_help,
        )


class LateArrivalForm(_RoundForm):
    player_label = _("Player who has arrived")
    substitute_label = _("Substitute who steps out")
    substitute_help = _("Keeps the field a multiple of four: the late player takes their seats.")


class AbsenceForm(_RoundForm):
    player_label = _("Absent player")
    substitute_label = _("Substitute who comes in")
    substitute_help = _("Keeps the field a multiple of four: they take the absent player's seats.")
