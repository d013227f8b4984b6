"""Pages for the end-to-end tests; the browser itself is `chromium` in tests/conftest.py."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

PHONE = {"width": 360, "height": 740}


@pytest.fixture
def phone_page(chromium: Any) -> Iterator[Any]:
    """A fresh page the size of a small phone screen; fails the test on a script error."""
    context = chromium.new_context(viewport=PHONE, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    script_errors: list[str] = []
    page.on("pageerror", lambda error: script_errors.append(str(error)))

    def on_console(message: Any) -> None:
        # Chromium logs every 4xx answer as an error (a form refused by design), so only the
        # script's own errors count.
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            script_errors.append(message.text)

    page.on("console", on_console)
    yield page
    context.close()
    assert script_errors == [], "the page logged script errors"
