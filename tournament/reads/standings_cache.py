"""The standings of a tournament computed once per change, not once per request.

The standings page and the API's standings read the whole field (6,400 players: tens of
thousands of seats) although they show one page of it. What they build from it is kept here,
keyed on the tournament, its LiveVersion number and what was asked (provisional or not, which
shape). The number is read from the database on every request and moves in the same
transaction as every change the standings show (tournament.services.live.note_change: a
finished or corrected game, a penalty on a submitted sheet, a player added, changed or
removed, the tournament's settings), so an entry can never be served after a change, on any
of several application servers: a new number is a new key, and the old entries age out.

Each process keeps at most MOST_ENTRIES entries (least recently used first out), so memory
stays bounded however many tournaments are read.
"""

from __future__ import annotations

import gc
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from tournament.models import LiveVersion, Tournament
from tournament.reads.selectors import Standing, standings

MOST_ENTRIES = 8

T = TypeVar("T")

_lock = threading.Lock()
_entries: OrderedDict[tuple[Hashable, ...], Any] = OrderedDict()


def live_number(tournament: Tournament) -> int:
    """The tournament's LiveVersion number (0 before its first change). One query."""
    number = (
        LiveVersion.objects.filter(tournament_id=tournament.pk)
        .values_list("number", flat=True)
        .first()
    )
    return number or 0


def cached_standings(
    tournament: Tournament,
    *,
    provisional: bool,
    shape: str,
    build: Callable[[list[Standing]], T],
    number: int | None = None,
    before_round: int | None = None,
    stage: str | None = None,
) -> T:
    """`build(standings(tournament, provisional=provisional))`, computed at most once per
    process between two changes of the tournament. `shape` names `build` (one key per shape of
    answer); the value returned is shared between requests: read it, never change it.
    `number`: the tournament's LiveVersion number when the caller has just read it (a live
    poll's ETag), so that it is not read twice. `before_round`: only the rounds before it
    count (the public's standings while later rounds are hidden, `tournament.reads.prize_giving`);
    it is part of the key, so the full standings are never answered for the hidden ones.
    `stage`: one stage's standings alone (`tournament.reads.stages`)."""
    # The number is read before the standings: data read after it is as new or newer, so an
    # entry never holds results older than its number.
    key = (
        tournament.pk,
        live_number(tournament) if number is None else number,
        provisional,
        before_round,
        shape,
        stage,
    )
    with _lock:
        if key in _entries:
            _entries.move_to_end(key)
            return _entries[key]
    with _collector_paused():
        value = build(
            standings(tournament, provisional=provisional, before_round=before_round, stage=stage)
        )
    with _lock:
        _entries[key] = value
        _entries.move_to_end(key)
        while len(_entries) > MOST_ENTRIES:
            _entries.popitem(last=False)
    return value


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector held off while the standings are built. A big field makes
    about a hundred thousand short-lived objects, which set off many collections, each of
    them also walking everything the process keeps (the kept entries among it); the objects
    hold no cycles and are freed as they are dropped anyway. At 6,400 players this took the
    build from about 215 to 117 ms (median). Threads building at once: the collector comes
    back on when the one that turned it off is done."""
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def clear() -> None:
    """Forget every entry (tests: a rolled-back database may reuse a number)."""
    with _lock:
        _entries.clear()
