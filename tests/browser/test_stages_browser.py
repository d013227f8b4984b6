"""A final stage in Chromium, at phone and desktop sizes: sixteen players, four rounds played,
a cut to eight after round 4 carrying half. The organiser sees who goes on and the line,
confirms the cut, seats round 5 from it (ranks 1-4 at table 1), and the public standings show
the stage.

Set OUT_SCREENSHOTS to a folder to keep screenshots of the pages.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone
from factories import make_players, seated_round

from tournament.models import Cut, Round, Seat, Table, Tournament
from tournament.services import create_round

from .referee_screen import SIZES, logged_in_context

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("OUT_SCREENSHOTS")


def shoot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def fits(page) -> bool:
    return page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


@pytest.mark.parametrize("size", list(SIZES))
def test_cut_confirmed_and_final_round_seated_by_rank(
    chromium, live_server, tournament, organiser, size
):
    Tournament.objects.filter(pk=tournament.pk).update(
        planned_rounds=5, cut_after_round=4, cut_size=8, carry_over="1/2"
    )
    tournament.refresh_from_db()
    players = make_players(tournament, count=16)
    tables = [players[i : i + 4] for i in range(0, 16, 4)]
    now = timezone.now()
    for _ in range(4):
        round, made = seated_round(tournament, organiser, tables)
        for table in made:
            for seat, score in zip(table.seats_in_order, [41, 21, -21, -41], strict=True):
                Seat.objects.filter(pk=seat.pk).update(score=score)
        Table.objects.filter(round=round).update(ended_at=now, confirmed_at=now)
        Round.objects.filter(pk=round.pk).update(status=Round.Status.FINISHED)
    create_round(tournament=tournament, actor=organiser)

    context = logged_in_context(chromium, live_server, "alice", size)
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto(live_server.url + reverse("organiser:round", args=[tournament.slug, 4]))
        page.get_by_role("link", name="Cut to the final stage").click()
        assert page.locator("tr.org-cut-line").is_visible()
        # Players 1, 5, 9, 13 won every game: 16 table points and 164, carrying 8 and 82.
        assert "carries 8 and 82" in page.locator("table.org-cut").inner_text()
        assert fits(page)
        shoot(page, f"cut-preview-{size}")
        page.get_by_role("button", name="Confirm the cut to 8").click()
        assert page.get_by_role("button", name="Undo the cut").is_visible()
        assert Cut.objects.filter(tournament=tournament).exists()
        assert fits(page)
        shoot(page, f"cut-confirmed-{size}")

        page.goto(live_server.url + reverse("organiser:round", args=[tournament.slug, 5]))
        assert page.get_by_role("heading", name="Seat from the cut").is_visible()
        page.get_by_role("button", name="Seat round 5").click()
        assert page.get_by_text("Round 5 is seated from the cut at 4 tables.").is_visible()
        round5 = tournament.rounds.get(number=5)
        first = round5.tables.get(number=1)
        assert [seat.player.key for seat in first.seats_in_order] == ["1", "5", "9", "13"]
        assert fits(page)
        shoot(page, f"final-round-seated-{size}")

        page.goto(live_server.url + reverse("public:standings", args=[tournament.slug]))
        assert page.get_by_text("Final stage — after the cut to 8").is_visible()
        page.get_by_role("link", name="Final stage", exact=True).click()
        assert page.locator("table.standings tbody tr").count() == 8
        assert fits(page)
        shoot(page, f"standings-final-{size}")
    finally:
        context.close()
