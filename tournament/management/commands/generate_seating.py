from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.domain import seating


class Command(BaseCommand):
    help = (
        "Seat a synthetic field with the seating engine: players keyed 1..N, player i in club "
        "i mod K with --clubs (kept apart softly, or always with --hard-clubs)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True, help="field size N")
        parser.add_argument("--rounds", type=int, required=True, help="number of rounds R")
        parser.add_argument("--seed", type=int, default=0, help="same seed, same seating")
        parser.add_argument("--clubs", type=int, help="K clubs: player i is in club i mod K")
        parser.add_argument(
            "--hard-clubs",
            action="store_true",
            help="never seat two players of one club together (default: avoid where possible)",
        )
        parser.add_argument(
            "--effort", type=float, default=1.0, help="scales the search budget (default 1.0)"
        )
        parser.add_argument("--json", action="store_true", help="print the seating as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        players, rounds, clubs = options["players"], options["rounds"], options["clubs"]
        if players < 4:
            raise CommandError(f"--players must be at least 4, not {players}.")
        if players % 4:
            missing = seating.substitutes_needed(players)
            raise CommandError(
                f"--players {players} is not a multiple of four: add {missing} "
                f"substitute{'s' if missing > 1 else ''} (EMA allows up to "
                f"{seating.MAX_SUBSTITUTES}) to seat everyone."
            )
        if rounds < 1:
            raise CommandError(f"--rounds must be at least 1, not {rounds}.")
        if clubs is not None and clubs < 1:
            raise CommandError(f"--clubs must be at least 1, not {clubs}.")
        if options["hard_clubs"] and clubs is None:
            raise CommandError("--hard-clubs needs --clubs.")
        if not options["effort"] > 0:
            raise CommandError(f"--effort must be above 0, not {options['effort']}.")
        field = [
            seating.Entrant(key=str(i), club=f"club {i % clubs}" if clubs else "")
            for i in range(1, players + 1)
        ]
        separation = seating.Separation.HARD if options["hard_clubs"] else seating.Separation.SOFT
        try:
            result = seating.generate(
                field,
                rounds,
                seed=options["seed"],
                effort=options["effort"],
                separations=seating.Separations(club=separation),
            )
        except seating.SeatingError as error:
            raise CommandError(error.message) from error
        if options["json"]:
            self.stdout.write(json.dumps(as_json(result), ensure_ascii=False))
            return
        self.stdout.write(describe(result))


def as_json(result: seating.Seating) -> dict:
    return {
        "rounds": [
            {
                "number": round_.number,
                "tables": [
                    {"number": table.number, "seats": table.by_wind} for table in round_.tables
                ],
            }
            for round_ in result.rounds
        ]
    }


def describe(result: seating.Seating) -> str:
    lines = []
    for round_ in result.rounds:
        lines.append(f"Round {round_.number}")
        for table in round_.tables:
            seats = "  ".join(f"{wind} {key:>4}" for wind, key in table.by_wind.items())
            lines.append(f"  table {table.number:>3}: {seats}")
    f = result.figures
    lines.append(
        f"repeats {f.repeats}, club conflicts {f.club_conflicts}, "
        f"wind imbalance {f.wind_imbalance}, table repeats {f.table_repeats}"
        + (f", from {result.construction}" if result.construction else "")
    )
    return "\n".join(lines)
