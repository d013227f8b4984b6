"""Who is calling and what they may reach, checked as the routers' auth, before ninja reads a
request's parameters and body: a stranger gets 401, 404 or 403 whatever they send.

The caller is the API token's owner (`Authorization: Bearer`; a wrong one is refused even on a
public read, for a program to learn of it at once, and too many from one address get 429), else
the session's user (whose writes need the CSRF token), else anonymous (reads only). A `Gate`
then finds what the address names: the tournament (404 unless the caller may read it), the role
asked (403), the round, the table and the player, hand, penalty or registration, which the
handler takes from `reach(request)`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any
from weakref import WeakKeyDictionary

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.utils import timezone
from ninja.security import APIKeyCookie, HttpBearer

from tournament.api.errors import CHALLENGE, ApiError
from tournament.infra.throttle import client_ip, note_token_failure, token_lockout
from tournament.infra.tokens import find_token, note_use, use_due
from tournament.models import Round, Table, Tournament
from tournament.reads.access import (
    ORGANISER,
    READER,
    REFEREE,
    Access,
    NotFound,
    RoleRequired,
    tournament_access,
)
from tournament.reads.permissions import Visitor

SAFE_METHODS = frozenset({"GET", "HEAD"})
# Roles of a gate beyond those of `tournament.reads.access`: an organiser correcting a table's
# records (the table is found first), an organiser or referee of the tournament, a user who may
# create tournaments.
CORRECTOR = "corrector"
INSIDER = "insider"
CREATOR = "creator"


class BearerToken(HttpBearer):
    """An API token; unlike ninja's, any other Authorization header is refused, not ignored."""

    scheme_name = "bearerAuth"
    openapi_description = "An API token: 'Authorization: Bearer <secret>'. Needs no CSRF token."

    def __call__(self, request: HttpRequest) -> Any:
        header = request.headers.get("Authorization")
        if header is None:
            return None
        scheme, _, secret = header.partition(" ")
        return self.authenticate(request, secret.strip() if scheme.lower() == "bearer" else "")

    def authenticate(self, request: HttpRequest, token: str) -> Any:
        # A valid token gets through whatever its address's lockout: at a venue behind one
        # address, a phone retrying a revoked token must not shut out every referee.
        found, _locked = find_token(token)
        if found is None:
            address = client_ip(request)
            locked_until = token_lockout(address) or note_token_failure(address)
            if locked_until is not None:
                raise _too_many_wrong_tokens(locked_until)
            raise ApiError(
                401,
                "invalid_token",
                "The API token is not valid: it is wrong, revoked, or its user is inactive. "
                "Send 'Authorization: Bearer <secret>' with a token issued to you.",
                headers={"WWW-Authenticate": f'{CHALLENGE}, error="invalid_token"'},
            )
        if use_due(found):
            if request.method in SAFE_METHODS:
                note_use(found.pk)  # a read: at most once an hour (tournament.infra.tokens)
            else:
                _USES_DUE[request] = found.pk  # noted in the write's transaction: token_use
        request.user = found.user
        return found.user


# Writes whose token's last use is to be noted, with the token's id (see token_use).
_USES_DUE: WeakKeyDictionary[HttpRequest, int] = WeakKeyDictionary()


@contextmanager
def token_use(request: HttpRequest) -> Iterator[None]:
    """Around a write: a token's last use due to be noted is noted in the write's transaction,
    at no commit of its own."""
    due = _USES_DUE.pop(request, None)
    if due is None:
        yield
        return
    with transaction.atomic():
        note_use(due)
        yield


def _too_many_wrong_tokens(locked_until: datetime) -> ApiError:
    seconds = max(1, math.ceil((locked_until - timezone.now()).total_seconds()))
    return ApiError(
        429,
        "too_many_wrong_tokens",
        f"Too many requests with a wrong API token came from your address; every token from "
        f"it is refused for {seconds} seconds (see Retry-After). Check the token your program "
        "sends.",
        headers={"Retry-After": str(seconds)},
    )


