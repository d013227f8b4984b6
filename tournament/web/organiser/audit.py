"""The audit trail: every change to a result, newest first, shown as field: old -> new."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from scoring.engine import HandError, format_compact, parse_case
from tournament.models import AuditEntry, Hand, Penalty, Round, Tournament, Wind
from tournament.selectors import audit_trail
from tournament.web.organiser.access import organiser_page
from tournament.web.query import whole_number

PER_PAGE = 50
# The entry has its own time; the copy inside the record only repeats it.
HIDDEN = frozenset({"entered_at"})
# What each field of a record is called; a field not named here shows its own name.
FIELDS = {
    "round": gettext_lazy("Round"),
    "status": gettext_lazy("Status"),
    "event": pgettext_lazy("round clock", "Event"),
    "minutes": gettext_lazy("Minutes"),
    "remaining": pgettext_lazy("round clock", "Seconds left"),
    "number": gettext_lazy("Hand"),
    "result": gettext_lazy("Result"),
    "winner": gettext_lazy("Winner"),
    "discarder": gettext_lazy("Discarder"),
    "fan": pgettext_lazy("number of fan", "Fan"),
    "flowers": gettext_lazy("Flowers"),
    "tiles": gettext_lazy("Tiles"),
    "payments": pgettext_lazy("audit", "Payments"),
    "entered_by": pgettext_lazy("audit", "Entered by"),
    "player": gettext_lazy("Player"),
    "kind": pgettext_lazy("penalty", "Kind"),
    "points": gettext_lazy("Points"),
    "distributed": pgettext_lazy("audit", "Distributed"),
    "reason": gettext_lazy("Reason"),
    "hand_number": gettext_lazy("Hand"),
    "hands": gettext_lazy("Hands"),
    "ended_by_time": pgettext_lazy("audit", "Ended by time"),
    "scores": gettext_lazy("Scores"),
}
BOOLEANS = frozenset({"distributed", "ended_by_time"})
# The stored values that are choices, shown with their labels.
CHOICES = {
    "status": dict(Round.Status.choices),
    "result": dict(Hand.Result.choices),
    "kind": dict(Penalty.Kind.choices),
    "event": {
        "started": pgettext_lazy("round clock", "started"),
        "paused": pgettext_lazy("round clock", "paused"),
        "resumed": pgettext_lazy("round clock", "resumed"),
        "extended": pgettext_lazy("round clock", "extended"),
    },
}


@dataclass(frozen=True)
class Change:
    field: str
    old: str | None  # None: the field was not there before
    new: str | None  # None: the field is gone after

    # What the page shows, in the reader's language; the stored names and values stay as they are.
    @property
    def label(self) -> str:
        return field_name(self.field)

    @property
    def old_shown(self) -> str | None:
        return shown_value(self.field, self.old)

    @property
    def new_shown(self) -> str | None:
        return shown_value(self.field, self.new)


def _flat(record: dict[str, Any] | None, prefix: str = "") -> dict[str, Any]:
    """Nested dicts as dotted names ("tables.1.E"); a hand's tiles as the compact notation."""
    flat: dict[str, Any] = {}
    for name, value in (record or {}).items():
        key = f"{prefix}{name}"
        if name == "tiles" and isinstance(value, dict):
            try:
                value = format_compact(parse_case(value))
            except HandError:
                pass
        if isinstance(value, dict):
            flat.update(_flat(value, f"{key}."))
        elif name not in HIDDEN:
            flat[key] = value
    return flat


def show(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(show(item) for item in value) or "—"
    return str(value)


def field_name(name: str) -> str:
    """A record's field in words; a seating's "tables.1.E" is table 1's East seat."""
    parts = name.split(".")
    if len(parts) == 3 and parts[0] == "tables" and parts[2] in Wind.values:
        return _("Table %(number)s, %(wind)s") % {
            "number": parts[1],
            "wind": Wind(parts[2]).label,
        }
    return str(FIELDS.get(name, name))


def shown_value(field: str, value: str | None) -> str | None:
    if value in ("yes", "no") and field in BOOLEANS:
        return _("yes") if value == "yes" else _("no")
    label = CHOICES.get(field, {}).get(value) if value is not None else None
    return value if label is None else str(label)


def changes(before: dict[str, Any] | None, after: dict[str, Any] | None) -> list[Change]:
    """What differs between two records; a record that is new or gone lists every field."""
    old, new = _flat(before), _flat(after)
    names = list(old) + [name for name in new if name not in old]
    return [
        Change(
            name,
            show(old[name]) if name in old else None,
            show(new[name]) if name in new else None,
        )
        for name in names
        if before is None or after is None or old.get(name, ...) != new.get(name, ...)
    ]


def where(entry: AuditEntry) -> str:
    if entry.table is not None:
        return _("Round %(round)s, table %(table)s") % {
            "round": entry.table.round.number,
            "table": entry.table.number,
        }
    record = entry.after or entry.before or {}
    return _("Round %(number)s") % {"number": record["round"]} if "round" in record else ""


@organiser_page("GET", "HEAD")
def audit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    entries = audit_trail(tournament).order_by("-at", "-pk")
    # get_page brings a page number past the end to the last page.
    page = Paginator(entries, PER_PAGE).get_page(
        whole_number(request, "page", default=1, least=1, most=10**9)
    )
    rows = [
        {"entry": entry, "where": where(entry), "changes": changes(entry.before, entry.after)}
        for entry in page
    ]
    return render(
        request,
        "tournament/organiser/audit.html",
        {"tournament": tournament, "page": page, "rows": rows},
    )
