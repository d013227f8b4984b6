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

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from ninja import Header, Router
from ninja.responses import Status

from scoring.engine import HandError, parse_compact
from tournament import services
from tournament.access import AuthenticatedRequest
from tournament.api import schemas, serialisers
from tournament.api.auth import (
    corrected_table,
    forbidden,
    insider,
    not_found,
    organised_tournament,
    readable_table,
    refereed_table,
    round_of,
    table_of,
    token_use,
)
from tournament.api.errors import ApiError, from_validation_error, invalid, refusals
from tournament.api.rounds import R
from tournament.api.schemas import BODY, EMPTY_BODY_OK, Sent, read
from tournament.api.tournaments import READ, WRITE
from tournament.models import Hand, Penalty, Player, Table

router = Router(exclude_unset=True)

TABLE = f"{R}/tables/{{int:table}}"
SITUATION = tuple(schemas.Situation.model_fields)
# The facts of a deal named as lists of players, as the request and the services call them.
DEAL_FACTS = ("riichi", "faulty_claims", "ready", "faulty_riichi")
# The tiles of a win as sent (the case format), with its situation: MCR's, JT's, WA's flags.
CASE_FIELDS = (
    "concealed", "melds", "win_tile", "flowers", *SITUATION,
    "last_discard", "supplement_tile", "robbing_kong", "heavenly", "earthly",
    "last_available", "four_kongs_immediate", "thirteen_discarded_orphans",
)  # fmt: skip
SUBMISSION = Header(
    None,
    alias="Idempotency-Key",
    description="A UUID the client makes for this submission. Sent again (after a lost "
    "answer), it is recognised: the answer is 200 with the record first made, and nothing new "
    "is recorded. A key is its caller's and its table's: another caller's key, or a key sent "
    "to another table, is another key. A key that is not a UUID: 400 bad_submission_key; the "
    "key sent again by the same caller to the same table with another body (or for another "
    "kind of record): 422 submission_key_reused.",
)
REPLAYED_HEADER = "Idempotent-Replayed"
# The submissions that take an Idempotency-Key: also 422 for a key reused with another body.
SUBMIT = {**WRITE, **refusals(422)}


def _table_body(request: HttpRequest, table: Table) -> dict[str, Any]:
    return serialisers.table_detail(table, insider=insider(request, table.round.tournament))


@router.get(
    TABLE,
    url_name="table",
    response={200: schemas.Table, **READ},
    summary="A table's score sheet",
)
def get_table(request: HttpRequest, slug: str, number: int, table: int) -> dict[str, Any]:
    """Seats, every hand with the winds, payments and running scores, the next hand's winds,
    and the places so far.

    Who: anyone who may read the tournament."""
    return _table_body(request, readable_table(request, slug, number, table))


def _players(table: Table, keys: dict[str, str | None]) -> dict[str, Player | None]:
    """The players of the tournament by field, found by key (None for None) in one query; 400
    naming each key no player has."""
    wanted = {key for key in keys.values() if key is not None}
    players = {
        player.key: player
        for player in (
            table.round.tournament.players.filter(key__in=wanted).order_by() if wanted else ()
        )
    }
    found: dict[str, Player | None] = {}
    unknown = {}
    for name, key in keys.items():
        found[name] = None if key is None else players.get(key)
        if key is not None and found[name] is None:
            unknown[name] = f"No player of this tournament has the key {key!r}."
    if unknown:
        raise invalid(unknown)
    return found


