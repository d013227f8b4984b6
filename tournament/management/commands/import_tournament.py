"""Create a tournament from a JSON archive written by `export_tournament`.

    python manage.py import_tournament spring-cup.json [--actor USERNAME] [--slug NEW]
    python manage.py import_tournament - < spring-cup.json

Archives of version 1 (MCR hands) and 2 (the deals of every preset) are read. Every hand,
penalty and seating goes through the same checks as when it was entered, and a deal's place in
the game and payments must be those its preset works out; the first problem stops the import
with a message naming the round, table and hand, and nothing is saved.
The audit trail names `--actor` as the one who entered everything; without it, the user
"system" (created on first use, without a usable password, so it cannot log in).
A tournament with the same slug is refused unless `--replace` is given (it is then deleted and
replaced in the same transaction) or `--slug` imports under another slug.
A hand recorded with its tiles keeps its recorded fan. When the tiles of some hands now score a
different fan (the rulings changed since they were scored), the import lists those hands and is
refused, unless `--keep-recorded-fan` is given: they are then imported with their recorded fan
and listed as a warning.
"""

from __future__ import annotations

import io
import json
import sys
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from tournament.archive import import_tournament
from tournament.archive.schema import MOST_CHARACTERS
from tournament.models import Deal

SYSTEM_USERNAME = "system"


def system_user() -> User:
    """The user that command-line imports are recorded under. It cannot log in (its password
    is unusable and it has no API token), but it is active: while the import runs it
    organises the tournament, and an inactive user holds no role, so it could not confirm the
    archive's game sheets."""
    user, created = get_user_model().objects.get_or_create(username=SYSTEM_USERNAME)
    if created or user.has_usable_password() or not user.is_active:
        user.set_unusable_password()
        user.is_active = True
        user.save(update_fields=["password", "is_active"])
    return user


class Command(BaseCommand):
    help = "Import a tournament from a JSON archive; all or nothing."
    # Lets tests pass a stream: call_command("import_tournament", "-", stdin=io.StringIO(...)).
    stealth_options = ("stdin",)

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help='The archive file; "-" reads standard input.')
        parser.add_argument(
            "--actor",
            metavar="USERNAME",
            help=f'Who the audit trail names for the import (default: "{SYSTEM_USERNAME}").',
        )
        parser.add_argument("--slug", help="Import under this slug instead of the archive's.")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="Replace the tournament that has the same slug, if there is one.",
        )
        parser.add_argument(
            "--keep-recorded-fan",
            action="store_true",
            help="Import hands whose tiles now score a different fan with the fan the archive "
            "records (they are listed as a warning); without it such an archive is refused.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        data = self._read(options["path"], options.get("stdin"))
        warnings: list[str] = []
        try:
            # The system user is made in the same transaction: a refused import leaves nothing.
            with transaction.atomic():
                tournament = import_tournament(
                    data,
                    actor=self._actor(options["actor"]),
                    slug=options["slug"],
                    replace=options["replace"],
                    warnings=warnings,
                    keep_recorded_fan=options["keep_recorded_fan"],
                )
        except ValidationError as error:
            raise CommandError("Nothing was imported. " + " ".join(error.messages)) from None
        for warning in warnings:
            self.stderr.write(self.style.WARNING(warning))
        rounds = tournament.rounds.count()
        hands = Deal.objects.filter(table__round__tournament=tournament).count()
        counts = [
            _count(tournament.players.count(), "player"),
            _count(rounds, "round"),
            _count(hands, "hand"),
        ]
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported {tournament.name!r} ({tournament.slug}): {', '.join(counts)}."
            )
        )

    def _read(self, path: str, stdin: Any) -> Any:
        try:
            if path == "-":
                stream = stdin or io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8")
                text = stream.read(MOST_CHARACTERS + 1)
            else:
                with open(path, encoding="utf-8") as file:
                    text = file.read(MOST_CHARACTERS + 1)
        except OSError as error:
            raise CommandError(f"Cannot read {path}: {error.strerror}.") from None
        except UnicodeDecodeError:
            raise CommandError(f"{path} is not UTF-8 text.") from None
        if len(text) > MOST_CHARACTERS:
            raise CommandError(
                f"{path} is longer than {MOST_CHARACTERS:,} characters, more than an archive holds."
            )
        try:
            return json.loads(text)
        except json.JSONDecodeError as error:
            raise CommandError(
                f"{path} is not valid JSON: {error.msg} at line {error.lineno}, "
                f"column {error.colno}."
            ) from None
        except RecursionError:
            raise CommandError(f"{path} is nested too deeply to be an archive.") from None
        except ValueError as error:  # a number of thousands of digits
            raise CommandError(f"{path} cannot be read: {error}.") from None

    def _actor(self, username: str | None) -> User:
        if username is None:
            return system_user()
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"No user is called {username!r}.")
        return user


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")
