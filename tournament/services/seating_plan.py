"""The seating plan: generate the draft rounds with the seating engine, measure, publish.

The organiser sets how many rounds the tournament will have, how firmly clubs, countries and
teams are kept apart, and which draft rounds are seated by standing. `start_seating_job`
then runs `tournament.seating.generate` for every draft round (creating the missing ones up to
`planned_rounds`); rounds that are seated, playing or finished are frozen: the engine keeps
them as they are and counts their meetings and starting winds.

A run is a `SeatingJob` row that shows its progress. It runs in a background thread, or in
the request when `settings.SEATING_JOBS_INLINE` is true (tests). Its result is applied in one
transaction at the end; a failure changes no round and leaves its message on the job.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from itertools import combinations
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import connections, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament import seating as engine
from tournament.models import Player, Round, Seat, SeatingJob, Separation, Tournament
from tournament.selectors import standings
from tournament.services.rounds import create_round, players_to_seat, set_round_status, set_seating

logger = logging.getLogger(__name__)

Status = Round.Status
PUBLISHED = (Status.SEATED, Status.PLAYING, Status.FINISHED)
#: A job still "running" after this long has died (the server stopped, say).
STALE_AFTER = timedelta(minutes=10)
#: Progress is written to the job row at most this often (seconds).
PROGRESS_INTERVAL = 0.25
#: The most rounds a tournament can plan.
MOST_ROUNDS = 50
ATTRIBUTES = ("club", "country", "team")


# --- Settings ------------------------------------------------------------------------------


@transaction.atomic
def update_seating_settings(
    *,
    tournament: Tournament,
    planned_rounds: int | None,
    separate_clubs: str,
    separate_countries: str,
    separate_teams: str,
    by_standing: Iterable[int],
    actor: AbstractBaseUser,
) -> Tournament:
    """Save the generator's settings of `tournament`.

    `by_standing` names the draft rounds (or rounds still to be created, up to
    `planned_rounds`) to be seated by standing; the missing rounds up to the highest of them
    are created as drafts so that the choice can be kept. Other draft rounds are seated
    normally; published rounds keep their flag.
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    rounds = {round.number: round for round in tournament.rounds.all()}
    last = max(rounds, default=0)
    if planned_rounds is not None and not 1 <= planned_rounds <= MOST_ROUNDS:
        raise ValidationError(
            {"planned_rounds": _("Plan between 1 and %(most)s rounds.") % {"most": MOST_ROUNDS}},
        )
    if planned_rounds is not None and planned_rounds < last:
        raise ValidationError(
            {
                "planned_rounds": ValidationError(
                    _(
                        "Rounds 1 to %(last)s exist already; remove the last draft rounds to plan "
                        "fewer."
                    ),
                    code="rounds_exist",
                    params={"last": last},
                )
            }
        )
    values = {
        "separate_clubs": separate_clubs,
        "separate_countries": separate_countries,
        "separate_teams": separate_teams,
    }
    for name, value in values.items():
        if value not in Separation.values:
            choices = ", ".join(Separation.values)
            raise ValidationError({name: _("Choose one of %(choices)s.") % {"choices": choices}})
    chosen = set(by_standing)
    open_numbers = {n for n, r in rounds.items() if r.status == Status.DRAFT}
    open_numbers |= set(range(last + 1, (planned_rounds or 0) + 1))
    refused = sorted(chosen - open_numbers)
    if refused:
        raise ValidationError(
            {
                "by_standing": ValidationError(
                    _(
                        "Only draft rounds and rounds still to come can be seated by standing, not "
                        "round %(rounds)s."
                    ),
                    code="not_draft",
                    params={"rounds": ", ".join(map(str, refused))},
                )
            }
        )
    tournament.planned_rounds = planned_rounds
    for name, value in values.items():
        setattr(tournament, name, value)
    tournament.save(update_fields=["planned_rounds", *values])
    for _missing in range(last, max(chosen, default=0)):
        created = create_round(tournament=tournament, actor=actor)
        rounds[created.number] = created
    for number, round in rounds.items():
        wanted = number in chosen
        if round.status == Status.DRAFT and round.seat_by_standing != wanted:
            round.seat_by_standing = wanted
            round.save(update_fields=["seat_by_standing"])
    return tournament


