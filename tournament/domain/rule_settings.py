"""The settings a rule preset lets a tournament change (`RulePreset.settings`), in words: the
engine names them by field ("deal.ready_pool"); pages and the API say what they are."""

from __future__ import annotations

from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.engine.presets import Setting

#: Each setting's name, as it begins a sentence.
SETTING_LABELS: dict[str, str | Promise] = {
    "wind_rounds": _("The number of wind rounds in a game"),
    "deal.extra_hand_bonus": _("The dealer's extra-hand bonus"),
    "deal.ready_pool": _("The ready payment after a draw"),
}


def setting_label(name: str) -> str:
    """The setting `name` in words (its name, for one without words yet)."""
    return str(SETTING_LABELS.get(name, name))


def _number(value: int) -> str:
    return number_format(value, force_grouping=True)


def setting_problem(setting: Setting, value: object) -> str | None:
    """Why `value` is not allowed for `setting`, in the reader's language; None when it is.
    The same checks as `Setting.problem`, said with the setting's label."""
    if setting.problem(value) is None:
        return None
    label = setting_label(setting.name)
    if isinstance(value, bool) or not isinstance(value, int):
        return gettext("%(setting)s is a whole number.") % {"setting": label}
    if setting.choices and value not in setting.choices:
        return gettext("%(setting)s is one of %(choices)s.") % {
            "setting": label,
            "choices": ", ".join(_number(choice) for choice in setting.choices),
        }
    names = {"setting": label, "least": _number(setting.least), "most": _number(setting.most)}
    if setting.step > 1:
        return gettext("%(setting)s is %(least)s to %(most)s, a multiple of %(step)s.") % {
            **names,
            "step": setting.step,
        }
    return gettext("%(setting)s is %(least)s to %(most)s.") % names
