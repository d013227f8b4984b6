"""A seating run as a `SeatingJob` row: start it, report its progress, apply its result.

`start_seating_job` creates the job and hands `run_seating_job` to `enqueue`; the run builds
the plan, seats it with the engine while `ProgressWriter` keeps the row up to date, and
`apply_seating` saves the result in one transaction. A failure changes no round and leaves its
message on the job.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Sequence
from datetime import timedelta

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import connections, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.domain import seating as engine
from tournament.models import SeatingJob, Tournament
from tournament.services.rounds import create_round, set_seating

from .background import enqueue
from .figures import seating_figures
from .plan import Plan, Segment, build_plan, refuse_unless_plannable, seat_plan

logger = logging.getLogger(__name__)

#: The process running a job writes the job's heartbeat this often (seconds).
HEARTBEAT_INTERVAL = 5.0
#: A job still "running" whose last heartbeat (or its start, before the first) is older than
#: this has died with the process that ran it (a restart of the server, say).
STALE_AFTER = timedelta(minutes=1)
#: Progress is written to the job row at most this often (seconds).
PROGRESS_INTERVAL = 0.25


class Abandoned(Exception):
    """The job is no longer running (it was declared dead): stop the engine."""


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


class Heartbeat:
    """While a job runs, a thread of its own writes the job's heartbeat every
    HEARTBEAT_INTERVAL seconds, however long the engine goes without reporting progress.
    Whichever process shows the job then tells a live run from one whose process has died."""

    def __init__(self, job_id: int) -> None:
        self.job_id = job_id
        self.stopped = threading.Event()
        self.thread = threading.Thread(
            target=self._beat, daemon=True, name=f"seating-heartbeat-{job_id}"
        )

    def __enter__(self) -> Heartbeat:
        self.write()
        self.thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stopped.set()
        self.thread.join()

    def write(self) -> None:
        SeatingJob.objects.filter(pk=self.job_id, status=SeatingJob.Status.RUNNING).update(
            heartbeat=timezone.now()
        )

    def _beat(self) -> None:
        try:
            while not self.stopped.wait(HEARTBEAT_INTERVAL):
                self.write()
        finally:
            connections.close_all()  # this thread's connection only


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
        with Heartbeat(job_id):
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
        set_seating(round=rounds[number], tables=tables, actor=actor, carry_referees=True)
    job.status = SeatingJob.Status.DONE
    job.finished = timezone.now()
    job.stage = "done"
    job.done = job.total = 1
    job.message = f"Seated {_rounds_text(plan.drafts)}."
    job.figures = seating_figures(tournament).as_json()
    job.save(update_fields=["status", "finished", "stage", "done", "total", "message", "figures"])


def is_stale(job: SeatingJob) -> bool:
    """A job still marked running whose process has stopped: no heartbeat for STALE_AFTER."""
    if job.status != SeatingJob.Status.RUNNING:
        return False
    return timezone.now() - (job.heartbeat or job.created) > STALE_AFTER


def start_seating_job(
    *,
    tournament: Tournament,
    actor: User,
    seed: int | None = None,
    effort: float = 1.0,
) -> SeatingJob:
    """Start generating the seating of the draft rounds of `tournament`.

    Refused (ValidationError) without planned rounds, without a round to seat, or while
    another run for the tournament is going (one without a heartbeat for STALE_AFTER has died
    with its process and is marked failed). The run goes to `enqueue`: a background thread,
    or at once when `settings.SEATING_JOBS_INLINE` is true; either way the job row tells how
    it went.
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
    if enqueue(run_seating_job, job.pk, effort=effort, name=f"seating-job-{job.pk}"):
        job.refresh_from_db()  # it has run already: return how it went
    return job
