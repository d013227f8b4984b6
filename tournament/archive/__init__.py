"""The tournament archive: a whole tournament as one JSON document, and reading it back.

The format is "mcr-tournament-archive", version 1 (see issue 3), described by the pydantic
models of `schema`; `python manage.py archive_schema` prints it as a JSON Schema. Beside the
fields it names, an export carries what a lossless copy needs: dates, venue, tie-breaks,
organisers, withdrawals, round status, referees, penalty kinds (so false wins come back as false
wins), who entered each hand and penalty and when, when each game ended, and its game sheet: who
submitted it, and when and by whom it was confirmed. The tournament's confirmation setting and
round time limit are kept; the round clocks are not (they only matter while a round is played).

An import parses the document into the schema's models, then builds the tournament through the
services, so every rule of a live tournament is checked again: seating, round status, 16-hand
games, the 8-fan minimum, tiles scored by the engine for the winner's seat and prevailing wind,
penalties. It is all or nothing: the first problem stops it with an `ArchiveError` naming the
round, table and hand, and nothing is saved.

Keys a document must have: `format`, `version`, `tournament` (with `name` and `slug`),
`players` (each with `key` and `name`), `rounds` (each with `number`), every table's `number`
and `seats`, every hand's `number` and `result` (and `winner` and `fan` for a win), every
penalty's `player`, `points` and `distributed` (and a `reason`, which a false win may leave
out). Everything else has a default, the Django model's; free text (venue, country, club, team,
EMA number, reason) may also be null. An archive written before game sheets were confirmed (no
`confirmed_at` key) counts every ended game as confirmed, as the games counted then.
Users (organisers, referees, who entered a result) are matched by username; names unknown here
are left out, their entries are attributed to the importing user, and a warning says so. When
none of the organisers exists here, the importing user organises the tournament.

Modules: `schema` (the format), `errors` (`ArchiveError` and the words for where a document is
wrong), `export` and `load` (the import).
"""

from __future__ import annotations

from tournament.archive.errors import ArchiveError
from tournament.archive.export import export_tournament
from tournament.archive.load import import_tournament, parse
from tournament.archive.schema import (
    FALSE_WIN_KINDS,
    FORMAT,
    VERSION,
    VERSIONS,
    Archive,
    json_schema,
)

__all__ = [
    "FALSE_WIN_KINDS",
    "FORMAT",
    "VERSION",
    "VERSIONS",
    "Archive",
    "ArchiveError",
    "export_tournament",
    "import_tournament",
    "json_schema",
    "parse",
]
