"""The prize-giving in Chromium: the projector reveals the final ranking from the last place to
the first, on keys, clicks and a timer, without a network once loaded (1280 px); the organiser
hides the standings from a round, reveals them and hides them again on a phone (360 px)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from prize_world import build

from tournament.models import Tournament
from tournament.services.prize_giving import hide_standings_from, reveal_standings

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
PASSWORD = "correct-horse-42"  # the organiser's, from tests/conftest.py
SLUG = "spring-cup"


def sized(chromium: Any, viewport: dict, *, touch: bool = False) -> Iterator[Any]:
    context = chromium.new_context(viewport=viewport, has_touch=touch)
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console",
        lambda message: (
            errors.append(message.text)
            if message.type == "error" and not message.text.startswith("Failed to load resource")
            else None
        ),
    )
    yield page
    context.close()
    assert errors == [], "the page logged script errors"


@pytest.fixture
def desktop(chromium: Any) -> Iterator[Any]:
    yield from sized(chromium, DESKTOP)


@pytest.fixture
def phone(chromium: Any) -> Iterator[Any]:
    yield from sized(chromium, PHONE, touch=True)


@pytest.fixture
def world(live_server, tournament, organiser, referee):
    return build(tournament, organiser, referee)


def shoot(page, name: str) -> None:
    """Keep a screenshot when PRIZE_SCREENSHOTS names a folder."""
    folder = os.environ.get("PRIZE_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{page.url} scrolls sideways ({width} px)"


def shown_names(page) -> list[str]:
    return page.eval_on_selector_all(
        "[data-reveal-row]:not(.pj-veiled) .pj-player", "cells => cells.map(c => c.textContent)"
    )


def revealed(page) -> str:
    return page.locator("[data-reveal]").get_attribute("data-revealed")


def test_the_projector_reveals_the_ranking_from_the_last_place(
    desktop, live_server, world, tournament, organiser
):
    page = desktop
    hide_standings_from(tournament=tournament, round=2, actor=organiser)
    reveal_standings(tournament=tournament, actor=organiser)
    page.goto(f"{live_server.url}{reverse('public:projector_reveal', args=[SLUG])}")
    assert revealed(page) == "0"
    assert shown_names(page) == []
    assert page.locator("[data-reveal-help]").is_visible()
    fits(page)
    # Everything is in the page: the reveal goes on without a network.
    page.context.set_offline(True)

    page.keyboard.press("Space")
    assert revealed(page) == "1"
    assert shown_names(page) == ["Cat Carter"]  # third, level with Ben: the last row first
    assert not page.locator("[data-reveal-help]").is_visible()
    page.mouse.click(640, 400)
    assert shown_names(page) == ["Ben Baker", "Cat Carter"]
    page.keyboard.press("ArrowLeft")  # one back
    assert shown_names(page) == ["Cat Carter"]
    page.keyboard.press("ArrowRight")
    page.keyboard.press("PageDown")
    assert shown_names(page) == ["Ann Archer", "Ben Baker", "Cat Carter"]
    assert "pj-newest" in page.locator('[data-rank="2"]').get_attribute("class")
    shoot(page, "reveal-three")
    page.keyboard.press("Enter")
    assert shown_names(page) == ["Dan Dyer", "Ann Archer", "Ben Baker", "Cat Carter"]
    first = page.locator('[data-rank="1"]')
    assert "pj-newest" in first.get_attribute("class") and first.is_visible()
    page.keyboard.press("Space")  # nothing is left: it stays
    assert revealed(page) == "4"
    fits(page)


def test_the_timer_reveals_a_place_every_few_seconds(
    desktop, live_server, world, tournament, organiser
):
    page = desktop
    hide_standings_from(tournament=tournament, round=2, actor=organiser)
    reveal_standings(tournament=tournament, actor=organiser)
    url = reverse("public:projector_reveal", args=[SLUG])
    page.goto(f"{live_server.url}{url}?every=2&top=2")
    page.context.set_offline(True)
    assert page.locator("[data-reveal-row]").count() == 2
    page.keyboard.press("Space")  # starts the timer with the first place
    assert revealed(page) == "1"
    page.wait_for_selector('[data-reveal][data-revealed="2"]', state="attached", timeout=6_000)
    assert shown_names(page) == ["Dan Dyer", "Ann Archer"]


def test_before_the_reveal_a_visitor_waits_and_an_organiser_rehearses(
    desktop, live_server, world, tournament, organiser
):
    page = desktop
    hide_standings_from(tournament=tournament, round=2, actor=organiser)
    url = f"{live_server.url}{reverse('public:projector_reveal', args=[SLUG])}"
    page.goto(url)
    assert "hidden until the prize-giving" in page.locator("main").inner_text()
    assert page.locator("[data-reveal-row]").count() == 0
    log_in(page, live_server)
    page.goto(url)
    assert page.locator("[data-reveal-row]").count() == 4
    page.keyboard.press("Space")
    assert shown_names(page) == ["Cat Carter"]


def log_in(page, live_server, username="alice", password=PASSWORD) -> None:
    page.goto(f"{live_server.url}{reverse('login')}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    with page.expect_navigation():
        page.locator("form button[type=submit]").last.click()


def test_the_organiser_hides_reveals_and_hides_again_on_a_phone(phone, live_server, world):
    page = phone
    log_in(page, live_server)
    page.goto(f"{live_server.url}{reverse('organiser:settings', args=[SLUG])}")
    section = page.locator("#prize-giving")
    section.scroll_into_view_if_needed()
    fits(page)
    section.locator("input[name=hidden_from]").fill("2")
    with page.expect_navigation():
        section.get_by_role("button", name="Save").click()
    assert "Standings from round 2 on are hidden" in page.locator("body").inner_text()
    assert section.locator('[data-state="hidden"]').is_visible()
    fits(page)
    shoot(page, "settings-hidden-phone")

    # Not ticked: refused on the page, nothing revealed.
    with page.expect_navigation():
        section.get_by_role("button", name="Reveal the standings").click()
    assert "Tick the box to reveal the standings to everyone." in section.inner_text()
    fits(page)
    section.get_by_label("Everyone sees the full standings now").check()
    with page.expect_navigation():
        section.get_by_role("button", name="Reveal the standings").click()
    assert section.locator('[data-state="revealed"]').is_visible()
    shoot(page, "settings-revealed-phone")
    assert Tournament.objects.get(slug=SLUG).standings_revealed_at is not None
    fits(page)

    with page.expect_navigation():
        section.get_by_role("button", name="Hide them again").click()
    assert section.locator('[data-state="hidden"]').is_visible()
    assert Tournament.objects.get(slug=SLUG).standings_revealed_at is None
    fits(page)
