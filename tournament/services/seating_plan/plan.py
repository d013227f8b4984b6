"""What the seating engine is given for a tournament, and running it over the draft rounds.

`build_plan` reads everything a run needs from the database (the rounds to seat, the published
rounds as they are seated, each round's field and the separations); `seat_plan` runs the engine
once per stretch of draft rounds that share one field. Nothing here writes to the database.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournament.domain import seating as engine
from tournament.models import Player, Round, Seat, Tournament
from tournament.reads.selectors import standings
from tournament.services.rounds import players_to_seat

Status = Round.Status
PUBLISHED = (Status.SEATED, Status.PLAYING, Status.FINISHED)
ATTRIBUTES = ("club", "country", "team")


@dataclass(frozen=True)
class Segment:
    """Draft rounds that share one field of players, seated by one run of the engine."""

    rounds: tuple[int, ...]
    field: tuple[engine.Entrant, ...]
    #: (round number, player keys best first) for the rounds seated by standing.
    by_standing: tuple[tuple[int, tuple[str, ...]], ...]


@dataclass(frozen=True)
class Plan:
    """Everything a run reads from the database; compared again before the result is saved."""

    #: Round numbers to create (after the last existing round, up to planned_rounds).
    missing: tuple[int, ...]
    #: Every round seated by this run: the draft rounds and the missing ones, in order.
    drafts: tuple[int, ...]
    #: The published rounds as they are seated.
    frozen: tuple[engine.RoundSeating, ...]
    segments: tuple[Segment, ...]
    separations: engine.Separations


def _normal(value: str) -> str:
    return " ".join(value.split()).casefold()


def entrants(players: Iterable[Player]) -> list[engine.Entrant]:
    """The engine's view of `players`.

    Clubs, countries and teams are compared without case or extra spaces ("Oak MC" and
    "oak  mc" are one club); each is given in the spelling of its first player.
    """
    players = list(players)
    spelling: dict[tuple[str, str], str] = {}
    for player in sorted(players, key=lambda p: p.key):
        for attribute in ATTRIBUTES:
            value = getattr(player, attribute)
            spelling.setdefault((attribute, _normal(value)), value.strip())
    return [
        engine.Entrant(
            key=player.key,
            club=spelling[("club", _normal(player.club))],
            country=spelling[("country", _normal(player.country))],
            team=spelling[("team", _normal(player.team))],
            fixed_table=player.fixed_table,
        )
        for player in players
    ]


def separations_of(tournament: Tournament) -> engine.Separations:
    return engine.Separations(
        club=engine.Separation(tournament.separate_clubs),
        country=engine.Separation(tournament.separate_countries),
        team=engine.Separation(tournament.separate_teams),
    )


def round_seatings(tournament: Tournament) -> dict[int, engine.RoundSeating]:
    """The stored seating of every round that has tables, keyed by round number (one query)."""
    tables: dict[int, dict[int, dict[str, str]]] = defaultdict(lambda: defaultdict(dict))
    for number, table, wind, key in Seat.objects.filter(round__tournament=tournament).values_list(
        "round__number", "table__number", "starting_wind", "player__key"
    ):
        tables[number][table][wind] = key
    return {
        number: engine.RoundSeating(
            number=number,
            tables=tuple(
                engine.TableSeating.of(table, (seats.get(wind, "") for wind in engine.WINDS))
                for table, seats in sorted(by_table.items())
            ),
        )
        for number, by_table in sorted(tables.items())
    }


def refuse_unless_plannable(tournament: Tournament) -> int:
    """Generating needs planned rounds and at least one draft round or round still to come.

    Returns the number of planned rounds."""
    if not tournament.planned_rounds:
        raise ValidationError(
            _("Set how many rounds the tournament will have before generating its seating."),
            code="no_planned_rounds",
        )
    rounds = list(tournament.rounds.values_list("number", "status"))
    last = max((number for number, _status in rounds), default=0)
    published = all(status != Status.DRAFT for _number, status in rounds)
    if last >= tournament.planned_rounds and published:
        raise ValidationError(
            _(
                "Every round up to round %(rounds)s is published: there is no draft round to seat. "
                "Plan more rounds, or put a round back to draft on its page."
            ),
            code="nothing_to_generate",
            params={"rounds": tournament.planned_rounds},
        )
    return tournament.planned_rounds


def build_plan(tournament: Tournament) -> Plan:
    """Read the engine's input for `tournament` from the database.

    Raises ValidationError when there is nothing to generate or a round's field cannot fill
    tables of four (`players_to_seat`).
    """
    tournament = Tournament.objects.get(pk=tournament.pk)
    planned = refuse_unless_plannable(tournament)
    rounds = {round.number: round for round in tournament.rounds.all()}
    last = max(rounds, default=0)
    missing = tuple(range(last + 1, planned + 1))
    drafts = tuple(
        sorted([n for n, r in rounds.items() if r.status == Status.DRAFT] + list(missing))
    )
    if tournament.cut_after_round is not None:
        # The rounds after a cut are seated from it, one at a time (services/stages.py).
        missing = tuple(n for n in missing if n <= tournament.cut_after_round)
        drafts = tuple(n for n in drafts if n <= tournament.cut_after_round)
        if not drafts:
            raise ValidationError(
                _(
                    "Every round up to the cut after round %(round)s is published; the rounds "
                    "after it are seated from the cut, one at a time, on their pages."
                ),
                code="nothing_to_generate",
                params={"round": tournament.cut_after_round},
            )
    seated = round_seatings(tournament)
    frozen = tuple(
        seated.get(n, engine.RoundSeating(number=n, tables=()))
        for n, r in sorted(rounds.items())
        if r.status in PUBLISHED
    )
    order: tuple[str, ...] = ()
    if any(rounds[n].seat_by_standing for n in drafts if n in rounds):
        order = tuple(row.player.key for row in standings(tournament) if row.rank is not None)
    segments: list[Segment] = []
    for number in drafts:
        round = rounds.get(number) or Round(tournament=tournament, number=number)
        field_ = tuple(entrants(players_to_seat(round)))
        standing = ((number, order),) if round.seat_by_standing else ()
        if segments and segments[-1].field == field_:
            last_segment = segments[-1]
            segments[-1] = Segment(
                rounds=(*last_segment.rounds, number),
                field=field_,
                by_standing=last_segment.by_standing + standing,
            )
        else:
            segments.append(Segment(rounds=(number,), field=field_, by_standing=standing))
    return Plan(
        missing=missing,
        drafts=drafts,
        frozen=frozen,
        segments=tuple(segments),
        separations=separations_of(tournament),
    )


def _renumber(round_: engine.RoundSeating, number: int) -> engine.RoundSeating:
    return engine.RoundSeating(number=number, tables=round_.tables)


def seat_plan(
    plan: Plan,
    *,
    seed: int,
    effort: float = 1.0,
    progress: Any = None,
) -> dict[int, engine.RoundSeating]:
    """Run the engine once per segment; the seating of every draft round, by round number.

    Each run sees the published rounds and the segments seated before it as frozen rounds.
    They are numbered first and the segment's rounds after them, so the engine needs no
    round numbers beyond those it seats (a published round may come after a draft one).
    `progress(segment, Progress)` is called with the engine's progress reports.
    """
    seated: dict[int, engine.RoundSeating] = {}
    for index, segment in enumerate(plan.segments):
        kept = sorted([*plan.frozen, *seated.values()], key=lambda r: r.number)
        frozen = [_renumber(r, position) for position, r in enumerate(kept, start=1)]
        virtual = {number: len(kept) + i for i, number in enumerate(segment.rounds, start=1)}
        report = None
        if progress is not None:

            def report(state: engine.Progress, segment: Segment = segment) -> None:
                progress(segment, state)

        result = engine.generate(
            list(segment.field),
            len(kept) + len(segment.rounds),
            frozen=frozen,
            separations=plan.separations,
            by_standing={virtual[n]: list(order) for n, order in segment.by_standing},
            seed=seed + index,
            effort=effort,
            progress=report,
        )
        for number in segment.rounds:
            seated[number] = _renumber(result.round(virtual[number]), number)
    return seated
