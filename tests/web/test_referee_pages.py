"""The referee's pages: my tables, the table screen, and who may open and post to them.

The `world` is in tests/web/conftest.py; the helpers below serve the other referee tests too.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from factories import make_tournament, make_user

from tournament.models import AuditEntry, Deal, Penalty, Player, Round, Seat, Table, Tournament
from tournament.services import (
    DealInput,
    assign_referees,
    create_table,
    end_game,
    record_deal,
    record_false_win,
)

pytestmark = pytest.mark.django_db

POST_NAMES = ("win", "full", "draw", "false_win", "penalty", "undo", "end")


def table_url(world, name: str = "table", table: int = 1, round: int = 1, slug=None) -> str:
    slug = slug or world.tournament.slug
    return reverse(f"referee:{name}", args=[slug, round, table])


def scores(table: Table) -> list[int]:
    """Game scores by starting seat E, S, W, N, as stored."""
    return [seat.score for seat in sorted(table.seats.all(), key=lambda seat: seat.index)]


def messages_of(response) -> list[str]:
    """The messages the response's request left for the next page."""
    return [str(message) for message in get_messages(response.wsgi_request)]


def snapshot() -> tuple:
    return (
        tuple(model.objects.count() for model in (Deal, Penalty, AuditEntry, Seat, Table))
        + tuple(Seat.objects.order_by("pk").values_list("score", flat=True))
        + tuple(Table.objects.order_by("pk").values_list("ended_at", flat=True))
    )


@pytest.fixture
def stranger(db):
    return make_user("dave")


@pytest.fixture
def other_organiser(db):
    user = make_user("erin")
    make_tournament(organisers=[user], name="Autumn Cup", slug="autumn-cup")
    return user


# --- Permissions --------------------------------------------------------------------------


def test_anonymous_visitors_are_sent_to_log_in(client, world):
    for url in [reverse("referee:index"), table_url(world)]:
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login") + "?next=")
    for name in POST_NAMES:
        response = client.post(table_url(world, name), {"number": 1})
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    assert not Deal.objects.exists()


@pytest.mark.parametrize(
    "who, status",
    [
        ("stranger", 403),
        ("other_referee", 403),
        ("referee", 200),
        ("organiser", 200),
        ("other_organiser", 403),
    ],
)
def test_table_screen_permission_matrix(client, world, stranger, other_organiser, who, status):
    user = {"stranger": stranger, "other_organiser": other_organiser}.get(who) or getattr(
        world, who
    )
    client.force_login(user)
    response = client.get(table_url(world))
    assert response.status_code == status
    if status == 403:
        assert "You are not a referee of this table." in response.content.decode()


@pytest.mark.parametrize("who", ["stranger", "other_referee", "other_organiser"])
def test_posting_without_the_role_is_forbidden_and_changes_nothing(
    client, world, stranger, other_organiser, who
):
    user = {"stranger": stranger, "other_organiser": other_organiser}.get(who) or getattr(
        world, who
    )
    client.force_login(user)
    before = snapshot()
    data = {
        "number": 1,
        "winner": "1",
        "discarder": "self",
        "fan": 8,
        "flowers": 0,
        "offender": "1",
        "kind": "below_minimum",
        "player": "1",
        "points": 10,
        "reason": "x",
        "time_called": "on",
    }
    for name in POST_NAMES:
        assert client.post(table_url(world, name), data).status_code == 403, name
    assert snapshot() == before


def test_referee_of_table_one_cannot_enter_at_table_two(client, world):
    client.force_login(world.referee)
    response = client.post(
        table_url(world, "win", table=2),
        {"number": 1, "winner": "5", "discarder": "self", "fan": 8, "flowers": 0},
    )
    assert response.status_code == 403
    assert not Deal.objects.exists()


@pytest.mark.parametrize("name", [name for name in POST_NAMES if name != "end"])
def test_get_on_a_post_address_is_refused_and_changes_nothing(client, world, name):
    client.force_login(world.referee)
    record_deal(
        table=world.table, number=1, deal=DealInput(result="draw"), entered_by=world.referee
    )  # something that undo or end could change
    before = snapshot()
    response = client.get(
        table_url(world, name), {"number": 1, "confirm": "True", "time_called": "on"}
    )
    # A visit, not the form: sent to the table screen, nothing recorded.
    assert (response.status_code, response["Location"]) == (303, table_url(world))
    assert snapshot() == before


def test_get_on_the_end_address_is_the_review_and_changes_nothing(client, world):
    """The address of the "submit the game sheet" review (reloaded, gone back to, reopened)."""
    client.force_login(world.referee)
    record_deal(
        table=world.table, number=1, deal=DealInput(result="draw"), entered_by=world.referee
    )
    before = snapshot()
    response = client.get(table_url(world, "end"), {"number": 1, "time_called": "on"})
    assert response.status_code == 200
    assert "Submit the game sheet of table 1?" in response.content.decode()
    assert snapshot() == before


