"""Print the JSON Schema of the tournament archive ("mcr-tournament-archive", every version
from 1, MCR hands, to 5, which exports write: `tournament/archive/__init__.py` says what each adds).

    python manage.py archive_schema > archive.schema.json

It is generated from the models that imports read archives into (tournament/archive/schema.py),
so it describes exactly what `import_tournament` accepts as a document; the rules of a live
tournament (fan, values, seating, penalties, who deals and what a deal pays) are checked beyond
it when the archive is loaded.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.archive import json_schema


class Command(BaseCommand):
    help = "Print the JSON Schema of the tournament archive that export_tournament writes."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--output", "-o", metavar="FILE", help="Write to FILE instead of standard output."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        text = json.dumps(json_schema(), ensure_ascii=False, indent=2)
        if options["output"]:
            try:
                with open(options["output"], "w", encoding="utf-8") as file:
                    file.write(text + "\n")
            except OSError as error:
                raise CommandError(f"Cannot write {options['output']}: {error.strerror}.") from None
            self.stderr.write(f"Wrote the archive's JSON Schema to {options['output']}.")
        else:
            self.stdout.write(text)
