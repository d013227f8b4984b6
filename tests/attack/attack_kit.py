"""What the attack tests share besides fixtures: how many inputs to try, the rows a refused
request must leave as they were, and the figures of the run."""

from __future__ import annotations

import os
from collections import Counter

from tournament.models import (
    ApiToken,
    AuditEntry,
    Deal,
    ExtraWin,
    Penalty,
    Player,
    Round,
    Seat,
    SeatingJob,
    Table,
    Tournament,
)

# What a refused request must leave as it was. (A token's "last used" time is not counted:
# a refused request with a valid token may record it.)
MODELS = (ApiToken, AuditEntry, ExtraWin, Deal, Penalty, Player, Round, Seat, SeatingJob, Table,
          Tournament)  # fmt: skip


def examples(default: int) -> int:
    """How many inputs a generated attack tries: `default`, times ATTACK_EXAMPLES/10 when set
    (ATTACK_EXAMPLES=100 runs ten times longer)."""
    scale = int(os.environ.get("ATTACK_EXAMPLES", "10"))
    return max(1, default * scale // 10)


def long_run() -> bool:
    """Whether ATTACK_EXAMPLES asks for more than the bounded run of the test suite."""
    return examples(10) > 10


def counts() -> dict[str, int]:
    """The number of rows of every model a request may write."""
    return {model.__name__: model.objects.count() for model in MODELS}


# Requests sent by the attacks of this run, and their answers, by caller: printed at the end
# of the run (`pytest_terminal_summary` below) when ATTACK_FIGURES is set.
FIGURES: Counter[tuple[str, str]] = Counter()


def tally(caller: str, status: int) -> None:
    FIGURES[(caller, "requests")] += 1
    FIGURES[(caller, f"{status // 100}xx")] += 1


def print_figures(terminalreporter) -> None:
    if not os.environ.get("ATTACK_FIGURES") or not FIGURES:
        return
    callers = sorted({caller for caller, _ in FIGURES})
    columns = ["requests", "2xx", "3xx", "4xx", "5xx"]
    terminalreporter.section("attack figures")
    terminalreporter.write_line(f"{'caller':<22}" + "".join(f"{name:>10}" for name in columns))
    for caller in callers:
        cells = "".join(f"{FIGURES[(caller, name)]:>10}" for name in columns)
        terminalreporter.write_line(f"{caller:<22}{cells}")
