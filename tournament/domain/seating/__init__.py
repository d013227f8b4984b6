"""The seating engine: plain Python, no Django.

    from tournament.domain import seating
    result = seating.generate(
        [seating.Entrant(key="1", club="Oak"), ...], rounds=7, seed=3,
        separations=seating.Separations(club=seating.Separation.HARD),
    )
    result.rounds[0].tables[0].by_wind  # {"E": "12", "S": "40", "W": "7", "N": "33"}
    result.figures.repeats

See ``schedule.generate`` for the options (frozen rounds, rounds by standing, fixed tables,
progress) and ``metrics`` for figures of any seating.  How the engine works, the designs it
starts from and where its stored data came from: docs/seating.md.
"""

from __future__ import annotations

from .constructions import best_design, repeat_free_bound
from .metrics import conflicts, measure, meetings, wind_counts
from .model import (
    MAX_SUBSTITUTES,
    WINDS,
    Entrant,
    Figures,
    Progress,
    RoundSeating,
    Seating,
    SeatingError,
    Separation,
    Separations,
    TableSeating,
    substitutes_needed,
)
from .schedule import generate

__all__ = [
    "MAX_SUBSTITUTES",
    "WINDS",
    "Entrant",
    "Figures",
    "Progress",
    "RoundSeating",
    "Seating",
    "SeatingError",
    "Separation",
    "Separations",
    "TableSeating",
    "best_design",
    "conflicts",
    "generate",
    "measure",
    "meetings",
    "repeat_free_bound",
    "substitutes_needed",
    "wind_counts",
]
