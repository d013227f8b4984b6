"""The tournament archive: a whole tournament as one JSON document, and reading it back.

The format is "mcr-tournament-archive" (the name it had when it held only MCR), described by the
pydantic models of `schema`; `python manage.py archive_schema` prints it as a JSON Schema (any
version). Exports write version 5; imports read versions 1 to 5.

- Version 1 (see issue 3) holds MCR games: each hand a win (fan and flowers, or tiles) or a draw.
- Version 2 (issue 14) holds the deals of every rule preset (MCR, Japanese Transitional,
  Wilmington Advanced 12-Tile). The tournament carries its `rule_settings` (the preset's
  configurable values, such as JT's "wind_rounds"). Each deal ("hands" of a table, in order)
  carries its `number`, its place in the game (`prevailing_wind`, `dealer` by player key,
  `extra_hands`: the dealer's extra-hand number), its `result` ("win", "draw" or "faulty_out"),
  `winner` and `discarder` (none: self-drawn), the value of the win (MCR `fan`, `flowers` and
  perhaps `tiles`; JT and WA `value`), the further winners on the same discard
  (`extra_winners`: [{"winner", "value"}], WA), the preset's facts (`riichi`,
  `faulty_claims` (one entry per claim), `ready`, `faulty_riichi`: lists of player keys; the
  faulty out's `offender`) and its `payments` ({"E", "S", "W", "N"}: what each starting seat
  gained or paid). A WA faulty out, which does not end the deal, is a false-win penalty of its
  deal, as in version 1.
- Version 3 is version 2 with the tournament's referee accounts: `referee_accounts`, a list of
  {"username", "name"} (the person's name, may be empty), never a password or its hash. Which
  referee has which table in each round is each table's `referees` (usernames), as in
  versions 1 and 2. An import makes each account missing here, with its name and no usable
  password, as an account of the new tournament (one audit entry names them) and warns that
  each needs a password ("New password" on the referee accounts page). A user of the same
  name who exists here is never changed nor taken over: it stays as it is (another
  tournament's referee account keeps its tournament and password) and a warning names it;
  where the archive assigns it to tables, it referees them, as every username of an archive
  is matched. The one exception is an import that replaces a tournament (`replace`): the
  replaced tournament's own accounts become the new one's again, unless one has become an
  organiser or staff member since. The tables' referees are written in one statement a round.
- Version 4 is version 3 with what happens before the games: the tournament's registration
  settings (`registration`: off, instant or approval; `registration_opens`,
  `registration_closes`, `registration_cap`) and check-in settings (`check_in_open`,
  `self_check_in`, `check_in_closed_at`), each player's `checked_in_at` and `joins_from_round`
  (a late arrival), and `registrations`: each one made on the public page, in order of arrival,
  with its status and, once accepted, its `player` (by key). A registration's `contact` is
  kept: the archive is the organisers' own copy of their tournament, written and read on the
  server's command line, never a public page or a results export. Never a player's private
  link. An import sets the registration settings through their service and writes the
  registrations as they were (nobody is promoted, nothing counted by the throttle).
- Version 5 is version 4 with the final stage (`cut_after_round`, `cut_size`, `carry_over`,
  `final_seating`, `consolation`) and its confirmed `cut` with the finalists and what each
  carried, the prize-giving's hidden standings (`standings_hidden_from`,
  `standings_revealed_at`), the teams' `team_best_of`, and each table's
  own `extra_minutes` (docs/stages.md).

Beside the fields it names, an export carries what a lossless copy needs: dates, venue, tie-breaks,
organisers, withdrawals, round status, referees, penalty kinds (so false wins come back as false
wins), who entered each hand and penalty and when, when each game ended, and its game sheet: who
submitted it, and when and by whom it was confirmed. The tournament's confirmation setting and
round time limit are kept; the round clocks are not (they only matter while a round is played).
Export, import into an empty database and export again give the same document, for every preset.

An import parses the document into the schema's models (of the version it gives), then builds the
tournament with the services' checks (each round's games in memory with the functions
`record_deal` and the penalty and game-end services use, then written in bulk; `bulk=False`
goes hand by hand through the services themselves), so every rule of a live tournament is
checked again: seating, round
status, the game's length, the 8-fan minimum, a value the preset allows (JT: a multiple of 10 from
20 to 1,500; WA: 15 to 600), tiles scored by the engine for the winner's seat and prevailing wind,
penalties. A hand recorded with tiles keeps its recorded fan: when the tiles now score another fan
(older rulings), the import lists those hands and is refused unless `keep_recorded_fan` is given
(`--keep-recorded-fan`), which imports them as recorded. The services place and pay each deal from
the deals before it; a deal's `prevailing_wind`, `dealer`, `extra_hands` and `payments`, where the
document gives them, must be what they work out (left out, they are worked out). Payments must add
up to zero. It is all or nothing: the first problem stops it with an `ArchiveError` naming the
round, table and hand ("round 1, table 2, hand 5: ..."), and nothing is saved.

Keys a document must have: `format`, `version`, `tournament` (with `name` and `slug`), `players`
(each with `key` and `name`), `rounds` (each with `number`), every table's `number` and `seats`,
every hand's `number` and `result` (and `winner` for a win, with `fan` in version 1; `offender` for
a faulty out), every penalty's `player`, `points` and `distributed` (and a `reason`, which a false
win may leave out: its reason is written for it; another penalty without one, or with a blank
one, is refused). A table's `seats` and a deal's `payments` hold the keys E, S, W and N and no
other (a misspelt seat is refused by name, not dropped). Everything else has a default, the
Django model's; free text (venue, country, club, team, EMA number, reason) may also be null.
Every value is checked against the model field it goes into (text length, no NUL or lone
surrogate, whole numbers within the column's range) and a document's size is bounded
(`schema.MOST_PLAYERS`, `MOST_ROUNDS`, `MOST_HANDS`...), all by the schema, before the database
is touched. An archive written before game sheets were confirmed (no
`confirmed_at` key) counts every ended game as confirmed, as the games counted then. Users
(organisers, referees, who entered a result) are matched by username; names unknown here are left
out, their entries are attributed to the importing user, and a warning says so. When none of the
organisers exists here, the importing user organises the tournament.

Modules: `schema` (the format), `errors` (`ArchiveError` and the words for where a document is
wrong), `export`, and the import: `load` (the tournament and its players), `load_rounds` (rounds
and their games), `load_versions` (what versions 3 to 5 keep around the games) and `loader`
(what an import holds while it loads).
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
