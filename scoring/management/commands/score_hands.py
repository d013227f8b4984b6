"""Score a file of hands in the case format, one JSON object per line.

    python manage.py score_hands [--profile wmo-2006|cn-1998] [cases.jsonl] > results.jsonl
    python manage.py score_hands --preset jt|wa [cases.jsonl] > results.jsonl

Reads standard input when no file is given (or the file is "-"). Writes one result line per
input line, in order; blank lines are skipped. A line that cannot be read as a JSON object
gives a BAD_INPUT result line and the batch goes on.

MCR (the default preset) writes {"id", "error", "total", "total_excl_flowers", "fans"}.
Japanese Transitional (`--preset jt`) writes {"id", "hand", "payments"} in the shape of the case
format's `expected.hand` and `expected.payments` (a draw or a faulty out has no hand). WA
scores a whole deal per line and writes {"id", "hands", "payments"} in the shape of the case
format's `expected.hands` and `expected.payments` (one entry per winner, main winner first); a
deal that cannot be settled also has "error" (and "message", once the line is read as JSON),
and its payments are null.
"""

from __future__ import annotations

import io
import json
import os
import re
import sys
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.engine import DEFAULT_PROFILE, PROFILES, score_case
from scoring.engine.jt import settle_jt_case
from scoring.engine.wa import score_wa_case

# Finds the id of a line that is not valid JSON, so its error line can still be matched up:
# a number (the MCR corpus) or a short string ("JT-01").
_ID_IN_TEXT = re.compile(r'"id"\s*:\s*(-?\d{1,18}\b|"[^"\\]{0,100}")')
#: The engines that score tiles, by the name the option takes.
PRESETS = ("mcr", "jt", "wa")


class Command(BaseCommand):
    help = "Score hands in the case format (JSON lines) and write one result line per hand."
    # Lets tests pass a stream: call_command("score_hands", stdin=io.StringIO(...)).
    stealth_options = ("stdin",)

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "path",
            nargs="?",
            default="-",
            help='File of cases, one JSON object per line; "-" or nothing reads standard input.',
        )
        parser.add_argument(
            "--preset",
            default="mcr",
            help=f"Rules of the hands: {', '.join(PRESETS)} (default mcr).",
        )
        parser.add_argument(
            "--profile",
            default=DEFAULT_PROFILE,
            help=f"Rule profile: {', '.join(PROFILES)} (default {DEFAULT_PROFILE}).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        preset = options["preset"]
        if preset not in PRESETS:
            raise CommandError(f"Unknown preset {preset!r}; choose one of: {', '.join(PRESETS)}.")
        profile = options["profile"]
        if profile not in PROFILES:
            raise CommandError(
                f"Unknown profile {profile!r}; choose one of: {', '.join(PROFILES)}."
            )
        path = options["path"]
        if path == "-":
            # Undecodable bytes become U+FFFD, so such a line is a BAD_INPUT line, not a crash.
            cases = options.get("stdin") or io.TextIOWrapper(
                sys.stdin.buffer, encoding="utf-8", errors="replace"
            )
        else:
            try:
                cases = open(path, encoding="utf-8", errors="replace")
            except OSError as exc:
                raise CommandError(f"Cannot read {path}: {exc.strerror}.") from exc
        with cases:
            self._write_results(cases, profile, preset)

    def _write_results(self, lines: TextIO, profile: str, preset: str) -> None:
        try:
            for result in score_lines(lines, profile=profile, preset=preset):
                self.stdout.write(json.dumps(result, ensure_ascii=False))
            self.stdout.flush()
        except BrokenPipeError:
            # The reader went away (`score_hands < cases | head`): stop quietly. Point stdout
            # at /dev/null so the interpreter's final flush does not complain again.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def score_lines(
    lines: Iterable[str], *, profile: str, preset: str = "mcr"
) -> Iterator[dict[str, Any]]:
    """Yield one result per non-blank line, reading and scoring lazily."""
    score = {"jt": score_jt_line, "wa": score_wa_line}.get(preset, score_line)
    for line in lines:
        if line.strip():
            yield score(line, profile=profile)


def _read(line: str) -> tuple[dict[str, Any] | None, Any]:
    """The case of a line, or None and the id found in the text of a line that is no case."""
    try:
        case = json.loads(line)
    except (ValueError, RecursionError):
        match = _ID_IN_TEXT.search(line)
        if not match:
            return None, None
        found = match.group(1)
        return None, json.loads(found) if found.startswith('"') else int(found)
    if not isinstance(case, dict):
        return None, None
    return case, case.get("id")


def score_line(line: str, *, profile: str) -> dict[str, Any]:
    case, case_id = _read(line)
    if case is None:
        return _bad_input(case_id)
    verdict = score_case(case, profile=profile).to_dict()
    return {
        "id": case.get("id"),
        "error": verdict["error"],
        "total": verdict["total"],
        "total_excl_flowers": verdict["total_excl_flowers"],
        "fans": [
            {"en": fan["en"], "zh": fan["zh"], "points": fan["points"], "count": fan["count"]}
            for fan in verdict["fans"]
        ],
    }


def score_jt_line(line: str, *, profile: str = "") -> dict[str, Any]:
    """A Japanese Transitional case: its hand (a win) and the payments of its deal."""
    case, case_id = _read(line)
    if case is None:
        return {"id": case_id, "hand": _JT_BAD_INPUT, "payments": None}
    verdict = settle_jt_case(case)
    return {
        "id": case_id,
        "hand": None if verdict.hand is None else verdict.hand.case_hand(),
        "payments": verdict.payments,
    }


_JT_BAD_INPUT: dict[str, Any] = {
    "error": "BAD_INPUT",
    "patterns": [],
    "points": None,
    "doubles": None,
    "raw": None,
    "final": None,
    "limit": False,
}


def _bad_input(case_id: Any) -> dict[str, Any]:
    return {
        "id": case_id,
        "error": "BAD_INPUT",
        "total": None,
        "total_excl_flowers": None,
        "fans": [],
    }


def score_wa_line(line: str, *, profile: str = "") -> dict[str, Any]:
    """One Wilmington deal: {"id", "hands", "payments"}, plus "error" (and "message" when the
    line was read) when the deal cannot be settled."""
    case, case_id = _read(line)
    if case is None:
        return {"id": case_id, "hands": [], "payments": None, "error": "BAD_INPUT"}
    verdict = score_wa_case(case)
    result: dict[str, Any] = {"id": case_id, **verdict.to_case()}
    if verdict.error is not None:
        result["error"] = verdict.error
        result["message"] = verdict.message
    return result
