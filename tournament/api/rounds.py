"""Endpoints of rounds: creating the next one, seating it, its status and referees, its clock
and its live board."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import HttpRequest, JsonResponse
from django.urls import reverse

from tournament.api import serialisers
from tournament.api.auth import (
    insider,
    organised_tournament,
    published_rounds,
    readable_tournament,
    round_of,
    table_of,
)
from tournament.api.errors import ApiError, answer
from tournament.api.http import Fields, read_json
from tournament.models import Round
from tournament.services import (
    assign_referees,
    create_round,
    extend_clock,
    pause_clock,
    resume_clock,
    seat_round,
    set_round_status,
    set_seating,
    start_clock,
)

WINDS = ("E", "S", "W", "N")
MAX_TABLES = 1000


def list_rounds(request: HttpRequest, slug: str) -> JsonResponse:
    tournament = readable_tournament(request, slug)
    rounds = serialisers.annotated_rounds(published_rounds(request, tournament))
    return answer({"rounds": [serialisers.round_summary(round) for round in rounds]})


def _round_answer(request: HttpRequest, round: Round, status: int = 200) -> JsonResponse:
    body = serialisers.round_detail(round, insider=insider(request, round.tournament))
    return answer(body, status)


def create(request: HttpRequest, slug: str) -> JsonResponse:
    tournament = organised_tournament(request, slug)
    Fields(read_json(request, empty={}), ()).check()
    round = create_round(tournament=tournament, actor=request.user)
    response = _round_answer(request, round, 201)
    response["Location"] = reverse(
        "tournament_api:round", kwargs={"slug": slug, "number": round.number}
    )
    return response


def detail(request: HttpRequest, slug: str, number: int) -> JsonResponse:
    tournament = readable_tournament(request, slug)
    return _round_answer(request, round_of(request, tournament, number))


def _organised_round(request: HttpRequest, slug: str, number: int) -> Round:
    tournament = organised_tournament(request, slug)
    return round_of(request, tournament, number)


def seat(request: HttpRequest, slug: str, number: int) -> JsonResponse:
    """Seat the round at random ({"random": true, "seed": 1}) or as given ({"tables": [...]})."""
    round = _organised_round(request, slug, number)
    fields = Fields(read_json(request), ("random", "seed", "tables"))
    random = fields.boolean("random", default=False)
    seed = fields.integer("seed", null=True, default=None)
    tables = fields.list_of("tables", dict, max_items=MAX_TABLES)
    fields.check()
    if random and "tables" in fields:
        raise _seating_error("Send either random: true or tables, not both.")
    if random:
        seat_round(round=round, actor=request.user, seed=seed)
    elif "tables" in fields:
        set_seating(round=round, tables=_tables(round, tables), actor=request.user)
    else:
        raise _seating_error('Send {"random": true} or {"tables": [{"E": key, ...}, ...]}.')
    return _round_answer(request, round)


def _seating_error(message: str) -> ApiError:
    return ApiError(400, "invalid", message, fields={"tables": message})


def _tables(round: Round, tables: list[dict]) -> list[list]:
    """The players of each table, at E, S, W, N, found by key."""
    players = {player.key: player for player in round.tournament.players.all()}
    problems = []
    seating = []
    for number, table in enumerate(tables, start=1):
        if set(table) != set(WINDS) or not all(isinstance(key, str) for key in table.values()):
            problems.append(f"table {number} needs the keys of its players at E, S, W and N")
            continue
        unknown = [table[wind] for wind in WINDS if table[wind] not in players]
        if unknown:
            problems.append(f"table {number}: no player has the key {', '.join(unknown)}")
            continue
        seating.append([players[table[wind]] for wind in WINDS])
    if problems:
        raise _seating_error("Fix the seating: " + "; ".join(problems) + ".")
    return seating


def change_status(request: HttpRequest, slug: str, number: int) -> JsonResponse:
    round = _organised_round(request, slug, number)
    fields = Fields(read_json(request), ("status",))
    status = fields.choice("status", Round.Status.values, required=True)
    fields.check()
    round = set_round_status(round=round, status=status, actor=request.user)
    return _round_answer(request, round)


def set_referees(request: HttpRequest, slug: str, number: int, table: int) -> JsonResponse:
    round = _organised_round(request, slug, number)
    found = table_of(round, table)
    fields = Fields(read_json(request), ("referees",))
    usernames = fields.list_of("referees", str, required=True, max_length=150)
    fields.check()
    users = get_user_model()._default_manager.filter(
        **{f"{get_user_model().USERNAME_FIELD}__in": usernames}, is_active=True
    )
    missing = sorted(set(usernames) - {user.get_username() for user in users})
    if missing:
        message = f"No active user is called {', '.join(missing)}."
        raise ApiError(400, "unknown_user", message, fields={"referees": message})
    assign_referees(table=found, referees=users, actor=request.user)
    return answer({"referees": sorted(user.get_username() for user in users)})


CLOCK_ACTIONS = ("start", "pause", "resume", "extend")


def show_clock(request: HttpRequest, slug: str, number: int) -> JsonResponse:
    tournament = readable_tournament(request, slug)
    return answer(serialisers.clock(round_of(request, tournament, number)))


def change_clock(request: HttpRequest, slug: str, number: int) -> JsonResponse:
    """Start ({"action": "start", "minutes": 120}, minutes optional), pause, resume or extend
    ({"action": "extend", "minutes": 10}; negative shortens) the round clock."""
    round = _organised_round(request, slug, number)
    fields = Fields(read_json(request), ("action", "minutes"))
    action = fields.choice("action", CLOCK_ACTIONS, required=True)
    minutes = fields.integer(
        "minutes", required=action == "extend", minimum=-600, maximum=600, default=None
    )
    if action in ("pause", "resume") and "minutes" in fields:
        fields.errors["minutes"] = "Only start and extend take minutes."
    fields.check()
    actor = request.user
    if action == "start":
        round = start_clock(round=round, actor=actor, minutes=minutes)
    elif action == "pause":
        round = pause_clock(round=round, actor=actor)
    elif action == "resume":
        round = resume_clock(round=round, actor=actor)
    else:
        round = extend_clock(round=round, actor=actor, minutes=minutes)
    return answer(serialisers.clock(round))


def show_board(request: HttpRequest, slug: str, number: int) -> JsonResponse:
    tournament = readable_tournament(request, slug)
    round = round_of(request, tournament, number)
    return answer(serialisers.board(round, insider=insider(request, tournament)))
