"""The standings page and API keep what they computed until the tournament changes
(tournament.reads.standings_cache): every change the standings show is there on the next request."""

from __future__ import annotations

import pytest
from django.urls import reverse
from factories import submit

from tournament.reads import standings_cache
from tournament.services import (
    DealInput,
    add_player,
    confirm_game,
    correct_deal,
    record_penalty,
    remove_player,
)

pytestmark = pytest.mark.django_db

API = "/api/tournaments/spring-cup/standings"
PAGE = reverse("public:standings", args=["spring-cup"])


def scores(client, provisional: bool = False) -> dict[str, int]:
    address = f"{API}?provisional=1" if provisional else API
    response = client.get(address)
    assert response.status_code == 200, response.content[:300]
    return {line["name"]: line["score"] for line in response.json()["standings"]}


@pytest.fixture
def confirmed(board, organiser):
    """Table 1 played two hands (Ann wins both), submitted and confirmed; read once, so the
    standings are kept."""
    table = submit(board["tables"][0], board["referee"], hands=2)
    confirm_game(table=table, confirmed_by=organiser)
    return table


def test_a_confirmed_game_counts_at_once(client, board, organiser):
    table = submit(board["tables"][0], board["referee"], hands=2)
    assert set(scores(client).values()) == {0}
    provisional = scores(client, provisional=True)
    assert max(provisional.values()) > 0
    ann = f'<td class="number">{provisional["Ann Archer"]}</td>'
    assert ann not in client.get(PAGE).content.decode()

    confirm_game(table=table, confirmed_by=organiser)

    assert scores(client) == provisional
    assert ann in client.get(PAGE).content.decode()


def test_a_correction_counts_at_once(client, confirmed, organiser):
    before = scores(client)
    page_before = client.get(PAGE).content

    correct_deal(
        hand=confirmed.deals.get(number=2), deal=DealInput(result="draw"), entered_by=organiser
    )

    after = scores(client)
    assert after != before
    assert after["Ann Archer"] < before["Ann Archer"]
    assert client.get(PAGE).content != page_before


def test_a_penalty_counts_at_once(client, confirmed, board, organiser):
    before = scores(client)

    record_penalty(table=confirmed, player=board["players"][1], points=10, distributed=False,
                   reason="Late", entered_by=organiser)  # fmt: skip

    after = scores(client)
    assert after[board["players"][1].name] == before[board["players"][1].name] - 10


def test_a_new_or_removed_player_counts_at_once(client, confirmed, tournament):
    assert "Zoe Zhang" not in scores(client)
    player = add_player(tournament=tournament, name="Zoe Zhang", key="99")
    assert "Zoe Zhang" in scores(client)
    assert "Zoe Zhang" in client.get(PAGE).content.decode()

    remove_player(player=player)

    assert "Zoe Zhang" not in scores(client)
    assert "Zoe Zhang" not in client.get(PAGE).content.decode()


def test_a_repeated_request_reads_no_seat(client, confirmed, django_assert_max_num_queries):
    scores(client)
    client.get(PAGE)

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as api_queries:
        scores(client)
    with CaptureQueriesContext(connection) as page_queries:
        client.get(PAGE)
    for captured in (api_queries, page_queries):
        assert not any("tournament_seat" in query["sql"] for query in captured.captured_queries)


def test_the_kept_entries_are_bounded(client, board, organiser, tournament):
    for number in range(standings_cache.MOST_ENTRIES + 3):
        add_player(tournament=tournament, name=f"Extra {number}", key=f"9{number}")
        scores(client)
    assert len(standings_cache._entries) == standings_cache.MOST_ENTRIES


def test_a_change_to_a_submitted_sheet_shows_in_the_provisional_standings(client, board, organiser):
    table = submit(board["tables"][0], board["referee"], hands=2)
    ann = board["players"][0].name
    before = scores(client, provisional=True)[ann]

    record_penalty(table=table, player=board["players"][0], points=30, distributed=False,
                   reason="Slow", entered_by=organiser)  # fmt: skip
    assert scores(client, provisional=True)[ann] == before - 30

    correct_deal(
        hand=table.deals.get(number=1), deal=DealInput(result="draw"), entered_by=organiser
    )
    assert scores(client, provisional=True)[ann] < before - 30


def test_a_repeated_request_asks_a_fixed_number_of_queries(
    client, confirmed, django_assert_num_queries
):
    scores(client)
    client.get(PAGE)
    # The tournament and its LiveVersion number (and, for the page, the games counted).
    with django_assert_num_queries(2):
        scores(client)
    with django_assert_num_queries(3):
        client.get(PAGE)


def test_an_edit_in_the_django_admin_shows_at_once(client, confirmed, board, rf, admin_user):
    from django.contrib import admin

    from tournament.models import Player

    player = board["players"][0]
    assert player.name in scores(client)
    player.name = "Renamed Player"
    request = rf.post("/")
    request.user = admin_user
    admin.site._registry[Player].save_model(request, player, None, change=True)

    assert "Renamed Player" in scores(client)


@pytest.mark.parametrize("fails", [False, True])
def test_the_cycle_collector_is_held_off_only_while_the_standings_are_built(tournament, fails):
    import gc

    seen = []

    def build(rows):
        seen.append(gc.isenabled())
        if fails:
            raise RuntimeError("build failed")
        return rows

    assert gc.isenabled()
    try:
        standings_cache.cached_standings(tournament, provisional=False, shape="test", build=build)
    except RuntimeError:
        assert fails

    assert seen == [False]
    assert gc.isenabled()


def test_a_live_poll_reads_the_live_number_once(client, confirmed):
    """The ETag's query reads the number; the kept standings' key takes it from there."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        response = client.get(PAGE, headers={"HX-Request": "true"})

    assert response.status_code == 200
    reads = [q["sql"] for q in queries.captured_queries if "liveversion" in q["sql"].lower()]
    assert len(reads) == 1, reads
