"""The seating plan: generate the draft rounds with the seating engine, measure, publish.

The organiser sets how many rounds the tournament will have, how firmly clubs, countries and
teams are kept apart, and which draft rounds are seated by standing (`settings`).
`start_seating_job` then runs `tournament.domain.seating.generate` for every draft round (creating
the
missing ones up to `planned_rounds`); rounds that are seated, playing or finished are frozen:
the engine keeps them as they are and counts their meetings and starting winds (`plan`).

A run is a `SeatingJob` row that shows its progress (`jobs`). It is handed to `enqueue`
(`background`): a background thread, or the request itself when
`settings.SEATING_JOBS_INLINE` is true (tests). Its result is applied in one transaction at the
end; a failure changes no round and leaves its message on the job. `figures` measures the
seating of every round; `publish` publishes the chosen draft rounds.
"""

from __future__ import annotations

from .background import enqueue
from .figures import RoundFigures, SeatingFigures, measure_rounds, seating_figures
from .jobs import (
    PROGRESS_INTERVAL,
    STALE_AFTER,
    Abandoned,
    ProgressWriter,
    apply_seating,
    is_stale,
    run_seating_job,
    start_seating_job,
)
from .one_round import seat_round
from .plan import (
    ATTRIBUTES,
    PUBLISHED,
    Plan,
    Segment,
    build_plan,
    entrants,
    refuse_unless_plannable,
    round_seatings,
    seat_plan,
    separations_of,
)
from .publish import publish_rounds
from .settings import MOST_ROUNDS, update_seating_settings

__all__ = [
    "ATTRIBUTES",
    "MOST_ROUNDS",
    "PROGRESS_INTERVAL",
    "PUBLISHED",
    "STALE_AFTER",
    "Abandoned",
    "Plan",
    "ProgressWriter",
    "RoundFigures",
    "SeatingFigures",
    "Segment",
    "apply_seating",
    "build_plan",
    "enqueue",
    "entrants",
    "is_stale",
    "measure_rounds",
    "publish_rounds",
    "refuse_unless_plannable",
    "round_seatings",
    "run_seating_job",
    "seat_round",
    "seat_plan",
    "seating_figures",
    "separations_of",
    "start_seating_job",
    "update_seating_settings",
]
