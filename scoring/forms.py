"""The calculator's form: compact notation plus the situation of the win, under MCR,
Japanese Transitional or Wilmington Advanced 12-Tile (`preset`).

With JavaScript htmx posts the form for the verdict fragment on every change; without it
this form is submitted with GET and the page renders the verdict on the server. What each rule
set reads of the fields is its rulebook's (`Rulebook.calculator_request`): the kong and
last-tile boxes are read with the self-draw where a preset tells them apart.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.engine import DEFAULT_PROFILE, PRESETS, PROFILES, TILE_CODES
from scoring.engine.rulebook import RULEBOOKS, McrRulebook, rulebook_named

WIND_CHOICES = [
    ("E", _("East 東")),
    ("S", _("South 南")),
    ("W", _("West 西")),
    ("N", _("North 北")),
]
PROFILE_LABELS = {
    "wmo-2006": _("WMO Green Book 2006"),
    "cn-1998": _("Chinese rules 1998"),
}
#: The rule sets the calculator scores under, by their rulebook's key, MCR first.
MCR_KEY = McrRulebook.key


def preset_choices() -> list[tuple[str, str]]:
    """The rule sets in the reader's language, by the short name of each preset."""
    return [
        (preset.scorer, gettext(preset.short_name))
        for preset in PRESETS.values()
        if preset.scorer in RULEBOOKS
    ]


def presets_reading(field: str) -> str:
    """The keys of the rule sets whose rulebook reads the calculator's `field`, as the page's
    script matches them with the rule set chosen ("mcr wa")."""
    return " ".join(key for key, book in RULEBOOKS.items() if field in book.calculator_fields)


class CalculatorForm(forms.Form):
    hand = forms.CharField(
        required=False,
        max_length=200,
        label=_("Compact notation"),
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "off",
                "spellcheck": "false",
                "placeholder": "345p 78s EE [PPP] [789m] 6s",
            }
        ),
    )
    self_drawn = forms.BooleanField(required=False, label=_("Self-drawn"))
    last_tile_of_kind = forms.BooleanField(required=False, label=_("Last tile of its kind"))
    kong_related = forms.BooleanField(
        required=False, label=_("Out with replacement tile / Robbing the kong")
    )
    last_wall_tile = forms.BooleanField(required=False, label=_("Last tile draw / Last tile claim"))
    seat_wind = forms.ChoiceField(
        required=False, choices=WIND_CHOICES, initial="E", label=_("Seat wind")
    )
    # Named as the case format names the prevailing wind: the field goes into a scoring request
    # as it is, and the page's addresses (GET) carry it.
    prevalent_wind = forms.ChoiceField(
        required=False, choices=WIND_CHOICES, initial="E", label=_("Prevalent wind")
    )
    flowers = forms.TypedChoiceField(
        required=False,
        choices=[(n, str(n)) for n in range(9)],
        coerce=int,
        # Django takes any value here; its stubs allow only text or None.
        empty_value=0,  # type: ignore[arg-type]
        initial=0,
        label=_("Flowers"),
    )
    profile = forms.ChoiceField(
        required=False,
        choices=[(key, PROFILE_LABELS.get(key, key)) for key in PROFILES],
        initial=DEFAULT_PROFILE,
        label=_("Rules"),
    )

    preset = forms.ChoiceField(
        required=False,
        choices=preset_choices,
        initial=MCR_KEY,
        widget=forms.RadioSelect,
        label=_("Rule set"),
    )
    riichi = forms.BooleanField(required=False, label=_("Riichi declared"))
    heavenly = forms.BooleanField(required=False, label=_("Heavenly hand"))
    earthly = forms.BooleanField(required=False, label=_("Earthly hand"))
    four_kongs_immediate = forms.BooleanField(
        required=False, label=_("Out at once on the fourth kong")
    )
    thirteen_discarded_orphans = forms.BooleanField(
        required=False, label=_("Thirteen discarded orphans")
    )
    joker_as = forms.ChoiceField(
        required=False,
        choices=[("", _("standing (the best value)")), *[(code, code) for code in TILE_CODES]],
        label=_("Joker in a declared set stands for"),
    )

    def api_payload(self) -> dict[str, Any]:
        """The cleaned form as a request for `scoring.services.score_request`, as the chosen
        preset's rulebook reads the calculator's fields."""
        return rulebook_named(self.cleaned_data["preset"] or MCR_KEY).calculator_request(
            self.cleaned_data
        )
