"""Who is calling, and what they may reach (the policy of `tournament.permissions`).

A caller is the session's user (a browser) or the owner of the API token sent as
`Authorization: Bearer <secret>`. A token that is not valid is refused with 401, also on
public reads, so a program learns at once that its token is wrong. Writes need a login (401);
a session-authenticated write also needs the CSRF token, while a token-authenticated one does
not (a browser never sends the token on its own). Then each endpoint asks for its role (403),
and a tournament the caller may not read is answered 404, as if it did not exist.
"""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import HttpRequest
from django.middleware.csrf import CsrfViewMiddleware

from tournament.api.errors import ApiError
from tournament.models import Round, Table, Tournament
from tournament.permissions import can_correct, can_referee, can_view, is_organiser, referees_in
from tournament.tokens import user_for_token

SAFE_METHODS = frozenset({"GET", "HEAD"})
CHALLENGE = 'Bearer realm="api"'


def authenticate(request: HttpRequest) -> None:
    """Replace the session's user by the token's owner when a token is sent; 401 if it is bad."""
    request.api_token = False
    header = request.headers.get("Authorization")
    if header is None:
        return
    scheme, _, secret = header.partition(" ")
    user = user_for_token(secret.strip()) if scheme.lower() == "bearer" else None
    if user is None:
        raise ApiError(
            401,
            "invalid_token",
            "The API token is not valid: it is wrong, revoked, or its user is inactive. Send "
            "'Authorization: Bearer <secret>' with a token issued to you.",
            headers={"WWW-Authenticate": f'{CHALLENGE}, error="invalid_token"'},
        )
    request.user = user
    request.api_token = True


class _CsrfCheck(CsrfViewMiddleware):
    """Django's own CSRF check, answering the reason instead of an HTML page."""

    def _reject(self, request: HttpRequest, reason: str) -> str:  # type: ignore[override]
        return reason


def require_login(request: HttpRequest) -> None:
    """For writes: a logged-in caller, and the CSRF token when the login is the session's."""
    if not request.user.is_authenticated:
        raise ApiError(
            401,
            "login_required",
            "Log in first: send 'Authorization: Bearer <secret>' with an API token, or use a "
            "logged-in session.",
            headers={"WWW-Authenticate": CHALLENGE},
        )
    if request.api_token:
        return
    check = _CsrfCheck(lambda request: None)
    check.process_request(request)
    reason = check.process_view(request, None, (), {})
    if reason is not None:
        raise ApiError(
            403,
            "csrf_failed",
            f"A write with a session login needs the CSRF token in the X-CSRFToken header "
            f"({reason}). Programs should use an API token instead.",
        )


def forbidden(message: str) -> ApiError:
    return ApiError(403, "forbidden", message)


def not_found(message: str) -> ApiError:
    return ApiError(404, "not_found", message)


def readable_tournament(request: HttpRequest, slug: str) -> Tournament:
    """The tournament at `slug` if the caller may read it; 404 otherwise."""
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None or not can_view(request.user, tournament):
        raise not_found(f"There is no tournament {slug!r}.")
    return tournament


def organised_tournament(request: HttpRequest, slug: str) -> Tournament:
    """The tournament at `slug` if the caller organises it; 404 or 403 otherwise."""
    tournament = readable_tournament(request, slug)
    if not can_correct(request.user, tournament):
        raise forbidden("Only an organiser of this tournament may do this.")
    return tournament


def insider(request: HttpRequest, tournament: Tournament) -> bool:
    """Organisers and referees of the tournament see usernames (referees, who entered what)."""
    return is_organiser(request.user, tournament) or referees_in(request.user, tournament)


def published_rounds(request: HttpRequest, tournament: Tournament) -> QuerySet[Round]:
    """The rounds the caller may see: draft rounds only for organisers."""
    rounds = tournament.rounds.all()
    if not is_organiser(request.user, tournament):
        rounds = rounds.exclude(status=Round.Status.DRAFT)
    return rounds


def round_of(request: HttpRequest, tournament: Tournament, number: int) -> Round:
    """Round `number`; a draft round is shown to organisers only (its seating is not out)."""
    round = Round.objects.filter(tournament=tournament, number=number).first()
    if round is None or (
        round.status == Round.Status.DRAFT and not is_organiser(request.user, tournament)
    ):
        raise not_found(f"Round {number} of this tournament does not exist or is not published.")
    round.tournament = tournament
    return round


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
    """The table if the caller may enter its results (its referee or an organiser)."""
    found = readable_table(request, slug, number, table)
    if not can_referee(request.user, found):
        raise forbidden("Only a referee of this table or an organiser may enter its results.")
    return found


def corrected_table(request: HttpRequest, slug: str, number: int, table: int) -> Table:
    """The table if the caller may correct its results (an organiser)."""
    found = readable_table(request, slug, number, table)
    if not can_correct(request.user, found.round.tournament):
        raise forbidden("Only an organiser of this tournament may correct recorded results.")
    return found
