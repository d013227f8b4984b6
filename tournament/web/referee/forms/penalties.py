"""The forms of false wins and penalties."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring.engine.rulebook import rulebook_for
from scoring.words import Words
from tournament.models import Player
from tournament.services.penalties import scale_words
from tournament.web.referee.forms.base import KeyedForm

MOST_POINTS = 999  # the most points a penalty takes on the form...
LARGER_MOST_POINTS = 9_999  # ...or where a deduction may be more than that (JT: 1,500)


def hand_choices(next_number: int, in_play: bool, words: Words) -> list[tuple[int, str]]:
    """Deals a false win or a penalty can be about: those entered and the one in play (none
    once the game is over), named as the preset names a deal (`words`)."""
    last = next_number if in_play else next_number - 1
    return [
        (
            n,
            gettext("%(deal)s (in play)") % {"deal": words.deal_named(n)}
            if n == next_number
            else words.deal_named(n),
        )
        for n in range(1, last + 1)
    ]


class FalseWinForm(KeyedForm):
    id_stem = "false_win"
    BELOW_MINIMUM = "below_minimum"
    INVALID_HAND = "invalid_hand"

    number = forms.TypedChoiceField(label=_("Hand"), coerce=int)
    kind = forms.ChoiceField(label=_("What was wrong"), widget=forms.RadioSelect)

    def __init__(self, *args: Any, below_minimum_each: int, invalid_hand_each: int, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["offender"] = self.player_field(_("Offender"), _("Choose the offender."))
        self.fields["number"].label = Words(rulebook_for(self.rules)).deal
        self.choice_field("number").choices = hand_choices(
            self.next_number, self.in_play, Words(rulebook_for(self.rules))
        )
        self.fields["number"].initial = self.next_number if self.in_play else self.next_number - 1
        below = (
            gettext("Below 8 fan: pays %(each)s to each")
            if self.rules.counts_fan
            else gettext("Below %(minimum)s points: pays %(each)s to each")
        )
        self.choice_field("kind").choices = [
            (
                self.BELOW_MINIMUM,
                below % {"each": below_minimum_each, "minimum": self.rules.minimum},
            ),
            (
                self.INVALID_HAND,
                gettext("Invalid hand: pays %(each)s to each") % {"each": invalid_hand_each},
            ),
        ]
        self.fields["kind"].initial = self.BELOW_MINIMUM
        self.order_fields(["submission", "offender", "number", "kind"])

    def offender(self) -> Player:
        return self.player(self.cleaned_data["offender"])


class PenaltyForm(KeyedForm):
    id_stem = "penalty"
    DEDUCTION = "deduction"
    DISTRIBUTED = "distributed"
    WHOLE_GAME = ""

    kind = forms.ChoiceField(
        label=pgettext_lazy("penalty", "Kind"),
        widget=forms.RadioSelect,
        initial=DEDUCTION,
    )
    points = forms.IntegerField(
        label=_("Points"),
        min_value=1,
        max_value=MOST_POINTS,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        error_messages={"required": _("Enter the points the player loses.")},
    )
    reason = forms.CharField(
        label=_("Reason"),
        max_length=300,
        error_messages={"required": _("Give the reason for the penalty.")},
    )
    hand = forms.TypedChoiceField(
        label=pgettext_lazy("penalty for", "For"), coerce=int, empty_value=None, required=False
    )

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["player"] = self.player_field(_("Player"), _("Choose the player."))
        scale = rulebook_for(self.rules).penalty_scale  # what a deduction may be under the preset
        self.choice_field("kind").choices = [
            (
                self.DEDUCTION,
                gettext("Deduction (%(scale)s, given to nobody)") % {"scale": scale_words(scale)},
            ),
            (self.DISTRIBUTED, gettext("Distributed to the other three (a multiple of 3)")),
        ]
        points = self.fields["points"]
        assert isinstance(points, forms.IntegerField)
        if scale.most > MOST_POINTS:  # a deduction may be more than the usual field allows
            # Up to the larger bound; the service says the deduction's range in its own words.
            self.fields["points"] = forms.IntegerField(
                label=points.label,
                min_value=1,
                max_value=LARGER_MOST_POINTS,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                error_messages=points.error_messages,
            )
        self.choice_field("hand").choices = [
            (self.WHOLE_GAME, gettext("The whole game")),
            *hand_choices(self.next_number, self.in_play, Words(rulebook_for(self.rules))),
        ]
        self.fields["hand"].initial = self.next_number if self.in_play else self.WHOLE_GAME
        self.order_fields(["submission", "player", "kind", "points", "reason", "hand"])

    def penalised(self) -> Player:
        return self.player(self.cleaned_data["player"])

    def distributed(self) -> bool:
        return self.cleaned_data["kind"] == self.DISTRIBUTED
