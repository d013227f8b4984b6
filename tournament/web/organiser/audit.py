"""The audit trail: every change to a result (and to seatings, rounds, players, the tournament's
settings and its referee accounts), newest first, shown as field: old -> new, with
players by name, payments and scores by seat wind and stored values by their labels; filtered
by table, player, kind of change and who made it (query parameters read as `web.query` reads
them: a value the page does not take leaves that filter off)."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as attribute
from typing import Any, cast

from django import forms
from django.core.paginator import Paginator
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from scoring.engine import HandError, format_compact, parse_case
from scoring.words import Words
from tournament.domain.rotation import WINDS
from tournament.domain.text import listed
from tournament.models import (
    AuditEntry,
    Deal,
    Penalty,
    PenaltyKind,
    Player,
    Round,
    Table,
    Tournament,
    Wind,
    kind_label,
    shown_reason,
)
from tournament.reads.selectors import audit_trail
from tournament.templatetags.winds import wind_letter
from tournament.web.organiser.access import organiser_page
from tournament.web.organiser.forms.players import PlayerForm
from tournament.web.organiser.forms.tournament import TournamentForm
from tournament.web.query import whole_number

PER_PAGE = 50
# The entry has its own time; the copy inside the record only repeats it.
HIDDEN = frozenset({"entered_at"})
# What each field of a record is called; a field not named here shows its own name.
FIELDS: dict[str, Any] = {
    "round": gettext_lazy("Round"),
    "status": gettext_lazy("Status"),
    "event": pgettext_lazy("round clock", "Event"),
    "minutes": gettext_lazy("Minutes"),
    "remaining": pgettext_lazy("round clock", "Seconds left"),
    "extra_minutes": pgettext_lazy("table time", "Table's own minutes"),
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
    "value": pgettext_lazy("audit: a win worth points", "Value"),
    "extra_winners": pgettext_lazy("audit", "Further winners"),
    "offender": pgettext_lazy("audit", "Offender"),
    "riichi": pgettext_lazy("audit", "Riichi"),
    "faulty_claims": pgettext_lazy("audit", "Faulty claims"),
    "ready": pgettext_lazy("audit", "Ready"),
    "faulty_riichi": pgettext_lazy("audit", "Faulty riichi"),
    "extra_hands": pgettext_lazy("audit", "Extra hands"),
    "username": gettext_lazy("Username"),
    "usernames": pgettext_lazy("audit", "Usernames"),
    "names": pgettext_lazy("audit", "Names"),
    "tokens_revoked": pgettext_lazy("audit", "API tokens revoked"),
    "referees": pgettext_lazy("audit", "Referees"),
    "hidden_from": pgettext_lazy("audit", "Standings hidden from round"),
    "revealed_at": pgettext_lazy("audit", "Standings revealed at"),
    "count": pgettext_lazy("audit", "Players imported"),
    "keys": pgettext_lazy("audit", "Keys"),
    "rule_settings": pgettext_lazy("audit", "Rule settings"),
}
# A player's fields and the tournament's settings are called as their forms call them.
FORM_FIELDS = {
    name: field
    for form in (TournamentForm, PlayerForm)
    for name, field in form.base_fields.items()
    if field.label and name not in FIELDS
}
FIELDS |= {name: field.label for name, field in FORM_FIELDS.items()}
# Fields that name a deal by its number, labelled with the preset's word for a deal.
DEAL_FIELDS = frozenset({"number", "hand_number"})
# Fields of an MCR win, left out of a preset that counts points where they hold nothing (a
# record keeps them empty).
FAN_FIELDS = frozenset({"fan", "flowers"})
# Fields that hold a player's key, shown as the player's name.
PLAYER_FIELDS = frozenset({"winner", "discarder", "player", "offender"})
# Fields that hold four numbers by starting seat (East, South, West, North).
BY_SEAT = frozenset({"payments", "scores"})
BOOLEANS = frozenset(
    {"distributed", "ended_by_time"}
    | {name for name, field in FORM_FIELDS.items() if isinstance(field, forms.BooleanField)}
)
# The stored values that are choices, shown with their labels.
CHOICES = {
    "status": dict(Round.Status.choices),
    "result": dict(Deal.Result.choices),
    "kind": dict(Penalty.Kind.choices),
    "tie_breaks": dict(Tournament.TieBreak.choices),
    "event": {
        "started": pgettext_lazy("round clock", "started"),
        "paused": pgettext_lazy("round clock", "paused"),
        "resumed": pgettext_lazy("round clock", "resumed"),
        "extended": pgettext_lazy("round clock", "extended"),
    },
} | {
    name: {str(value): label for value, label in cast("list[tuple[Any, Any]]", field.choices)}
    for name, field in FORM_FIELDS.items()
    if isinstance(field, forms.ChoiceField) and not isinstance(field, forms.ModelChoiceField)
}
# The actions on a player, found by the player filter by the key they keep.
PLAYER_ACTIONS = (
    AuditEntry.Action.PLAYER_ADDED,
    AuditEntry.Action.PLAYER_CHANGED,
    AuditEntry.Action.PLAYER_REMOVED,
)


# The actions on a deal as a preset that calls it a deal (not a hand) says them.
DEAL_ACTIONS = {
    AuditEntry.Action.HAND_RECORDED: pgettext_lazy("audit", "Deal recorded"),
    AuditEntry.Action.HAND_CORRECTED: pgettext_lazy("audit", "Deal corrected"),
    AuditEntry.Action.HAND_REMOVED: pgettext_lazy("audit", "Deal removed"),
}


def action_label(action: str, words: Words) -> str:
    """An audit entry's action in words: a deal's as the preset calls it."""
    if not words.calls_deals_hands and action in DEAL_ACTIONS:
        return str(DEAL_ACTIONS[AuditEntry.Action(action)])
    return str(AuditEntry.Action(action).label)


@dataclass(frozen=True)
class Change:
    field: str
    old: str | None  # None: the field was not there before
    new: str | None  # None: the field is gone after
    # The values as stored, and the names of the tournament's players by key: what the page
    # shows them with (not compared: a change is its field and values in words).
    raw_old: Any = attribute(default=None, compare=False)
    raw_new: Any = attribute(default=None, compare=False)
    names: dict[str, str] | None = attribute(default=None, compare=False, repr=False)
    # The tournament's preset's words: what a deal and a false win are called.
    words: Words | None = attribute(default=None, compare=False, repr=False)
    # The whole record the field belongs to (a false win's reason is told with its kind).
    record: dict[str, Any] | None = attribute(default=None, compare=False, repr=False)

    # What the page shows, in the reader's language; the stored names and values stay as they are.
    @property
    def label(self) -> str:
        if self.words is not None and self.field in DEAL_FIELDS:
            return self.words.deal
        return field_name(self.field)

    @property
    def old_shown(self) -> str | None:
        return self._shown(self.old, self.raw_old)

    @property
    def new_shown(self) -> str | None:
        return self._shown(self.new, self.raw_new)

    def _shown(self, value: str | None, raw: Any) -> str | None:
        words = self.words
        if self.field == "kind" and words is not None and raw in PenaltyKind.values:
            return kind_label(raw, words)
        if self.field == "reason" and isinstance(raw, str) and self.record:
            kind, number = self.record.get("kind"), self.record.get("hand_number")
            if kind in PenaltyKind.values and isinstance(number, int):
                return shown_reason(raw, kind, number, words)
        return shown_value(self.field, value, raw, self.names)


def _flat(record: dict[str, Any] | None, prefix: str = "") -> dict[str, Any]:
    """Nested dicts as dotted names ("tables.1.E"); a hand's tiles as the compact notation."""
    flat: dict[str, Any] = {}
    for name, value in (record or {}).items():
        key = f"{prefix}{name}"
        if name == "tiles" and isinstance(value, dict):
            value = _tiles_text(value)
        if isinstance(value, dict):
            flat.update(_flat(value, f"{key}."))
        elif name not in HIDDEN:
            flat[key] = value
    return flat