class _CsrfCheck(CsrfViewMiddleware):
    """Django's CSRF check answering its reason (ninja's answers a bare "CSRF check Failed")."""

    def _reject(self, request: HttpRequest, reason: str) -> str:
        return reason


class SessionLogin(APIKeyCookie):
    """A logged-in browser session; its writes need the CSRF token too."""

    scheme_name = "cookieAuth"
    param_name = settings.SESSION_COOKIE_NAME
    openapi_description = (
        "A logged-in browser session. Writes also need the CSRF token in the X-CSRFToken "
        f"header (from the {settings.CSRF_COOKIE_NAME} cookie)."
    )

    def authenticate(self, request: HttpRequest, key: str | None) -> Any:
        if not request.user.is_authenticated:
            return None
        if request.method not in SAFE_METHODS:
            check = _CsrfCheck(HttpResponse)  # neither calls its view nor finds it exempt
            check.process_request(request)
            reason = check.process_view(request, HttpResponse, (), {})
            if reason is not None:
                raise ApiError(
                    403,
                    "csrf_failed",
                    f"A write with a session login needs the CSRF token in the X-CSRFToken "
                    f"header ({reason}). Programs should use an API token instead.",
                )
        return request.user


class Anyone:
    """Reads need no login (the gate checks what the caller may read)."""

    def __call__(self, request: HttpRequest) -> bool:
        return request.method in SAFE_METHODS


# In this order: a token wins over the session, and reads ask no more. The session's CSRF
# token is checked above, for writes only, with the API's own answer.
CALLERS: list[Callable[[HttpRequest], Any]] = [BearerToken(), Anyone(), SessionLogin(csrf=False)]


def forbidden(message: str) -> ApiError:
    return ApiError(403, "forbidden", message)


def not_found(message: str) -> ApiError:
    return ApiError(404, "not_found", message)


class Reach:
    """What the gate found for a request, as far as its address goes."""

    access: Access  # the caller's, to the tournament
    round: Round
    table: Table
    named: Any  # the player, hand, penalty or registration the address ends with

    def __init__(self, **found: Any) -> None:
        self.__dict__.update(found)

    @property
    def tournament(self) -> Tournament:
        return self.access.tournament


def reach(request: HttpRequest) -> Reach:
    found = getattr(request, "auth", None)
    assert isinstance(found, Reach)
    return found


def _tournament(user: Visitor, slug: str, role: str) -> Access:
    try:
        return tournament_access(user, slug, role=role)
    except NotFound as error:
        raise not_found(f"There is no tournament {slug!r}.") from error
    except RoleRequired as error:
        raise forbidden("Only an organiser of this tournament may do this.") from error


def _round(access: Access, number: int) -> Round:
    """Round `number`; a draft round is shown to organisers only (its seating is not out)."""
    try:
        return access.round(number)
    except NotFound as error:
        raise not_found(
            f"Round {number} of this tournament does not exist or is not published."
        ) from error


def _table(round: Round, number: int) -> Table:
    table = Table.objects.filter(round=round, number=number).first()
    if table is None:
        raise not_found(f"Round {round.number} has no table {number}.")
    table.round = round
    return table


def _refereed(user: Visitor, slug: str, number: int, table: int) -> Reach | None:
    """The table in one query when the caller may enter its results (its referee or an
    organiser); None otherwise, for the checks to run one by one and say what is missing."""
    if not user.is_authenticated:
        return None
    found = (
        Table.objects.select_related("round__tournament")
        .annotate(
            by_organiser=Exists(
                Tournament.organisers.through.objects.filter(
                    tournament_id=OuterRef("round__tournament_id"), user_id=user.pk
                )
            ),
            by_referee=Exists(
                Table.referees.through.objects.filter(table_id=OuterRef("pk"), user_id=user.pk)
            ),
        )
        .filter(round__tournament__slug=slug, round__number=number, number=table)
        .order_by()  # one table at most: not the default order, which joins for nothing
        .first()
    )
    if found is None:
        return None
    published = found.round.status != Round.Status.DRAFT
    if not (found.by_organiser or (found.by_referee and published)):
        return None
    access = Access(user, found.round.tournament)
    # What the query found, so that later questions (insider) ask nothing again.
    access.__dict__["organiser"] = found.by_organiser
    if found.by_referee:
        access.__dict__["referee"] = True
    return Reach(access=access, round=found.round, table=found)


