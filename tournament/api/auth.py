"""Who is calling, and what they may reach (the policy of `tournament.permissions`).

A caller is the owner of the API token sent as `Authorization: Bearer <secret>`, else the
session's user (a browser), else anonymous, which is enough for reads only. A token that is not
valid is refused with 401, also on public reads, so a program learns at once that its token is
wrong; too many wrong tokens from one address get 429 for a while (`tournament.throttle`),
whatever token that address sends then. Writes need a login (401); a session-authenticated
write also needs the CSRF token, while a token-authenticated one does not (a browser never
sends the token on its own). Then each endpoint asks for its role (403), and a tournament the
caller may not read is answered 404, as if it did not exist.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
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

from tournament.access import (
    ORGANISER,
    READER,
    REFEREE,
    Access,
    NotFound,
    RoleRequired,
    tournament_access,
)
from tournament.api.errors import CHALLENGE, ApiError
from tournament.models import Round, Table, Tournament
from tournament.throttle import client_ip, note_token_failure, token_lockout
from tournament.tokens import find_token, note_use, use_due

SAFE_METHODS = frozenset({"GET", "HEAD"})


class BearerToken(HttpBearer):
    """An API token. Any other Authorization header is refused, not ignored."""

    scheme_name = "bearerAuth"
    openapi_description = "An API token: 'Authorization: Bearer <secret>'. Needs no CSRF token."

    def __call__(self, request: HttpRequest) -> Any:
        header = request.headers.get("Authorization")
        if header is None:
            return None
        scheme, _, secret = header.partition(" ")
        return self.authenticate(request, secret.strip() if scheme.lower() == "bearer" else "")

    def authenticate(self, request: HttpRequest, token: str) -> Any:
        address = client_ip(request)
        # A valid token always gets through, whatever its address's lockout: at a venue behind
        # one address, a phone retrying a revoked token must not shut out every referee. Only
        # wrong tokens are counted, and refused while the address is locked.
        found, _locked = find_token(token)
        if found is None:
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
                note_use(found.pk)  # a read: at most once an hour (tournament.tokens)
            else:
                _USES_DUE[request] = found.pk  # noted in the write's transaction: token_use
        request.user = found.user
        return found.user


# Writes whose token's last use is to be noted, with the token's id (see token_use).
_USES_DUE: WeakKeyDictionary[HttpRequest, int] = WeakKeyDictionary()


@contextmanager
def token_use(request: HttpRequest) -> Iterator[None]:
    """Around a write: when the token's last use is due to be noted, the note goes in the
    write's transaction (opened here), so that it costs no commit of its own."""
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
    """Django's own CSRF check, answering the reason instead of an HTML page."""

    def _reject(self, request: HttpRequest, reason: str) -> str:
        return reason


def _no_view(request: HttpRequest) -> HttpResponse:
    """The view and next handler the CSRF check is given: it calls neither, and asks the view
    only whether it is exempt (it is not)."""
    return HttpResponse()


class SessionLogin(APIKeyCookie):
    """A logged-in browser session; its writes need the CSRF token too."""

    scheme_name = "cookieAuth"
    param_name = settings.SESSION_COOKIE_NAME
    openapi_description = (
        "A logged-in browser session. Writes also need the CSRF token in the X-CSRFToken "
        f"header (from the {settings.CSRF_COOKIE_NAME} cookie)."
    )

    def __init__(self) -> None:
        super().__init__(csrf=False)  # checked below, for writes only, with our own answer

    def authenticate(self, request: HttpRequest, key: str | None) -> Any:
        if not request.user.is_authenticated:
            return None
        if request.method not in SAFE_METHODS:
            check = _CsrfCheck(_no_view)
            check.process_request(request)
            reason = check.process_view(request, _no_view, (), {})
            if reason is not None:
                raise ApiError(
                    403,
                    "csrf_failed",
                    f"A write with a session login needs the CSRF token in the X-CSRFToken "
                    f"header ({reason}). Programs should use an API token instead.",
                )
        return request.user


class Anyone:
    """Reads need no login: each endpoint checks what the caller may read, the session's user
    included (loaded only when it matters, as a public tournament's reads need no user)."""

    anonymous_methods = SAFE_METHODS  # for the OpenAPI document: {} among the security

    def __call__(self, request: HttpRequest) -> bool:
        return request.method in SAFE_METHODS


