"""The referee's forms at one table: what each entry asks for, before the services check it.

Players are chosen by their key (the tournament's start number). Every form that records a
hand carries the hand number the page showed, so that a hand entered meanwhile at the same
table by another referee is refused as a conflict instead of being recorded twice.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.html import format_html
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from tournament.models import MOST_HANDS_PER_GAME, Hand, Player, Seat, Wind
from tournament.templatetags.winds import wind_letter

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
        hands_per_game: int,
        **kwargs: Any,
    ):
        kwargs.setdefault("auto_id", f"{self.id_stem}_%s")
        super().__init__(*args, **kwargs)
        self.seats = seats
        self.next_number = next_number
        self.hands_per_game = hands_per_game
        self.player_choices = [(view.player.key, player_label(view)) for view in seats]

    def player(self, key: str) -> Player:
        return next(view.player for view in self.seats if view.player.key == key)

    def player_field(self, label: str, required: str) -> forms.ChoiceField:
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
        max_value=MOST_HANDS_PER_GAME,  # the preset's own count is the service's rule
        error_messages={
            key: _("The hand number is missing or wrong: reload the table page.")
            for key in ("required", "invalid", "min_value", "max_value")
        },
    )

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["number"].initial = self.next_number


class WinnerForm(HandForm):
    """Winner and discarder (or self-drawn) of a win."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["winner"] = self.player_field(_("Winner"), _("Choose the winner."))
        self.fields["discarder"] = forms.ChoiceField(
            label=_("Discarder"),
            choices=[*self.player_choices, (SELF_DRAWN, _("Self-drawn"))],
            widget=forms.RadioSelect,
            error_messages={"required": _("Choose the discarder, or self-drawn.")},
        )
        self.order_fields(["number", "submission", "winner", "discarder"])

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("winner") and data.get("winner") == data.get("discarder"):
            self.add_error("discarder", _("The winner cannot have discarded the winning tile."))
        return data

    def winner(self) -> Player:
        return self.player(self.cleaned_data["winner"])

    def discarder(self) -> Player | None:
        key = self.cleaned_data["discarder"]
        return None if key == SELF_DRAWN else self.player(key)

    def self_drawn(self) -> bool:
        return self.cleaned_data["discarder"] == SELF_DRAWN


def flowers_field() -> forms.TypedChoiceField:
    return forms.TypedChoiceField(
        label=_("Flowers"),
        choices=FLOWER_CHOICES,
        coerce=int,
        initial=0,
        widget=forms.RadioSelect,
        error_messages={"required": _("Choose the number of flowers, 0 to 8.")},
    )


class WinForm(WinnerForm):
    """Quick entry: the fan as the players counted it."""

    id_stem = "win"

    fan = forms.IntegerField(
        label=_("Fan (without flowers)"),
        min_value=0,
        max_value=999,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 8, "max": 999}),
        error_messages={"required": _("Enter the fan, not counting flowers.")},
    )
    flowers = flowers_field()


class FullForm(WinnerForm):
    """Full entry: the winning tiles in compact notation and the situation of the win."""

    id_stem = "full"

    tiles = forms.CharField(
        label=_("Tiles"),
        max_length=200,
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "off",
                "autocorrect": "off",
                "spellcheck": "false",
                "placeholder": "345p 78s EE [PPP] [789m] 6s",
            }
        ),
        error_messages={
            "required": _("Write the tiles of the winning hand, the winning tile last.")
        },
    )
    last_tile_of_kind = forms.BooleanField(required=False, label=_("Last tile of its kind"))
    kong_related = forms.BooleanField(
        required=False, label=_("Robbing the kong / Out with replacement tile")
    )
    last_wall_tile = forms.BooleanField(
        required=False, label=_("Last tile claim / Last tile draw (last tile of the wall)")
    )
    flowers = flowers_field()

    SITUATION_FLAGS = ("last_tile_of_kind", "kong_related", "last_wall_tile")

    def situation(self) -> dict[str, Any]:
        """The situation in the engine's names, without the winds (the hand decides those)."""
        data = self.cleaned_data
        situation = {flag: data[flag] for flag in self.SITUATION_FLAGS}
        situation["self_drawn"] = self.self_drawn()
        situation["flowers"] = data["flowers"]
        return situation


class DrawForm(HandForm):
    """A drawn hand: nothing to ask but which hand it is."""

    id_stem = "draw"


def hand_choices(next_number: int, hands_per_game: int) -> list[tuple[int, str]]:
    """Hands a false win or a penalty can be about: those entered and the one in play."""
    last = min(next_number, hands_per_game)
    return [
        (
            n,
            (
                gettext("Hand %(number)s (in play)")
                if n == next_number
                else gettext("Hand %(number)s")
            )
            % {"number": n},
        )
        for n in range(1, last + 1)
    ]