def _hand_values(table: Table, hand: schemas.HandCorrection) -> services.DealInput:
    """The deal record_hand / correct_hand take, from a hand as sent."""
    if hand.tiles is not None and hand.compact is not None:
        raise invalid({"compact": "Send the tiles either as tiles or as compact, not both."})
    players = _players(
        table, {"winner": hand.winner, "discarder": hand.discarder, "offender": hand.offender}
    )
    situation = hand.model_dump(include=set(SITUATION), exclude_unset=True)
    case = None
    if hand.tiles is not None:
        case = _case(hand.tiles) | situation
    elif hand.compact is not None:
        try:
            parsed = parse_compact(hand.compact, flowers=hand.flowers, **situation)
        except HandError as error:
            raise ApiError(
                400, "invalid_tiles", error.message, fields={"compact": error.message}
            ) from error
        case = parsed.to_case()
    also = hand.also or []
    facts = _player_lists(
        table,
        {name: getattr(hand, name) or [] for name in DEAL_FACTS}
        | {"also": [win.player for win in also]},
    )
    further = facts.pop("also")
    return services.DealInput(
        result=hand.result,
        winner=players["winner"],
        discarder=players["discarder"],
        offender=players["offender"],
        fan=hand.fan,
        flowers=hand.flowers,
        tiles=case,
        value=hand.value,
        extra_winners=[(player, win.value) for player, win in zip(further, also, strict=True)],
        extra_tiles=[
            (player, _case(win.tiles))
            for player, win in zip(further, also, strict=True)
            if win.tiles is not None
        ],
        riichi=facts["riichi"],
        faulty_claims=facts["faulty_claims"],
        ready=facts["ready"],
        faulty_riichi=facts["faulty_riichi"],
    )


def _case(tiles: dict[str, Any]) -> dict[str, Any]:
    """The fields of the case format in tiles as sent (others are left out)."""
    return {name: tiles[name] for name in CASE_FIELDS if name in tiles}


def _player_lists(table: Table, keys: dict[str, list[str]]) -> dict[str, list[Player]]:
    """The players of the tournament named in each list (in its order), found by key; 400
    naming each list with a key no player has."""
    wanted = {key for named in keys.values() for key in named}
    found = {player.key: player for player in table.round.tournament.players.filter(key__in=wanted)}
    unknown = {
        name: f"No player of this tournament has the key {missing[0]!r}."
        for name, named in keys.items()
        if (missing := [key for key in named if key not in found])
    }
    if unknown:
        raise invalid(unknown)
    return {name: [found[key] for key in named] for name, named in keys.items()}


# The field of a deal a service's refusal is about, by its code, where its code says it.
CODE_FIELDS = {
    "bad_riichi": "faulty_riichi",
    "offender_required": "offender",
    "one_winner": "also",
    "winner_twice": "also",
    "value_disagrees_with_tiles": "value",
}
# Refusals that name the fact of the deal ("fact") or the player's part ("role") they are about.
FACT_FIELDS = {"riichi", "faulty_claims", "ready", "faulty_riichi", "offender"}
# Refusals of a winner's value, naming the winner ("player").
VALUE_CODES = {"value_required", "bad_value", "below_minimum"}


def _deal_field(error: ValidationError, values: dict[str, Any]) -> str | None:
    """The field of the request a service's refusal of a deal is about (`values`: the
    arguments the service had), where it is one of the fields of presets that count points;
    None otherwise (MCR's refusals stay as they were)."""
    if hasattr(error, "error_dict") or len(error.error_list) != 1:
        return None
    refusal = error.error_list[0]
    params = refusal.params if isinstance(refusal.params, dict) else {}
    named = str(params.get("fact") or params.get("role") or "").replace(" ", "_")
    further = {player.name for player, _value in values["extra_winners"]}
    winner = values["winner"].name if values["winner"] is not None else None
    if (
        refusal.code in ("named_twice", "not_in_preset", "not_seated", "draw_only")
        and named in FACT_FIELDS
    ):
        return named
    about_a_winner = VALUE_CODES | {"not_seated", "value_disagrees_with_tiles"}
    if refusal.code in about_a_winner and params.get("player") in further:
        if params["player"] != winner:
            return "also"
    if refusal.code in VALUE_CODES and (refusal.code != "below_minimum" or "player" in params):
        return "value"
    if refusal.code == "fan_required" and (values["value"] is not None or further):
        return "value" if values["value"] is not None else "also"
    return CODE_FIELDS.get(str(refusal.code))


