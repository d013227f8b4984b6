"""Endpoints of a table: its score sheet, hands, false wins, penalties, the end of the game and
the confirmation of its sheet.

Referees of the table (and organisers) submit hands, false wins, penalties and the end of the
game, and may take back the last hand; corrections of earlier records are for organisers. The
organiser confirms a submitted game sheet, or a second referee where the tournament asks for
one (the service decides who may).

Hands, false wins and penalties take an `Idempotency-Key` header (a UUID the client makes for
each submission): when a submission with that key is already recorded at the table, the answer
is 200 with that record and the header `Idempotent-Replayed: true`, and nothing new is
recorded, so a client that lost the answer can safely send the same request again.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse
from django.urls import reverse

from scoring.engine import HandError, parse_compact
from tournament.api import serialisers
from tournament.api.auth import (
    corrected_table,
    forbidden,
    insider,
    not_found,
    readable_table,
    refereed_table,
)
from tournament.api.errors import ApiError, answer
from tournament.api.http import MISSING, Fields, read_json
from tournament.models import Hand, Penalty, Player, Table
from tournament.services import (
    confirm_game,
    correct_hand,
    correct_penalty,
    end_game,
    record_false_win,
    record_hand,
    record_penalty,
    remove_last_hand,
    remove_penalty,
)

# Far above any real hand; keeps a typing slip from being stored as a win.
MAX_FAN = 1000
MAX_POINTS = 32767
SITUATION = ("last_tile_of_kind", "kong_related", "last_wall_tile")
CASE_FIELDS = ("concealed", "melds", "win_tile", "flowers", *SITUATION)
HAND_FIELDS = (
    "number",
    "result",
    "winner",
    "discarder",
    "fan",
    "flowers",
    "tiles",
    "compact",
    *SITUATION,
)
PENALTY_FIELDS = ("player", "points", "distributed", "reason", "hand_number")


def _table_body(request: HttpRequest, table: Table) -> dict[str, Any]:
    return serialisers.table_detail(table, insider=insider(request, table.round.tournament))


def detail(request: HttpRequest, slug: str, number: int, table: int) -> JsonResponse:
    found = readable_table(request, slug, number, table)
    return answer(_table_body(request, found))


def _player(table: Table, fields: Fields, name: str, key: Any) -> Player | None:
    """The player of the tournament with `key` (None for None); notes a field error if none."""
    if key is None or key is MISSING:
        return None
    player = table.round.tournament.players.filter(key=key).first()
    if player is None:
        fields.errors[name] = f"No player of this tournament has the key {key!r}."
    return player


def _hand_values(table: Table, body: Any, *, number_required: bool) -> dict[str, Any]:
    """The arguments of record_hand / correct_hand read from a request body."""
    fields = Fields(body, HAND_FIELDS)
    number = fields.integer("number", required=number_required, minimum=1)
    result = fields.choice("result", Hand.Result.values, required=True)
    winner_key = fields.string("winner", max_length=20, null=True, default=None)
    discarder_key = fields.string("discarder", max_length=20, null=True, default=None)
    fan = fields.integer("fan", null=True, default=None, minimum=0, maximum=MAX_FAN)
    flowers = fields.integer("flowers", default=0, minimum=0, maximum=8)
    tiles = fields.object("tiles")
    compact = fields.string("compact", max_length=200, null=True)
    situation = {name: fields.boolean(name) for name in SITUATION}
    if tiles not in (None, MISSING) and compact not in (None, MISSING):
        fields.errors["compact"] = "Send the tiles either as tiles or as compact, not both."
    winner = _player(table, fields, "winner", winner_key)
    discarder = _player(table, fields, "discarder", discarder_key)
    fields.check()
    case = None
    given = {name: value for name, value in situation.items() if value is not MISSING}
    if tiles not in (None, MISSING):
        case = {name: tiles[name] for name in CASE_FIELDS if name in tiles} | given
    elif compact not in (None, MISSING):
        try:
            hand = parse_compact(compact, flowers=flowers, **given)
        except HandError as error:
            raise ApiError(
                400, "invalid_tiles", error.message, fields={"compact": error.message}
            ) from error
        case = hand.to_case()
    return {
        "number": number,
        "result": result,
        "winner": winner,
        "discarder": discarder,
        "fan": fan,
        "flowers": flowers,
        "tiles": case,
    }


def _hand_answer(request: HttpRequest, table: Table, hand: Hand, status: int) -> JsonResponse:
    body = _table_body(request, table)
    line = next(line for line in body["lines"] if line["number"] == hand.number)
    return answer({"hand": line["hand"], "table": body}, status)


IDEMPOTENCY_HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"


def _submission(request: HttpRequest) -> str | None:
    """The request's idempotency key, as sent (the services check that it is a UUID)."""
    return request.headers.get(IDEMPOTENCY_HEADER)


