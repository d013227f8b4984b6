"""Seating a round, swapping two players, a round's status and its tables' referees."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournament.models import Player, Round
from tournament.web.organiser.forms.common import PlayerChoiceField


class SeatRoundForm(forms.Form):
    seed = forms.IntegerField(
        label=_("Seed"),
        required=False,
        min_value=0,
        help_text=_("Optional: the same number gives the same seating again."),
    )


class SwapForm(forms.Form):
    def __init__(
        self, *args: Any, seated: Sequence[Player], players: Sequence[Player], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["first"] = PlayerChoiceField(players=seated, label=_("Seated player"))
        self.fields["second"] = PlayerChoiceField(
            players=players,
            label=_("Swap with"),
            help_text=_(
                "Another seated player, or an unseated player (a substitute) who takes the seat."
            ),
        )


class RoundStatusForm(forms.Form):
    status = forms.ChoiceField(label=_("Status"), choices=Round.Status.choices)


class RefereesForm(forms.Form):
    usernames = forms.CharField(
        label=_("Referees"),
        required=False,
        help_text=_("Usernames, separated by commas or spaces. Empty: no referee."),
    )

    def clean_usernames(self) -> list:
        names = list(dict.fromkeys(self.cleaned_data["usernames"].replace(",", " ").split()))
        users = {
            user.get_username(): user
            for user in get_user_model().objects.filter(username__in=names, is_active=True)
        }
        unknown = [name for name in names if name not in users]
        if unknown:
            raise ValidationError(
                _("No active user is called %(names)s."), params={"names": ", ".join(unknown)}
            )
        return [users[name] for name in names]
