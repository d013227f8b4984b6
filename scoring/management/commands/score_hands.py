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

from scoring.engine import DEFAULT_PROFILE, PROFILES
from scoring.engine.presets import MCR
from scoring.engine.rulebook import RULEBOOKS, rulebook_named

# Finds the id of a line that is not valid JSON, so its error line can still be matched up:
# a number (the MCR corpus) or a short string ("JT-01").
_ID_IN_TEXT = re.compile(r'"id"\s*:\s*(-?\d{1,18}\b|"[^"\\]{0,100}")')
#: The engines that score tiles, by the name the option takes (each rulebook's key).
PRESETS = tuple(RULEBOOKS)


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
            default=MCR.scorer,
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
    lines: Iterable[str], *, profile: str, preset: str = MCR.scorer or ""
) -> Iterator[dict[str, Any]]:
    """Yield one result per non-blank line, reading and scoring lazily."""
    rules = rulebook_named(preset)
    for line in lines:
        if line.strip():
            case, case_id = _read(line)
            yield rules.case_answer(case, case_id, profile=profile)


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