# In this order: a token wins over the session, and reads ask no more.
CALLERS = [BearerToken(), Anyone(), SessionLogin()]

# The caller's access found for a request, so that later questions ask no query again.
_ACCESSES: WeakKeyDictionary[HttpRequest, Access] = WeakKeyDictionary()


def forbidden(message: str) -> ApiError:
    return ApiError(403, "forbidden", message)


def not_found(message: str) -> ApiError:
    return ApiError(404, "not_found", message)


def _access(request: HttpRequest, slug: str, role: str = READER) -> Access:
    """The caller's access to the tournament at `slug` (see `tournament.access`), in the API's
    words when refused; kept for the request so that later questions ask no query again."""
    try:
        access = tournament_access(request.user, slug, role=role)
    except NotFound as error:
        raise not_found(f"There is no tournament {slug!r}.") from error
    except RoleRequired as error:
        raise forbidden("Only an organiser of this tournament may do this.") from error
    _ACCESSES[request] = access
    return access


def _access_to(request: HttpRequest, tournament: Tournament) -> Access:
    access = _ACCESSES.get(request)
    if access is None or access.tournament.pk != tournament.pk:
        access = _ACCESSES[request] = Access(request.user, tournament)
    return access


def readable_tournament(request: HttpRequest, slug: str) -> Tournament:
    """The tournament at `slug` if the caller may read it; 404 otherwise."""
    return _access(request, slug).tournament


def organised_tournament(request: HttpRequest, slug: str) -> Tournament:
    """The tournament at `slug` if the caller organises it; 404 or 403 otherwise."""
    return _access(request, slug, ORGANISER).tournament


def insider(request: HttpRequest, tournament: Tournament) -> bool:
    """Organisers and referees of the tournament see usernames (referees, who entered what)."""
    return _access_to(request, tournament).insider


def is_organiser(request: HttpRequest, tournament: Tournament) -> bool:
    """Whether the caller organises the tournament (sees the standings hidden from others)."""
    return _access_to(request, tournament).organiser


def published_rounds(request: HttpRequest, tournament: Tournament) -> QuerySet[Round]:
    """The rounds the caller may see: draft rounds only for organisers."""
    return _access_to(request, tournament).rounds()


def round_of(request: HttpRequest, tournament: Tournament, number: int) -> Round:
    """Round `number`; a draft round is shown to organisers only (its seating is not out)."""
    try:
        return _access_to(request, tournament).round(number)
    except NotFound as error:
        raise not_found(
            f"Round {number} of this tournament does not exist or is not published."
        ) from error


def table_of(round: Round, number: int) -> Table:
    table = Table.objects.filter(round=round, number=number).first()
    if table is None:
        raise not_found(f"Round {round.number} has no table {number}.")
    table.round = round
    return table


def readable_table(request: HttpRequest, slug: str, number: int, table: int) -> Table:
    tournament = readable_tournament(request, slug)
    return table_of(round_of(request, tournament, number), table)


def refereed_table(request: HttpRequest, slug: str, number: int, table: int) -> Table:
    """The table if the caller may enter its results (its referee or an organiser).

    One query when the caller may (the table with its round and tournament, and whether the
    caller organises the tournament or referees the table); otherwise the checks one by one,
    which say what is missing."""
    user = request.user
    if user.is_authenticated:
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
        if found is not None:
            published = found.round.status != Round.Status.DRAFT
            if found.by_organiser or (found.by_referee and published):
                access = Access(user, found.round.tournament)
                # What the query found, so that later questions (insider) ask nothing again.
                access.__dict__["organiser"] = found.by_organiser
                if found.by_referee:
                    access.__dict__["referee"] = True
                _ACCESSES[request] = access
                return found
    checked = readable_table(request, slug, number, table)
    try:
        _access_to(request, checked.round.tournament).require(REFEREE, checked)
    except RoleRequired as error:
        raise forbidden(
            "Only a referee of this table or an organiser may enter its results."
        ) from error
    return checked


def corrected_table(request: HttpRequest, slug: str, number: int, table: int) -> Table:
    """The table if the caller may correct its results (an organiser)."""
    found = readable_table(request, slug, number, table)
    if not _access_to(request, found.round.tournament).organiser:
        raise forbidden("Only an organiser of this tournament may correct recorded results.")
    return found