@pytest.mark.parametrize(
    "args",
    [
        ["no-such-cup", 1, 1],
        ["spring-cup", 9, 1],
        ["spring-cup", 1, 9],
    ],
)
def test_unknown_tournament_round_or_table_is_not_found(client, world, args):
    client.force_login(world.organiser)
    assert client.get(reverse("referee:table", args=args)).status_code == 404
    response = client.post(reverse("referee:draw", args=args), {"number": 1})
    assert response.status_code == 404


def test_a_private_tournament_is_not_found_for_users_without_a_role(client, world, stranger):
    Tournament.objects.filter(pk=world.tournament.pk).update(public=False)
    client.force_login(stranger)
    assert client.get(table_url(world)).status_code == 404
    client.force_login(world.referee)
    assert client.get(table_url(world)).status_code == 200
    assert client.get(table_url(world, table=2)).status_code == 403


# --- My tables ----------------------------------------------------------------------------


def table_links(response) -> list[str]:
    return re.findall(r'class="ref-table-link" href="([^"]+)"', response.content.decode())


def test_my_tables_lists_the_tables_a_referee_is_assigned_to(client, world):
    record_deal(
        table=world.table, number=1, deal=DealInput(result="draw"), entered_by=world.referee
    )
    client.force_login(world.referee)
    response = client.get(reverse("referee:index"))
    assert response.status_code == 200
    assert table_links(response) == [table_url(world)]
    html = response.content.decode()
    assert "1 of 16 hands" in html
    assert "Player 1 · Player 2 · Player 3 · Player 4" in html


def test_my_tables_shows_an_organiser_every_table_of_rounds_in_play(client, world, other_organiser):
    finished = Round.objects.create(
        tournament=world.tournament, number=2, status=Round.Status.FINISHED
    )
    create_table(round=finished, number=1, players=world.players[::2])
    client.force_login(world.organiser)
    response = client.get(reverse("referee:index"))
    assert table_links(response) == [table_url(world), table_url(world, table=2)]

    client.force_login(other_organiser)
    assert table_links(client.get(reverse("referee:index"))) == []


def test_my_tables_groups_by_tournament_and_round_and_says_when_a_game_ended(
    client, world, other_organiser
):
    other = Tournament.objects.get(slug="autumn-cup")
    players = [Player.objects.create(tournament=other, key=str(n), name=f"A{n}") for n in range(4)]
    later = Round.objects.create(tournament=other, number=3, status=Round.Status.PLAYING)
    assign_referees(
        table=create_table(round=later, number=4, players=players),
        referees=[world.referee],
        actor=other_organiser,
    )
    end_game(table=world.table, ended_by_time=True, entered_by=world.referee)
    client.force_login(world.referee)
    response = client.get(reverse("referee:index"))
    html = response.content.decode()
    assert table_links(response) == [
        reverse("referee:table", args=["autumn-cup", 3, 4]),
        table_url(world),
    ]
    assert html.index("Autumn Cup") < html.index("Round 3") < html.index("Spring Cup")
    assert "Game ended (time called)" in html


def test_my_tables_takes_a_fixed_number_of_queries(client, world, django_assert_num_queries):
    for number in range(3, 9):
        players = [
            Player.objects.create(tournament=world.tournament, key=f"x{number}{n}", name="X")
            for n in range(4)
        ]
        table = create_table(round=world.round, number=number, players=players)
        assign_referees(table=table, referees=[world.referee], actor=world.organiser)
    client.force_login(world.referee)
    # session, user, tables with hand counts, their seats and players, and whether the header
    # offers the organiser's pages
    with django_assert_num_queries(5):
        response = client.get(reverse("referee:index"))
    assert len(table_links(response)) == 7


# --- The table screen ---------------------------------------------------------------------


def status_block(response) -> str:
    html = response.content.decode()
    return html[html.index('id="status"') : html.index("</section>", html.index('id="status"'))]


def players_shown(response) -> list[tuple[str, str, str]]:
    """(key, seat wind, score) of each player in the status block, in starting order."""
    return re.findall(
        r'data-player="([^"]+)".*?data-wind="([ESWN])".*?data-score>(-?\d+)<',
        status_block(response),
        re.S,
    )


