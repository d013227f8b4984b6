"""The 32 worked examples of the Japanese Transitional specification (`jt-cases.jsonl`): from
the shared folder beside the repository when it is there, else the copy in tests/data/."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .oracle import shared_dir

DATA = Path(__file__).resolve().parents[1] / "data"


def jt_cases_file() -> Path:
    shared = shared_dir() / "data" / "jt-cases.jsonl"
    return shared if shared.exists() else DATA / "jt-cases.jsonl"


def jt_cases() -> list[dict[str, Any]]:
    text = jt_cases_file().read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def pattern_set(patterns: list) -> set[tuple[str, int, int]]:
    """Patterns as the data README says to compare them: (key, value, count)."""
    return {(p[0], p[2], p[4]) for p in patterns}
