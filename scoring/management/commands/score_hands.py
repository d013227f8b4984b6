"""Score a file of hands in the case format, one JSON object per line.

    python manage.py score_hands [--profile wmo-2006|cn-1998] [cases.jsonl] > results.jsonl

Reads standard input when no file is given (or the file is "-"). Writes one result line per
input line, in order; blank lines are skipped. A line that cannot be read as a JSON object
gives a BAD_INPUT result line and the batch goes on.
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

# Finds the id of a line that is not valid JSON, so its error line can still be matched up.
_ID_IN_TEXT = re.compile(r'"id"\s*:\s*(-?\d{1,18})\b')


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
            "--profile",
            default=DEFAULT_PROFILE,
            help=f"Rule profile: {', '.join(PROFILES)} (default {DEFAULT_PROFILE}).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
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
            self._write_results(cases, profile)

    def _write_results(self, lines: TextIO, profile: str) -> None:
        try:
            for result in score_lines(lines, profile=profile):
                self.stdout.write(json.dumps(result, ensure_ascii=False))
            self.stdout.flush()
        except BrokenPipeError:
            # The reader went away (`score_hands < cases | head`): stop quietly. Point stdout
            # at /dev/null so the interpreter's final flush does not complain again.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def score_lines(lines: Iterable[str], *, profile: str) -> Iterator[dict[str, Any]]:
    """Yield one result per non-blank line, reading and scoring lazily."""
    for line in lines:
        if line.strip():
            yield score_line(line, profile=profile)


def score_line(line: str, *, profile: str) -> dict[str, Any]:
    try:
        case = json.loads(line)
    except (ValueError, RecursionError):
        match = _ID_IN_TEXT.search(line)
        return _bad_input(int(match.group(1)) if match else None)
    if not isinstance(case, dict):
        return _bad_input(None)
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


def _bad_input(case_id: int | None) -> dict[str, Any]:
    return {
        "id": case_id,
        "error": "BAD_INPUT",
        "total": None,
        "total_excl_flowers": None,
        "fans": [],
    }
