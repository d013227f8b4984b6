"""The tournament's settings: name and dates, rule preset and profile, table points,
tie-breaks, confirmation and the round time."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring.engine import PRESETS
from scoring.engine.rulebook import rulebook_for
from scoring.words import Words
from tournament.domain.rule_settings import setting_problem
from tournament.models import MOST_TABLE_POINTS, RESERVED_SLUGS, Tournament, parse_carry_over
from tournament.services.tournaments import MOST_ROUNDS

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# `manage/new/` and `manage/tokens/` are pages of their own, so no tournament may use these slugs.


# What the four inputs of the table points are called (for screen readers).
PLACES = (_("1st place"), _("2nd place"), _("3rd place"), _("4th place"))


class DateInput(forms.DateInput):
    """The browser's date picker. Its value is always ISO 8601 (2025-05-01), whatever the
    language: Django would otherwise write the date in the language's first input format
    (Chinese: 2025/05/01), which a date input rejects, so saving the form erased the date."""

    input_type = "date"

    def __init__(self, attrs: dict | None = None) -> None:
        super().__init__(attrs, format="%Y-%m-%d")


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
        fields = [
            forms.IntegerField(min_value=-MOST_TABLE_POINTS, max_value=MOST_TABLE_POINTS)
            for _place in PLACES
        ]
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
    def __init__(
        self, choices: Sequence[tuple[str, StrOrPromise]], attrs: dict | None = None
    ) -> None:
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


def preset_name(key: str) -> StrOrPromise:
    """The name of the rule preset `key` in the reader's language (`scoring.words`); the key
    itself when no preset has it."""
    return Words(rulebook_for(PRESETS[key])).preset_name if key in PRESETS else key


def preset_choices() -> list[tuple[str, StrOrPromise]]:
    return [
        (
            key,
            preset_name(key)
            if preset.hand_scoring_available
            else format_lazy(
                _("{name} (deals entered by their value: tile scoring not built yet)"),
                name=preset_name(key),
            ),
        )
        for key, preset in PRESETS.items()
    ]


def presets_with(setting: str) -> list[str]:
    """The keys of the rule presets that let a tournament change `setting`."""
    return [
        key
        for key, preset in PRESETS.items()
        if any(item.name == setting for item in preset.settings)
    ]


class SettingsBoundField(forms.BoundField):
    """A field of the tournament form. A rule setting that only some presets have says which
    on its row ("preset-setting preset-for-<key>", read by static/tournament/
    preset_settings.js) and is hidden ("preset-off") unless the chosen preset has it."""

    def css_classes(self, extra_classes: Any = None) -> str:
        form = self.form
        if not isinstance(form, TournamentForm) or self.name not in form.SETTING_FIELDS:
            return super().css_classes(extra_classes)
        name = form.SETTING_FIELDS[self.name]
        classes = ["preset-setting", *(f"preset-for-{key}" for key in presets_with(name))]
        if form.chosen_preset() not in presets_with(name):
            classes.append("preset-off")
        if isinstance(extra_classes, str):
            extra_classes = extra_classes.split()
        return super().css_classes([*classes, *(extra_classes or [])])


class TournamentForm(forms.Form):
    bound_field_class = SettingsBoundField

    name = forms.CharField(label=_("Name"), max_length=200)
    slug = forms.SlugField(
        label=_("Slug"),
        max_length=100,
        required=False,
        help_text=_(
            "The tournament's address: letters, digits, - and _. Made from the name when left "
            "empty."
        ),
        widget=forms.TextInput(attrs={"data-slug-from": "id_name"}),
    )
    start_date = forms.DateField(label=_("Start date"), required=False, widget=DateInput())
    end_date = forms.DateField(label=_("End date"), required=False, widget=DateInput())
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    preset = forms.ChoiceField(
        label=_("Rule preset"),
        choices=preset_choices,
        help_text=_(
            "The settings of the chosen preset follow below (the preset's own values when left "
            "empty). Without JavaScript they show once a preset is saved."
        ),
    )
    profile = forms.ChoiceField(
        label=_("Ruling profile"),
        choices=Tournament.Profile.choices,
        help_text=_("How MCR hands are scored; the other presets have rulings of their own."),
    )
    seat_rotation = forms.ChoiceField(
        label=_("Seat rotation"),
        choices=[("", _("The rule preset's (MCR: every wind round; JT, WA: never)"))]
        + Tournament.SeatRotation.choices,
        required=False,
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
        help_text=_(
            "A tournament is private until it is made public: until then only its organisers "
            "and referees see it. Public: anyone can see standings, seating and score sheets."
        ),
    )
    planned_rounds = forms.IntegerField(
        label=_("Number of rounds"),
        required=False,
        min_value=1,
        max_value=MOST_ROUNDS,
        help_text=_(
            "How many rounds the tournament will have; the seating plan page can change it later."
        ),
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
    team_best_of = forms.IntegerField(
        label=gettext_lazy("Team ranking counts the best k players"),
        min_value=1,
        max_value=100,
        required=False,
        help_text=gettext_lazy(
            "How many of each team's players count for the team standings (players' team "
            "field), best first by the individual standings; substitutes never count. Empty: "
            "all of them. A team with fewer players is ranked after the complete teams."
        ),
    )

    # A final stage after a cut (docs/stages.md).
    cut_after_round = forms.IntegerField(
        label=gettext_lazy("Final stage after round"),
        required=False,
        min_value=1,
        max_value=MOST_ROUNDS,
        help_text=gettext_lazy(
            "After this round the best players go on to a final stage; empty: no final stage."
        ),
    )
    cut_size = forms.IntegerField(
        label=gettext_lazy("Players in the final stage"),
        required=False,
        min_value=4,
        max_value=2000,
        help_text=gettext_lazy("A multiple of 4: the top players by the standings at the cut."),
    )
    carry_over = forms.CharField(
        label=gettext_lazy("Carried over"),
        required=False,
        max_length=12,
        help_text=gettext_lazy(
            "What the finalists keep of their table points and score: 1 (all), 1/2 (half), "
            "0 (nothing) or another factor such as 3/4."
        ),
    )
    final_seating = forms.ChoiceField(
        label=gettext_lazy("Final tables"),
        choices=Tournament.FinalSeating.choices,
        required=False,
    )
    consolation = forms.BooleanField(
        label=gettext_lazy("Consolation stage"),
        required=False,
        help_text=gettext_lazy(
            "The players who miss the cut play on at their own tables; otherwise they stop."
        ),
    )

    # The settings a rule preset lets a tournament change (RulePreset.settings), by form field.
    wind_rounds = forms.TypedChoiceField(
        label=_("Wind rounds a game (JT, WA)"),
        choices=[("", _("The rule preset's (4)")), ("1", "1"), ("2", "2"), ("4", "4")],
        coerce=int,
        empty_value=None,
        required=False,
    )
    extra_hand_bonus = forms.IntegerField(
        label=_("Dealer's extra-hand bonus (JT)"),
        required=False,
        help_text=_("Paid n times to the winner of the dealer's extra hand n; empty: 100."),
    )
    ready_pool = forms.IntegerField(
        label=_("Ready-hand pool after a draw (JT)"),
        required=False,
        help_text=_("Paid by the players not ready to the ready ones; empty: 600."),
    )
    SETTING_FIELDS = {
        "wind_rounds": "wind_rounds",
        "extra_hand_bonus": "deal.extra_hand_bonus",
        "ready_pool": "deal.ready_pool",
    }

    def __init__(self, *args: Any, tournament: Tournament | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        if tournament is not None:
            # Asked when the tournament is created; the seating plan page owns it afterwards.
            del self.fields["planned_rounds"]
            self.fields["slug"].required = True
            self.fields["slug"].help_text = _("The tournament's address: letters, digits, - and _.")
        else:
            # Right after the name, so that the slug is filled in from it before it is reached.
            self.order_fields(["name", "slug", "planned_rounds", "public"])

    def chosen_preset(self) -> str:
        """The key of the rule preset the form is drawn for: the one sent, else the one it
        starts with."""
        if self.is_bound:
            sent = self.data.get(self.add_prefix("preset"))
            if sent in PRESETS:
                return str(sent)
        return str(self.initial.get("preset") or self._current("preset"))

    def clean(self) -> dict[str, Any]:
        """Every error at once: besides each field's own, an end date before the start date
        and the rule settings (each against the chosen preset, then together) are checked
        here rather than by the service after the form is accepted. Settings of other
        presets are not read: their fields are hidden (and, with JavaScript, not sent)."""
        super().clean()
        data = self.cleaned_data
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", _("A tournament cannot end before it starts."))
        key = data.get("preset")
        preset = PRESETS.get(key) if isinstance(key, str) else None
        if not data.get("seat_rotation") and self.tournament is not None:
            data["seat_rotation"] = self.tournament.seat_rotation  # a new one: the preset's
        settings: dict[str, int] = {}
        problems = False
        for field, name in self.SETTING_FIELDS.items():
            value = data.pop(field, None)
            if value is None or preset is None:
                continue
            setting = next((item for item in preset.settings if item.name == name), None)
            if setting is None:
                continue  # another preset's setting, hidden for this one
            problem = setting_problem(setting, value)
            if problem:
                self.add_error(field, str(problem))
                problems = True
            else:
                settings[name] = value
        if preset is not None and not problems:
            try:
                preset.configured(settings)
            except ValueError as error:
                self.add_error(None, str(error))
        data["rule_settings"] = settings
        self._clean_stage(data)
        return data

    def _clean_stage(self, data: dict[str, Any]) -> None:
        """The final stage: both its round and its size, a multiple of 4 no larger than the
        field, before the last planned round; the carry-over a factor from 0 to 1."""
        after, size = data.get("cut_after_round"), data.get("cut_size")
        if after is not None and size is None and "cut_size" not in self.errors:
            self.add_error("cut_size", _("Say how many players go on to the final stage."))
        if size is not None and after is None and "cut_after_round" not in self.errors:
            self.add_error("cut_after_round", _("Say after which round the cut comes."))
        if size is not None and size % 4:
            self.add_error("cut_size", _("The final stage takes a multiple of 4 players."))
        if size is not None and self.tournament is not None:
            field = self.tournament.players.filter(substitute=False).count()
            if field and size > field:
                self.add_error(
                    "cut_size",
                    _("The tournament has %(count)s players; the final stage cannot take more.")
                    % {"count": field},
                )
        planned = data.get("planned_rounds") or self._current("planned_rounds")
        if after is not None and planned and after >= planned:
            self.add_error(
                "cut_after_round",
                _("The cut comes before the last of the %(rounds)s planned rounds.")
                % {"rounds": planned},
            )
        if not data.get("final_seating"):
            data["final_seating"] = self._current("final_seating")
        carry = (data.get("carry_over") or "").strip()
        if not carry:
            data["carry_over"] = self._current("carry_over")
            return
        try:
            data["carry_over"] = str(parse_carry_over(carry))
        except ValueError:
            self.add_error(
                "carry_over",
                _(
                    "Write a factor from 0 to 1: 1 (all), 1/2 (half), 0 (nothing) or a fraction "
                    "such as 3/4."
                ),
            )

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
        if not slug:
            return slug  # a new tournament's is made from its name (create_tournament)
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
        settings = tournament.rule_settings or {}
        initial = {
            name: (
                settings.get(TournamentForm.SETTING_FIELDS[name])
                if name in TournamentForm.SETTING_FIELDS
                else getattr(tournament, name)
            )
            for name in TournamentForm.base_fields
            if name != "planned_rounds"
        }
        if tournament.pk is None:  # a new tournament takes its preset's seat rotation
            initial["seat_rotation"] = ""
        return initial
