"""A real browser for end-to-end tests: Debian's Chromium driven by Playwright's sync API.

The tests skip, saying why, when /usr/bin/chromium or the playwright package is missing.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

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
PHONE = {"width": 360, "height": 740}


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
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
def phone_page(chromium: Any) -> Iterator[Any]:
    """A fresh page the size of a small phone screen; fails the test on a script error."""
    context = chromium.new_context(viewport=PHONE, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    script_errors: list[str] = []
    page.on("pageerror", lambda error: script_errors.append(str(error)))

    def on_console(message: Any) -> None:
        # Chromium logs every 4xx answer as an error; the API answers 400 for an unfinished
        # hand by design, so only the script's own errors count.
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            script_errors.append(message.text)

    page.on("console", on_console)
    yield page
    context.close()
    assert script_errors == [], "the page logged script errors"
