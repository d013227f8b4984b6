"""The forms that record or change a hand: a win by its fan or by its tiles, a drawn hand,
the correction of the last hand and its removal."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.engine import RulePreset, parse_compact
from scoring.engine.rulebook import rulebook_for
from tournament.models import MOST_DEALS, Deal, Player
from tournament.services import DealInput
from tournament.web.fan_pick import add_fan_pick, choose_fan
from tournament.web.referee.forms.base import FLOWER_CHOICES, SELF_DRAWN, HandForm, KeyedForm

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


class WinnerForm(HandForm):
    """Winner and discarder (or self-drawn) of a win."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["winner"] = self.winner_field(_("Winner"), _("Choose the winner."))
        self.fields["discarder"] = forms.ChoiceField(
            label=_("Discarder"),
            choices=[*self.player_choices, (SELF_DRAWN, _("Self-drawn"))],
            widget=forms.RadioSelect,
            error_messages={"required": _("Choose the discarder, or self-drawn.")},
        )
        self.order_fields(["number", "submission", "winner", "discarder"])

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
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
    """Quick entry: the fan as the players counted it (MCR), or the hand's value in points
    (JT: the final score F; WA: points), with the preset's facts of the deal: riichi and
    faulty claims (JT), further winners on the same discard (WA)."""

    id_stem = "win"

    fan = forms.IntegerField(
        label=_("Fan (without flowers)"),
        min_value=0,
        max_value=999,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 8, "max": 999}),
        error_messages={"required": _("Enter the fan, not counting flowers.")},
    )
    flowers = flowers_field()

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        rules = self.rules
        if rules.counts_fan:
            add_fan_pick(self, rules)  # the common values one tap each, any other typed
            return
        del self.fields["fan"], self.fields["flowers"]
        self.fields["value"] = value_field(rules, _("Points"))
        if rules.deal.riichi_stake:
            self.fields["riichi"] = self.players_field(_("Riichi declared"))
        if rules.deal.faulty_claim:
            self.fields["faulty_claims"] = self.players_field(_("Faulty claims"))
        if rules.deal.several_winners:
            for view in self.seats:
                self.fields[f"also_{view.player.key}"] = forms.IntegerField(
                    label=view.player.name,
                    required=False,
                    min_value=1,
                    widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                )

    @property
    def typed_value(self) -> forms.BoundField:
        """The box for the value typed beside the Record button: the fan (MCR) or points."""
        return self["fan" if "fan" in self.fields else "value"]

    @property
    def also_fields(self) -> list[forms.BoundField]:
        """The points of further winners on the same discard (WA), one field a player."""
        return [self[name] for name in self.fields if name.startswith("also_")]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        choose_fan(self, required=True)
        also = {name[5:]: value for name, value in data.items() if name.startswith("also_")}
        given = {key: value for key, value in also.items() if value is not None}
        if given and data.get("discarder") == SELF_DRAWN:
            self.add_error(None, _("Several players win only on the same discard."))
        if data.get("winner") in given:
            self.add_error(None, _("The winner is named again among the other winners."))
        if data.get("discarder") in given:
            self.add_error(None, _("The discarder cannot win on his own discard."))
        return data

    def deal(self) -> DealInput:
        """The win as `services.record_deal` takes it."""
        data = self.cleaned_data
        win = DealInput(result=Deal.Result.WIN, winner=self.winner(), discarder=self.discarder())
        if self.rules.counts_fan:
            return replace(win, fan=data["fan"], flowers=data["flowers"])
        extra = [
            (self.player(name[5:]), value)
            for name, value in data.items()
            if name.startswith("also_") and value is not None
        ]
        return replace(
            win,
            value=data["value"],
            extra_winners=extra,
            riichi=self.players_of("riichi"),
            faulty_claims=self.players_of("faulty_claims"),
        )


def value_field(rules: RulePreset, label: StrOrPromise) -> forms.IntegerField:
    """A hand's value in points as the preset allows it (JT: 20 to 1,500 in tens)."""
    least = max(rules.least_value, 1)
    return forms.IntegerField(
        label=label,
        min_value=0,
        max_value=99_999,
        widget=forms.NumberInput(
            attrs={
                "inputmode": "numeric",
                "min": least,
                "max": rules.limit or 99_999,
                "step": rules.value_step,
            }
        ),
        error_messages={"required": _("Enter what the hand is worth.")},
    )


# A box for tiles in the compact notation: a phone neither corrects nor capitalises them.
TILES_ATTRS = {
    "autocomplete": "off",
    "autocapitalize": "off",
    "autocorrect": "off",
    "spellcheck": "false",
}