def _recorded(service: Any, deal: services.DealInput, **arguments: Any) -> Hand:
    """`service` (record_hand or correct_hand) given a `deal`; a refusal about one of the
    deal's fields names it."""
    try:
        return service(**arguments, deal=deal)
    except ValidationError as error:
        field = _deal_field(error, vars(deal))
        if field is None:
            raise
        translated = from_validation_error(error)
        raise ApiError(
            translated.status,
            translated.code,
            translated.message,
            fields={field: translated.message},
        ) from error


def _hand_answer(request: HttpRequest, table: Table, hand: Hand) -> dict[str, Any]:
    body = _table_body(request, table)
    line = next((line for line in body["lines"] if line["number"] == hand.number), None)
    if line is None or line["hand"] is None:  # taken back between the write and this read
        raise ApiError(
            409,
            "not_last_hand",
            f"Hand {hand.number} was recorded, but has been taken back since. Reload the score "
            "sheet.",
        )
    return {"hand": line["hand"], "table": body}


def _submitted(response: HttpResponse, record: Hand | Penalty) -> int:
    """201 for a new record; 200 and the replay header for one recorded before."""
    if getattr(record, "replayed", False):
        response[REPLAYED_HEADER] = "true"
        return 200
    return 201


@router.post(
    f"{TABLE}/hands",
    url_name="hands",
    response={200: schemas.HandAnswer, 201: schemas.HandAnswer, **SUBMIT},
    summary="Submit the next hand",
)
def submit_hand(
    request: AuthenticatedRequest,
    response: HttpResponse,
    slug: str,
    number: int,
    table: int,
    payload: Sent[schemas.HandSubmission] = BODY,
    submission: str | None = SUBMISSION,
) -> Status:
    """Saved: the hand and the table after it. Hands are entered in order while the round is
    in play. When two referees submit the same hand, one is saved and the other gets 409
    conflict.

    Who: a referee of this table or an organiser of the tournament."""
    # Reads first; the hand is written in one short transaction (record_hand's, which holds the
    # table's lock), and the answer is read after its commit.
    found = refereed_table(request, slug, number, table)
    sent = read(schemas.HandSubmission, payload)
    values = _hand_values(found, sent)
    with token_use(request):
        hand = _recorded(
            services.record_hand,
            values,
            table=found,
            number=sent.number,
            entered_by=request.user,
            submission=submission,
        )
    status = _submitted(response, hand)
    return Status(status, _hand_answer(request, found, hand))


submit_hand.own_transaction = True  # type: ignore[attr-defined]  # see tournament.api


def _hand_at(table: Table, number: int) -> Hand:
    hand = table.hands.filter(number=number).first()
    if hand is None:
        raise not_found(f"Hand {number} is not entered at this table.")
    return hand


@router.put(
    f"{TABLE}/hands/{{int:hand}}",
    url_name="hand",
    response={200: schemas.HandAnswer, **WRITE},
    summary="Correct an entered hand",
)
def correct_hand(
    request: AuthenticatedRequest,
    slug: str,
    number: int,
    table: int,
    hand: int,
    payload: Sent[schemas.HandCorrection] = BODY,
) -> dict[str, Any]:
    """Recomputes the scores after it in one transaction and keeps the change in the audit
    trail.

    Who: an organiser of the tournament."""
    found = corrected_table(request, slug, number, table)
    recorded = _hand_at(found, hand)
    sent = read(schemas.HandCorrection, payload)
    values = _hand_values(found, sent)
    if sent.number not in (None, hand):
        message = "The hand number is the one in the address; it cannot change."
        raise invalid({"number": message})
    recorded = _recorded(services.correct_hand, values, hand=recorded, entered_by=request.user)
    return _hand_answer(request, found, recorded)


@router.delete(
    f"{TABLE}/hands/{{int:hand}}",
    response={200: schemas.TableAnswer, **refusals(400, 401, 403, 404, 409)},
    summary="Take back the last hand entered",
)
def remove_last_hand(
    request: AuthenticatedRequest, slug: str, number: int, table: int, hand: int
) -> dict[str, Any]:
    """The number must be the last hand's (else 409 not_last_hand), so nothing else goes; the
    game must not have ended. False wins recorded for it stay.

    Who: a referee of this table or an organiser of the tournament."""
    found = refereed_table(request, slug, number, table)
    services.remove_last_hand(table=found, entered_by=request.user, number=hand)
    return {"table": _table_body(request, found)}


