"""What the table screen's forms share: the players as the forms show them, the table form
and its submission key, the next hand's number; and the end of the game."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.engine import RulePreset
from scoring.engine.presets import MCR
from tournament.models import MOST_DEALS, Player, Seat, Wind
from tournament.templatetags.winds import wind_letter

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

SELF_DRAWN = "self"


FLOWER_CHOICES = [(n, str(n)) for n in range(9)]


#: "E" -> East, ..., in the reader's language.
WIND_NAMES = dict(Wind.choices)


@dataclass(frozen=True)
class SeatView:
    """A player at the table as the forms show them: seat wind in the next hand, if any."""

    seat: Seat
    wind: str  # seat wind in the next hand, "" once all hands are played

    @property
    def player(self) -> Player:
        return self.seat.player


def player_label(view: SeatView) -> str:
    """A player's name and, while a hand is left, their seat wind in the next hand."""
    if not view.wind:
        return view.player.name
    return format_html(
        '{} <span class="ref-wind-tag" title="{}">{}</span>',
        view.player.name,
        gettext("%(wind)s seat wind") % {"wind": WIND_NAMES[view.wind]},
        wind_letter(view.wind),
    )


def winner_label(view: SeatView) -> str:
    """A player's choice as winner when they declared a false win in this hand: their name and
    why they cannot win it."""
    return format_html(
        '{} <span class="ref-cannot-win">{}</span>',
        player_label(view),
        gettext("false win: cannot win this hand"),
    )


class PlayerRadioSelect(forms.RadioSelect):
    """The table's players as radio buttons; the buttons of the players in `unavailable`
    (their keys) are disabled: they cannot be chosen (a false win in this hand)."""

    def __init__(self, *args: Any, unavailable: frozenset[str] = frozenset(), **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.unavailable = unavailable

    def create_option(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(*args, **kwargs)
        if str(option["value"]) in self.unavailable:
            option["attrs"] = {**option["attrs"], "disabled": True, "data-cannot-win": ""}
        return option


class TableForm(forms.Form):
    """A form about the players of one table (`seats`, in starting order E, S, W, N).

    The table screen shows several forms with the same field names; `id_stem` keeps the ids
    of their inputs apart.
    """

    id_stem = "table"

    def __init__(
        self,
        *args: Any,
        seats: list[SeatView],
        next_number: int,
        hands_per_game: int | None,
        rules: RulePreset = MCR,
        in_play: bool = True,
        cannot_win: frozenset[str] = frozenset(),
        **kwargs: Any,
    ):
        kwargs.setdefault("auto_id", f"{self.id_stem}_%s")
        super().__init__(*args, **kwargs)
        self.seats = seats
        self.next_number = next_number
        self.hands_per_game = hands_per_game
        self.rules = rules
        self.in_play = in_play  # whether a deal is in play: the game is not over
        # The keys of the players who declared a false win in the hand: they cannot win it.
        self.cannot_win = cannot_win
        self.player_choices = [(view.player.key, player_label(view)) for view in seats]

    def player(self, key: str) -> Player:
        return next(view.player for view in self.seats if view.player.key == key)

    def choice_field(self, name: str) -> forms.ChoiceField:
        """This form's own copy of the choice field `name`, to set its choices."""
        field = self.fields[name]
        assert isinstance(field, forms.ChoiceField)
        return field

    def winner_field(self, label: StrOrPromise, required: StrOrPromise) -> forms.ChoiceField:
        """The choice of the winner: the players who declared a false win in the hand are
        shown, with the reason, but cannot be chosen (the service refuses them too)."""
        return forms.ChoiceField(
            label=label,
            choices=[
                (view.player.key, winner_label(view))
                if view.player.key in self.cannot_win
                else (view.player.key, player_label(view))
                for view in self.seats
            ],
            widget=PlayerRadioSelect(unavailable=self.cannot_win),
            error_messages={"required": required},
        )

    def players_field(self, label: StrOrPromise) -> forms.MultipleChoiceField:
        """Any of the table's players, ticked (none is fine)."""
        return forms.MultipleChoiceField(
            label=label,
            choices=[(view.player.key, view.player.name) for view in self.seats],
            widget=forms.CheckboxSelectMultiple,
            required=False,
        )

    def players_of(self, name: str) -> list[Player]:
        """The players ticked in the field `name` (none when the form has no such field)."""
        return [self.player(key) for key in self.cleaned_data.get(name) or ()]

    def player_field(self, label: StrOrPromise, required: StrOrPromise) -> forms.ChoiceField:
        """A choice of one of the table's players; `required` is the message when none is
        chosen."""
        return forms.ChoiceField(
            label=label,
            choices=self.player_choices,
            widget=forms.RadioSelect,
            error_messages={"required": required},
        )


def submission_field() -> forms.UUIDField:
    """The idempotency key of one filled-in form: made when the empty form is drawn, sent back
    with it, and kept when the form is refused, so that sending the same form twice (a retry
    after a lost connection) is recognised and records nothing twice."""
    return forms.UUIDField(
        widget=forms.HiddenInput,
        required=False,
        error_messages={
            "invalid": _("The form's submission key is damaged: reload the table page."),
        },
    )


class KeyedForm(TableForm):
    """A table form that records something: it carries its submission key."""

    submission = submission_field()

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.fields["submission"].initial = uuid.uuid4()

    def submission_key(self) -> uuid.UUID | None:
        return self.cleaned_data.get("submission")


class HandForm(KeyedForm):
    """A form that records the next hand."""

    number = forms.IntegerField(
        widget=forms.HiddenInput,
        min_value=1,
        max_value=MOST_DEALS,  # the preset's own count is the service's rule
        error_messages={
            key: _("The hand number is missing or wrong: reload the table page.")
            for key in ("required", "invalid", "min_value", "max_value")
        },
    )

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["number"].initial = self.next_number


class EndForm(forms.Form):
    """Submit the game sheet; `review` asks for the summary of the final scores first."""

    def __init__(self, *args: Any, **kwargs: Any):
        kwargs.setdefault("auto_id", "end_%s")
        super().__init__(*args, **kwargs)

    time_called = forms.BooleanField(required=False, label=_("Time was called"))
    review = forms.BooleanField(required=False, widget=forms.HiddenInput)
