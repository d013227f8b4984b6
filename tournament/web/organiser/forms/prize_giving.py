"""The prize-giving's forms: the round the public standings are hidden from, and the reveal."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.services.prize_giving import FIRST_ROUND, LAST_ROUND


class HideStandingsForm(forms.Form):
    hidden_from = forms.IntegerField(
        label=_("Hide the standings from round"),
        required=False,
        min_value=FIRST_ROUND,
        max_value=LAST_ROUND,
        help_text=_(
            "Empty: never hidden. Visitors, players and referees then see the standings as they "
            "stood before this round until you reveal them; every table's score sheet stays "
            "visible. Set it before the results of that round come in."
        ),
    )


class RevealForm(forms.Form):
    confirm = forms.BooleanField(
        label=_("Everyone sees the full standings now"),
        required=True,
        error_messages={"required": _("Tick the box to reveal the standings to everyone.")},
    )
