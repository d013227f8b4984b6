"""The attendance page: who may open it, closing check-in from it, late arrivals and absences,
and every bad input answered with a message (422), never a 500 or a half-saved change."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse
from django.utils import timezone
from factories import make_players, make_user, seated_round

from tournament.models import AuditEntry, Player, Round
from tournament.services import add_player
from tournament.services.attendance import close_check_in

pytestmark = pytest.mark.django_db

PAGE = reverse("organiser:attendance", kwargs={"slug": "spring-cup"})
CLOSE = reverse("organiser:attendance_close", kwargs={"slug": "spring-cup"})
REOPEN = reverse("organiser:attendance_reopen", kwargs={"slug": "spring-cup"})
LATE = reverse("organiser:attendance_late", kwargs={"slug": "spring-cup"})
ABSENT = reverse("organiser:attendance_absent", kwargs={"slug": "spring-cup"})


def page_of(response) -> str:
    return html.unescape(response.content.decode())


def states() -> list[tuple[str, int | None, int | None]]:
    return list(Player.objects.values_list("key", "withdrawn_from_round", "joins_from_round"))


@pytest.fixture
def field(tournament):
    """Twelve players, 9 of them checked in (10, 11, 12 are not), substitutes S1 (checked
    in) and S2; three rounds planned."""
    tournament.planned_rounds = 3
    tournament.save()
    players = make_players(tournament, 12)
    subs = [
        add_player(tournament=tournament, key=f"S{n}", name=f"Stand-in {n}", substitute=True)
        for n in (1, 2)
    ]
    Player.objects.filter(pk__in=[p.pk for p in players[:9]] + [subs[0].pk]).update(
        checked_in_at=timezone.now()
    )
    return players


@pytest.fixture
def logged_in(client, organiser, field):
    client.force_login(organiser)
    return client


def test_only_the_organiser_opens_the_page(client, tournament, field):
    response = client.get(PAGE)
    assert response.status_code == 302 and "login" in response["Location"]
    client.force_login(make_user("mallory"))
    assert client.get(PAGE).status_code in (403, 404)
    assert client.post(CLOSE, {}).status_code in (403, 404)
    assert Player.objects.filter(withdrawn_from_round__isnull=False).count() == 0


def test_the_page_offers_the_substitutes_that_fill_the_last_table(logged_in):
    response = logged_in.get(PAGE)
    assert response.status_code == 200
    page = page_of(response)
    assert "9 players are checked in" in page and "3 are not" in page
    assert "bring in 3 substitutes, or withdraw 1 players" in page
    assert "There are not enough substitutes" in page  # only two
    assert 'href="/manage/spring-cup/attendance/"' in page  # in the organiser's navigation
    assert logged_in.get(CLOSE)["Location"] == PAGE  # a POST-only address sends GET to the page


def test_closing_from_the_page(logged_in, tournament):
    response = logged_in.post(CLOSE, {"withdraw": ["9"]})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.check_in_closed_at is not None
    assert Player.objects.filter(withdrawn_from_round=1).count() == 6  # 9-12, S1, S2
    page = page_of(logged_in.get(response["Location"]))
    assert "Check-in is closed" in page
    assert "Reopen check-in" in page
    audit = logged_in.get(reverse("organiser:audit", kwargs={"slug": "spring-cup"}))
    assert audit.status_code == 200
    assert "Check-in" in page_of(audit)
    response = logged_in.post(REOPEN, {})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.check_in_closed_at is None
    assert not Player.objects.filter(withdrawn_from_round__isnull=False).exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "bring in 3 substitutes or withdraw 1 players"),
        ({"substitutes": ["S1", "S2"]}, "Round 1 would have 11 players"),
        ({"substitutes": ["nobody"]}, "Select a valid choice"),
        ({"withdraw": ["12"]}, "Select a valid choice"),  # not checked in: not offered
        ({"withdraw": ["S1"]}, "Select a valid choice"),
        ({"substitutes": ["\x00"]}, "Select a valid choice"),
    ],
)
def test_a_close_refused_says_why_and_changes_nothing(logged_in, tournament, data, message):
    before = states()
    response = logged_in.post(CLOSE, data)
    assert response.status_code == 422
    assert message in page_of(response)
    assert states() == before
    tournament.refresh_from_db()
    assert tournament.check_in_closed_at is None
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.CHECK_IN).exists()


@pytest.fixture
def closed(logged_in, tournament, organiser, field):
    """Closed with 8 players (9 withdrawn), round 1 in play."""
    close_check_in(tournament, actor=organiser, withdraw=["9"])
    seated_round(tournament, organiser, [field[:4], field[4:8]])
    return logged_in


def test_a_late_arrival_from_the_page(closed, tournament):
    response = closed.post(LATE, {"late-player": "10", "late-round": "2", "late-substitute": ""})
    assert response.status_code == 422
    assert "Round 2 would have 9 players" in page_of(response)
    assert Player.objects.get(key="10").withdrawn_from_round == 1
    # With three more the field is full again: 10 arrives; S1 and S2 are on the bench.
    response = closed.post(
        ABSENT, {"absent-player": "8", "absent-round": "2", "absent-substitute": "S1"}
    )
    assert response.status_code == 302
    assert Player.objects.get(key="S1").joins_from_round == 2
    response = closed.post(LATE, {"late-player": "9", "late-round": "2", "late-substitute": "S1"})
    assert response.status_code == 302, page_of(response)
    nine = Player.objects.get(key="9")
    assert (nine.joins_from_round, nine.withdrawn_from_round) == (2, None)
    assert nine.checked_in_at is not None
    page = page_of(closed.get(PAGE))
    assert "Joining:" in page


@pytest.mark.parametrize(
    ("url", "data", "message"),
    [
        (
            LATE,
            {"late-player": "10", "late-round": "1", "late-substitute": ""},
            "Select a valid choice",
        ),
        (
            LATE,
            {"late-player": "10", "late-round": "abc", "late-substitute": ""},
            "Select a valid choice",
        ),
        (LATE, {"late-player": "nobody", "late-round": "2"}, "Select a valid choice"),
        (
            LATE,
            {"late-player": "10", "late-round": "2", "late-substitute": "1"},
            "Select a valid choice",
        ),
        (LATE, {}, "This field is required"),
        (ABSENT, {"absent-player": "1", "absent-round": "9"}, "Select a valid choice"),
        (ABSENT, {"absent-player": "1", "absent-round": "2"}, "Round 2 would have 7 players"),
        (
            ABSENT,
            {"absent-player": "10", "absent-round": "2", "absent-substitute": "S1"},
            "Select a valid choice",
        ),
        (
            ABSENT,
            {
                "absent-player": "1",
                "absent-round": "2",
                "absent-substitute": "S1",
                "absent-x": "\x00",
            },
            "",
        ),
    ],
)
def test_bad_inputs_are_refused_with_a_message(closed, url, data, message):
    before = states()
    response = closed.post(url, data)
    if not message:  # a stray field is ignored: the change is made
        assert response.status_code == 302
        return
    assert response.status_code == 422
    assert message in page_of(response)
    assert states() == before


def test_a_round_that_started_after_the_page_was_drawn_is_refused(closed, tournament, organiser):
    """The page offered round 2; round 2 is in play by the time the absence is sent."""
    round_2, _tables = seated_round(
        tournament,
        organiser,
        [
            [Player.objects.get(key=k) for k in ("1", "5", "2", "6")],
            [Player.objects.get(key=k) for k in ("3", "7", "4", "8")],
        ],
        status=Round.Status.SEATED,
    )
    # As if round 1 had ended and round 2 had started meanwhile.
    Round.objects.filter(pk=tournament.rounds.get(number=1).pk).update(status="finished")
    Round.objects.filter(pk=round_2.pk).update(status="playing")
    before = states()
    response = closed.post(
        ABSENT, {"absent-player": "1", "absent-round": "2", "absent-substitute": "S1"}
    )
    assert response.status_code == 422
    assert "Select a valid choice" in page_of(response)  # round 2 is no longer offered
    assert states() == before


def test_reopening_once_round_1_is_in_play_is_refused(closed):
    response = closed.post(REOPEN, {})
    assert response.status_code == 422
    assert "Round 1 is playing" in page_of(response)


def test_the_page_works_on_every_preset(client):
    from preset_world import PRESETS, build

    for index, preset in enumerate(PRESETS):
        slug = f"cup-{index}"
        world = build(preset, make_user(f"org{index}"), slug=slug, referee=make_user(f"ref{index}"))
        client.force_login(world.organiser)
        response = client.get(reverse("organiser:attendance", kwargs={"slug": slug}))
        assert response.status_code == 200
        page = page_of(response)
        assert "Round 3" not in page or "Rounds not yet in play" in page
        url = reverse("organiser:attendance_late", kwargs={"slug": slug})
        response = client.post(url, {"late-player": "8", "late-round": "3", "late-substitute": "9"})
        assert response.status_code == 302, page_of(response)
        assert Player.objects.get(tournament=world.tournament, key="8").joins_from_round == 3