def _created(record: Hand | Penalty) -> int:
    """201 for a new record, 200 for the record of an earlier submission with the same key."""
    return 200 if getattr(record, "replayed", False) else 201


def _mark_replay(response: JsonResponse, record: Hand | Penalty) -> JsonResponse:
    if getattr(record, "replayed", False):
        response[REPLAYED_HEADER] = "true"
    return response


def submit_hand(request: HttpRequest, slug: str, number: int, table: int) -> JsonResponse:
    found = refereed_table(request, slug, number, table)
    values = _hand_values(found, read_json(request), number_required=True)
    hand = record_hand(
        table=found, entered_by=request.user, submission=_submission(request), **values
    )
    return _mark_replay(_hand_answer(request, found, hand, _created(hand)), hand)


def _hand_at(table: Table, number: int) -> Hand:
    hand = table.hands.filter(number=number).first()
    if hand is None:
        raise not_found(f"Hand {number} is not entered at this table.")
    return hand


def correct(request: HttpRequest, slug: str, number: int, table: int, hand: int) -> JsonResponse:
    found = corrected_table(request, slug, number, table)
    recorded = _hand_at(found, hand)
    values = _hand_values(found, read_json(request), number_required=False)
    if values.pop("number") not in (MISSING, hand):
        message = "The hand number is the one in the address; it cannot change."
        raise ApiError(400, "invalid", message, fields={"number": message})
    recorded = correct_hand(hand=recorded, entered_by=request.user, **values)
    return _hand_answer(request, found, recorded, 200)


def remove_last(
    request: HttpRequest, slug: str, number: int, table: int, hand: int
) -> JsonResponse:
    """Take back the last hand entered; `hand` must be its number, so nothing else goes."""
    found = refereed_table(request, slug, number, table)
    locked = Table.objects.select_for_update(of=("self",)).get(pk=found.pk)
    last = locked.hands.order_by("-number").values_list("number", flat=True).first()
    if last is not None and last != hand:
        raise ApiError(
            409,
            "not_last_hand",
            f"Hand {hand} is not the last hand entered (that is hand {last}); nothing was "
            "removed. Organisers correct earlier hands with PUT.",
        )
    remove_last_hand(table=found, entered_by=request.user)
    return answer({"table": _table_body(request, found)})


def _penalty_answer(
    request: HttpRequest, table: Table, penalty: Penalty, status: int
) -> JsonResponse:
    body = _table_body(request, table)
    shown = next(
        item for line in body["lines"] for item in line["penalties"] if item["id"] == penalty.pk
    )
    response = answer({"penalty": shown, "table": body}, status)
    if status == 201 or getattr(penalty, "replayed", False):
        response["Location"] = reverse(
            "tournament_api:penalty",
            kwargs={
                "slug": table.round.tournament.slug,
                "number": table.round.number,
                "table": table.number,
                "penalty": penalty.pk,
            },
        )
    return response


