"""The calculator's form: compact notation plus the situation of the win, under MCR or
Japanese Transitional (`preset`).

With JavaScript the page posts to the JSON API on every change; without it this form is
submitted with GET and the page renders the verdict on the server. The kong and last-tile
boxes mean the same in both rule sets; for JT they become its flags by whether the win was
self-drawn (supplement tile or robbing a kong; last wall tile or last discard).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.engine import DEFAULT_PROFILE, PROFILES

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
SITUATION_FLAGS = ("self_drawn", "last_tile_of_kind", "kong_related", "last_wall_tile")
PRESET_CHOICES = [("mcr", _("MCR")), ("jt", _("Japanese Transitional"))]


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
        choices=PRESET_CHOICES,
        initial="mcr",
        widget=forms.RadioSelect,
        label=_("Rule set"),
    )
    riichi = forms.BooleanField(required=False, label=_("Riichi declared"))
    heavenly = forms.BooleanField(required=False, label=_("Heavenly hand"))
    earthly = forms.BooleanField(required=False, label=_("Earthly hand"))

    def api_payload(self) -> dict[str, Any]:
        """The cleaned form as a request for `scoring.services.score_request`."""
        data = self.cleaned_data
        if data["preset"] == "jt":
            return self._jt_payload()
        payload: dict[str, Any] = {
            "compact": data["hand"],
            "seat_wind": data["seat_wind"] or "E",
            "prevalent_wind": data["prevalent_wind"] or "E",
            "flowers": data["flowers"],
            "profile": data["profile"] or DEFAULT_PROFILE,
        }
        payload.update({flag: data[flag] for flag in SITUATION_FLAGS})
        return payload

    def _jt_payload(self) -> dict[str, Any]:
        data = self.cleaned_data
        drawn = data["self_drawn"]
        return {
            "preset": "jt",
            "compact": data["hand"],
            "seat_wind": data["seat_wind"] or "E",
            "prevalent_wind": data["prevalent_wind"] or "E",
            "self_drawn": drawn,
            "supplement_tile": data["kong_related"] and drawn,
            "robbing_kong": data["kong_related"] and not drawn,
            "last_wall_tile": data["last_wall_tile"] and drawn,
            "last_discard": data["last_wall_tile"] and not drawn,
            "riichi": data["riichi"],
            "heavenly": data["heavenly"],
            "earthly": data["earthly"],
        }
