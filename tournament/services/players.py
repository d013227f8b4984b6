"""Players: adding them one by one, changing them, and importing a list from CSV."""

from __future__ import annotations

import csv
import io
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from tournament.models import Player, Tournament
from tournament.services.live import note_change

# CSV headers understood by the import, with the other spellings organisers use for them.
CSV_COLUMNS = {
    "key": ("key", "start number", "number", "no", "id"),
    "name": ("name", "player", "full name"),
    "country": ("country", "nation"),
    "club": ("club",),
    "team": ("team",),
    "ema_number": ("ema_number", "ema number", "ema_id", "ema id", "ema"),
    "substitute": ("substitute", "sub"),
}
TRUE = {"1", "yes", "y", "true", "x"}
FALSE = {"", "0", "no", "n", "false"}
EDITABLE = (
    "key",
    "name",
    "country",
    "club",
    "team",
    "ema_number",
    "substitute",
    "withdrawn_from_round",
    "fixed_table",
)


def _clean(player: Player) -> None:
    player.key = player.key.strip()
    player.name = player.name.strip()
    if not player.key:
        raise ValidationError({"key": _("Give the player a key, such as a start number.")})
    if not player.name:
        raise ValidationError({"name": _("Give the player's name.")})
    player.full_clean(exclude=["tournament"])


@transaction.atomic
def add_player(*, tournament: Tournament, **fields: Any) -> Player:
    """A new player of `tournament`; raises ValidationError naming the field that is wrong."""
    unknown = set(fields) - set(EDITABLE)
    if unknown:
        raise ValidationError(f"Unknown player fields: {', '.join(sorted(unknown))}.")
    player = Player(tournament=tournament, **fields)
    _clean(player)
    try:
        with transaction.atomic():
            player.save()
    except IntegrityError as error:  # a concurrent insert of the same key
        message = _("Another player of this tournament has this key.")
        raise ValidationError({"key": message}) from error
    note_change(tournament.pk)
    return player


@transaction.atomic
def update_player(*, player: Player, **fields: Any) -> Player:
    unknown = set(fields) - set(EDITABLE)
    if unknown:
        raise ValidationError(f"Unknown player fields: {', '.join(sorted(unknown))}.")
    for name, value in fields.items():
        setattr(player, name, value)
    _clean(player)
    try:
        with transaction.atomic():
            player.save()
    except IntegrityError as error:  # a concurrent change to the same key or EMA number
        raise ValidationError(
            _("Another player of this tournament has this key or EMA number."), code="taken"
        ) from error
    note_change(player.tournament_id)
    return player


def _column_map(header: list[str]) -> dict[str, int]:
    names = [cell.strip().lower() for cell in header]
    columns: dict[str, int] = {}
    for field, spellings in CSV_COLUMNS.items():
        for index, name in enumerate(names):
            if name in spellings:
                columns[field] = index
                break
    missing = [field for field in ("key", "name") if field not in columns]
    if missing:
        raise ValidationError(
            _(
                "The first line of the CSV names the columns; "
                "it needs %(missing)s (found: %(found)s)."
            ),
            code="csv_header",
            params={"missing": " and ".join(missing), "found": ", ".join(names) or "nothing"},
        )
    return columns


def _messages(error: ValidationError) -> str:
    if hasattr(error, "message_dict"):
        return "; ".join(
            message for messages in error.message_dict.values() for message in messages
        )
    return "; ".join(error.messages)


@transaction.atomic
def import_players_csv(*, tournament: Tournament, text: str) -> list[Player]:
    """Add the players listed in CSV `text` (a header line, then one player a line).

    All or nothing: when any line is wrong, nothing is added and the error lists every wrong
    line by its number.
    """
    text = text.lstrip("\ufeff")
    try:
        sample = text[:4096]
        dialect = csv.Sniffer().sniff(sample, delimiters=",;\t") if sample.strip() else csv.excel
    except csv.Error:
        dialect = csv.excel
    rows = list(csv.reader(io.StringIO(text), dialect))
    if not rows:
        raise ValidationError(_("The file is empty."), code="csv_empty")
    columns = _column_map(rows[0])
    existing = set(tournament.players.values_list("key", flat=True))
    existing_ema = set(
        tournament.players.exclude(ema_number="").values_list("ema_number", flat=True)
    )
    problems: list[str] = []
    players: list[Player] = []
    for line, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        values = {
            field: row[index].strip() if index < len(row) else ""
            for field, index in columns.items()
        }
        substitute = values.pop("substitute", "").lower()
        if substitute not in TRUE | FALSE:
            problems.append(f"line {line}: substitute is yes or no, not {substitute!r}")
            continue
        player = Player(tournament=tournament, substitute=substitute in TRUE, **values)
        try:
            _clean(player)
        except ValidationError as error:
            problems.append(f"line {line}: {_messages(error)}")
            continue
        if player.key in existing:
            problems.append(f"line {line}: key {player.key} is taken")
            continue
        if player.ema_number and player.ema_number in existing_ema:
            problems.append(f"line {line}: EMA number {player.ema_number} is taken")
            continue
        existing.add(player.key)
        if player.ema_number:
            existing_ema.add(player.ema_number)
        players.append(player)
    if problems:
        raise ValidationError(
            _("Nothing was imported. Fix these lines and try again: %(problems)s."),
            code="csv_rows",
            params={"problems": "; ".join(problems)},
        )
    if not players:
        raise ValidationError(_("The file lists no players."), code="csv_empty")
    created = Player.objects.bulk_create(players)
    note_change(tournament.pk)
    return created