def _penalty_answer(
    request: HttpRequest, response: HttpResponse | None, table: Table, penalty: Penalty
) -> dict[str, Any]:
    """The penalty and the table; with `response`, its address in the Location header."""
    body = _table_body(request, table)
    shown = next(
        item for line in body["lines"] for item in line["penalties"] if item["id"] == penalty.pk
    )
    if response is not None:
        response["Location"] = reverse(
            "tournament_api:penalty",
            kwargs={
                "slug": table.round.tournament.slug,
                "number": table.round.number,
                "table": table.number,
                "penalty": penalty.pk,
            },
        )
    return {"penalty": shown, "table": body}


@router.post(
    f"{TABLE}/false-wins",
    url_name="false_wins",
    response={200: schemas.PenaltyAnswer, 201: schemas.PenaltyAnswer, **SUBMIT},
    summary="Record a false win",
)
def record_false_win(
    request: AuthenticatedRequest,
    response: HttpResponse,
    slug: str,
    number: int,
    table: int,
    payload: Sent[schemas.FalseWinRequest] = BODY,
    submission: str | None = SUBMISSION,
) -> Status:
    """Recorded; Location is the penalty's address. The offender pays the preset's amount to
    each other player (MCR: 10, 20 for an invalid hand; WA's faulty out: 40) and cannot win that
    hand; someone else still can. Where a faulty out ends the deal (JT) a false win is refused
    (`faulty_out_ends_deal`): the deal is sent as a hand with result `faulty_out`.

    Who: a referee of this table or an organiser of the tournament."""
    found = refereed_table(request, slug, number, table)
    sent = read(schemas.FalseWinRequest, payload)
    offender = _players(found, {"player": sent.player})["player"]
    assert offender is not None  # a key given is found, or refused above
    penalty = services.record_false_win(
        table=found,
        number=sent.number,
        offender=offender,
        invalid_hand=sent.invalid_hand,
        entered_by=request.user,
        submission=submission,
    )
    status = _submitted(response, penalty)
    return Status(status, _penalty_answer(request, response, found, penalty))


@router.post(
    f"{TABLE}/penalties",
    url_name="penalties",
    response={200: schemas.PenaltyAnswer, 201: schemas.PenaltyAnswer, **SUBMIT},
    summary="Record a penalty or deduction",
)
def record_penalty(
    request: AuthenticatedRequest,
    response: HttpResponse,
    slug: str,
    number: int,
    table: int,
    payload: Sent[schemas.PenaltyCreate] = BODY,
    submission: str | None = SUBMISSION,
) -> Status:
    """Recorded; Location is the penalty's address.

    Who: a referee of this table or an organiser of the tournament."""
    found = refereed_table(request, slug, number, table)
    sent = read(schemas.PenaltyCreate, payload)
    values = sent.model_dump() | _players(found, {"player": sent.player})
    penalty = services.record_penalty(
        table=found, entered_by=request.user, submission=submission, **values
    )
    status = _submitted(response, penalty)
    return Status(status, _penalty_answer(request, response, found, penalty))


def _penalty_at(table: Table, penalty: int) -> Penalty:
    found = table.penalties.select_related("seat__player").filter(pk=penalty).first()
    if found is None:
        raise not_found(f"Penalty {penalty} is not recorded at this table.")
    return found


@router.patch(
    f"{TABLE}/penalties/{{int:penalty}}",
    url_name="penalty",
    response={200: schemas.PenaltyAnswer, **WRITE},
    summary="Correct a penalty",
)
def correct_penalty(
    request: AuthenticatedRequest,
    slug: str,
    number: int,
    table: int,
    penalty: int,
    # A schema made at run time by `changes`, so not a static type.
    payload: Sent[schemas.PenaltyChange] = BODY,  # type: ignore[valid-type]
) -> dict[str, Any]:
    """Only the fields given change.

    Who: an organiser of the tournament."""
    found = corrected_table(request, slug, number, table)
    recorded = _penalty_at(found, penalty)
    given = read(schemas.PenaltyChange, payload).model_dump(exclude_unset=True)
    if "player" in given:
        given |= _players(found, {"player": given["player"]})
    current: dict[str, Any] = {
        "player": recorded.seat.player,
        "points": recorded.points,
        "distributed": recorded.distributed,
        "reason": recorded.reason,
        "hand_number": recorded.hand_number,
    }
    recorded = services.correct_penalty(
        penalty=recorded, entered_by=request.user, **(current | given)
    )
    return _penalty_answer(request, None, found, recorded)


