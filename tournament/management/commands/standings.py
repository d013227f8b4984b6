"""Print a tournament's standings: a text table, or JSON with --json.

    python manage.py standings SLUG
    python manage.py standings SLUG --provisional --json
    python manage.py standings SLUG --teams [--json] [--provisional]

The standings count the games whose sheets are confirmed. With --provisional they also count
the games whose sheets are submitted but not confirmed yet; the text table marks the players
concerned with "*".

JSON is a list of {"rank", "player", "name", "table_points", "table_points_exact", "score",
"substitute", "provisional_games"}: ranked players first, in order (players level on
everything share a rank), then substitutes with rank null. Table points can be thirds or
quarters when games end in a tie, so "table_points" is a whole number when it is one and
otherwise rounded to two decimals, and "table_points_exact" is the exact fraction as text
("7/3", "4"). "provisional_games" is how many of the games counted are not confirmed yet
(always 0 without --provisional).

This is an organiser's tool: it prints the full standings, also while rounds are hidden until
the prize-giving (`tournament.reads.prize_giving`). With --public it prints what the public sees
then: only the games of the rounds before the hidden ones count, and the text table says so
(the JSON is the same list, of those standings). Once the standings are revealed, or when no
round is hidden, --public changes nothing.

    python manage.py standings SLUG --public --json

With --teams, the team standings instead (players' team field; tournament.reads.teams): a team's
ranking counts the table points, then the scores, of its best k players by the individual
standings (the tournament's "team ranking counts the best k players"; empty: all of them),
substitutes never. A team with fewer than k players is incomplete and ranked after every
complete team; teams level on both share a rank. The text table marks the players counted
with "+" and incomplete teams with "(incomplete)". JSON is {"best_of", "teams"}: "best_of" is
k (null: all), "teams" a list of {"rank", "team", "slug", "complete", "table_points",
"table_points_exact", "score", "members"}, each member {"player", "name", "rank",
"table_points", "table_points_exact", "score", "substitute", "counted"}, in the individual
standings' order.

A tournament with a final stage (docs/stages.md) ranks its finalists first once the cut is
confirmed: "stage" says where each row ranks ("final", "consolation", or "main" with --stage
main; null without a final stage), "carried_table_points" and "carried_score" what a finalist
carried over from the cut (exact fractions as text; null for the others), and "score" is then
a number rounded to two decimals when the carry-over makes it a fraction, "score_exact" the
exact value. --stage main|final|consolation prints one stage's standings alone.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.api import schemas
from tournament.models import Round, Table, Tournament
from tournament.reads.prize_giving import public
from tournament.reads.selectors import Standing, format_points, standings
from tournament.reads.stages import STAGES, format_score, stage_heading
from tournament.reads.teams import TeamStanding, team_standings


class Command(BaseCommand):
    help = "Print the standings of a tournament (table points, then score, then tie-breaks)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="The tournament's slug, as in its address.")
        parser.add_argument("--json", action="store_true", help="Print JSON instead of a table.")
        parser.add_argument(
            "--provisional",
            action="store_true",
            help="Also count games whose sheets are submitted but not confirmed yet.",
        )
        parser.add_argument(
            "--public",
            action="store_true",
            help="What the public sees: without the rounds hidden until the prize-giving.",
        )
        parser.add_argument(
            "--teams",
            action="store_true",
            help="Print the team standings (the best k players of each team) instead.",
        )
        parser.add_argument(
            "--stage",
            choices=STAGES,
            help="One stage's standings alone: before the cut, the final or the consolation.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(f"No tournament has the slug {options['slug']!r}.")
        provisional = options["provisional"]
        before_round = public(tournament).before_round if options["public"] else None
        rows = standings(
            tournament, provisional=provisional, before_round=before_round, stage=options["stage"]
        )
        if options["teams"]:
            teams = team_standings(tournament, rows)
            if options["json"]:
                answer = {
                    "best_of": tournament.team_best_of,
                    "teams": [
                        schemas.TeamStanding.model_validate(team).model_dump(mode="json")
                        for team in teams
                    ],
                }
                self.stdout.write(json.dumps(answer, ensure_ascii=False, indent=2))
            else:
                self.stdout.write(self._teams(tournament, teams, provisional))
            return
        if options["json"]:
            self.stdout.write(
                json.dumps(
                    [schemas.Standing.model_validate(row).model_dump(mode="json") for row in rows],
                    ensure_ascii=False,
                    indent=2,
                )
            )
            return
        self.stdout.write(self._table(tournament, rows, provisional, before_round))

    def _table(
        self,
        tournament: Tournament,
        rows: list[Standing],
        provisional: bool,
        before_round: int | None = None,
    ) -> str:
        header = ("Rank", "Key", "Name", "Table points", "Score")
        lines = [
            (
                str(row.rank) if row.rank is not None else "sub",
                row.player.key,
                row.player.name
                + (" (withdrawn)" if row.player.withdrawn else "")
                + (" *" if row.provisional_games else ""),
                format_points(row.table_points),
                format_score(row.score),
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

        heading = stage_heading(tournament)
        out = [
            tournament.name + (f" — {heading}" if heading else ""),
            render(header),
            render(tuple("-" * w for w in widths)),
        ]
        out += [render(line) for line in lines]
        if not rows:
            out.append("No players yet.")
        notes = _notes(tournament, provisional)
        if before_round is not None:
            hidden = (
                f"Public standings: round {before_round} and later are hidden until the "
                "prize-giving."
            )
            notes = ["", hidden, *notes[1:]]
        out += notes
        return "\n".join(out)

    def _teams(self, tournament: Tournament, teams: list[TeamStanding], provisional: bool) -> str:
        best_of = tournament.team_best_of
        out = [
            f"{tournament.name}: team standings, "
            + ("every player counts" if best_of is None else f"the best {best_of} count")
        ]
        for team in teams:
            out.append("")
            out.append(
                f"{team.rank}. {team.name}"
                + ("" if team.complete else " (incomplete)")
                + f"  {format_points(team.table_points)} table points,"
                + f" score {format_score(team.score)}"
            )
            for member in team.members:
                row = member.standing
                out.append(
                    "   "
                    + ("+ " if member.counted else "  ")
                    + f"{row.player.key} {row.player.name}"
                    + (" (substitute)" if row.player.substitute else "")
                    + (" (withdrawn)" if row.player.withdrawn else "")
                    + f"  {format_points(row.table_points)} / {format_score(row.score)}"
                )
        if not teams:
            out.append("No teams yet.")
        else:
            out += ["", "+ counted for the team"]
        out += _notes(tournament, provisional)
        return "\n".join(out)


def _notes(tournament: Tournament, provisional: bool) -> list[str]:
    """What the standings leave out: games in play, and sheets waiting for confirmation."""
    tables = Table.objects.filter(round__tournament=tournament, confirmed_at__isnull=True).exclude(
        round__status=Round.Status.DRAFT
    )
    playing = tables.filter(ended_at__isnull=True).count()
    waiting = tables.filter(ended_at__isnull=False).count()
    notes = []
    if provisional and waiting:
        notes.append(f"* Provisional: counts {_games(waiting)} whose sheets are not confirmed yet.")
    elif waiting:
        notes.append(
            f"Not counted: {_games(waiting)} whose sheets wait for confirmation "
            "(--provisional counts them)."
        )
    if playing:
        notes.append(f"Not counted: {_games(playing)} still being played.")
    return [""] + notes if notes else []


def _games(number: int) -> str:
    return f"{number} game" + ("" if number == 1 else "s")
