"""Fixtures shared by every test folder, and the browser.

The chain, built with tests/factories.py: `organiser` (alice) -> `tournament` (the Spring Cup,
public, run by alice) -> `players` (keys 1-8, "Player 1" to "Player 8"; a module names them
otherwise by overriding `player_name`) -> `round` (round 1, in play) -> `table` (table 1:
players 1-4 at East, South, West, North; no referee) and `table2` (players 5-8, refereed by
carol, the `other_referee`). `referee` (bob) referees nothing until a test assigns him.
`board` is round 1 reached through the organiser's steps, for the live pages. `now` freezes
the clock for tests that measure time.

There is one Playwright instance per test process: its sync API runs an event loop in the
test's thread, and a second instance started while the first is open fails. Every browser
test, wherever its module lives, uses the session-wide `chromium` fixture below.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.signals import request_finished, request_started
from django.test import override_settings
from django.utils import timezone, translation
from factories import (
    NAMES,
    make_players,
    make_round,
    make_table,
    make_tournament,
    make_user,
    seated_round,
)

from tournament.models import Player, Round, Table, Tournament
from tournament.reads import standings_cache

# Playwright's sync API runs an event loop in the test's thread; Django refuses database
# calls from a thread with a running loop unless told this is safe (it is: one thread).
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(autouse=True)
def english_after_each_test() -> Iterator[None]:
    """Each test starts in the site's default language. A request in Chinese (the test client
    runs it in this thread) or a test that activates a language would otherwise leave it active
    for the next test in the same process, whose English messages would then come out in
    Chinese."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def fresh_standings_cache() -> Iterator[None]:
    """Each test starts with no kept standings: a rolled-back database may give a new
    tournament an id and a LiveVersion number that an earlier test's tournament had."""
    standings_cache.clear()
    yield


@pytest.fixture(autouse=True)
def live_fragments_never_stale() -> Iterator[None]:
    """A public live fragment is drawn again after every change (LIVE_STALE_SECONDS 0, and
    no more while the machine is busy, which a test run can make it): tests see a change at
    the next poll. tests/web/test_live_stale.py sets its own with `settings` (not asked for
    here: some tests have a parameter of that name)."""
    with override_settings(LIVE_STALE_SECONDS=0, LIVE_BUSY_SECONDS=0):
        yield


class _InFlight:
    """Counts the requests the live server is handling, through Django's request signals; the
    test client's, run in the test's own thread, do not count."""

    def __init__(self) -> None:
        self.count = 0
        self.changed = threading.Condition()
        self.test_thread = threading.current_thread()

    def started(self, **kwargs: Any) -> None:
        if threading.current_thread() is self.test_thread:
            return
        with self.changed:
            self.count += 1

    def finished(self, **kwargs: Any) -> None:
        if threading.current_thread() is self.test_thread:
            return
        with self.changed:
            self.count -= 1
            self.changed.notify_all()

    def wait_until_none(self, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        with self.changed:
            while self.count > 0:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.changed.wait(left)
        return True


@pytest.fixture(autouse=True)
def live_server_settles(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test with the live server ends only once the server has answered every request it
    was handling (a page's poll, sent as the test ended). Otherwise the poll's queries run
    while the database is emptied for the next test: the emptying can fail on a lock (and the
    next test then finds the last one's rows), and the server thread reads a database the test
    no longer allows. Set up after the database, torn down before it is emptied, and after the
    test's pages are closed, so no request comes after the wait."""
    if "live_server" not in request.fixturenames:
        yield
        return
    request.getfixturevalue("transactional_db")
    in_flight = _InFlight()
    request_started.connect(in_flight.started, weak=False)
    request_finished.connect(in_flight.finished, weak=False)
    try:
        yield
    finally:
        settled = in_flight.wait_until_none(15)
        request_started.disconnect(in_flight.started)
        request_finished.disconnect(in_flight.finished)
    assert settled, f"the live server still handles {in_flight.count} request(s)"


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """Debian's Chromium through Playwright; skips, saying why, when either is missing."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: apt-get install chromium to run browser tests")
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="the playwright package is not installed"
    )
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        yield browser
        browser.close()


@pytest.fixture
def organiser(db):
    return make_user("alice", password="correct-horse-42")


@pytest.fixture
def tournament(organiser) -> Tournament:
    return make_tournament(organisers=[organiser])


@pytest.fixture
def player_name() -> str:
    """How `players` are named: "Player {}" gives Player 1 to Player 8."""
    return "Player {}"


@pytest.fixture
def players(tournament, player_name) -> list[Player]:
    return make_players(tournament, name=player_name)


@pytest.fixture
def round(tournament) -> Round:
    return make_round(tournament)


@pytest.fixture
def table(round, players) -> Table:
    """Table 1 of round 1: players 1, 2, 3, 4 start at East, South, West, North."""
    return make_table(round, players[:4])


@pytest.fixture
def referee(db):
    return make_user("bob", password="referee-pass-42")


@pytest.fixture
def other_referee(db):
    return make_user("carol", password="referee-pass-42")


@pytest.fixture
def table2(round, players, other_referee, organiser) -> Table:
    """Table 2 of round 1: players 5, 6, 7, 8 from East to North, refereed by carol."""
    return make_table(round, players[4:], number=2, referees=[other_referee], actor=organiser)


@pytest.fixture
def board(tournament, organiser, referee) -> dict[str, Any]:
    """Round 1 in play for the live board, the projector and the public pages, reached by the
    organiser's steps: the eight NAMES, 1-4 at table 1 (refereed by bob), 5-8 at table 2 (no
    referee). Its players, round, tables and referee."""
    players = make_players(tournament, names=NAMES)
    round, tables = seated_round(tournament, organiser, [players[:4], players[4:]])
    tables[0].referees.add(referee)
    return {"players": players, "round": round, "tables": tables, "referee": referee}


@pytest.fixture
def now(monkeypatch) -> datetime:
    """The current time, frozen for the test: every call of `timezone.now()` answers this
    instant, so what a page or service computes from the round clock does not depend on how
    fast the test runs. (Model fields whose default is `timezone.now` keep the real time.)"""
    instant = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: instant)
    return instant
