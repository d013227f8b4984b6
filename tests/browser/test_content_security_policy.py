"""The Content-Security-Policy holds on the main pages: at a phone's width and a desktop's,
no page (nor htmx swapping parts of it, nor entering a hand) does anything the policy refuses:
no inline script, inline style or event handler attribute, nothing from elsewhere.

A violation is caught twice: by the page's own `securitypolicyviolation` event (listened to
from an init script) and by Chromium's console error ("Refused to ...").
"""

from __future__ import annotations

import re
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from tournament.management.demo import DEMO_TOURNAMENT_SLUG, REFEREE_USERNAME
from tournament.management.demo import DEMO_USERNAME as ORGANISER_USERNAME

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 800}}
SLUG = DEMO_TOURNAMENT_SLUG

PAGES = {
    None: [
        "/",
        f"/t/{SLUG}/",
        f"/t/{SLUG}/standings/",
        f"/t/{SLUG}/rounds/2/",
        f"/t/{SLUG}/rounds/2/tables/2/",
        f"/t/{SLUG}/players/1/",
        f"/t/{SLUG}/statistics/",
        f"/t/{SLUG}/projector/",
        "/scoring/calculator/",
        "/accounts/login/",
    ],
    ORGANISER_USERNAME: [
        "/manage/",
        "/manage/tokens/",
        f"/manage/{SLUG}/",
        f"/manage/{SLUG}/settings/",
        f"/manage/{SLUG}/players/",
        f"/manage/{SLUG}/check-in/",
        f"/manage/{SLUG}/referees/",
        f"/manage/{SLUG}/rounds/2/",
        f"/manage/{SLUG}/rounds/2/referees/",
        f"/manage/{SLUG}/rounds/2/board/",
        f"/manage/{SLUG}/rounds/2/tables/2/",
        f"/manage/{SLUG}/audit/",
        f"/manage/{SLUG}/seating/",
        f"/manage/{SLUG}/print/",
    ],
    REFEREE_USERNAME: [
        "/referee/",
    ],
}

LISTEN = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(
    `${event.effectiveDirective} blocked ${event.blockedURI || "inline"} ` +
    `at ${event.sourceFile}:${event.lineNumber} ${event.sample}`
  );
});
"""


@pytest.fixture
def demo(live_server):
    call_command("load_demo", stdout=StringIO())
    return live_server


class Watched:
    """A browser context of one size, logged in as `username`, whose pages report every
    policy violation and console error into `problems`."""

    def __init__(self, chromium: Any, url: str, size: str, username: str | None) -> None:
        self.url = url
        self.problems: list[str] = []
        self.context = chromium.new_context(viewport=SIZES[size], has_touch=size == "phone")
        self.context.add_init_script(LISTEN)
        if username:
            client = Client()
            client.force_login(get_user_model().objects.get(username=username))
            cookie = client.cookies["sessionid"].value
            self.context.add_cookies([{"name": "sessionid", "value": cookie, "url": url}])
        self.page = self.context.new_page()
        self.page.set_default_timeout(10_000)
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.problems.append(f"script error: {error}"))

    def _console(self, message: Any) -> None:
        # A 4xx answer is logged as "Failed to load resource"; answers are checked apart.
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            self.problems.append(f"{self.page.url}: console: {message.text}")

    def visit(self, path: str) -> None:
        response = self.page.goto(self.url + path)
        if response is None or response.status != 200:
            self.problems.append(f"{path}: answered {response.status if response else None}")
        self.page.wait_for_load_state("load")
        self.page.wait_for_timeout(300)  # let htmx and the page's scripts start
        self.collect(path)

    def collect(self, where: str) -> None:
        for violation in self.page.evaluate("window.__violations.splice(0)"):
            self.problems.append(f"{where}: {violation}")

    def close(self) -> None:
        self.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_main_pages_break_no_rule_of_the_policy(chromium, demo, size):
    problems = []
    for username, paths in PAGES.items():
        watched = Watched(chromium, demo.url, size, username)
        for path in paths:
            watched.visit(path)
        watched.close()
        problems += watched.problems
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("size", SIZES)
def test_entering_a_hand_on_the_table_screen_breaks_no_rule_of_the_policy(chromium, demo, size):
    watched = Watched(chromium, demo.url, size, ORGANISER_USERNAME)
    path = f"/referee/{SLUG}/2/2/"
    watched.visit(path)
    page = watched.page
    entry = page.locator("#entry-draw")
    entry.locator("summary").click()
    number = int(page.locator("[data-next-hand]").inner_text())
    with page.expect_response(re.compile(r"/draw/")):
        entry.get_by_role("button", name=re.compile(r"as drawn$")).click()
    page.wait_for_function(
        "n => document.querySelector('[data-next-hand]').textContent.trim() === String(n)",
        arg=number + 1,
    )
    watched.collect(f"{path} after entering hand {number}")
    watched.close()
    assert watched.problems == [], "\n".join(watched.problems)


def test_a_violation_would_be_seen(chromium, demo):
    """The watch itself: an inline script and an inline style on a page are refused and
    reported, so the tests above would fail on one."""
    watched = Watched(chromium, demo.url, "phone", None)
    watched.visit("/")
    watched.page.evaluate(
        """() => {
          const script = document.createElement("script");
          script.textContent = "window.ran = true";
          document.body.append(script);
          document.body.setAttribute("style", "color: red");
        }"""
    )
    watched.page.wait_for_timeout(200)
    watched.collect("/")

    assert watched.page.evaluate("window.ran === undefined")
    assert any("script-src-elem blocked inline" in problem for problem in watched.problems)
    assert any("style-src-attr blocked inline" in problem for problem in watched.problems)
    watched.close()


def test_scoring_a_hand_in_the_calculator_breaks_no_rule_of_the_policy(chromium, live_server):
    watched = Watched(chromium, live_server.url, "phone", None)
    watched.visit("/scoring/calculator/")
    page = watched.page
    page.fill("#id_hand", "44m 333p 44p 55s 77s 88s 3p")
    page.wait_for_function(
        "() => document.querySelector('#calc-verdict [data-total]')?.textContent === '28'"
    )
    page.locator('.calc-picker .tile[data-tile="5m"]').click()
    page.wait_for_timeout(300)
    watched.collect("/scoring/calculator/ after scoring a hand")
    watched.close()
    assert watched.problems == [], "\n".join(watched.problems)
