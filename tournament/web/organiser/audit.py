"""The audit trail: every change to a result, newest first, shown as field: old -> new."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from scoring.engine import HandError, format_compact, parse_case
from tournament.models import AuditEntry, Tournament
from tournament.selectors import audit_trail
from tournament.web.organiser.access import organiser_page

PER_PAGE = 50
# The entry has its own time; the copy inside the record only repeats it.
HIDDEN = frozenset({"entered_at"})


@dataclass(frozen=True)
class Change:
    field: str
    old: str | None  # None: the field was not there before
    new: str | None  # None: the field is gone after


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
        return f"Round {entry.table.round.number}, table {entry.table.number}"
    record = entry.after or entry.before or {}
    return f"Round {record['round']}" if "round" in record else ""


@organiser_page("GET", "HEAD")
def audit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    entries = audit_trail(tournament).order_by("-at", "-pk")
    page = Paginator(entries, PER_PAGE).get_page(request.GET.get("page"))
    rows = [
        {"entry": entry, "where": where(entry), "changes": changes(entry.before, entry.after)}
        for entry in page
    ]
    return render(
        request,
        "tournament/organiser/audit.html",
        {"tournament": tournament, "page": page, "rows": rows},
    )
