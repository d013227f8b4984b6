"""The referee browser tests' shared set-up: a cup with one refereed table on the live server,
a logged-in browser context, and the table screen opened with script errors collected."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tournament.models import Player, Round, Table, Tournament
from tournament.services import assign_referees, create_table

NAMES = ["Ann Archer", "Ben Baker", "Cai Chen", "Dora Diaz"]  # start E, S, W, N
SIZES = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 800}}


def make_cup(*, password: str | None = None, **settings: Any) -> Table:
    """The Spring Cup (public, `settings` on top), organised by alice: round 1 in play with
    table 1 (the NAMES from East to North), refereed by bob (with `password` if given)."""
    organiser = get_user_model().objects.create_user(username="alice")
    referee = get_user_model().objects.create_user(username="bob", password=password)
    tournament = Tournament.objects.create(
        name="Spring Cup", slug="spring-cup", public=True, **settings
    )
    tournament.organisers.add(organiser)
    players = [
        Player.objects.create(tournament=tournament, key=str(n), name=name)
        for n, name in enumerate(NAMES, start=1)
    ]
    round_ = Round.objects.create(tournament=tournament, number=1, status=Round.Status.PLAYING)
    table = create_table(round=round_, number=1, players=players)
    assign_referees(table=table, referees=[referee], actor=organiser)
    return table


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