# --- What the engine is given --------------------------------------------------------------


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
                engine.TableSeating(
                    number=table, seats=tuple(seats.get(wind, "") for wind in engine.WINDS)
                )
                for table, seats in sorted(by_table.items())
            ),
        )
        for number, by_table in sorted(tables.items())
    }


def refuse_unless_plannable(tournament: Tournament) -> None:
    """Generating needs planned rounds and at least one draft round or round still to come."""
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


def build_plan(tournament: Tournament) -> Plan:
    """Read the engine's input for `tournament` from the database.

    Raises ValidationError when there is nothing to generate or a round's field cannot fill
    tables of four (`players_to_seat`).
    """
    tournament = Tournament.objects.get(pk=tournament.pk)
    refuse_unless_plannable(tournament)
    rounds = {round.number: round for round in tournament.rounds.all()}
    last = max(rounds, default=0)
    missing = tuple(range(last + 1, tournament.planned_rounds + 1))
    drafts = tuple(
        sorted([n for n, r in rounds.items() if r.status == Status.DRAFT] + list(missing))
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


# --- Running the engine --------------------------------------------------------------------


class Abandoned(Exception):
    """The job is no longer running (it was declared dead): stop the engine."""


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


def _rounds_text(numbers: Sequence[int]) -> str:
    if len(numbers) == 1:
        return f"round {numbers[0]}"
    if list(numbers) == list(range(numbers[0], numbers[-1] + 1)):
        return f"rounds {numbers[0]}–{numbers[-1]}"
    return "rounds " + ", ".join(map(str, numbers))


class ProgressWriter:
    """Writes the engine's progress to the job row, at most every PROGRESS_INTERVAL seconds.

    Each write is a single UPDATE outside any transaction (the job thread has its own
    connection), so the job page sees it at once. Raises Abandoned when the job is no longer
    running.
    """

    def __init__(self, job_id: int) -> None:
        self.job_id = job_id
        self.last_write = 0.0
        self.last_stage = ""

    def __call__(self, segment: Segment, state: engine.Progress) -> None:
        stage = f"{_rounds_text(segment.rounds)}: {state.stage}"
        now = time.monotonic()
        if stage == self.last_stage and now - self.last_write < PROGRESS_INTERVAL:
            return
        self.last_write, self.last_stage = now, stage
        updated = SeatingJob.objects.filter(
            pk=self.job_id, status=SeatingJob.Status.RUNNING
        ).update(
            stage=stage[:100],
            done=min(state.done, state.total),
            total=state.total,
            figures={"cost": state.cost},
        )
        if not updated:
            raise Abandoned


def _message(error: Exception) -> str:
    if isinstance(error, engine.SeatingError):
        return error.message
    if isinstance(error, ValidationError):
        return " ".join(error.messages)
    return str(error)


def _fail(job_id: int, message: str) -> None:
    SeatingJob.objects.filter(pk=job_id, status=SeatingJob.Status.RUNNING).update(
        status=SeatingJob.Status.FAILED, finished=timezone.now(), message=message
    )


def run_seating_job(job_id: int, *, effort: float = 1.0) -> None:
    """Generate the seating for the job's tournament and apply it, or mark the job failed."""
    job = SeatingJob.objects.select_related("tournament", "created_by").get(pk=job_id)
    try:
        plan = build_plan(job.tournament)
        seated = seat_plan(plan, seed=job.seed, effort=effort, progress=ProgressWriter(job_id))
        apply_seating(job_id=job_id, plan=plan, seated=seated)
    except Abandoned:
        return
    except (engine.SeatingError, ValidationError) as error:
        _fail(job_id, _message(error))
    except Exception as error:  # never leave a job running after a crash
        logger.exception("Seating job %s failed", job_id)
        _fail(job_id, f"The seating generator stopped with an unexpected error: {error}")


@transaction.atomic
def apply_seating(*, job_id: int, plan: Plan, seated: dict[int, engine.RoundSeating]) -> None:
    """Create the missing rounds and seat every draft round, all in one transaction.

    Refused (nothing saved) when anything the run read has changed meanwhile: a round was
    published, a player withdrew, the standings moved for a round seated by standing.
    """
    job = SeatingJob.objects.select_for_update().select_related("tournament").get(pk=job_id)
    if job.status != SeatingJob.Status.RUNNING:
        raise Abandoned
    tournament = Tournament.objects.select_for_update().get(pk=job.tournament_id)
    if build_plan(tournament) != plan:
        raise ValidationError(
            _("The players or rounds changed while the seating was generated; generate again."),
            code="changed_meanwhile",
        )
    actor = job.created_by
    for number in plan.missing:
        created = create_round(tournament=tournament, actor=actor)
        assert created.number == number, (created.number, number)
    players = {player.key: player for player in tournament.players.all()}
    rounds = {round.number: round for round in tournament.rounds.filter(number__in=plan.drafts)}
    for number in plan.drafts:
        tables = [[players[key] for key in table.seats] for table in seated[number].tables]
        set_seating(round=rounds[number], tables=tables, actor=actor)
    job.status = SeatingJob.Status.DONE
    job.finished = timezone.now()
    job.stage = "done"
    job.done = job.total = 1
    job.message = f"Seated {_rounds_text(plan.drafts)}."
    job.figures = seating_figures(tournament).as_json()
    job.save(update_fields=["status", "finished", "stage", "done", "total", "message", "figures"])


# --- Starting a job ------------------------------------------------------------------------


def is_stale(job: SeatingJob) -> bool:
    return job.status == SeatingJob.Status.RUNNING and timezone.now() - job.created > STALE_AFTER


def _run_in_thread(job_id: int, effort: float) -> None:
    try:
        run_seating_job(job_id, effort=effort)
    finally:
        connections.close_all()  # this thread's connections only


def start_seating_job(
    *,
    tournament: Tournament,
    actor: AbstractBaseUser,
    seed: int | None = None,
    effort: float = 1.0,
) -> SeatingJob:
    """Start generating the seating of the draft rounds of `tournament`.

    Refused (ValidationError) without planned rounds, without a round to seat, or while
    another run for the tournament is going (one that has run for STALE_AFTER has died and is
    marked failed). Runs in a background thread, or at once when
    `settings.SEATING_JOBS_INLINE` is true; either way the job row tells how it went.
    """
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        running = SeatingJob.objects.filter(tournament=tournament, status=SeatingJob.Status.RUNNING)
        for job in running:
            if is_stale(job):
                _fail(job.pk, "This run stopped without finishing (the server may have restarted).")
            else:
                raise ValidationError(
                    _(
                        "The seating is being generated already (started %(started)s); wait for it "
                        "to finish."
                    ),
                    code="job_running",
                    params={"started": timezone.localtime(job.created).strftime("%H:%M:%S")},
                )
        refuse_unless_plannable(tournament)
        job = SeatingJob.objects.create(
            tournament=tournament,
            created_by=actor,
            seed=secrets.randbelow(1_000_000) if seed is None else seed,
            stage="waiting",
        )
    if getattr(settings, "SEATING_JOBS_INLINE", False):
        run_seating_job(job.pk, effort=effort)
        job.refresh_from_db()
    else:
        thread = threading.Thread(
            target=_run_in_thread, args=(job.pk, effort), daemon=True, name=f"seating-job-{job.pk}"
        )
        transaction.on_commit(thread.start)
    return job


# --- Figures -------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundFigures:
    number: int
    #: Pairs at one table of this round who met in an earlier round.
    repeats: int
    club_conflicts: int
    country_conflicts: int
    team_conflicts: int


@dataclass(frozen=True)
class SeatingFigures:
    """Figures of the seating of every round, as stored now."""

    totals: engine.Figures
    rounds: tuple[RoundFigures, ...]
    #: (round, table) -> what the players there share ("club", "country", "team").
    conflict_tables: dict[tuple[int, int], tuple[str, ...]] = field(default_factory=dict)
    #: (round, table) -> pairs at the table who met in an earlier round.
    repeat_tables: dict[tuple[int, int], int] = field(default_factory=dict)
    #: Player key -> starting winds E, S, W, N counted.
    winds: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def worst_wind_spread(self) -> int:
        """The largest difference between a player's most and least frequent starting wind."""
        return max((max(c.values()) - min(c.values()) for c in self.winds.values()), default=0)

    def as_json(self) -> dict[str, Any]:
        totals = self.totals
        return {
            "repeats": totals.repeats,
            "repeated_pairs": totals.repeated_pairs,
            "most_meetings": totals.most_meetings,
            "club_conflicts": totals.club_conflicts,
            "country_conflicts": totals.country_conflicts,
            "team_conflicts": totals.team_conflicts,
            "wind_imbalance": totals.wind_imbalance,
            "unbalanced_players": totals.unbalanced_players,
            "worst_wind_spread": self.worst_wind_spread,
            "table_repeats": totals.table_repeats,
            "rounds": [
                {
                    "number": r.number,
                    "repeats": r.repeats,
                    "club_conflicts": r.club_conflicts,
                    "country_conflicts": r.country_conflicts,
                    "team_conflicts": r.team_conflicts,
                }
                for r in self.rounds
            ],
        }


def measure_rounds(
    rounds: Sequence[engine.RoundSeating], players: Sequence[engine.Entrant]
) -> SeatingFigures:
    """Figures of `rounds` (in round order) with the engine's measures, and per round."""
    rounds = sorted(rounds, key=lambda r: r.number)
    conflicts = {a: engine.conflicts(rounds, players, a) for a in ATTRIBUTES}
    per_round: dict[int, dict[str, int]] = defaultdict(lambda: dict.fromkeys(ATTRIBUTES, 0))
    conflict_tables: dict[tuple[int, int], set[str]] = defaultdict(set)
    for attribute, found in conflicts.items():
        for number, table, _first, _second in found:
            per_round[number][attribute] += 1
            conflict_tables[number, table].add(attribute)
    met: set[tuple[str, str]] = set()
    repeat_tables: dict[tuple[int, int], int] = {}
    figures = []
    for round_ in rounds:
        repeats = 0
        pairs = set()
        for table in round_.tables:
            here = set(combinations(sorted(table.seats), 2))
            again = len(here & met)
            if again:
                repeat_tables[round_.number, table.number] = again
            repeats += again
            pairs |= here
        met |= pairs
        counts = per_round[round_.number]
        figures.append(
            RoundFigures(
                number=round_.number,
                repeats=repeats,
                club_conflicts=counts["club"],
                country_conflicts=counts["country"],
                team_conflicts=counts["team"],
            )
        )
    return SeatingFigures(
        totals=engine.measure(rounds, players),
        rounds=tuple(figures),
        conflict_tables={
            key: tuple(a for a in ATTRIBUTES if a in found)
            for key, found in conflict_tables.items()
        },
        repeat_tables=repeat_tables,
        winds=engine.wind_counts(rounds),
    )


def seating_figures(tournament: Tournament) -> SeatingFigures:
    """The figures of the current seating of every round, published and draft."""
    players = entrants(tournament.players.all())
    return measure_rounds(list(round_seatings(tournament).values()), players)


# --- Publishing ----------------------------------------------------------------------------


@transaction.atomic
def publish_rounds(
    *, tournament: Tournament, numbers: Iterable[int], actor: AbstractBaseUser
) -> list[Round]:
    """Publish the draft rounds `numbers` (draft -> seated), all or none."""
    wanted = sorted(set(numbers))
    if not wanted:
        raise ValidationError(_("Choose the rounds to publish."), code="no_rounds")
    rounds = {r.number: r for r in tournament.rounds.filter(number__in=wanted)}
    unknown = [n for n in wanted if n not in rounds]
    if unknown:
        raise ValidationError(
            _("Round %(rounds)s does not exist."),
            code="no_such_round",
            params={"rounds": ", ".join(map(str, unknown))},
        )
    not_draft = [n for n in wanted if rounds[n].status != Status.DRAFT]
    if not_draft:
        raise ValidationError(
            _("Round %(rounds)s is published already."),
            code="not_draft",
            params={"rounds": ", ".join(map(str, not_draft))},
        )
    return [set_round_status(round=rounds[n], status=Status.SEATED, actor=actor) for n in wanted]
