"""Shared by the design finders: solve a CP-SAT model on one worker and say how it went."""

from __future__ import annotations

import sys
import time

from ortools.sat.python import cp_model


def solve(model: cp_model.CpModel, seed: int, seconds: float) -> cp_model.CpSolver | None:
    """The solver holding a solution, or None; the status and time go to stderr."""
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = seed
    started = time.perf_counter()
    status = solver.Solve(model)
    print(f"{solver.StatusName(status)} in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return solver if status in (cp_model.OPTIMAL, cp_model.FEASIBLE) else None
