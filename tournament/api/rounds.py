"""Endpoints of rounds: creating the next one, seating it, its status and referees, its clock
and its live board."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from ninja import Query, Router
from ninja.responses import Status

from tournament import services
from tournament.api import pages, schemas, serialisers
from tournament.api.auth import reach
from tournament.api.errors import ApiError, invalid, invalid_field
from tournament.api.tournaments import PAGED, READ, WRITE, T
from tournament.domain.rotation import WINDS
from tournament.models import Round
from tournament.reads.access import AuthenticatedRequest
from tournament.reads.clock import clock_of
from tournament.reads.selectors import assignable_referees

router = Router(exclude_unset=True)

R = f"{T}/rounds/{{int:number}}"


@router.get(
    f"{T}/rounds",
    url_name="rounds",
    response={200: schemas.RoundList, **READ},
    summary="The rounds",
)
def list_rounds(request: HttpRequest, slug: str) -> dict[str, Any]:
    """Draft rounds are listed for organisers only.

    Who: anyone who may read the tournament."""
    return {"rounds": serialisers.annotated_rounds(reach(request).access.rounds())}


def _round_answer(request: HttpRequest, round: Round, page: Any = None) -> schemas.Round:
    """The round with one page of its tables: `page` for a read, the first page (of the
    default size) for the answer to a write."""
    path = None
    if page is None:
        page = pages.TablesPage()
        path = reverse(
            "tournament_api:round", kwargs={"slug": round.tournament.slug, "number": round.number}
        )
    answer = {
        "number": round.number,
        "status": round.status,
        "tables": serialisers.tables_for_summary(round)[page.offset : page.offset + page.limit],
        **pages.paged(request, page, round.tables.count(), path=path),
    }
    return schemas.Round.model_validate(
        answer, context={"request": request, "clock": clock_of(round)}
    )


@router.post(
    f"{T}/rounds",
    response={201: schemas.Round, **WRITE},
    summary="Create the next round",
)
def create_round(
    request: AuthenticatedRequest,
    response: HttpResponse,
    slug: str,
    payload: schemas.Empty = schemas.EMPTY,
) -> Status:
    """The new draft round, without tables; Location is its address. The body is empty or {}.

    Who: an organiser of the tournament."""
    round = services.create_round(tournament=reach(request).tournament, actor=request.user)
    response["Location"] = reverse(
        "tournament_api:round", kwargs={"slug": slug, "number": round.number}
    )
    return Status(201, _round_answer(request, round))


@router.get(
    R,
    url_name="round",
    response={200: schemas.Round, **PAGED},
    summary="A round: status and tables with seats and scores",
)
def get_round(
    request: HttpRequest,
    slug: str,
    number: int,
    page: Query[pages.TablesPage],
) -> schemas.Round:
    """A draft round is shown to organisers only (404 for others). One page of its tables,
    by number: `limit` and `offset`, `count` and `next` as for the other lists.

    Who: anyone who may read the tournament."""
    return _round_answer(request, reach(request).round, page)


@router.post(
    f"{R}/seating",
    url_name="seating",
    response={200: schemas.Round, **WRITE},
    summary="Seat a round at random or as given",
)
def seat_round(
    request: AuthenticatedRequest,
    slug: str,
    number: int,
    payload: schemas.SeatingRequest,
) -> schemas.Round:
    """Replaces the round's tables; the round must be a draft or seated. `random` seats it by
    the seating plan's rules: players who met in other rounds kept apart, the tournament's
    club, country and team separations, fixed tables, by standing when the round is set so
    (400 job_running while the seating plan is being generated).

    Referees stay with their table numbers, as on the seating pages: seated again, a table
    keeps its referees; seated for the first time, it takes those of the previous round's
    table of the same number. A table sent with `referees` (usernames; [] for none) gets
    exactly those: each must be an active referee account of this tournament, one of its
    organisers or a user already refereeing one of its tables (400 `invalid` naming the table
    otherwise, and nothing changes). The answer shows each table's referees.

    Who: an organiser of the tournament."""
    round, seating = reach(request).round, payload
    given = "tables" in seating.model_fields_set
    if seating.random and given:
        raise invalid_field("tables", "Send either random: true or tables, not both.")
    if seating.random:
        services.seat_round(round=round, actor=request.user, seed=seating.seed)
    elif given:
        tables = _tables(round, seating.tables)
        referees = _table_referees(round, seating.tables)
        with transaction.atomic():
            services.set_seating(
                round=round, tables=tables, actor=request.user, carry_referees=True
            )
            if referees:
                services.assign_round_referees(round=round, referees=referees, actor=request.user)
    else:
        raise invalid_field(
            "tables", 'Send {"random": true} or {"tables": [{"E": key, ...}, ...]}.'
        )
    return _round_answer(request, round)


def _tables(round: Round, tables: list[dict[str, Any]]) -> list[list]:
    """The players of each table, at E, S, W, N, found by key."""
    players = {player.key: player for player in round.tournament.players.all()}
    problems = []
    seating = []
    for number, table in enumerate(tables, start=1):
        if set(table) - {"referees"} != set(WINDS) or not all(
            isinstance(table[wind], str) for wind in WINDS
        ):
            problems.append(
                f"table {number} needs the keys of its players at E, S, W and N (and perhaps "
                "its referees), nothing else"
            )
            continue
        unknown = [table[wind] for wind in WINDS if table[wind] not in players]
        if unknown:
            problems.append(f"table {number}: no player has the key {', '.join(unknown)}")
            continue
        seating.append([players[table[wind]] for wind in WINDS])
    if problems:
        raise invalid_field("tables", "Fix the seating: " + "; ".join(problems) + ".")
    return seating


def _table_referees(round: Round, tables: list[dict[str, Any]]) -> dict[int, list[User]]:
    """The referees that the tables sent with `referees` name, by table number; each must be
    one of those the tournament's tables may be given to (`selectors.assignable_referees`)."""
    named = {
        number: table["referees"]
        for number, table in enumerate(tables, start=1)
        if "referees" in table
    }
    if not named:
        return {}
    known = {user.get_username(): user for user in assignable_referees(round.tournament)}
    problems = []
    chosen: dict[int, list[User]] = {}
    for number, usernames in named.items():
        if not isinstance(usernames, list) or not all(isinstance(name, str) for name in usernames):
            problems.append(f"table {number}: referees must be a list of usernames")
            continue
        if len(usernames) > schemas.MAX_TABLE_REFEREES:
            problems.append(
                f"table {number}: at most {schemas.MAX_TABLE_REFEREES} referees, "
                f"not {len(usernames)}"
            )
            continue
        unknown = [name for name in dict.fromkeys(usernames) if name not in known]
        if unknown:
            # As many as a reader takes in, each as long as a username may be.
            shown = [name[:150] for name in unknown[:5]] + (["…"] if len(unknown) > 5 else [])
            problems.append(
                f"table {number}: {', '.join(shown)} "
                + ("is not a referee" if len(unknown) == 1 else "are not referees")
                + " of this tournament (make referee accounts on the tournament's referee "
                "accounts page first)"
            )
            continue
        chosen[number] = [known[name] for name in dict.fromkeys(usernames)]
    if problems:
        raise invalid_field("tables", "Fix the referees: " + "; ".join(problems) + ".")
    return chosen


