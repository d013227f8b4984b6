"""One way to find a tournament, a round or a table for a user, with the role a page or an API
call needs (the policy is `tournament.reads.permissions`).

A tournament the user may not read, or that does not exist, is `NotFound` (a 404: private
tournaments do not reveal that they exist); a role the user does not have is `RoleRequired`
(a 403). Both are Django's own exceptions, so a page gets the right answer without catching
them; the API turns them into its JSON errors.
"""

from __future__ import annotations

from functools import cached_property

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _

from tournament.models import Round, Table, Tournament
from tournament.reads.permissions import Visitor, is_organiser, is_referee, referees_in

READER = "reader"
REFEREE = "referee"  # of the table asked for (organisers too)
ORGANISER = "organiser"


class AuthenticatedRequest(HttpRequest):
    """A request that has passed a login: a page behind `login_required`, or an API write (its
    authentication refuses anonymous callers). Its user is an account, never AnonymousUser."""

    user: User


class NotFound(Http404):
    """No such tournament, round or table for this user."""


class RoleRequired(PermissionDenied):
    """The user may read the tournament but lacks the role: `role` says which."""

    def __init__(self, role: str, message: str) -> None:
        super().__init__(message)
        self.role = role
        self.message = message


class Access:
    """What `user` may do in `tournament`; each role is looked up once, when first asked."""

    def __init__(self, user: Visitor, tournament: Tournament) -> None:
        self.user = user
        self.tournament = tournament

    @cached_property
    def organiser(self) -> bool:
        return is_organiser(self.user, self.tournament)

    @cached_property
    def referee(self) -> bool:
        """Referees at a table of the tournament."""
        return referees_in(self.user, self.tournament)

    @property
    def insider(self) -> bool:
        """Organisers and referees see usernames: who referees, who entered what."""
        return self.organiser or self.referee

    @property
    def readable(self) -> bool:
        return self.tournament.public or self.organiser or self.referee

    def rounds(self) -> QuerySet[Round]:
        """The rounds this user may see: draft rounds (seating not out) only for organisers."""
        rounds = self.tournament.rounds.all()
        return rounds if self.organiser else rounds.exclude(status=Round.Status.DRAFT)

    def round(self, number: int) -> Round:
        round = Round.objects.filter(tournament=self.tournament, number=number).order_by().first()
        if round is None or (round.status == Round.Status.DRAFT and not self.organiser):
            raise NotFound(f"Round {number} does not exist or is not published.")
        round.tournament = self.tournament
        return round

    def require(self, role: str, table: Table | None = None) -> None:
        """Raise RoleRequired unless the user has `role` (REFEREE: at `table`)."""
        if role == ORGANISER and not self.organiser:
            raise RoleRequired(
                ORGANISER,
                _(
                    "You are logged in as %(user)s, but you are not an organiser of %(name)s. "
                    "Only its organisers can open this page: ask one of them to add you, or log "
                    "in with an organiser's account."
                )
                % {"user": self.user.get_username(), "name": self.tournament.name},
            )
        if role == REFEREE and not (
            self.organiser or (table is not None and is_referee(self.user, table))
        ):
            raise RoleRequired(REFEREE, _("You are not a referee of this table."))


def tournament_access(user: Visitor, slug: str, *, role: str = READER) -> Access:
    """The tournament at `slug` for `user`: NotFound unless they may read it, RoleRequired
    unless they have `role` (READER or ORGANISER)."""
    tournament = Tournament.objects.filter(slug=slug).first()
    return _checked(user, tournament, role)


def table_access(
    user: Visitor, slug: str, round_number: int, number: int, *, role: str = READER
) -> tuple[Access, Table]:
    """Table `number` of round `round_number` for `user`, found in one query, with its round and
    tournament loaded.

    NotFound unless they may read it (a reader sees draft rounds only as an organiser; a
    referee sees the tables assigned to them); RoleRequired unless they have `role` (READER,
    REFEREE of the table, or ORGANISER)."""
    table = (
        Table.objects.select_related("round__tournament")
        .filter(round__tournament__slug=slug, round__number=round_number, number=number)
        .order_by()  # one table at most: not the default order, which sorts by the tournament
        .first()
    )
    if table is None:
        raise NotFound("No such table.")
    access = _checked(user, table.round.tournament, READER)
    if role == READER and table.round.status == Round.Status.DRAFT and not access.organiser:
        raise NotFound("No such table.")
    access.require(role, table)
    return access, table


def _checked(user: Visitor, tournament: Tournament | None, role: str) -> Access:
    if tournament is None:
        raise NotFound("No such tournament.")
    access = Access(user, tournament)
    if not access.readable:
        raise NotFound("No such tournament.")
    access.require(role)
    return access