def false_win(request: HttpRequest, slug: str, number: int, table: int) -> JsonResponse:
    found = refereed_table(request, slug, number, table)
    fields = Fields(read_json(request), ("number", "player", "invalid_hand"))
    hand = fields.integer("number", required=True, minimum=1)
    key = fields.string("player", max_length=20, required=True)
    invalid_hand = fields.boolean("invalid_hand", default=False)
    offender = _player(found, fields, "player", key)
    fields.check()
    penalty = record_false_win(
        table=found,
        number=hand,
        offender=offender,
        invalid_hand=invalid_hand,
        entered_by=request.user,
        submission=_submission(request),
    )
    return _mark_replay(_penalty_answer(request, found, penalty, _created(penalty)), penalty)


def _penalty_values(table: Table, body: Any, current: Penalty | None) -> dict[str, Any]:
    """The arguments of record_penalty / correct_penalty; absent fields keep `current`'s."""
    creating = current is None
    fields = Fields(body, PENALTY_FIELDS)
    key = fields.string("player", max_length=20, required=creating)
    points = fields.integer("points", required=creating, minimum=1, maximum=MAX_POINTS)
    distributed = fields.boolean("distributed", default=False if creating else MISSING)
    reason = fields.string("reason", max_length=300, required=creating)
    hand_number = fields.integer("hand_number", null=True, minimum=1, maximum=MAX_POINTS)
    player = _player(table, fields, "player", key)
    fields.check()
    if creating:
        current_values: dict[str, Any] = {"hand_number": None}
    else:
        current_values = {
            "player": current.seat.player,
            "points": current.points,
            "distributed": current.distributed,
            "reason": current.reason,
            "hand_number": current.hand_number,
        }
    given = {
        "player": player if key is not MISSING else MISSING,
        "points": points,
        "distributed": distributed,
        "reason": reason,
        "hand_number": hand_number,
    }
    return current_values | {name: value for name, value in given.items() if value is not MISSING}


def penalise(request: HttpRequest, slug: str, number: int, table: int) -> JsonResponse:
    found = refereed_table(request, slug, number, table)
    values = _penalty_values(found, read_json(request), None)
    penalty = record_penalty(
        table=found, entered_by=request.user, submission=_submission(request), **values
    )
    return _mark_replay(_penalty_answer(request, found, penalty, _created(penalty)), penalty)


def _penalty_at(table: Table, penalty: int) -> Penalty:
    found = table.penalties.select_related("seat__player").filter(pk=penalty).first()
    if found is None:
        raise not_found(f"Penalty {penalty} is not recorded at this table.")
    return found


def correct_penalty_view(
    request: HttpRequest, slug: str, number: int, table: int, penalty: int
) -> JsonResponse:
    found = corrected_table(request, slug, number, table)
    recorded = _penalty_at(found, penalty)
    values = _penalty_values(found, read_json(request), recorded)
    recorded = correct_penalty(penalty=recorded, entered_by=request.user, **values)
    return _penalty_answer(request, found, recorded, 200)


def remove_penalty_view(
    request: HttpRequest, slug: str, number: int, table: int, penalty: int
) -> JsonResponse:
    found = corrected_table(request, slug, number, table)
    remove_penalty(penalty=_penalty_at(found, penalty), entered_by=request.user)
    return answer({"table": _table_body(request, found)})


def end(request: HttpRequest, slug: str, number: int, table: int) -> JsonResponse:
    found = refereed_table(request, slug, number, table)
    fields = Fields(read_json(request, empty={}), ("ended_by_time",))
    ended_by_time = fields.boolean("ended_by_time", default=False)
    fields.check()
    end_game(table=found, ended_by_time=ended_by_time, entered_by=request.user)
    return answer({"table": _table_body(request, found)})


def confirm(request: HttpRequest, slug: str, number: int, table: int) -> JsonResponse:
    """Confirm the submitted game sheet: the organiser, or a second referee where the
    tournament asks for one (403 with the service's code for anyone else)."""
    found = readable_table(request, slug, number, table)
    tournament = found.round.tournament
    if not insider(request, tournament):
        raise forbidden("Only an organiser or a referee of this tournament confirms game sheets.")
    Fields(read_json(request, empty={}), ()).check()
    confirm_game(table=found, confirmed_by=request.user)
    return answer({"table": _table_body(request, found)})