@router.post(
    f"{R}/status",
    url_name="round_status",
    response={200: schemas.Round, **WRITE},
    summary="Publish, open, finish or step back a round",
)
def set_round_status(
    request: AuthenticatedRequest,
    slug: str,
    number: int,
    payload: schemas.RoundStatusRequest,
) -> schemas.Round:
    """draft -> seated -> playing -> finished, and back one step where the results allow it.

    Starting play while a table has no active referee (only organisers could enter its
    results) is refused with 409 `tables_without_referees` naming the tables, unless
    `"confirm": true` is sent.

    Who: an organiser of the tournament."""
    try:
        round = services.set_round_status(
            round=reach(request).round,
            status=payload.status,
            actor=request.user,
            unrefereed_ok=payload.confirm,
        )
    except ValidationError as error:
        if getattr(error, "code", None) != "tables_without_referees":
            raise
        message = " ".join(error.messages) + ' Send "confirm": true to start anyway.'
        raise ApiError(409, "tables_without_referees", message) from error
    return _round_answer(request, round)


@router.put(
    f"{R}/tables/{{int:table}}/referees",
    url_name="referees",
    response={200: schemas.Referees, **WRITE},
    summary="Assign the table's referees",
)
def set_referees(
    request: AuthenticatedRequest,
    slug: str,
    number: int,
    table: int,
    payload: schemas.Referees,
) -> dict[str, Any]:
    """Replaces the referees with these users, by username: each must be an active referee
    account of this tournament, one of its organisers or a user already refereeing one of its
    tables (400 `unknown_user` naming the usernames no user has, 400 `not_a_referee` naming
    the others; nothing changes then). The change is kept in the audit trail.

    Who: an organiser of the tournament."""
    found = reach(request).table
    usernames = list(dict.fromkeys(payload.referees))
    allowed = {user.get_username(): user for user in assignable_referees(found.round.tournament)}
    others = [name for name in usernames if name not in allowed]
    if others:
        User = get_user_model()
        existing = set(
            User._default_manager.filter(**{f"{User.USERNAME_FIELD}__in": others}).values_list(
                User.USERNAME_FIELD, flat=True
            )
        )
        missing = [name for name in others if name not in existing]
        if missing:
            message = f"No user is called {', '.join(sorted(missing))}."
            raise ApiError(400, "unknown_user", message, fields={"referees": message})
        message = (
            f"{', '.join(sorted(others))} cannot referee here: a table's referees are the "
            "tournament's active referee accounts and its organisers (make referee accounts "
            "on the tournament's referee accounts page first)."
        )
        raise ApiError(400, "not_a_referee", message, fields={"referees": message})
    users = [allowed[name] for name in usernames]
    services.assign_referees(table=found, referees=users, actor=request.user)
    return {"referees": sorted(user.get_username() for user in users)}


