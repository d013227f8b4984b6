"""Print a tournament's standings: a text table, or JSON with --json.

    python manage.py standings SLUG
    python manage.py standings SLUG --json

JSON is a list of {"rank", "player", "name", "table_points", "table_points_exact", "score",
"substitute"}: ranked players first, in order (players level on everything share a rank),
then substitutes with rank null. Table points can be thirds or quarters when games end in a
tie, so "table_points" is a whole number when it is one and otherwise rounded to two decimals,
and "table_points_exact" is the exact fraction as text ("7/3", "4").
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.models import Tournament
from tournament.selectors import Standing, format_points, standings


def standing_json(row: Standing) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "player": row.player.key,
        "name": row.player.name,
        "table_points": points_number(row.table_points),
        "table_points_exact": str(row.table_points),
        "score": row.score,
        "substitute": row.player.substitute,
    }


def points_number(points: Fraction) -> int | float:
    """An int when whole, else a float rounded to two decimals (7/3 -> 2.33)."""
    if points.denominator == 1:
        return points.numerator
    return round(float(points), 2)


class Command(BaseCommand):
    help = "Print the standings of a tournament (table points, then score, then tie-breaks)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="The tournament's slug, as in its address.")
        parser.add_argument("--json", action="store_true", help="Print JSON instead of a table.")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(f"No tournament has the slug {options['slug']!r}.")
        rows = standings(tournament)
        if options["json"]:
            self.stdout.write(
                json.dumps([standing_json(row) for row in rows], ensure_ascii=False, indent=2)
            )
            return
        self.stdout.write(self._table(tournament, rows))

    def _table(self, tournament: Tournament, rows: list[Standing]) -> str:
        header = ("Rank", "Key", "Name", "Table points", "Score")
        lines = [
            (
                str(row.rank) if row.rank is not None else "sub",
                row.player.key,
                row.player.name + (" (withdrawn)" if row.player.withdrawn else ""),
                format_points(row.table_points),
                str(row.score),
            )
            for row in rows
        ]
        widths = [max(len(line[i]) for line in [header, *lines]) for i in range(len(header))]
        right = {0, 3, 4}

        def render(cells: tuple[str, ...]) -> str:
            return "  ".join(
                cell.rjust(width) if i in right else cell.ljust(width)
                for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
            ).rstrip()

        out = [tournament.name, render(header), render(tuple("-" * w for w in widths))]
        out += [render(line) for line in lines]
        if not rows:
            out.append("No players yet.")
        return "\n".join(out)