# What the last path parameter names: its query, and the answer when there is none.
NAMED: dict[str, tuple[Callable[[Reach, Any], QuerySet[Any]], str]] = {
    "key": (
        lambda reach, key: reach.tournament.players.filter(key=key),
        "This tournament has no player {!r}.",
    ),
    "registration": (
        lambda reach, pk: reach.tournament.registrations.select_related("player").filter(pk=pk),
        "This tournament has no registration {}.",
    ),
    "hand": (
        lambda reach, number: reach.table.deals.filter(number=number),
        "Hand {} is not entered at this table.",
    ),
    "penalty": (
        lambda reach, pk: reach.table.penalties.select_related("seat__player").filter(pk=pk),
        "Penalty {} is not recorded at this table.",
    ),
}


class Gate:
    """The routers' auth: who is calling (`CALLERS`), then what they reach with `role`.

    By default readers of the tournament read and its organisers write; ORGANISER keeps reads
    to organisers too; REFEREE, CORRECTOR and INSIDER are asked of the table (`refusal` says
    what is missing); CREATOR may create tournaments. With `named` false the last path
    parameter is the handler's to read."""

    callers: list[Callable[[HttpRequest], Any]] = CALLERS

    def __init__(self, role: str | None = None, refusal: str = "", *, named: bool = True) -> None:
        self.role = role
        self.refusal = refusal
        self.named = named

    def __call__(self, request: HttpRequest) -> Reach | None:
        if not any(caller(request) for caller in self.callers):
            return None  # a write without a login: 401
        user = request.user
        arguments = request.resolver_match.kwargs if request.resolver_match else {}
        if "slug" not in arguments:
            if self.role == CREATOR and not user.has_perm("tournament.add_tournament"):
                raise forbidden(self.refusal)
            return Reach()
        role = self.role or (READER if request.method in SAFE_METHODS else ORGANISER)
        found = None
        if role == REFEREE:
            found = _refereed(user, arguments["slug"], arguments["number"], arguments["table"])
        if found is None:
            found = self._checked(user, role, arguments)
        last = next((name for name in NAMED if name in arguments), None)
        if last is not None and self.named:
            query, missing = NAMED[last]
            found.named = query(found, arguments[last]).first()
            if found.named is None:
                raise not_found(missing.format(arguments[last]))
        return found

    def _checked(self, user: Visitor, role: str, arguments: dict[str, Any]) -> Reach:
        access = _tournament(user, arguments["slug"], ORGANISER if role == ORGANISER else READER)
        found = Reach(access=access)
        if "number" in arguments:
            found.round = _round(access, arguments["number"])
        if "table" in arguments:
            found.table = _table(found.round, arguments["table"])
        if not _has(role, access, found):
            raise forbidden(self.refusal)
        return found


def _has(role: str, access: Access, found: Reach) -> bool:
    """Whether the caller has a role asked of a table (the others are the tournament's)."""
    if role == REFEREE:
        try:
            access.require(REFEREE, found.table)
        except RoleRequired:
            return False
    if role == CORRECTOR:
        return access.organiser
    if role == INSIDER:
        return access.insider
    return True


# The router's gate, and the operations' own where they ask another role.
READERS_AND_ORGANISERS = Gate()
ORGANISERS = Gate(ORGANISER)
REFEREES = Gate(REFEREE, "Only a referee of this table or an organiser may enter its results.")
CORRECTORS = Gate(CORRECTOR, "Only an organiser of this tournament may correct recorded results.")
INSIDERS = Gate(INSIDER, "Only an organiser or a referee of this tournament confirms game sheets.")
CREATORS = Gate(CREATOR, "Creating tournaments needs the permission tournament.add_tournament.")
