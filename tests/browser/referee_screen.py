"""The referee browser tests' shared set-up: a cup with one refereed table on the live server,
a logged-in browser context, and the table screen opened with script errors collected."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from factories import NAMES as ALL_NAMES
from factories import make_players, make_round, make_table, make_tournament, make_user

from tournament.models import Table

NAMES = ALL_NAMES[:4]  # start E, S, W, N
SIZES = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 800}}


def make_cup(*, password: str | None = None, **settings: Any) -> Table:
    """The Spring Cup (public, `settings` on top), organised by alice: round 1 in play with
    table 1 (the NAMES from East to North), refereed by bob (with `password` if given)."""
    organiser = make_user("alice")
    referee = make_user("bob", password=password)
    tournament = make_tournament(organisers=[organiser], **settings)
    players = make_players(tournament, names=NAMES)
    round = make_round(tournament)
    return make_table(round, players, referees=[referee], actor=organiser)


def logged_in_context(
    chromium: Any, live_server: Any, username: str, size: str, *, script: bool = True
) -> Any:
    """A browser context of one of the SIZES with the user's session cookie (no password
    typing); touch on the phone size, scripts on unless `script` is False."""
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    context = chromium.new_context(
        viewport=SIZES[size], has_touch=size == "phone", java_script_enabled=script
    )
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    return context


def open_table_screen(context: Any, live_server: Any) -> tuple[Any, list[str]]:
    """Table 1's screen in a new page of `context`, and the list its script errors go to."""
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(live_server.url + reverse("referee:table", args=["spring-cup", 1, 1]))
    return page, errors


def choose(scope: Any, legend: str, label: str) -> None:
    """Tap the choice `label` in the group of buttons headed `legend` within `scope`."""
    group = scope.locator(
        "fieldset.ref-choices", has=scope.page.locator(f"legend:text-is('{legend}')")
    )
    group.locator("label.ref-choice", has_text=label).click()


def open_entry(page: Any, name: str) -> Any:
    """The referee screen's entry section `#entry-<name>` (win, full, penalty, end...),
    opened if it was closed."""
    entry = page.locator(f"#entry-{name}")
    if entry.get_attribute("open") is None:
        entry.locator("summary").click()
    return entry
