"""A team's page and the team standings on a 360 px phone: no sideways scrolling, the
players and which of them counted in view (Debian's Chromium)."""

from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import quote

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
from test_public_scenario import build_cup  # noqa: E402

from tournament.services import update_player  # noqa: E402
from tournament.services.tournaments import update_tournament  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = "spring-cup"
LONG_TEAM = "東京麻雀倶楽部 Extraordinarily Long Team Name/Second Half"


def widths(page, selector: str = "document.documentElement") -> list[int]:
    script = f"(() => {{ const e = {selector}; return [e.scrollWidth, e.clientWidth]; }})()"
    return page.evaluate(script)


@pytest.fixture
def phone(chromium):
    context = chromium.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def test_a_team_page_fits_a_phone(phone, live_server, tournament, organiser):
    build_cup(tournament, organiser)
    players = list(tournament.players.order_by("key"))
    for player, team in zip(players, [LONG_TEAM, "Oak", LONG_TEAM, "Oak", LONG_TEAM], strict=False):
        update_player(player=player, team=team)
    update_tournament(tournament=tournament, team_best_of=2)

    phone.goto(f"{live_server.url}/t/{SLUG}/teams/")
    page_width, visible = widths(phone)
    assert page_width <= visible, f"the team standings scroll sideways: {page_width} > {visible}"
    link = phone.locator("table.team-standings a", has_text="東京")
    href = link.get_attribute("href")
    slug = quote("東京麻雀倶楽部-extraordinarily-long-team-namesecond-half")
    assert href == f"/t/{SLUG}/teams/{slug}/"

    link.click()
    phone.wait_for_load_state()
    assert phone.locator("h1").inner_text().startswith("東京麻雀倶楽部")
    page_width, visible = widths(phone)
    assert page_width <= visible, f"the team page scrolls sideways: {page_width} > {visible}"
    table_width, wrapper = widths(phone, "document.querySelector('.team-members').parentElement")
    assert table_width <= wrapper, f"the members scroll sideways: {table_width} > {wrapper}"
    rows = phone.locator("table.team-members tbody tr")
    assert rows.count() == 3
    counted = [rows.nth(i).locator(".counted-mark").inner_text() for i in range(3)]
    assert counted.count("counted") == 2 and counted.count("not counted") == 1