def _tiles_text(case: dict[str, Any]) -> Any:
    """A hand's tiles in the compact notation; tiles the MCR notation cannot write (WA's
    joker J) as their codes, concealed tiles, [melds], then the winning tile."""
    try:
        return format_compact(parse_case(case))
    except HandError:
        pass
    concealed = case.get("concealed")
    win_tile = case.get("win_tile")
    if not isinstance(concealed, list) or not isinstance(win_tile, str):
        return case
    melds = [
        "[" + "".join(map(str, meld.get("tiles", []))) + "]"
        for meld in case.get("melds") or []
        if isinstance(meld, dict)
    ]
    return " ".join([" ".join(map(str, concealed)), *melds, win_tile])


def show(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return listed(show(item) for item in value) or "—"
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


def signed(points: int) -> str:
    """A payment as the page writes it: +32, −8 (a minus sign), 0."""
    return f"+{points}" if points > 0 else f"−{-points}" if points < 0 else "0"


def shown_value(
    field: str, value: str | None, raw: Any = None, names: dict[str, str] | None = None
) -> str | None:
    """A stored value in words: a player by name (`names`, by key), four amounts by seat wind
    ("E −8, S +32, W −16, N −8"), a choice by its label, yes or no."""
    names = names or {}
    if value is None:
        return None
    if field in PLAYER_FIELDS and isinstance(raw, str):
        return names.get(raw, raw)
    if is_seat_of_a_table(field) and isinstance(raw, str):
        return names.get(raw, raw)
    if field in BY_SEAT and isinstance(raw, list) and len(raw) == len(WINDS):
        if all(isinstance(points, int) and not isinstance(points, bool) for points in raw):
            return listed(
                f"{wind_letter(wind)} {signed(points)}"
                for wind, points in zip(WINDS, raw, strict=True)
            )
    if field == "extra_winners" and isinstance(raw, list):
        # Stored as "key: value".
        return listed(_named_win(item, names) for item in raw) or "—"
    if value in ("yes", "no") and field in BOOLEANS:
        return _("yes") if value == "yes" else _("no")
    labels = CHOICES.get(field, {})
    if isinstance(raw, list) and labels:  # several choices, such as the tie-breaks
        return listed(str(labels.get(str(item), item)) for item in raw) or "—"
    label = labels.get(value) if value is not None else None
    return value if label is None else str(label)


def is_seat_of_a_table(name: str) -> bool:
    """Whether a flat field is a seating's seat ("tables.1.E"), which holds a player's key."""
    parts = name.split(".")
    return len(parts) == 3 and parts[0] == "tables" and parts[2] in Wind.values


def _named_win(item: Any, names: dict[str, str]) -> str:
    key, colon, value = str(item).partition(": ")
    return f"{names.get(key, key)}{colon}{value}"


def changes(
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    names: dict[str, str] | None = None,
    words: Words | None = None,
) -> list[Change]:
    """What differs between two records; a record that is new or gone lists every field.
    `names`: the tournament's players' names by key, to show them by; `words`: the preset's
    (what a deal is called; no empty fan and flowers under a preset that counts points)."""
    old, new = _flat(before), _flat(after)
    if words is not None and not words.rulebook.counts_fan:
        for record in (old, new):
            for name in FAN_FIELDS:
                if record.get(name) in (None, 0):
                    record.pop(name, None)
    fields = list(old) + [name for name in new if name not in old]
    # In the order a reader takes a record in (the database keeps JSON keys in its own order);
    # fields not named in FIELDS (a seating's seats) after, as they come.
    order = list(FIELDS)
    fields.sort(key=lambda name: order.index(name) if name in order else len(order))
    return [
        Change(
            name,
            show(old[name]) if name in old else None,
            show(new[name]) if name in new else None,
            old.get(name),
            new.get(name),
            names,
            words,
            after or before,
        )
        for name in fields
        if before is None or after is None or old.get(name, ...) != new.get(name, ...)
    ]


def where(entry: AuditEntry) -> str:
    if entry.table is not None:
        return _("Round %(round)s, table %(table)s") % {
            "round": entry.table.round.number,
            "table": entry.table.number,
        }
    record = entry.after or entry.before or {}
    if entry.action in PLAYER_ACTIONS and "key" in record:
        return _("Player %(key)s %(name)s") % {"key": record["key"], "name": record.get("name")}
    return _("Round %(number)s") % {"number": record["round"]} if "round" in record else ""


@dataclass(frozen=True)
class Filters:
    """The audit trail's filters as the address gives them; None: that filter is off."""

    table: Table | None = None
    player: Player | None = None
    kind: str | None = None
    actor: int | None = None

    def apply(self, entries: QuerySet[AuditEntry]) -> QuerySet[AuditEntry]:
        if self.table is not None:
            entries = entries.filter(table=self.table)
        if self.player is not None:
            key = self.player.key
            named = Q()
            for name in PLAYER_FIELDS:
                named |= Q(**{f"after__{name}": key}) | Q(**{f"before__{name}": key})
            named |= Q(action__in=PLAYER_ACTIONS) & (Q(after__key=key) | Q(before__key=key))
            named |= Q(action=AuditEntry.Action.PLAYERS_IMPORTED, after__keys__contains=[key])
            entries = entries.filter(Q(table__seats__player=self.player) | named).distinct()
        if self.kind is not None:
            entries = entries.filter(action=self.kind)
        if self.actor is not None:
            entries = entries.filter(actor_id=self.actor)
        return entries

    def query(self) -> str:
        """The filters as query parameters, for the page links ("&table=3&kind=...")."""
        params = {
            "table": self.table.pk if self.table else None,
            "player": self.player.pk if self.player else None,
            "kind": self.kind,
            "actor": self.actor,
        }
        return "".join(f"&{name}={value}" for name, value in params.items() if value is not None)


def _chosen(request: HttpRequest, name: str, choices: dict[int, Any]) -> Any:
    """The choice the query parameter `name` names by its id, or None (missing, not a whole
    number, or not one of `choices`)."""
    number = whole_number(request, name, default=0, least=0, most=2**63 - 1)
    return choices.get(number)


def read_filters(
    request: HttpRequest, tables: dict[int, Table], players: dict[int, Player], actors: set[int]
) -> Filters:
    kind = request.GET.get("kind")
    actor = whole_number(request, "actor", default=0, least=0, most=2**63 - 1)
    return Filters(
        table=_chosen(request, "table", tables),
        player=_chosen(request, "player", players),
        kind=kind if kind in AuditEntry.Action.values else None,
        actor=actor if actor in actors else None,
    )


@organiser_page("GET", "HEAD")
def audit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    trail = audit_trail(tournament)
    tables = {
        table.pk: table
        for table in Table.objects.filter(round__tournament=tournament)
        .select_related("round")
        .order_by("round__number", "number")
    }
    players = {player.pk: player for player in tournament.players.order_by("name", "key")}
    actors = {
        entry["actor_id"]: entry["actor__username"]
        for entry in trail.exclude(actor=None)
        .order_by("actor__username")
        .values("actor_id", "actor__username")
    }
    filters = read_filters(request, tables, players, set(actors))
    entries = filters.apply(trail).order_by("-at", "-pk")
    # get_page brings a page number past the end to the last page.
    page = Paginator(entries, PER_PAGE).get_page(
        whole_number(request, "page", default=1, least=1, most=10**9)
    )
    names = {player.key: player.name for player in players.values()}
    rows = [
        {
            "entry": entry,
            "where": where(entry),
            "action": action_label(entry.action, tournament.words),
            "changes": changes(entry.before, entry.after, names, tournament.words),
        }
        for entry in page
    ]
    return render(
        request,
        "tournament/organiser/audit.html",
        {
            "tournament": tournament,
            "page": page,
            "rows": rows,
            "filters": filters,
            "tables": tables.values(),
            "players": players.values(),
            "kinds": [
                (action, action_label(action, tournament.words))
                for action in AuditEntry.Action.values
            ],
            "actors": sorted(actors.items(), key=lambda item: item[1]),
        },
    )
