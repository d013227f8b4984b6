"""Players: adding them one by one, changing them, removing one added by mistake, and
importing a list from CSV (read by tournament/domain/player_csv.py). Each change an `actor` makes is
kept in the audit trail.

What is given is tidied before it is checked (tournament/domain/names.py): a country written as a
name or another code becomes its ISO 3166 code ("Sweden", "swe" -> SE), spaces leave an EMA
number, and a player given by family and given names only gets their full name in its natural
order.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from tournament.domain.names import clean_ema_number, country_code, full_name
from tournament.domain.player_csv import line_problem, messages_of, read_player_list, refused
from tournament.domain.text import storable
from tournament.models import AuditEntry, Player, Round, Seat, Tournament
from tournament.services.audit import Actor, record
from tournament.services.live import note_change

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

EDITABLE = (
    "key",
    "name",
    "family_name",
    "given_name",
    "country",
    "club",
    "team",
    "ema_number",
    "substitute",
    "withdrawn_from_round",
    "fixed_table",
)


TEXT_FIELDS = ("key", "name", "family_name", "given_name", "country", "club", "team", "ema_number")


def _clean(player: Player) -> None:
    """Tidy `player`'s fields and check them all in one pass: the ValidationError names every
    wrong field at once, so a form shows all its errors after one submit."""
    errors: dict[str, list[ValidationError]] = {}

    def refuse(field: str, error: ValidationError | StrOrPromise) -> None:
        errors.setdefault(field, []).append(ValidationError(error))

    for name in _bad_characters(player):
        refuse(
            name,
            ValidationError(
                _("This text holds a character that is not allowed (NUL or a lone surrogate)."),
                code="bad_character",
            ),
        )
    if errors:
        raise ValidationError(errors)  # the other checks would stumble on the same text
    player.key = player.key.strip()
    player.name = player.name.strip()
    player.family_name = player.family_name.strip()
    player.given_name = player.given_name.strip()
    player.ema_number = clean_ema_number(player.ema_number)
    code = country_code(player.country)
    player.country = player.country.strip() if code is None else code
    if not player.key:
        refuse("key", _("Give the player a key, such as a start number."))
    if player.given_name and not player.family_name:
        refuse("family_name", _("Give the family name too, or leave both parts empty."))
    if not player.name:
        if not player.family_name:
            refuse("name", _("Give the player's name."))
        else:
            player.name = full_name(player.family_name, player.given_name)
    try:
        player.full_clean(exclude=["tournament", *errors])
    except ValidationError as error:
        for field, listed in error.error_dict.items():
            errors.setdefault(field, []).extend(listed)
    if errors:
        raise ValidationError(errors)


def check_player(*, tournament: Tournament, player: Player | None = None, **fields: Any) -> None:
    """Raise the ValidationError that adding (or, with `player`, changing) a player with
    `fields` would raise for its own fields, without saving anything; a form runs it alongside
    its own checks so that every error shows at once."""
    if player is None:
        checked = Player(tournament=tournament, **fields)
    else:
        checked = copy.copy(player)
        for name, value in fields.items():
            setattr(checked, name, value)
    _clean(checked)


def _bad_characters(player: Player) -> list[str]:
    """The text fields holding what the database cannot store: NUL or half a surrogate pair."""
    return [
        name
        for name in TEXT_FIELDS
        if isinstance(getattr(player, name), str) and not storable(getattr(player, name))
    ]


def _taken(field: str) -> ValidationError:
    """The refusal of a key or an EMA number that another player of the tournament has."""
    if field == "ema_number":
        message = _("Another player of this tournament has this EMA number.")
    else:
        message = _("Another player of this tournament has this key.")
    return ValidationError({field: ValidationError(message, code="taken")})


def _check_unique(player: Player) -> None:
    """Refuse a key or an EMA number that another player of the tournament has, each by name."""
    others = Player.objects.filter(tournament_id=player.tournament_id).exclude(pk=player.pk)
    if others.filter(key=player.key).exists():
        raise _taken("key")
    if player.ema_number and others.filter(ema_number=player.ema_number).exists():
        raise _taken("ema_number")


def _save(player: Player) -> None:
    _check_unique(player)
    try:
        with transaction.atomic():
            player.save()
    except IntegrityError as error:  # a concurrent change to the same key or EMA number
        constraint = getattr(getattr(error.__cause__, "diag", None), "constraint_name", "")
        raise _taken("ema_number" if "ema_number" in constraint else "key") from error


def snapshot(player: Player, fields: tuple[str, ...] = EDITABLE) -> dict[str, Any]:
    """What the audit trail keeps of `player`: its key and name (which the audit page finds
    and names it by) and those of its `fields` that hold something."""
    kept: dict[str, Any] = {"key": player.key, "name": player.name}
    for name in fields:
        value = getattr(player, name)
        if value not in ("", None, False):
            kept[name] = value
    return kept


def _audit(
    player: Player,
    action: AuditEntry.Action,
    actor: Actor,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
) -> None:
    """Keep the change in the audit trail when an `actor` made it. Without one, the caller
    keeps the change in an entry of its own (a registration, an archive import)."""
    if actor is not None:
        record(player.tournament_id, action, actor=actor, before=before, after=after)


def _refuse_unknown(fields: dict[str, Any]) -> None:
    unknown = set(fields) - set(EDITABLE)
    if unknown:
        raise ValidationError(f"Unknown player fields: {', '.join(sorted(unknown))}.")


@transaction.atomic
def add_player(*, tournament: Tournament, actor: Actor = None, **fields: Any) -> Player:
    """A new player of `tournament`, added by `actor`; raises ValidationError naming the field
    that is wrong."""
    _refuse_unknown(fields)
    player = Player(tournament=tournament, **fields)
    _clean(player)
    _save(player)
    _audit(player, AuditEntry.Action.PLAYER_ADDED, actor, None, snapshot(player))
    note_change(tournament.pk)
    return player


@transaction.atomic
def update_player(*, player: Player, actor: Actor = None, **fields: Any) -> Player:
    """Change `fields` of `player`; the audit trail keeps the fields that changed, before and
    after."""
    _refuse_unknown(fields)
    before = {name: getattr(player, name) for name in EDITABLE}
    for name, value in fields.items():
        setattr(player, name, value)
    _clean(player)
    _save(player)
    changed = [name for name in EDITABLE if getattr(player, name) != before[name]]
    if changed:
        old = {"key": before["key"], "name": before["name"]} | {n: before[n] for n in changed}
        new = {"key": player.key, "name": player.name} | {n: getattr(player, n) for n in changed}
        _audit(player, AuditEntry.Action.PLAYER_CHANGED, actor, old, new)
    note_change(player.tournament_id)
    return player


@transaction.atomic
def remove_player(*, player: Player, actor: Actor = None) -> None:
    """Delete a player added by mistake (by `actor`). Refused while they have a result (a seat
    at a table with hands, penalties or an ended game, or in a round in play or finished) or a
    seat at all: the table would be left with three players."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    seats = list(
        Seat.objects.filter(player=player)
        .select_related("table", "round")
        .order_by("round__number")
    )
    for seat in seats:
        table = seat.table
        if (
            seat.round.status in (Round.Status.PLAYING, Round.Status.FINISHED)
            or table.ended_at is not None
            or table.deals.exists()
            or table.penalties.exists()
        ):
            raise ValidationError(
                _(
                    "%(name)s has played (round %(round)s, table %(table)s) and cannot be "
                    "removed: their results stay. To stop them playing, withdraw them from the "
                    "next round on."
                ),
                code="player_has_results",
                params={"name": player.name, "round": seat.round.number, "table": table.number},
            )
    if seats:
        seat = seats[0]
        raise ValidationError(
            _(
                "%(name)s is seated at table %(table)s in round %(round)s. Put another player "
                "in that seat first (Change seats on the round page), then remove them."
            ),
            code="player_seated",
            params={"name": player.name, "round": seat.round.number, "table": seat.table.number},
        )
    tournament_id = player.tournament_id
    _audit(player, AuditEntry.Action.PLAYER_REMOVED, actor, snapshot(player), None)
    player.delete()
    note_change(tournament_id)


