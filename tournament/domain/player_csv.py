"""Reading a player list from CSV, without the database: the columns it names, its lines, and
the words for what is wrong with them. `tournament.services.players.import_players_csv`
checks the players it reads and adds them.

A list is refused with a ValidationError that names its wrong lines: a quote that is never
closed, text after a closing quote, a cell that runs over several lines (a quote left open
swallows the lines after it), a cell longer than MAX_CSV_CELL, a "substitute" that is not yes
or no; and a file longer than MAX_CSV_CHARACTERS or with more than MAX_CSV_PLAYERS lines after
its header. Lines may end in LF, CRLF or CR alone; the separator (comma, semicolon or tab) is
guessed from the first lines.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournament.domain.text import listed

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


@dataclass(frozen=True)
class ListedLine:
    """One player line of a list: the number of the line it starts on, and either the
    player's fields as given (text stripped; `substitute` a bool) or what is wrong with it
    (a clause naming the line, for `refused`)."""

    line: int
    fields: dict[str, Any]
    problem: str | None = None


def read_player_list(text: str) -> list[ListedLine]:
    """The player lines of CSV `text` (a header line, then one player a line; blank lines are
    skipped), in order. Refused at once when the file cannot be read as a list: too long, a
    line that is not CSV, or no header naming a key and a name."""
    records = _csv_records(text.lstrip("\ufeff"))
    if not records:
        raise ValidationError(_("The file is empty."), code="csv_empty")
    columns = _column_map(records[0][1])
    lines: list[ListedLine] = []
    for line, row in records[1:]:
        if not any(cell.strip() for cell in row):
            continue
        values: dict[str, Any] = {
            field: row[index].strip() if index < len(row) else ""
            for field, index in columns.items()
        }
        substitute = values.pop("substitute", "").lower()
        if substitute not in TRUE | FALSE:
            problem = _("substitute is yes or no, not “%(value)s”") % {"value": substitute}
            lines.append(ListedLine(line, values, line_problem(line, problem)))
        else:
            lines.append(ListedLine(line, {**values, "substitute": substitute in TRUE}))
    return lines


def line_problem(line: int, problem: Any) -> str:
    """What is wrong with a line, as one clause of the refusal: "line 4: ..."."""
    return str(_("line %(line)s: %(problem)s") % {"line": line, "problem": problem})


def messages_of(error: ValidationError) -> str:
    """The messages of `error` as one clause of a list joined by semicolons: each without its
    final full stop, which would otherwise stand before the semicolon ("name.; line 4")."""
    if hasattr(error, "message_dict"):
        messages = [message for listed in error.message_dict.values() for message in listed]
    else:
        messages = error.messages
    return "; ".join(str(message).rstrip(".。") for message in messages)


def refused(problems: list[str]) -> ValidationError:
    """The refusal of a list, naming its wrong lines (the first twenty of them)."""
    shown = problems[:20]
    if len(problems) > len(shown):
        shown.append(gettext("and %(count)s more") % {"count": len(problems) - len(shown)})
    return ValidationError(
        _("Nothing was imported. Fix these lines and try again: %(problems)s."),
        code="csv_rows",
        params={"problems": "; ".join(shown)},
    )


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


def _csv_records(text: str) -> list[tuple[int, list[str]]]:
    """The records of CSV `text`, each with the number of the line it starts on (the limits
    and refusals are the module's)."""
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
            raise refused([*problems, _unreadable(reader.line_num, error)]) from None
        problem = _row_problem(row, first, reader.line_num)
        if problem:
            problems.append(problem)
        else:
            records.append((first, row))
        if len(records) + len(problems) > MAX_CSV_PLAYERS + 1:  # the header and the players
            raise ValidationError(
                _("The list has more than %(most)s players; split it into several imports."),
                code="csv_too_large",
                params={"most": f"{MAX_CSV_PLAYERS:,}"},
            )
    if problems:
        raise refused(problems)
    return records


def _unreadable(line: int, error: csv.Error) -> str:
    """What is wrong with a line the CSV reader gave up on."""
    if str(error).startswith("field larger than field limit"):
        return _cell_too_long(line)
    return gettext(
        'line %(line)s cannot be read as CSV (%(error)s); is a quote (") missing or misplaced?'
    ) % {"line": line, "error": error}


def _row_problem(row: list[str], first: int, last: int) -> str | None:
    """What is wrong with a record read from lines `first` to `last`, if anything."""
    if any("\n" in cell or "\r" in cell for cell in row):
        return gettext(
            'lines %(first)s to %(last)s are read as one, because a quote (") opens '
            "a cell and is not closed on its line"
        ) % {"first": first, "last": last}
    if any(len(cell) > MAX_CSV_CELL for cell in row):
        return _cell_too_long(first)
    return None


def _cell_too_long(line: int) -> str:
    return gettext("line %(line)s: a cell is longer than %(most)s characters") % {
        "line": line,
        "most": f"{MAX_CSV_CELL:,}",
    }