@router.get(
    f"{R}/clock",
    url_name="round_clock",
    response={200: schemas.Clock, **READ},
    summary="The round clock: its state and the time left",
)
def get_round_clock(request: HttpRequest, slug: str, number: int) -> schemas.Clock:
    """Who: anyone who may read the tournament."""
    return _clock_answer(request, reach(request).round)


def _clock_answer(request: HttpRequest, round: Round) -> schemas.Clock:
    context = {"request": request, "clock": clock_of(round)}
    return schemas.Clock.model_validate(round, context=context)


@router.post(
    f"{R}/clock",
    response={200: schemas.Clock, **WRITE},
    summary="Start, pause, resume or extend the round clock",
)
def change_round_clock(
    request: AuthenticatedRequest,
    slug: str,
    number: int,
    payload: schemas.ClockRequest,
) -> schemas.Clock:
    """Start ({"action": "start", "minutes": 120}, minutes optional), pause, resume or extend
    ({"action": "extend", "minutes": 10}; negative shortens) the round clock. The clock starts
    only while the round is in play; every change is kept in the audit trail.

    Who: an organiser of the tournament."""
    round, change = reach(request).round, payload
    try:
        round = services.change_clock(
            round=round, action=change.action, actor=request.user, minutes=change.minutes
        )
    except ValidationError as error:
        codes = {item.code for items in getattr(error, "error_dict", {}).values() for item in items}
        for code, message in CLOCK_MINUTES.items():
            if code in codes:
                raise invalid({"minutes": message}) from error
        raise
    return _clock_answer(request, round)


# The clock service's refusals of minutes, in the API's words.
CLOCK_MINUTES = {
    "minutes_required": "This field is required.",
    "minutes_not_taken": "Only start and extend take minutes.",
}


@router.get(
    f"{R}/board",
    url_name="round_board",
    response={200: schemas.Board, **PAGED},
    summary="The live board of a round",
)
def get_round_board(
    request: HttpRequest,
    slug: str,
    number: int,
    page: Query[pages.TablesPage],
) -> schemas.Board:
    """The clock, the counts of sheets and of tables behind over every table, and one page of
    the tables (`limit`, `offset`) with their hands played, scores, game sheet status and
    whether each is falling behind the clock.

    Who: anyone who may read the tournament."""
    round = reach(request).round
    clock = clock_of(round, timezone.now())
    sheets, behind = serialisers.board_counts(round, clock)
    answer = {
        "round": round.number,
        "status": round.status,
        "clock": round,
        "sheets": sheets,
        "behind": behind,
        "tables": serialisers.tables_for_summary(round)[page.offset : page.offset + page.limit],
        **pages.paged(request, page, round.tables.count()),
    }
    return schemas.Board.model_validate(answer, context={"request": request, "clock": clock})