def test_table_screen_shows_the_next_hand_winds_and_running_scores(client, world):
    players = world.players
    record_deal(
        table=world.table,
        number=1,
        deal=DealInput(result="win", winner=players[1], discarder=players[2], fan=10, flowers=1),
        entered_by=world.referee,
    )
    client.force_login(world.referee)
    response = client.get(table_url(world))
    assert response.status_code == 200
    block = status_block(response)
    assert re.search(r"Hand <span data-next-hand>2</span>", block)
    assert 'data-prevailing="E"' in block
    # Hand 2: the player who started South deals.
    assert players_shown(response) == [
        ("1", "N", "-8"),
        ("2", "E", "35"),
        ("3", "S", "-19"),
        ("4", "W", "-8"),
    ]


def test_seat_winds_follow_the_tournaments_rotation_after_a_wind_round(client, world):
    for number in range(1, 6):
        record_deal(
            table=world.table,
            number=number,
            deal=DealInput(result="draw"),
            entered_by=world.referee,
        )
    client.force_login(world.referee)
    response = client.get(table_url(world))
    assert 'data-prevailing="S"' in status_block(response)
    # Hand 6 (South wind round, WMO chart B A D C, second dealer): A at S deals.
    assert [wind for _, wind, _ in players_shown(response)] == ["E", "N", "W", "S"]

    Tournament.objects.filter(pk=world.tournament.pk).update(seat_rotation="none")
    response = client.get(table_url(world))
    assert [wind for _, wind, _ in players_shown(response)] == ["N", "E", "S", "W"]


def test_table_screen_includes_the_score_sheet(client, world):
    record_false_win(
        table=world.table,
        number=1,
        offender=world.players[3],
        invalid_hand=False,
        entered_by=world.referee,
    )
    record_deal(
        table=world.table, number=1, deal=DealInput(result="draw"), entered_by=world.referee
    )
    client.force_login(world.referee)
    html = client.get(table_url(world)).content.decode()
    sheet = html[html.index('id="sheet-heading"') :]
    assert 'id="hand-1"' in sheet
    assert "Drawn hand" in sheet
    assert "False win: Player 4 -30" in sheet


def test_after_sixteen_hands_the_screen_offers_to_end_the_game(client, world):
    for number in range(1, 17):
        record_deal(
            table=world.table,
            number=number,
            deal=DealInput(result="draw"),
            entered_by=world.referee,
        )
    client.force_login(world.referee)
    html = client.get(table_url(world)).content.decode()
    assert "All 16 hands entered" in html
    assert 'id="entry-win"' not in html
    assert re.search(r'<details class="ref-entry" id="entry-end" name="entry" open>', html)


def test_an_ended_game_shows_the_table_points_and_no_hand_forms(client, world):
    p = world.players
    record_deal(
        table=world.table,
        number=1,
        deal=DealInput(result="win", winner=p[0], discarder=p[1], fan=8, flowers=0),
        entered_by=world.referee,
    )
    end_game(table=world.table, ended_by_time=True, entered_by=world.referee)
    client.force_login(world.referee)
    html = client.get(table_url(world)).content.decode()
    assert "Game ended" in html
    assert "time was called" in html
    assert re.findall(r"data-table-points>([^<]+)<", html) == ["4", "1 1/2", "1 1/2", "0"]
    for form in ("entry-win", "entry-full", "entry-draw", "entry-false-win", "entry-end"):
        assert f'id="{form}"' not in html
    assert "Undo hand" not in html


def test_a_round_not_in_play_shows_why_and_no_forms(client, world):
    Round.objects.filter(pk=world.round.pk).update(status=Round.Status.SEATED)
    client.force_login(world.referee)
    response = client.get(table_url(world))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Round 1 is seated, not in play: results cannot be entered now." in html
    assert '<form method="post" action="/referee/' not in html


def test_the_forms_on_the_table_screen_have_distinct_ids(client, world):
    """Several forms ask for a winner or flowers: a label must tick its own form's input."""
    client.force_login(world.referee)
    html = client.get(table_url(world)).content.decode()
    ids = re.findall(r'\sid="([^"]+)"', html)
    assert "win_winner_0" in ids and "full_winner_0" in ids
    assert len(ids) == len(set(ids))


def test_table_screen_takes_a_fixed_number_of_queries(client, world, django_assert_num_queries):
    for number in range(1, 9):
        record_deal(
            table=world.table,
            number=number,
            deal=DealInput(result="draw"),
            entered_by=world.referee,
        )
        record_false_win(
            table=world.table,
            number=number,
            offender=world.players[number % 4],
            invalid_hand=False,
            entered_by=world.referee,
        )
    client.force_login(world.referee)
    # session, user, table, organiser?, referee?, seats, last hand, the false wins (who cannot
    # win the next hand), the score sheet's hands and penalties, and whether the header offers
    # the organiser's pages
    with django_assert_num_queries(11):
        response = client.get(table_url(world))
    assert response.status_code == 200