class FullForm(WinnerForm):
    """Full entry: the winning tiles in compact notation and the situation of the win."""

    id_stem = "full"

    tiles = forms.CharField(
        label=_("Tiles"),
        max_length=200,
        widget=forms.TextInput(attrs={**TILES_ATTRS, "placeholder": "345p 78s EE [PPP] [789m] 6s"}),
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

    # MCR's situation flags, fields of the form as declared above.
    FAN_FLAGS = ("last_tile_of_kind", "kong_related", "last_wall_tile")
    # The labels of the flags of the presets that count points (JT, WA).
    FLAG_LABELS = {
        "last_wall_tile": _("Last tile of the wall"),
        "last_discard": _("Last discard"),
        "supplement_tile": _("Supplement tile"),
        "robbing_kong": _("Robbing a kong"),
        "heavenly": _("Heavenly hand"),
        "earthly": _("Earthly hand"),
        "last_available": _("Last available tile"),
        "four_kongs_immediate": _("Four kongs, going out at once"),
        "thirteen_discarded_orphans": _("Thirteen discarded orphans"),
    }

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        # The engine's verdict on each further winner's tiles, by the player's key, once the
        # view checked them.
        self.further_verdicts: dict[str, dict[str, Any]] = {}
        rules = self.rules
        if rules.counts_fan:
            return
        # A preset that counts points (JT): its own flags, the deal's riichi and faulty
        # claims, and the value as counted at the table, which must agree with the tiles.
        for flag in self.FAN_FLAGS:
            del self.fields[flag]
        del self.fields["flowers"]
        for flag in self.flags:
            self.fields[flag] = forms.BooleanField(
                required=False,
                label=self.FLAG_LABELS[flag],
                # the script keeps its label (MCR's flags change theirs with the discarder)
                widget=forms.CheckboxInput(attrs={"data-fixed-label": ""}),
            )
        # JT counts the final score F; WA counts points.
        label = (
            _("Final score F, if counted")
            if rulebook_for(rules).value_kind == "final_score"
            else _("Points, if counted")
        )
        value = value_field(rules, label)
        value.required = False
        self.fields["value"] = value
        if rules.deal.riichi_stake:
            self.fields["riichi"] = self.players_field(_("Riichi declared"))
        if rules.deal.faulty_claim:
            self.fields["faulty_claims"] = self.players_field(_("Faulty claims"))
        if rulebook_for(rules).extra_tile_codes:  # the joker's value in a declared set (WA)
            self.fields["joker_as"] = forms.CharField(
                label=_("Joker in a declared set stands for"), required=False, max_length=3
            )
        if rules.deal.several_winners:  # one hand per further winner on the same discard
            for view in self.seats:
                self.fields[f"also_tiles_{view.player.key}"] = forms.CharField(
                    label=view.player.name,
                    required=False,
                    max_length=200,
                    widget=forms.TextInput(attrs=TILES_ATTRS),  # typed as the winner's tiles
                )

    @property
    def also_fields(self) -> list[forms.BoundField]:
        """The tiles of further winners on the same discard (WA), one field a player."""
        return [self[name] for name in self.fields if name.startswith("also_tiles_")]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        given = {
            name[11:] for name, text in data.items() if name.startswith("also_tiles_") and text
        }
        if given and data.get("discarder") == SELF_DRAWN:
            self.add_error(None, _("Several players win only on the same discard."))
        if data.get("winner") in given:
            self.add_error(None, _("The winner is named again among the other winners."))
        if data.get("discarder") in given:
            self.add_error(None, _("The discarder cannot win on his own discard."))
        return data

    def further_tiles(self) -> dict[str, str]:
        """The tiles typed for each further winner (WA), by the player's key."""
        return {
            name[11:]: text
            for name, text in self.cleaned_data.items()
            if name.startswith("also_tiles_") and text
        }

    @property
    def also_entries(self) -> list[tuple[forms.BoundField, dict[str, Any] | None]]:
        """Each further winner's tiles field with the engine's verdict on them, once checked
        (`further_verdicts`, set by the view)."""
        return [(field, self.further_verdicts.get(field.name[11:])) for field in self.also_fields]

    def tiles_case(self, text: str) -> dict[str, Any]:
        """Tiles in the compact notation as the case format's tiles (with the situation flags
        of the win), for the preset's engine; raises HandError."""
        joker_as = self.cleaned_data.get("joker_as") or None
        case = rulebook_for(self.rules).compact_tiles(text, joker_as=joker_as)
        return case | {flag: self.cleaned_data[flag] for flag in self.flags}

    def extra_tiles(self) -> list[tuple[Player, dict[str, Any]]]:
        """The further winners and their tiles (WA); raises HandError."""
        return [
            (self.player(name[11:]), self.tiles_case(text))
            for name, text in self.cleaned_data.items()
            if name.startswith("also_tiles_") and text
        ]

    @property
    def flags(self) -> tuple[str, ...]:
        """The situation flags a win may carry under the preset (its rulebook's)."""
        return rulebook_for(self.rules).situation_flags

    @property
    def flag_fields(self) -> list[forms.BoundField]:
        return [self[flag] for flag in self.flags]

    def situation(self) -> dict[str, Any]:
        """The situation in the engine's names, without the winds (the hand decides those)."""
        data = self.cleaned_data
        situation = {flag: data[flag] for flag in self.flags}
        situation["self_drawn"] = self.self_drawn()
        if self.rules.counts_fan:
            situation["flowers"] = data["flowers"]
        return situation

    def deal(self) -> DealInput:
        """The win by its tiles as `services.record_deal` takes it: under MCR the tiles with
        their situation and the flowers; under a preset that counts points the tiles for its
        engine, with the value if given and the preset's facts of the deal. Raises HandError
        when the tiles cannot be read."""
        data = self.cleaned_data
        win = DealInput(result=Deal.Result.WIN, winner=self.winner(), discarder=self.discarder())
        if self.rules.counts_fan:
            hand = parse_compact(data["tiles"], **self.situation())
            return replace(win, tiles=hand.to_case(), flowers=data["flowers"])
        return replace(
            win,
            tiles=self.tiles_case(data["tiles"]),
            value=data.get("value"),
            riichi=self.players_of("riichi"),
            faulty_claims=self.players_of("faulty_claims"),
            extra_tiles=self.extra_tiles(),
        )


class DrawForm(HandForm):
    """A drawn hand: which hand it is; under JT also who declared riichi, who showed a ready
    hand and whose riichi was faulty (the ready payments follow from them)."""

    id_stem = "draw"

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        if self.rules.deal.riichi_stake:
            self.fields["riichi"] = self.players_field(_("Riichi declared"))
            self.fields["faulty_riichi"] = self.players_field(_("Riichi declared but not ready"))
        if self.rules.deal.ready_pool:
            self.fields["ready"] = self.players_field(_("Ready hands shown"))

    def deal(self) -> DealInput:
        """The drawn deal as `services.record_deal` takes it."""
        return DealInput(
            result=Deal.Result.DRAW,
            riichi=self.players_of("riichi"),
            faulty_riichi=self.players_of("faulty_riichi"),
            ready=self.players_of("ready"),
        )


class FaultyOutForm(HandForm):
    """A faulty out that ends the deal (JT): its offender pays half the limit to each."""

    id_stem = "faulty_out"

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["offender"] = self.player_field(_("Offender"), _("Choose the offender."))
        if self.rules.deal.riichi_stake:
            self.fields["riichi"] = self.players_field(_("Riichi declared"))

    def deal(self) -> DealInput:
        """The faulty out as `services.record_deal` takes it."""
        offender = self.player(self.cleaned_data["offender"])
        return DealInput(result=Deal.Result.FAULTY_OUT, offender=offender)


class CorrectForm(KeyedForm):
    """Correct the last hand in one step: its result, winner, discarder, fan and flowers,
    filled in with what was entered. `number` is the hand the referee saw as the last one.

    Winner, discarder and fan are asked only for a win; a drawn hand ignores them.
    """

    id_stem = "correct"
    WIN = Deal.Result.WIN
    DRAW = Deal.Result.DRAW

    number = forms.IntegerField(
        widget=forms.HiddenInput,
        min_value=1,
        max_value=MOST_DEALS,  # the preset's own count is the service's rule
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

    def __init__(self, *args: Any, hand: Deal | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["winner"] = self.winner_field(_("Winner"), "")
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
        add_fan_pick(self, self.rules)  # as in quick entry: the common values one tap each
        if hand is not None and not self.is_bound:
            self.initial.update(self.values_of(hand))

    @staticmethod
    def values_of(hand: Deal) -> dict[str, Any]:
        """The form's fields as `hand` has them."""
        if hand.result == Deal.Result.DRAW:
            return {"number": hand.number, "result": Deal.Result.DRAW, "flowers": 0}
        assert hand.winner is not None  # every win has its winner
        return {
            "number": hand.number,
            "result": Deal.Result.WIN,
            "winner": hand.winner.player.key,
            "discarder": hand.discarder.player.key if hand.discarder else SELF_DRAWN,
            "fan": hand.fan,
            "flowers": hand.flowers,
        }

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("result") != self.WIN:
            return data
        if not data.get("winner"):
            self.add_error("winner", _("Choose the winner."))
        if not data.get("discarder"):
            self.add_error("discarder", _("Choose the discarder, or self-drawn."))
        elif data.get("winner") == data.get("discarder"):
            self.add_error("discarder", _("The winner cannot have discarded the winning tile."))
        choose_fan(self, required=True)
        if data.get("fan") is None and "fan" not in self.errors:
            self.add_error("fan", _("Enter the fan, not counting flowers."))
        if data.get("flowers") in (None, ""):
            self.add_error("flowers", _("Choose the number of flowers, 0 to 8."))
        return data

    def deal(self) -> DealInput:
        """The corrected deal as `services.correct_last_deal` takes it."""
        data = self.cleaned_data
        if data["result"] == self.DRAW:
            return DealInput(result=Deal.Result.DRAW)
        key = data["discarder"]
        return DealInput(
            result=Deal.Result.WIN,
            winner=self.player(data["winner"]),
            discarder=None if key == SELF_DRAWN else self.player(key),
            fan=data["fan"],
            flowers=data["flowers"],
        )

    def matches(self, hand: Deal) -> bool:
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

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=MOST_DEALS)
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)
