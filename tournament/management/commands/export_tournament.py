"""Write a whole tournament as one JSON archive ("mcr-tournament-archive", the newest
version, 5: the deals of every rule preset with their places and payments, the referee accounts,
registration and check-in, the final stage, the prize-giving, teams and extra time).

    python manage.py export_tournament SLUG > spring-cup.json
    python manage.py export_tournament SLUG --output spring-cup.json

`import_tournament` reads the file back; `archive_schema` prints the format as a JSON Schema.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.archive import export_tournament
from tournament.models import Tournament


class Command(BaseCommand):
    help = "Export a tournament (players, rounds, tables, hands, penalties) as a JSON archive."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="The tournament's slug, as in its address.")
        parser.add_argument(
            "--output", "-o", metavar="FILE", help="Write to FILE instead of standard output."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(f"No tournament has the slug {options['slug']!r}.")
        text = json.dumps(export_tournament(tournament), ensure_ascii=False, indent=2)
        if options["output"]:
            try:
                with open(options["output"], "w", encoding="utf-8") as file:
                    file.write(text + "\n")
            except OSError as error:
                raise CommandError(f"Cannot write {options['output']}: {error.strerror}.") from None
            self.stderr.write(f"Wrote {tournament.name} to {options['output']}.")
        else:
            self.stdout.write(text)
