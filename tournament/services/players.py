"""Players: adding them one by one, changing them, removing one added by mistake, and
importing a list from CSV.

What is given is tidied before it is checked (tournament/names.py): a country written as a
name or another code becomes its ISO 3166 code ("Sweden", "swe" -> SE), spaces leave an EMA
number, and a player given by family and given names only gets their full name in its natural
order.
"""

from __future__ import annotations

import copy
import csv
import io
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournament.models import Player, Round, Seat, Tournament
from tournament.names import clean_ema_number, country_code, full_name
from tournament.services.live import note_change
from tournament.text import listed, storable

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# What a player list may hold: a file of at most a million characters (the form's upload limit
# is 1 MB), at most 5,000 lines after the header, at most 1,000 characters in a cell (the
# longest field, a name or a club, holds 200).
MAX_CSV_CHARACTERS = 1_000_000
MAX_CSV_PLAYERS = 5_000
MAX_CSV_CELL = 1_000

# CSV headers understood by the import, with the other spellings organisers use for them.
CSV_COLUMNS = {
    "key": ("key", "start number", "number", "no", "id"),
    "name": ("name", "player", "full name", "full_name"),
    "family_name": (
        "family_name",
        "family name",
        "last_name",
        "last name",
        "surname",
        "family",
    ),
    "given_name": ("given_name", "given name", "first_name", "first name", "forename"),
    "country": ("country", "nation", "country code"),
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


@transaction.atomic
def add_player(*, tournament: Tournament, **fields: Any) -> Player:
    """A new player of `tournament`; raises ValidationError naming the field that is wrong."""
    unknown = set(fields) - set(EDITABLE)
    if unknown:
        raise ValidationError(f"Unknown player fields: {', '.join(sorted(unknown))}.")
    player = Player(tournament=tournament, **fields)
    _clean(player)
    _save(player)
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
    _save(player)
    note_change(player.tournament_id)
    return player


@transaction.atomic
def remove_player(*, player: Player) -> None:
    """Delete a player added by mistake. Refused while they have a result (a seat at a table
    with hands, penalties or an ended game, or in a round in play or finished) or a seat at
    all: the table would be left with three players."""
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
            or table.hands.exists()
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
    player.delete()
    note_change(tournament_id)


def _column_map(header: list[str]) -> dict[str, int]:
    names = [cell.strip().lower() for cell in header]
    columns: dict[str, int] = {}
    for field, spellings in CSV_COLUMNS.items():
        for index, name in enumerate(names):
            if name in spellings:
                columns[field] = index
                break
    missing = [field for field in ("key", "name") if field not in columns]
    if "family_name" in columns and "name" in missing:  # the name is made of its parts
        missing.remove("name")
    if missing:
        raise ValidationError(
            _(
                "The first line of the CSV names the columns; "
                "it needs %(missing)s (found: %(found)s)."
            ),
            code="csv_header",
            params={"missing": listed(missing), "found": listed(names) or "—"},
        )
    return columns


def _messages(error: ValidationError) -> str:
    """The messages of `error` as one clause of a list joined by semicolons: each without its
    final full stop, which would otherwise stand before the semicolon ("name.; line 4")."""
    if hasattr(error, "message_dict"):
        messages = [message for listed in error.message_dict.values() for message in listed]
    else:
        messages = error.messages
    return "; ".join(str(message).rstrip(".。") for message in messages)


def _line(line: int, problem: str) -> str:
    return str(_("line %(line)s: %(problem)s") % {"line": line, "problem": problem})


def _csv_records(text: str) -> list[tuple[int, list[str]]]:
    """The records of CSV `text`, each with the number of the line it starts on.

    Lines may end in LF, CRLF or CR alone. Refused, naming the line: a quote that is never
    closed, text after a closing quote, a cell that runs over several lines (a quote left
    open swallows the lines after it), a cell longer than MAX_CSV_CELL; and a file longer than
    MAX_CSV_CHARACTERS or with more than MAX_CSV_PLAYERS lines after its header.
    """
    if len(text) > MAX_CSV_CHARACTERS:
        raise ValidationError(
            _("The list is longer than %(most)s characters; split it into several imports."),
            code="csv_too_large",
            params={"most": f"{MAX_CSV_CHARACTERS:,}"},
        )
    sample = text[:4096].replace("\r\n", "\n").replace("\r", "\n")
    # Only the separator is guessed; quotes are a spreadsheet's: "" inside quotes is a quote.
    try:
        delimiter = csv.Sniffer().sniff(sample, delimiters=",;\t").delimiter
    except csv.Error:
        delimiter = ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    records: list[tuple[int, list[str]]] = []
    problems: list[str] = []
    while True:
        first = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as error:
            if str(error).startswith("field larger than field limit"):
                problem = _cell_too_long(reader.line_num)
            else:
                problem = gettext(
                    'line %(line)s cannot be read as CSV (%(error)s); is a quote (") missing '
                    "or misplaced?"
                ) % {"line": reader.line_num, "error": error}
            raise _refused([*problems, problem]) from None
        last = reader.line_num
        if any("\n" in cell or "\r" in cell for cell in row):
            problems.append(
                gettext(
                    'lines %(first)s to %(last)s are read as one, because a quote (") opens '
                    "a cell and is not closed on its line"
                )
                % {"first": first, "last": last}
            )
        elif any(len(cell) > MAX_CSV_CELL for cell in row):
            problems.append(_cell_too_long(first))
        else:
            records.append((first, row))
        if len(records) + len(problems) > MAX_CSV_PLAYERS + 1:  # the header and the players
            raise ValidationError(
                _("The list has more than %(most)s players; split it into several imports."),
                code="csv_too_large",
                params={"most": f"{MAX_CSV_PLAYERS:,}"},
            )
    if problems:
        raise _refused(problems)
    return records


def _refused(problems: list[str]) -> ValidationError:
    """The refusal of a list, naming its wrong lines (the first twenty of them)."""
    shown = problems[:20]
    if len(problems) > len(shown):
        shown.append(gettext("and %(count)s more") % {"count": len(problems) - len(shown)})
    return ValidationError(
        _("Nothing was imported. Fix these lines and try again: %(problems)s."),
        code="csv_rows",
        params={"problems": "; ".join(shown)},
    )


def _cell_too_long(line: int) -> str:
    return gettext("line %(line)s: a cell is longer than %(most)s characters") % {
        "line": line,
        "most": f"{MAX_CSV_CELL:,}",
    }


@transaction.atomic
def import_players_csv(*, tournament: Tournament, text: str) -> list[Player]:
    """Add the players listed in CSV `text` (a header line, then one player a line).

    All or nothing: when any line is wrong, nothing is added and the error lists every wrong
    line by its number.
    """
    records = _csv_records(text.lstrip("\ufeff"))
    if not records:
        raise ValidationError(_("The file is empty."), code="csv_empty")
    columns = _column_map(records[0][1])
    existing = set(tournament.players.values_list("key", flat=True))
    existing_ema = set(
        tournament.players.exclude(ema_number="").values_list("ema_number", flat=True)
    )
    problems: list[str] = []
    players: list[Player] = []
    for line, row in records[1:]:
        if not any(cell.strip() for cell in row):
            continue
        values = {
            field: row[index].strip() if index < len(row) else ""
            for field, index in columns.items()
        }
        substitute = values.pop("substitute", "").lower()
        if substitute not in TRUE | FALSE:
            problems.append(
                _line(line, _("substitute is yes or no, not “%(value)s”") % {"value": substitute})
            )
            continue
        player = Player(tournament=tournament, substitute=substitute in TRUE, **values)
        try:
            _clean(player)
        except ValidationError as error:
            problems.append(_line(line, _messages(error)))
            continue
        if player.key in existing:
            problems.append(_line(line, _("key %(key)s is taken") % {"key": player.key}))
            continue
        if player.ema_number and player.ema_number in existing_ema:
            problems.append(
                _line(line, _("EMA number %(number)s is taken") % {"number": player.ema_number})
            )
            continue
        existing.add(player.key)
        if player.ema_number:
            existing_ema.add(player.ema_number)
        players.append(player)
    if problems:
        raise _refused(problems)
    if not players:
        raise ValidationError(_("The file lists no players."), code="csv_empty")
    created = Player.objects.bulk_create(players)
    note_change(tournament.pk)
    return created
