"""Seating a round, swapping two players, a round's status and its tables' referees."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.models import Player, Round
from tournament.web.organiser.forms.common import PlayerChoiceField


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
    # Sent by "Start anyway": play starts though some tables have no referee.
    confirm = forms.BooleanField(required=False)


class RoundRefereesForm(forms.Form):
    """The referees of every table of a round, in one form: `slots` choices per table (a
    table that has more referees gets a choice for each)."""

    def __init__(
        self,
        *args: Any,
        tables: Sequence[int],
        referees: Sequence[Any],
        assigned: dict[int, list[int]],
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault(
            "initial",
            {
                f"table-{number}-{slot}": user_id
                for number, user_ids in assigned.items()
                for slot, user_id in enumerate(user_ids)
            },
        )
        super().__init__(*args, **kwargs)
        self.users = {user.pk: user for user in referees}
        choices = [("", "—")] + [(str(user.pk), user.get_username()) for user in referees]
        self.rows: list[tuple[int, list[str]]] = []
        for number in tables:
            names = []
            for slot in range(max(2, len(assigned.get(number, [])))):
                name = f"table-{number}-{slot}"
                self.fields[name] = forms.TypedChoiceField(
                    choices=choices,
                    coerce=int,
                    empty_value=None,
                    required=False,
                    label=_("Table %(number)s, referee %(slot)s")
                    % {"number": number, "slot": slot + 1},
                )
                names.append(name)
            self.rows.append((number, names))

    def assignments(self) -> dict[int, list[Any]]:
        """The referees chosen for each table, each once."""
        chosen: dict[int, list[Any]] = {}
        for number, names in self.rows:
            ids = [self.cleaned_data[name] for name in names if self.cleaned_data[name]]
            chosen[number] = [self.users[pk] for pk in dict.fromkeys(ids)]
        return chosen
