"""The one access resolver: a tournament, round or table for a user, with the role asked."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from factories import make_round, make_table, make_user

from tournament.models import Round
from tournament.reads.access import (
    ORGANISER,
    REFEREE,
    NotFound,
    RoleRequired,
    table_access,
    tournament_access,
)

pytestmark = pytest.mark.django_db


def test_a_public_tournament_is_readable_by_anyone(tournament):
    access = tournament_access(AnonymousUser(), "spring-cup")

    assert access.tournament == tournament
    assert not access.organiser and not access.insider


def test_a_private_tournament_is_not_found_by_an_outsider(tournament):
    tournament.public = False
    tournament.save()

    with pytest.raises(NotFound):
        tournament_access(make_user("eve"), "spring-cup")


def test_a_private_tournament_is_readable_by_its_referees(tournament, table, referee, organiser):
    tournament.public = False
    tournament.save()
    table.referees.add(referee)

    access = tournament_access(referee, "spring-cup")

    assert access.referee and access.insider and not access.organiser


def test_an_unknown_tournament_is_not_found(db):
    with pytest.raises(NotFound):
        tournament_access(AnonymousUser(), "nowhere")


def test_only_organisers_have_the_organiser_role(tournament, organiser, referee):
    assert tournament_access(organiser, "spring-cup", role=ORGANISER).organiser

    with pytest.raises(RoleRequired) as refused:
        tournament_access(referee, "spring-cup", role=ORGANISER)

    assert refused.value.role == ORGANISER


def test_a_draft_round_is_seen_only_by_organisers(tournament, organiser):
    make_round(tournament, number=1, status=Round.Status.DRAFT)

    assert tournament_access(organiser, "spring-cup").round(1).number == 1
    with pytest.raises(NotFound):
        tournament_access(AnonymousUser(), "spring-cup").round(1)
    assert list(tournament_access(AnonymousUser(), "spring-cup").rounds()) == []


def test_a_table_is_refereed_by_its_referee_and_the_organisers(
    tournament, organiser, referee, other_referee, round, players
):
    table = make_table(round, players[:4], referees=[referee], actor=organiser)

    _access, found = table_access(referee, "spring-cup", 1, 1, role=REFEREE)
    assert found == table
    assert table_access(organiser, "spring-cup", 1, 1, role=REFEREE)[1] == table
    with pytest.raises(RoleRequired):
        table_access(other_referee, "spring-cup", 1, 1, role=REFEREE)


def test_a_referee_reaches_their_table_in_a_draft_round_that_readers_cannot_see(
    tournament, organiser, referee, players
):
    round = make_round(tournament, status=Round.Status.DRAFT)
    make_table(round, players[:4], referees=[referee], actor=organiser)

    assert table_access(referee, "spring-cup", 1, 1, role=REFEREE)[1].round == round
    with pytest.raises(NotFound):
        table_access(AnonymousUser(), "spring-cup", 1, 1)


def test_an_unknown_table_is_not_found(tournament, round):
    with pytest.raises(NotFound):
        table_access(AnonymousUser(), "spring-cup", 1, 9)
