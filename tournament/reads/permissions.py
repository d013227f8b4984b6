"""Who may do what: the organisers of a tournament, the referees of a table, everyone else.

- An organiser of a tournament (or a superuser) may do anything in it.
- A referee may enter results only at the tables they are assigned to (and only while the
  round is being played, which the services check).
- Everybody may read a public tournament. A tournament that is not public can be read only by
  its organisers and the referees of its tables.

Views and the API answer: not logged in where a login is needed -> ask to log in; logged in
without the role -> 403; a tournament the user may not read -> 404, so that private
tournaments do not reveal that they exist.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser, Permission, User
from django.db.models import Exists, Q, QuerySet, Value

from tournament.models import Table, Tournament

# Whoever sends a request: a logged-in account or nobody (`request.user`).
Visitor = User | AnonymousUser


def _organiser_by_account(user: Visitor) -> bool | None:
    """Whether `user` organises every tournament (a superuser) or none (nobody logged in, a
    deactivated account); None when it depends on the tournament."""
    if not user.is_authenticated or not user.is_active:
        return False
    if user.is_superuser:
        return True
    return None


def _organiser_rows(user: Visitor, tournament: Any) -> QuerySet[Any]:
    return Tournament.organisers.through.objects.filter(tournament=tournament, user=user.pk)


def is_organiser(user: Visitor, tournament: Tournament) -> bool:
    known = _organiser_by_account(user)
    return known if known is not None else _organiser_rows(user, tournament.pk).exists()


def organises(user: Visitor, tournament: Any) -> Exists | Value:
    """`is_organiser` as a query annotation, `tournament` an OuterRef to a tournament's id: the
    live polls build their tag and check access in one query (tournament.web.live)."""
    known = _organiser_by_account(user)
    return Value(known) if known is not None else Exists(_organiser_rows(user, tournament))


def is_referee(user: Visitor, table: Table) -> bool:
    """Assigned to `table` (organisers are not referees unless assigned)."""
    if not user.is_authenticated or not user.is_active:
        return False
    return table.referees.filter(pk=user.pk).exists()


def referees_in(user: Visitor, tournament: Tournament) -> bool:
    if not user.is_authenticated or not user.is_active:
        return False
    return Table.objects.filter(round__tournament=tournament, referees=user).exists()


def can_view(user: Visitor, tournament: Tournament) -> bool:
    """May read the tournament's pages: standings, seating, score sheets, players."""
    return tournament.public or is_organiser(user, tournament) or referees_in(user, tournament)


def can_referee(user: Visitor, table: Table) -> bool:
    """Has the role to enter hands, false wins, penalties and the end of the game at `table`.

    Organisers may at every table of their tournament, referees only at their own. Whether the
    round is open for entries is for the services to say (code "round_not_playing").
    """
    return is_organiser(user, table.round.tournament) or is_referee(user, table)


def can_correct(user: Visitor, tournament: Tournament) -> bool:
    """May correct or remove any recorded result, reopen a game, change seating and rounds."""
    return is_organiser(user, tournament)


def may_organise(user: Visitor) -> bool:
    """Whether the organiser's pages have anything for `user`: a tournament they organise, or
    the right to create one. One query (none for a superuser or a visitor)."""
    if not user.is_authenticated or not user.is_active:
        return False
    if user.is_superuser:
        return True
    add = Q(codename="add_tournament", content_type__app_label="tournament")
    return (
        User.objects.filter(pk=user.pk)
        .filter(
            Q(organised_tournaments__isnull=False)
            | Q(user_permissions__in=Permission.objects.filter(add))
            | Q(groups__permissions__in=Permission.objects.filter(add))
        )
        .exists()
    )
