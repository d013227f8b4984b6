"""Correcting results at a table: a hand (by fan or by tiles), a penalty, a false win and
the end of the game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.core.validators import MaxValueValidator
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring.engine import HandError, RulePreset, format_compact, parse_case, parse_compact
from scoring.engine.presets import MCR
from scoring.engine.rulebook import rulebook_for
from scoring.engine_messages import engine_message
from tournament.models import MOST_DEALS, Deal, DealResult, Penalty, Player, Seat
from tournament.services import DealInput
from tournament.services.penalties import scale_words
from tournament.web.fan_pick import add_fan_pick, choose_fan
from tournament.web.organiser.forms.common import PlayerChoiceField, player_choices

# Where the codes of correct_deal about the result and who won belong on a correction form.
_WHO_WON_ERRORS = {
    "bad_result": "result",
    "draw_has_no_winner": "result",
    "winner_required": "winner",
    "offender_cannot_win": "winner",
    "discarder_is_winner": "discarder",
}


class HandForm(forms.Form):
    """A hand's result for `correct_deal`; tiles in the compact notation become the case format."""

    result = forms.ChoiceField(
        label=_("Result"), choices=Deal.Result.choices, widget=forms.RadioSelect
    )
    fan = forms.IntegerField(
        label=pgettext_lazy("number of fan", "Fan"),
        required=False,
        min_value=0,
        max_value=1000,
        help_text=_("Without flowers. May stay empty when the tiles are given."),
    )
    flowers = forms.IntegerField(label=_("Flowers"), min_value=0, max_value=8, initial=0)
    tiles = forms.CharField(
        label=_("Tiles"),
        required=False,
        max_length=200,
        help_text=_("Optional, such as 345p 78s EE [PPP] [789m] 6s (the last loose tile wins)."),
        widget=forms.TextInput(attrs={"autocapitalize": "off", "spellcheck": "false"}),
    )
    last_tile_of_kind = forms.BooleanField(required=False, label=_("Last tile of its kind"))
    kong_related = forms.BooleanField(
        required=False, label=_("Kong-related (robbing a kong, or a replacement tile)")
    )
    last_wall_tile = forms.BooleanField(required=False, label=_("Last tile of the wall"))

    SITUATION = ("last_tile_of_kind", "kong_related", "last_wall_tile")

    def __init__(
        self,
        *args: Any,
        players: Sequence[Player],
        rules: RulePreset,
        hand: Deal | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["winner"] = PlayerChoiceField(players=players, blank="—", label=_("Winner"))
        self.fields["discarder"] = PlayerChoiceField(
            players=players, blank=_("Nobody: self-drawn"), label=_("Discarder")
        )
        # As on the referee's screen: the preset's common fan values one tap each, beside
        # the box for any other.
        add_fan_pick(self, rules)
        self.order_fields(["result", "winner", "discarder", "fan_pick", "fan", "flowers", "tiles"])
        if hand is not None and not self.is_bound:
            self.initial = self.initial_for(hand)  # the fan typed, none tapped (see fan_pick)

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("result") == Deal.Result.WIN:
            choose_fan(self, required=False)  # the tiles may give the fan
        text = data.get("tiles", "")
        data["case"] = None
        if not text or "flowers" not in data:
            return data
        if data.get("result") == Deal.Result.DRAW:
            self.add_error("tiles", _("A drawn hand has no winning tiles."))
            return data
        situation = {name: data.get(name, False) for name in self.SITUATION}
        try:
            hand = parse_compact(
                text,
                self_drawn=data.get("discarder") is None,
                flowers=data["flowers"],
                **situation,
            )
        except HandError as error:
            self.add_error("tiles", engine_message(error))
            return data
        data["case"] = hand.to_case()
        return data

    def deal(self) -> DealInput:
        """The corrected hand as `correct_deal` takes it."""
        data = self.cleaned_data
        if data["result"] == Deal.Result.DRAW:
            return DealInput(result=data["result"])
        return DealInput(
            result=data["result"],
            winner=data.get("winner"),
            discarder=data.get("discarder"),
            fan=data.get("fan"),
            flowers=data["flowers"],
            tiles=data["case"],
        )

    @staticmethod
    def initial_for(hand: Deal) -> dict[str, Any]:
        initial: dict[str, Any] = {
            "result": hand.result,
            "winner": str(hand.winner.player_id) if hand.winner else "",
            "discarder": str(hand.discarder.player_id) if hand.discarder else "",
            "fan": hand.fan,
            "flowers": hand.flowers,
        }
        if hand.tiles:
            try:
                initial["tiles"] = format_compact(parse_case(hand.tiles))
            except HandError:
                pass
            for name in HandForm.SITUATION:
                initial[name] = bool(hand.tiles.get(name))
        return initial

    # Where each code of correct_deal belongs on the form.
    ERROR_FIELDS = {
        **_WHO_WON_ERRORS,
        "fan_required": "fan",
        "below_minimum": "fan",
        "fan_mismatch": "fan",
        "bad_flowers": "flowers",
        "invalid_tiles": "tiles",
        "scoring_unavailable": "tiles",
    }


class PlayersField(forms.TypedMultipleChoiceField):
    """Any of given players, ticked (none is fine), cleaned to the Players."""

    def __init__(self, *, players: Sequence[Player], **kwargs: Any):
        by_pk = {str(player.pk): player for player in players}
        super().__init__(
            choices=player_choices(players),
            coerce=by_pk.__getitem__,
            required=False,
            widget=forms.CheckboxSelectMultiple,
            **kwargs,
        )


class DealForm(forms.Form):
    """A deal of a preset that counts points (JT, WA) for `correct_deal`: its result, the
    winner's value, and the preset's facts of the deal: riichi and faulty claims (JT), further
    winners on the same discard (WA), ready hands and faulty riichi after a draw (JT), the
    offender of a faulty out (JT).

    `seats` are the table's seats in starting order; the facts of a deal name starting winds.
    """

    #: The facts that name players, as the form asks them when the preset has them.
    PLAYER_LISTS = {
        "riichi": _("Riichi declared"),
        "faulty_claims": _("Faulty claims"),
        "ready": _("Ready hands shown (after a draw)"),
        "faulty_riichi": _("Riichi declared but not ready (after a draw)"),
    }

    def __init__(self, *args: Any, seats: Sequence[Seat], rules: RulePreset, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.seats = list(seats)
        self.rules = rules
        players = [seat.player for seat in self.seats]
        results = [(DealResult.WIN.value, DealResult.WIN.label)]
        results.append((DealResult.DRAW.value, DealResult.DRAW.label))
        if rules.faulty_out.ends_deal:
            results.append((DealResult.FAULTY_OUT.value, DealResult.FAULTY_OUT.label))
        self.fields["result"] = forms.ChoiceField(
            label=_("Result"), choices=results, widget=forms.RadioSelect
        )
        self.fields["winner"] = PlayerChoiceField(players=players, blank="—", label=_("Winner"))
        self.fields["discarder"] = PlayerChoiceField(
            players=players, blank=_("Nobody: self-drawn"), label=_("Discarder")
        )
        self.fields["value"] = forms.IntegerField(
            label=_("Points"),
            required=False,
            min_value=0,
            max_value=99_999,
            help_text=_("What the winner's hand is worth."),
        )
        if rules.deal.several_winners:
            for seat in self.seats:
                self.fields[f"also_{seat.player.pk}"] = forms.IntegerField(
                    label=_("%(name)s also wins, with") % {"name": seat.player.name},
                    required=False,
                    min_value=1,
                    max_value=99_999,
                    help_text=_("Only for a further winner on the same discard."),
                )
        asked = {
            "riichi": rules.deal.riichi_stake,
            "faulty_claims": rules.deal.faulty_claim,
            "ready": rules.deal.ready_pool,
            "faulty_riichi": rules.deal.riichi_stake,
        }
        for name, label in self.PLAYER_LISTS.items():
            if asked[name]:
                self.fields[name] = PlayersField(players=players, label=label)
        if rules.faulty_out.ends_deal:
            self.fields["offender"] = PlayerChoiceField(
                players=players, blank="—", label=_("Offender (of a faulty out)")
            )

    def _players_at(self, winds: Sequence[str]) -> list[str]:
        by_wind = {seat.starting_wind: str(seat.player.pk) for seat in self.seats}
        return [by_wind[wind] for wind in winds if wind in by_wind]

    def initial_for(self, hand: Deal) -> dict[str, Any]:
        """The form's fields as `hand` has them."""
        initial: dict[str, Any] = {
            "result": hand.result,
            "winner": str(hand.winner.player_id) if hand.winner else "",
            "discarder": str(hand.discarder.player_id) if hand.discarder else "",
            "value": hand.value,
            "offender": str(hand.offender.player_id) if hand.offender else "",
        }
        for name in self.PLAYER_LISTS:
            initial[name] = self._players_at(getattr(hand, name))
        for win in hand.extra_wins.all():
            initial[f"also_{win.winner.player_id}"] = win.value
        return initial

    def deal(self) -> DealInput:
        """The corrected deal as `correct_deal` takes it; the service refuses facts that do
        not belong to the result, naming them."""
        data = self.cleaned_data
        arguments: dict[str, Any] = {"result": data["result"]}
        result = data["result"]
        if result == DealResult.WIN:
            arguments.update(
                winner=data.get("winner"),
                discarder=data.get("discarder"),
                value=data.get("value"),
                extra_winners=[
                    (seat.player, data[f"also_{seat.player.pk}"])
                    for seat in self.seats
                    if data.get(f"also_{seat.player.pk}") is not None
                ],
            )
        elif result == DealResult.FAULTY_OUT:
            arguments["offender"] = data.get("offender")
        for name in _KEPT[result]:
            if name in data:
                arguments[name] = data[name]
        return DealInput(**arguments)

    ERROR_FIELDS = {
        **_WHO_WON_ERRORS,
        "value_required": "value",
        "bad_value": "value",
        "below_minimum": "value",
        "offender_required": "offender",
        "bad_riichi": "riichi",
    }


#: The lists of players each result keeps; ticks in the others are left out.
_KEPT = {
    DealResult.WIN: ("riichi", "faulty_claims"),
    DealResult.DRAW: ("riichi", "ready", "faulty_riichi"),
    DealResult.FAULTY_OUT: ("riichi",),
}


def deal_number_field(**kwargs: Any) -> forms.IntegerField:
    """A hand number; a game of no fixed length is checked by the service."""
    return forms.IntegerField(min_value=1, max_value=MOST_DEALS, **kwargs)


def limit_deal_number(field: forms.Field, hands_per_game: int | None) -> None:
    """Refuse a hand number past a game of a fixed number of hands (MCR: 16) on the form."""
    if hands_per_game is not None:
        field.validators.append(MaxValueValidator(hands_per_game))


class PenaltyForm(forms.Form):
    points = forms.IntegerField(
        label=_("Points"), min_value=1, max_value=9_999, help_text=_("What the player loses.")
    )
    distributed = forms.BooleanField(label=_("Distributed"), required=False)
    reason = forms.CharField(label=_("Reason"), max_length=300)
    deal_number = deal_number_field(
        label=_("Hand number"),
        required=False,
        help_text=_("Empty for a penalty on the whole game."),
    )

    def __init__(
        self,
        *args: Any,
        players: Sequence[Player],
        hands_per_game: int | None = None,
        preset: RulePreset = MCR,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        limit_deal_number(self.fields["deal_number"], hands_per_game)
        self.fields["distributed"].help_text = gettext(
            "Shared equally by the other three players (a multiple of 3). Otherwise a "
            "deduction of %(scale)s given to nobody."
        ) % {"scale": scale_words(rulebook_for(preset).penalty_scale)}
        self.fields["player"] = PlayerChoiceField(players=players, label=_("Player"))
        self.order_fields(["player", "points", "distributed", "reason", "deal_number"])

    @staticmethod
    def initial_for(penalty: Penalty) -> dict[str, Any]:
        return {
            "player": str(penalty.seat.player_id),
            "points": penalty.points,
            "distributed": penalty.distributed,
            "reason": penalty.reason,
            "deal_number": penalty.deal_number,
        }

    ERROR_FIELDS = {
        "reason_required": "reason",
        "bad_hand_number": "deal_number",
        "not_divisible": "points",
        "deduction_out_of_range": "points",
        "not_seated": "player",
    }


class FalseWinForm(forms.Form):
    """A declared win that is not one, as a penalty beside the deal (MCR's false win, WA's
    faulty out), with the preset's amounts. Not offered where a faulty out ends the deal (JT):
    that is a deal's result."""

    number = deal_number_field(label=_("Hand"))
    invalid_hand = forms.BooleanField(required=False, label=_("Invalid hand"))

    def __init__(
        self,
        *args: Any,
        players: Sequence[Player],
        hands_per_game: int | None = None,
        preset: RulePreset = MCR,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        limit_deal_number(self.fields["number"], hands_per_game)
        rules = preset.faulty_out
        amounts = {
            "each": rules.each,
            "invalid": rules.invalid_hand_each,
            "minimum": preset.minimum,
        }
        if rulebook_for(preset).counts_fan:
            help_text = gettext(
                "Wrong tiles or a wrong count (%(invalid)s to each player); otherwise the hand "
                "was below %(minimum)s fan (%(each)s to each)."
            )
        elif rules.each == rules.invalid_hand_each:
            help_text = gettext(
                "Wrong tiles or a wrong count; otherwise the hand was below %(minimum)s points. "
                "The offender pays %(each)s to each other player either way."
            )
        else:
            help_text = gettext(
                "Wrong tiles or a wrong count (%(invalid)s to each player); otherwise the hand "
                "was below %(minimum)s points (%(each)s to each)."
            )
        self.fields["invalid_hand"].help_text = help_text % amounts
        if not rulebook_for(preset).counts_fan:
            self.fields["number"].label = gettext("Deal")
        self.fields["offender"] = PlayerChoiceField(players=players, label=_("Offender"))
        self.order_fields(["number", "offender", "invalid_hand"])

    ERROR_FIELDS = {
        "bad_hand_number": "number",
        "offender_won": "offender",
        "not_seated": "offender",
    }


class EndGameForm(forms.Form):
    ended_by_time = forms.BooleanField(required=False, label=_("Time was called"))

    def __init__(self, *args: Any, hands_per_game: int | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["ended_by_time"].help_text = (
            _("End before all %(hands)s hands are played.") % {"hands": hands_per_game}
            if hands_per_game
            else _("End before the last wind round is over.")
        )
