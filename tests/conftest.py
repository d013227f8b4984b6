"""Fixtures shared by the test modules: an organiser, a tournament they run, and a browser.

There is one Playwright instance per test process: its sync API runs an event loop in the
test's thread, and a second instance started while the first is open fails. Every browser
test, wherever its module lives, uses the session-wide `chromium` fixture below.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tournament.models import Tournament

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
    return get_user_model().objects.create_user(username="alice", password="correct-horse-42")


@pytest.fixture
def tournament(organiser):
    tournament = Tournament.objects.create(name="Spring Cup", slug="spring-cup", public=True)
    tournament.organisers.add(organiser)
    return tournament
