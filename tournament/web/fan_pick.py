"""The common fan values one tap each, beside a box for any other value.

A preset that counts fan may name its common values (`RulePreset.quick_values`, MCR: 8 to 16,
24, 32, 48, 64, 88). Every form that asks a hand's fan offers them the same way: the referee's
quick entry, the referee's correction of the last hand and the organiser's correction of any
hand. The template draws them with tournament/referee/_choices.html; the script
static/tournament/fan_pick.js lets go of the tapped value when another is typed, and empties the
box when a value is tapped. Without the script, the two must agree.

A correction form shows the recorded fan in the box, none tapped: a radio button once chosen
cannot be let go of without the script, a box can always be emptied.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.engine import RulePreset


def add_fan_pick(form: forms.BaseForm, rules: RulePreset) -> None:
    """Offer the preset's common fan values on `form`, which has an IntegerField `fan` (a
    preset without them: the form keeps its one box)."""
    if not (rules.counts_fan and rules.quick_values):
        return
    fan = form.fields["fan"]
    form.fields["fan_pick"] = forms.TypedChoiceField(
        label=fan.label,
        choices=[(value, str(value)) for value in rules.quick_values],
        coerce=int,
        required=False,
        empty_value=None,
        widget=forms.RadioSelect,
    )
    fan.required = False
    fan.label = _("Other fan value")


def choose_fan(form: forms.BaseForm, *, required: bool) -> None:
    """While `form` is cleaned: the tapped or the typed value becomes `cleaned_data["fan"]`;
    both given must agree. `required`: neither given is an error (else the fan stays None).
    A form without the tapped values is left as it is."""
    if "fan_pick" not in form.fields or "fan" in form.errors or "fan_pick" in form.errors:
        return
    data = form.cleaned_data
    picked, typed = data.get("fan_pick"), data.get("fan")
    if picked is None and typed is None:
        if required:
            form.add_error("fan", _("Enter the fan, not counting flowers."))
    elif picked is not None and typed is not None and picked != typed:
        form.add_error(
            "fan",
            _("%(picked)s fan is chosen and %(typed)s typed: keep only one of them.")
            % {"picked": picked, "typed": typed},
        )
    elif typed is None:
        data["fan"] = picked