@transaction.atomic
def import_players_csv(*, tournament: Tournament, text: str, actor: Actor = None) -> list[Player]:
    """Add the players listed in CSV `text` (a header line, then one player a line; read by
    `tournament.domain.player_csv`), for `actor`: one audit entry lists them by key.

    All or nothing: when any line is wrong, nothing is added and the error lists every wrong
    line by its number.
    """
    lines = read_player_list(text)
    existing = set(tournament.players.values_list("key", flat=True))
    existing_ema = set(
        tournament.players.exclude(ema_number="").values_list("ema_number", flat=True)
    )
    problems: list[str] = []
    players: list[Player] = []
    for listed in lines:
        if listed.problem is not None:
            problems.append(listed.problem)
            continue
        player = Player(tournament=tournament, **listed.fields)
        problem = _import_problem(player, existing, existing_ema)
        if problem is not None:
            problems.append(line_problem(listed.line, problem))
            continue
        existing.add(player.key)
        if player.ema_number:
            existing_ema.add(player.ema_number)
        players.append(player)
    if problems:
        raise refused(problems)
    if not players:
        raise ValidationError(_("The file lists no players."), code="csv_empty")
    created = Player.objects.bulk_create(players)
    if actor is not None:
        after = {"count": len(created), "keys": [player.key for player in created]}
        record(tournament, AuditEntry.Action.PLAYERS_IMPORTED, actor=actor, after=after)
    note_change(tournament.pk)
    return created


def _import_problem(player: Player, keys: set[str], ema_numbers: set[str]) -> Any:
    """What is wrong with a listed `player` (tidied in place), if anything, given the keys and
    EMA numbers taken so far."""
    try:
        _clean(player)
    except ValidationError as error:
        return messages_of(error)
    if player.key in keys:
        return _("key %(key)s is taken") % {"key": player.key}
    if player.ema_number and player.ema_number in ema_numbers:
        return _("EMA number %(number)s is taken") % {"number": player.ema_number}
    return None
