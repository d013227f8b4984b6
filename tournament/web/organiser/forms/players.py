"""Adding and editing a player, and importing players from a CSV file."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from tournament.domain.names import country_choices
from tournament.models import Player, Tournament
from tournament.services.players import check_player

MAX_CSV_BYTES = 1_000_000


class PlayerForm(forms.Form):
    key = forms.CharField(
        label=_("Key"), max_length=20, help_text=_("Identifies the player: a start number.")
    )
    name = forms.CharField(
        label=_("Name"),
        max_length=200,
        required=False,
        help_text=_(
            "As it is written, in its natural order, such as 王小明. May be left empty when the "
            "family name is given."
        ),
    )
    family_name = forms.CharField(
        label=_("Family name"),
        max_length=200,
        required=False,
        help_text=_("For the EMA results file. Empty: found in the name (王小明: 王)."),
    )
    given_name = forms.CharField(label=_("Given name"), max_length=200, required=False)
    country = forms.ChoiceField(label=_("Country"), required=False)
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

    def __init__(
        self, *args: Any, tournament: Tournament, player: Player | None = None, **kw: Any
    ) -> None:
        super().__init__(*args, **kw)
        self.tournament = tournament
        self.player = player
        choices = [("", "—"), *country_choices()]
        kept = self.initial.get("country") or (self.data.get("country") if self.is_bound else "")
        if kept and kept not in dict(choices):
            # A country from before codes were asked for: kept as it is until one is chosen,
            # and refused on saving.
            choices.insert(1, (kept, _("%(text)s (not a country code)") % {"text": kept}))
        country = self.fields["country"]
        assert isinstance(country, forms.ChoiceField)
        country.choices = choices

    def _others(self) -> QuerySet[Player]:
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

    def clean(self) -> dict[str, Any]:
        """The service's checks of each field run in the same pass as the form's own, so one
        submit shows every wrong field (a field the form already refused is not checked again).
        """
        super().clean()
        data = self.cleaned_data
        try:
            check_player(tournament=self.tournament, player=self.player, **data)
        except ValidationError as error:
            for field, errors in error.error_dict.items():
                if field not in self.errors:
                    self.add_error(field if field in self.fields else None, errors)
        return data

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
        super().clean()
        data = self.cleaned_data
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
