"""Forms of the organiser pages. They check what a form can check; the services check the rules."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring.engine import PRESETS, HandError, format_compact, parse_case, parse_compact
from scoring.engine_messages import engine_message
from tournament.models import MOST_HANDS_PER_GAME, Hand, Penalty, Player, Round, Tournament

# `manage/new/` and `manage/tokens/` are pages of their own, so no tournament may use these slugs.
RESERVED_SLUGS = frozenset({"new", "tokens"})
MAX_CSV_BYTES = 1_000_000
# What the four inputs of the table points are called (for screen readers).
PLACES = (_("1st place"), _("2nd place"), _("3rd place"), _("4th place"))


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
        field = (fields_by_code or {}).get(item.code or "")
        form.add_error(field if field in form.fields else None, item)


# --- Tournament settings --------------------------------------------------------------------


class TablePointsWidget(forms.MultiWidget):
    def __init__(self, attrs: dict | None = None) -> None:
        widgets = [
            forms.NumberInput(attrs={"aria-label": place, "class": "points"}) for place in PLACES
        ]
        super().__init__(widgets, attrs)

    def decompress(self, value: Any) -> list:
        return list(value) if value else [None] * 4


class TablePointsField(forms.MultiValueField):
    widget = TablePointsWidget

    def __init__(self, **kwargs: Any) -> None:
        fields = [forms.IntegerField(min_value=-1000, max_value=1000) for _place in PLACES]
        message = _("Give the table points of all four places.")
        super().__init__(
            fields=fields,
            require_all_fields=True,
            error_messages={"required": message, "incomplete": message},
            **kwargs,
        )

    def compress(self, data_list: list) -> list[int]:
        return list(data_list)


class TieBreaksWidget(forms.MultiWidget):
    def __init__(self, choices: Sequence[tuple[str, str]], attrs: dict | None = None) -> None:
        widgets = [
            forms.Select(
                choices=choices,
                attrs={"aria-label": format_lazy(_("Tie-break {number}"), number=number)},
            )
            for number in range(1, len(choices))
        ]
        super().__init__(widgets, attrs)

    def decompress(self, value: Any) -> list:
        return list(value or [])


class TieBreaksField(forms.MultiValueField):
    """The further tie-breaks in order; a blank choice ends the list."""

    def __init__(self, **kwargs: Any) -> None:
        choices = [("", _("(none)")), *Tournament.TieBreak.choices]
        fields = [
            forms.ChoiceField(choices=choices, required=False)
            for _choice in Tournament.TieBreak.choices
        ]
        super().__init__(
            fields=fields,
            require_all_fields=False,
            required=False,
            widget=TieBreaksWidget(choices),
            **kwargs,
        )

    def compress(self, data_list: list) -> list[str]:
        chosen = [value for value in data_list if value]
        if len(set(chosen)) != len(chosen):
            raise ValidationError(_("Choose each tie-break once."), code="repeated_tie_break")
        return chosen


# The presets' names in the reader's language (the engine names them in English only).
PRESET_NAMES = {
    "mcr": _("Mahjong Competition Rules (Chinese Official)"),
    "japanese-transitional": _("Japanese Transitional"),
    "wilmington-12-tile": _("Wilmington Advanced 12-Tile"),
}


def preset_name(key: str) -> str:
    """The name of the rule preset `key` to show; the key itself when no preset has it."""
    return PRESET_NAMES.get(key) or (PRESETS[key].name if key in PRESETS else key)


def preset_choices() -> list[tuple[str, str]]:
    return [
        (
            key,
            preset_name(key)
            if preset.hand_scoring_available
            else format_lazy(
                _("{name} (hands by fan only: tile scoring not built yet)"), name=preset_name(key)
            ),
        )
        for key, preset in PRESETS.items()
    ]


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    slug = forms.SlugField(
        label=_("Slug"),
        max_length=100,
        help_text=_("The tournament's address: letters, digits, - and _."),
    )
    start_date = forms.DateField(
        label=_("Start date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    end_date = forms.DateField(
        label=_("End date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    preset = forms.ChoiceField(label=_("Rule preset"), choices=preset_choices)
    profile = forms.ChoiceField(label=_("Ruling profile"), choices=Tournament.Profile.choices)
    seat_rotation = forms.ChoiceField(
        label=_("Seat rotation"), choices=Tournament.SeatRotation.choices
    )
    table_points = TablePointsField(
        label=_("Table points"),
        help_text=_("Given by rank within the table, first place first; ties share them."),
    )
    tie_breaks = TieBreaksField(
        label=_("Tie-breaks"),
        help_text=_("Used in this order when table points and score are equal."),
    )
    public = forms.BooleanField(
        label=_("Public"),
        required=False,
        help_text=_("Anyone can see standings, seating and score sheets."),
    )
    confirmation = forms.ChoiceField(
        label=gettext_lazy("Game sheet confirmation"),
        choices=Tournament.Confirmation.choices,
        required=False,
        help_text=gettext_lazy(
            "Standings count a game once its sheet is confirmed; until then it shows only in "
            "the provisional standings. Changing this later does not confirm sheets already "
            "submitted: confirm those on the live board."
        ),
    )
    round_minutes = forms.IntegerField(
        label=gettext_lazy("Round time (minutes)"),
        min_value=10,
        max_value=600,
        required=False,
        help_text=gettext_lazy(
            "What the round clock starts with; each round's clock can be extended. "
            "The Green Book allows at most 150 minutes."
        ),
    )

    def __init__(self, *args: Any, tournament: Tournament | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament

    def _current(self, name: str) -> Any:
        """The setting as it is now (the default for a new tournament)."""
        return getattr(self.tournament or Tournament(), name)

    def clean_confirmation(self) -> str:
        return self.cleaned_data["confirmation"] or self._current("confirmation")

    def clean_round_minutes(self) -> int:
        minutes = self.cleaned_data["round_minutes"]
        return self._current("round_minutes") if minutes is None else minutes

    def clean_slug(self) -> str:
        slug = self.cleaned_data["slug"].lower()
        if slug in RESERVED_SLUGS:
            raise ValidationError(_("“%(slug)s” is taken by a page."), params={"slug": slug})
        others = Tournament.objects.filter(slug=slug)
        if self.tournament is not None:
            others = others.exclude(pk=self.tournament.pk)
        if others.exists():
            raise ValidationError(_("Another tournament has this slug."))
        return slug

    @staticmethod
    def initial_for(tournament: Tournament) -> dict[str, Any]:
        return {name: getattr(tournament, name) for name in TournamentForm.base_fields}


# --- Players -------------------------------------------------------------------------------


class PlayerForm(forms.Form):
    key = forms.CharField(
        label=_("Key"), max_length=20, help_text=_("Identifies the player: a start number.")
    )
    name = forms.CharField(label=_("Name"), max_length=200)
    country = forms.CharField(label=_("Country"), max_length=100, required=False)
    club = forms.CharField(label=_("Club"), max_length=200, required=False)
    team = forms.CharField(label=_("Team"), max_length=200, required=False)
    ema_number = forms.CharField(label=_("EMA number"), max_length=20, required=False)
    substitute = forms.BooleanField(
        label=_("Substitute"), required=False, help_text=_("Substitutes are never ranked.")
    )
    withdrawn_from_round = forms.IntegerField(
        label=_("Withdrawn from round"),
        required=False,
        min_value=1,
        help_text=_("Plays no round from this one on and keeps earlier results. Empty: plays on."),
    )
    fixed_table = forms.IntegerField(
        label=_("Fixed table"),
        required=False,
        min_value=1,
        max_value=999,
        help_text=_(
            "Generated seatings keep the player at this table number in every round "
            "(accessibility). Empty: any table."
        ),
    )

    def __init__(self, *args: Any, tournament: Tournament, player: Player | None = None, **kw):
        super().__init__(*args, **kw)
        self.tournament = tournament
        self.player = player

    def _others(self):
        others = self.tournament.players.all()
        return others.exclude(pk=self.player.pk) if self.player else others

    def clean_key(self) -> str:
        key = self.cleaned_data["key"].strip()
        if self._others().filter(key=key).exists():
            raise ValidationError(_("Another player of this tournament has this key."))
        return key

    def clean_ema_number(self) -> str:
        number = self.cleaned_data["ema_number"].strip()
        if number and self._others().filter(ema_number=number).exists():
            raise ValidationError(_("Another player of this tournament has this EMA number."))
        return number

    @staticmethod
    def initial_for(player: Player) -> dict[str, Any]:
        return {name: getattr(player, name) for name in PlayerForm.base_fields}


class ImportPlayersForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"), required=False, help_text=_("UTF-8 text, commas or semicolons.")
    )
    text = forms.CharField(
        label=_("Or paste the lines here"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        upload, text = data.get("file"), data.get("text", "")
        if upload and text.strip():
            raise ValidationError(_("Give a file or pasted lines, not both."))
        if upload:
            if upload.size > MAX_CSV_BYTES:
                raise ValidationError(_("The file is larger than 1 MB."))
            try:
                data["csv"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError as error:
                raise ValidationError(
                    _("The file is not UTF-8 text: save it as CSV UTF-8.")
                ) from error
        elif text.strip():
            data["csv"] = text
        else:
            raise ValidationError(_("Choose a CSV file or paste the lines."))
        return data


# --- Rounds --------------------------------------------------------------------------------


def player_choices(players: Sequence[Player], blank: str | None = None) -> list[tuple[str, str]]:
    choices = [("", blank)] if blank is not None else []
    return choices + [(str(player.pk), f"{player.key} {player.name}") for player in players]


class PlayerChoiceField(forms.TypedChoiceField):
    """A choice among given players, cleaned to the Player (or None when left blank)."""

    def __init__(self, *, players: Sequence[Player], blank: str | None = None, **kwargs: Any):
        by_pk = {str(player.pk): player for player in players}
        super().__init__(
            choices=player_choices(players, blank),
            coerce=by_pk.__getitem__,
            empty_value=None,
            required=blank is None,
            **kwargs,
        )


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


# --- Corrections ---------------------------------------------------------------------------


class HandForm(forms.Form):
    """A hand's result for `correct_hand`; tiles in the compact notation become the case format."""

    result = forms.ChoiceField(
        label=_("Result"), choices=Hand.Result.choices, widget=forms.RadioSelect
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

    def __init__(self, *args: Any, players: Sequence[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["winner"] = PlayerChoiceField(players=players, blank="—", label=_("Winner"))
        self.fields["discarder"] = PlayerChoiceField(
            players=players, blank=_("Nobody: self-drawn"), label=_("Discarder")
        )
        self.order_fields(["result", "winner", "discarder", "fan", "flowers", "tiles"])

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        text = data.get("tiles", "")
        data["case"] = None
        if not text or "flowers" not in data:
            return data
        if data.get("result") == Hand.Result.DRAW:
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

    def service_arguments(self) -> dict[str, Any]:
        data = self.cleaned_data
        if data["result"] == Hand.Result.DRAW:
            return {"result": data["result"]}
        return {
            "result": data["result"],
            "winner": data.get("winner"),
            "discarder": data.get("discarder"),
            "fan": data.get("fan"),
            "flowers": data["flowers"],
            "tiles": data["case"],
        }

    @staticmethod
    def initial_for(hand: Hand) -> dict[str, Any]:
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

    # Where each code of correct_hand belongs on the form.
    ERROR_FIELDS = {
        "bad_result": "result",
        "draw_has_no_winner": "result",
        "winner_required": "winner",
        "offender_cannot_win": "winner",
        "discarder_is_winner": "discarder",
        "fan_required": "fan",
        "below_minimum": "fan",
        "fan_mismatch": "fan",
        "bad_flowers": "flowers",
        "invalid_tiles": "tiles",
        "scoring_unavailable": "tiles",
    }


def hand_number_field(**kwargs: Any) -> forms.IntegerField:
    """A hand number; the tournament's own game length is checked by the service."""
    return forms.IntegerField(min_value=1, max_value=MOST_HANDS_PER_GAME, **kwargs)


class PenaltyForm(forms.Form):
    points = forms.IntegerField(
        label=_("Points"), min_value=1, max_value=1000, help_text=_("What the player loses.")
    )
    distributed = forms.BooleanField(
        label=_("Distributed"),
        required=False,
        help_text=_(
            "Shared equally by the other three players (a multiple of 3). Otherwise a "
            "deduction of 5 to 60 given to nobody."
        ),
    )
    reason = forms.CharField(label=_("Reason"), max_length=300)
    hand_number = hand_number_field(
        label=_("Hand number"),
        required=False,
        help_text=_("Empty for a penalty on the whole game."),
    )

    def __init__(self, *args: Any, players: Sequence[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"] = PlayerChoiceField(players=players, label=_("Player"))
        self.order_fields(["player", "points", "distributed", "reason", "hand_number"])

    @staticmethod
    def initial_for(penalty: Penalty) -> dict[str, Any]:
        return {
            "player": str(penalty.seat.player_id),
            "points": penalty.points,
            "distributed": penalty.distributed,
            "reason": penalty.reason,
            "hand_number": penalty.hand_number,
        }

    ERROR_FIELDS = {
        "reason_required": "reason",
        "bad_hand_number": "hand_number",
        "not_divisible": "points",
        "deduction_out_of_range": "points",
        "not_seated": "player",
    }


class FalseWinForm(forms.Form):
    number = hand_number_field(label=_("Hand"))
    invalid_hand = forms.BooleanField(
        required=False,
        label=_("Invalid hand"),
        help_text=_(
            "Wrong tiles or a wrong count (20 to each player); otherwise the hand was "
            "below 8 fan (10 to each)."
        ),
    )

    def __init__(self, *args: Any, players: Sequence[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["offender"] = PlayerChoiceField(players=players, label=_("Offender"))
        self.order_fields(["number", "offender", "invalid_hand"])

    ERROR_FIELDS = {
        "bad_hand_number": "number",
        "offender_won": "offender",
        "not_seated": "offender",
    }


class EndGameForm(forms.Form):
    ended_by_time = forms.BooleanField(
        required=False,
        label=_("Time was called"),
        help_text=_("End before all 16 hands are played."),
    )


# --- Accounts ------------------------------------------------------------------------------


class RefereeAccountForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
    password = forms.CharField(label=_("Password"), widget=forms.PasswordInput(render_value=False))
    password_again = forms.CharField(
        label=_("Password again"), widget=forms.PasswordInput(render_value=False)
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("password") and data.get("password") != data.get("password_again"):
            self.add_error("password_again", _("The two passwords differ."))
        return data


class TokenForm(forms.Form):
    name = forms.CharField(
        label=_("Name"),
        max_length=100,
        help_text=_("What the token is for, such as “results screen”."),
    )