@router.delete(
    f"{TABLE}/penalties/{{int:penalty}}",
    response={200: schemas.TableAnswer, **refusals(400, 401, 403, 404, 409)},
    summary="Remove a penalty recorded by mistake",
)
def remove_penalty(
    request: AuthenticatedRequest, slug: str, number: int, table: int, penalty: int
) -> dict[str, Any]:
    """Who: an organiser of the tournament."""
    found = corrected_table(request, slug, number, table)
    services.remove_penalty(penalty=_penalty_at(found, penalty), entered_by=request.user)
    return {"table": _table_body(request, found)}


@router.post(
    f"{TABLE}/end",
    url_name="end",
    response={200: schemas.TableAnswer, **WRITE},
    summary="End the game at the table",
    openapi_extra=EMPTY_BODY_OK,
)
def end_game(
    request: AuthenticatedRequest,
    slug: str,
    number: int,
    table: int,
    payload: Sent[schemas.EndRequest] = BODY,
) -> dict[str, Any]:
    """After 16 hands, or earlier with ended_by_time when time is called. The body may be
    empty.

    Who: a referee of this table or an organiser of the tournament."""
    found = refereed_table(request, slug, number, table)
    ended_by_time = read(schemas.EndRequest, payload, empty={}).ended_by_time
    services.end_game(table=found, ended_by_time=ended_by_time, entered_by=request.user)
    return {"table": _table_body(request, found)}


@router.post(
    f"{TABLE}/confirm",
    url_name="confirm",
    response={200: schemas.TableAnswer, **WRITE},
    summary="Confirm the table's submitted game sheet",
    openapi_extra=EMPTY_BODY_OK,
)
def confirm_game_sheet(
    request: AuthenticatedRequest,
    slug: str,
    number: int,
    table: int,
    payload: Sent[schemas.Empty] = BODY,
) -> dict[str, Any]:
    """From then on the game counts in the standings, and only an organiser changes its
    results. The body is empty or {}. Others get 403 with the service's code.

    Who: an organiser of the tournament; where the tournament's confirmation is "referee",
    also any referee of the tournament other than the one who submitted the sheet."""
    found = readable_table(request, slug, number, table)
    if not insider(request, found.round.tournament):
        raise forbidden("Only an organiser or a referee of this tournament confirms game sheets.")
    read(schemas.Empty, payload, empty={})
    services.confirm_game(table=found, confirmed_by=request.user)
    return {"table": _table_body(request, found)}


@router.post(
    f"{TABLE}/time",
    url_name="table_time",
    response={200: schemas.TableAnswer, **WRITE},
    summary="Give the table time of its own",
)
def give_table_time(
    request: AuthenticatedRequest,
    slug: str,
    number: int,
    table: int,
    payload: Sent[schemas.TableTimeRequest] = BODY,
) -> dict[str, Any]:
    """Add minutes to the table's own time ({"minutes": 10, "reason": "late start"}; negative
    takes some back): the table then plays to the round clock plus its extra_minutes, which
    stay from -60 to 120 (400 bad_table_time otherwise, and for 0). Refused with 400
    round_not_open in a draft or finished round and game_ended at a table whose game has ended.
    Kept in the audit trail with the reason.

    Who: an organiser of the tournament."""
    found = table_of(round_of(request, organised_tournament(request, slug), number), table)
    change = read(schemas.TableTimeRequest, payload)
    services.give_table_time(
        table=found, minutes=change.minutes, actor=request.user, reason=change.reason
    )
    return {"table": _table_body(request, found)}
