"""A player's private link on a 360 px phone (Chromium): the page fits the screen, its buttons
are large enough to touch, checking in and calling a referee work, and the browser reports no
Content-Security-Policy violation."""

from __future__ import annotations

import pytest
from factories import make_players, make_user, play, seated_round

from tournament.models import RefereeCall, Tournament
from tournament.services.player_links import issue_link

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_player_checks_in_and_calls_a_referee_on_a_phone(phone_page, live_server):
    organiser = make_user("alice")
    tournament = Tournament.objects.create(
        name="Spring Cup", slug="spring-cup", public=True, self_check_in=True
    )
    tournament.organisers.add(organiser)
    players = make_players(tournament, names=["Ann Archer", "Ben Baker", "Cai Chen", "Dora Diaz"])
    _round, (table,) = seated_round(tournament, organiser, [players])
    play(table, 3, organiser)
    secret = issue_link(players[0], actor=organiser)
    violations: list[str] = []
    phone_page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )

    phone_page.goto(f"{live_server.url}/p/{secret}/")

    width = phone_page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert width[0] <= width[1], f"the page scrolls sideways: {width}"
    assert phone_page.get_by_text("Your table now: table 1, seat East").is_visible()
    for name in ("Check in", "Call a referee"):
        box = phone_page.get_by_role("button", name=name).bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44, (name, box)

    phone_page.get_by_role("button", name="Check in").click()
    phone_page.wait_for_load_state()
    assert phone_page.get_by_text("You are checked in", exact=False).first.is_visible()

    phone_page.get_by_role("button", name="Call a referee").click()
    phone_page.wait_for_load_state()
    assert phone_page.get_by_text("A referee is called to table 1.").is_visible()
    assert RefereeCall.objects.filter(table=table, answered_at=None).count() == 1
    assert violations == []