class FalseWinForm(KeyedForm):
    id_stem = "false_win"
    BELOW_MINIMUM = "below_minimum"
    INVALID_HAND = "invalid_hand"

    number = forms.TypedChoiceField(label=_("Hand"), coerce=int)
    kind = forms.ChoiceField(label=_("What was wrong"), widget=forms.RadioSelect)

    def __init__(self, *args: Any, below_minimum_each: int, invalid_hand_each: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["offender"] = self.player_field(_("Offender"), _("Choose the offender."))
        self.fields["number"].choices = hand_choices(self.next_number, self.hands_per_game)
        self.fields["number"].initial = min(self.next_number, self.hands_per_game)
        self.fields["kind"].choices = [
            (
                self.BELOW_MINIMUM,
                gettext("Below 8 fan: pays %(each)s to each") % {"each": below_minimum_each},
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
        choices=[
            (DEDUCTION, _("Deduction (5 to 60, given to nobody)")),
            (DISTRIBUTED, _("Distributed to the other three (a multiple of 3)")),
        ],
        initial=DEDUCTION,
    )
    points = forms.IntegerField(
        label=_("Points"),
        min_value=1,
        max_value=999,
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
        self.fields["hand"].choices = [
            (self.WHOLE_GAME, gettext("The whole game")),
            *hand_choices(self.next_number, self.hands_per_game),
        ]
        self.fields["hand"].initial = (
            self.next_number if self.next_number <= self.hands_per_game else self.WHOLE_GAME
        )
        self.order_fields(["submission", "player", "kind", "points", "reason", "hand"])

    def penalised(self) -> Player:
        return self.player(self.cleaned_data["player"])

    def distributed(self) -> bool:
        return self.cleaned_data["kind"] == self.DISTRIBUTED


class CorrectForm(KeyedForm):
    """Correct the last hand in one step: its result, winner, discarder, fan and flowers,
    filled in with what was entered. `number` is the hand the referee saw as the last one.

    Winner, discarder and fan are asked only for a win; a drawn hand ignores them.
    """

    id_stem = "correct"
    WIN = Hand.Result.WIN
    DRAW = Hand.Result.DRAW

    number = forms.IntegerField(
        widget=forms.HiddenInput,
        min_value=1,
        max_value=MOST_HANDS_PER_GAME,  # the preset's own count is the service's rule
        error_messages={
            key: _("The hand number is missing or wrong: reload the table page.")
            for key in ("required", "invalid", "min_value", "max_value")
        },
    )
    result = forms.ChoiceField(
        label=_("Result"),
        choices=[(WIN, _("Win")), (DRAW, _("Drawn hand"))],
        widget=forms.RadioSelect,
        error_messages={"required": _("Choose a win or a drawn hand.")},
    )
    fan = forms.IntegerField(
        label=_("Fan (without flowers)"),
        required=False,
        min_value=0,
        max_value=999,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 8, "max": 999}),
    )
    flowers = flowers_field()

    def __init__(self, *args: Any, hand: Hand | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["winner"] = self.player_field(_("Winner"), "")
        self.fields["winner"].required = False
        self.fields["discarder"] = forms.ChoiceField(
            label=_("Discarder"),
            choices=[*self.player_choices, (SELF_DRAWN, _("Self-drawn"))],
            widget=forms.RadioSelect,
            required=False,
        )
        self.fields["flowers"].required = False
        self.order_fields(
            ["number", "submission", "result", "winner", "discarder", "fan", "flowers"]
        )
        if hand is not None and not self.is_bound:
            self.initial.update(self.values_of(hand))

    @staticmethod
    def values_of(hand: Hand) -> dict[str, Any]:
        """The form's fields as `hand` has them."""
        if hand.result == Hand.Result.DRAW:
            return {"number": hand.number, "result": Hand.Result.DRAW, "flowers": 0}
        return {
            "number": hand.number,
            "result": Hand.Result.WIN,
            "winner": hand.winner.player.key,
            "discarder": hand.discarder.player.key if hand.discarder else SELF_DRAWN,
            "fan": hand.fan,
            "flowers": hand.flowers,
        }

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("result") != self.WIN:
            return data
        if not data.get("winner"):
            self.add_error("winner", _("Choose the winner."))
        if not data.get("discarder"):
            self.add_error("discarder", _("Choose the discarder, or self-drawn."))
        elif data.get("winner") == data.get("discarder"):
            self.add_error("discarder", _("The winner cannot have discarded the winning tile."))
        if data.get("fan") is None and "fan" not in self.errors:
            self.add_error("fan", _("Enter the fan, not counting flowers."))
        if data.get("flowers") in (None, ""):
            self.add_error("flowers", _("Choose the number of flowers, 0 to 8."))
        return data

    def corrected(self) -> dict[str, Any]:
        """What `services.correct_hand` is asked to set (besides the hand and who asks)."""
        data = self.cleaned_data
        if data["result"] == self.DRAW:
            return {"result": Hand.Result.DRAW}
        key = data["discarder"]
        return {
            "result": Hand.Result.WIN,
            "winner": self.player(data["winner"]),
            "discarder": None if key == SELF_DRAWN else self.player(key),
            "fan": data["fan"],
            "flowers": data["flowers"],
        }

    def matches(self, hand: Hand) -> bool:
        """Does `hand` already have exactly the values sent (a correction sent twice)?"""
        data = self.cleaned_data
        sent = {"number": data["number"], "result": data["result"]}
        if data["result"] == self.WIN:
            sent.update(
                winner=data["winner"],
                discarder=data["discarder"],
                fan=data["fan"],
                flowers=data["flowers"],
            )
        else:
            sent["flowers"] = 0
        return self.values_of(hand) == sent


class UndoForm(forms.Form):
    """Remove the last hand; `number` is the hand the referee saw as the last one."""

    number = forms.IntegerField(
        widget=forms.HiddenInput, min_value=1, max_value=MOST_HANDS_PER_GAME
    )
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)


class EndForm(forms.Form):
    """Submit the game sheet; `review` asks for the summary of the final scores first."""

    def __init__(self, *args: Any, **kwargs: Any):
        kwargs.setdefault("auto_id", "end_%s")
        super().__init__(*args, **kwargs)

    time_called = forms.BooleanField(required=False, label=_("Time was called"))
    review = forms.BooleanField(required=False, widget=forms.HiddenInput)
