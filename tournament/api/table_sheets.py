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

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from ninja import Header, Router
from ninja.responses import Status

from tournament import services
from tournament.api import deal_arguments, schemas, serialisers
from tournament.api.auth import CORRECTORS, INSIDERS, REFEREES, Gate, reach, token_use
from tournament.api.errors import ApiError, invalid, refusals
from tournament.api.rounds import R
from tournament.api.tournaments import READ, WRITE
from tournament.models import Deal, Penalty, Table
from tournament.reads.access import AuthenticatedRequest

router = Router(exclude_unset=True)

TABLE = f"{R}/tables/{{int:table}}"
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
NOT_ENDED_BY_TIME = schemas.EndRequest()  # the end of a game sent without a body
# The submissions that take an Idempotency-Key: also 422 for a key reused with another body.
SUBMIT = {**WRITE, **refusals(422)}


# Taking back the last hand: the number sent is the service's to check (409 not_last_hand).
REFEREES_BY_NUMBER = Gate(REFEREES.role, REFEREES.refusal, named=False)


def _table_body(request: HttpRequest, table: Table) -> schemas.Table:
    table, context = serialisers.score_sheet_context(table, insider=reach(request).access.insider)
    return schemas.Table.model_validate(table, context={"request": request, **context})


@router.get(
    TABLE,
    url_name="table",
    response={200: schemas.Table, **READ},
    summary="A table's score sheet",
)
def get_table(request: HttpRequest, slug: str, number: int, table: int) -> schemas.Table:
    """Seats, every hand with the winds, payments and running scores, the next hand's winds,
    and the places so far.

    Who: anyone who may read the tournament."""
    return _table_body(request, reach(request).table)


def _hand_answer(request: HttpRequest, table: Table, hand: Deal) -> dict[str, Any]:
    body = _table_body(request, table)
    line = next((line for line in body.lines if line.number == hand.number), None)
    if line is None or line.hand is None:  # taken back between the write and this read
        raise ApiError(
            409,
            "not_last_hand",
            f"Hand {hand.number} was recorded, but has been taken back since. Reload the score "
            "sheet.",
        )
    return {"hand": line.hand, "table": body}


def _submitted(response: HttpResponse, record: Deal | Penalty) -> int:
    """201 for a new record; 200 and the replay header for one recorded before."""
    if getattr(record, "replayed", False):
        response[REPLAYED_HEADER] = "true"
        return 200
    return 201


@router.post(
    f"{TABLE}/hands",
    url_name="hands",
    auth=REFEREES,
    response={200: schemas.HandAnswer, 201: schemas.HandAnswer, **SUBMIT},
    summary="Submit the next hand",
)
def submit_hand(
    request: AuthenticatedRequest,
    response: HttpResponse,
    slug: str,
    number: int,
    table: int,
    payload: schemas.HandSubmission,
    submission: str | None = SUBMISSION,
) -> Status:
    """Saved: the hand and the table after it. Hands are entered in order while the round is
    in play. When two referees submit the same hand, one is saved and the other gets 409
    conflict.

    Who: a referee of this table or an organiser of the tournament."""
    # Reads first; the hand is written in one short transaction (record_deal's, which holds the
    # table's lock), and the answer is read after its commit.
    found, sent = reach(request).table, payload
    deal = deal_arguments.hand_values(found, sent)
    with token_use(request):
        hand = deal_arguments.recorded(
            services.record_deal,
            deal,
            table=found,
            number=sent.number,
            entered_by=request.user,
            submission=submission,
        )
    status = _submitted(response, hand)
    return Status(status, _hand_answer(request, found, hand))


submit_hand.own_transaction = True  # type: ignore[attr-defined]  # see tournament.api


@router.put(
    f"{TABLE}/hands/{{int:hand}}",
    url_name="hand",
    auth=CORRECTORS,
    response={200: schemas.HandAnswer, **WRITE},
    summary="Correct an entered hand",
)
def correct_hand(
    request: AuthenticatedRequest,
    slug: str,
    number: int,
    table: int,
    hand: int,
    payload: schemas.HandCorrection,
) -> dict[str, Any]:
    """Recomputes the scores after it in one transaction and keeps the change in the audit
    trail.

    Who: an organiser of the tournament."""
    found, recorded, sent = reach(request).table, reach(request).named, payload
    deal = deal_arguments.hand_values(found, sent)
    if sent.number not in (None, hand):
        message = "The hand number is the one in the address; it cannot change."
        raise invalid({"number": message})
    recorded = deal_arguments.recorded(
        services.correct_deal, deal, hand=recorded, entered_by=request.user
    )
    return _hand_answer(request, found, recorded)


@router.delete(
    f"{TABLE}/hands/{{int:hand}}",
    auth=REFEREES_BY_NUMBER,
    response={200: schemas.TableAnswer, **refusals(400, 401, 403, 404, 409)},
    summary="Take back the last hand entered",
)
def remove_last_hand(
    request: AuthenticatedRequest, slug: str, number: int, table: int, hand: int
) -> dict[str, Any]:
    """The number must be the last hand's (else 409 not_last_hand), so nothing else goes; the
    game must not have ended. False wins recorded for it stay.

    Who: a referee of this table or an organiser of the tournament."""
    found = reach(request).table
    services.remove_last_hand(table=found, entered_by=request.user, number=hand)
    return {"table": _table_body(request, found)}


def _penalty_answer(
    request: HttpRequest, response: HttpResponse | None, table: Table, penalty: Penalty
) -> dict[str, Any]:
    """The penalty and the table; with `response`, its address in the Location header."""
    body = _table_body(request, table)
    shown = next(item for line in body.lines for item in line.penalties if item.id == penalty.pk)
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
    auth=REFEREES,
    response={200: schemas.PenaltyAnswer, 201: schemas.PenaltyAnswer, **SUBMIT},
    summary="Record a false win",
)
def record_false_win(
    request: AuthenticatedRequest,
    response: HttpResponse,
    slug: str,
    number: int,
    table: int,
    payload: schemas.FalseWinRequest,
    submission: str | None = SUBMISSION,
) -> Status:
    """Recorded; Location is the penalty's address. The offender pays the preset's amount to
    each other player (MCR: 10, 20 for an invalid hand; WA's faulty out: 40) and cannot win that
    hand; someone else still can. Where a faulty out ends the deal (JT) a false win is refused
    (`faulty_out_ends_deal`): the deal is sent as a hand with result `faulty_out`.

    Who: a referee of this table or an organiser of the tournament."""
    found, sent = reach(request).table, payload
    offender = deal_arguments.players_by_key(found, {"player": sent.player})["player"]
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
    auth=REFEREES,
    response={200: schemas.PenaltyAnswer, 201: schemas.PenaltyAnswer, **SUBMIT},
    summary="Record a penalty or deduction",
)
def record_penalty(
    request: AuthenticatedRequest,
    response: HttpResponse,
    slug: str,
    number: int,
    table: int,
    payload: schemas.PenaltyCreate,
    submission: str | None = SUBMISSION,
) -> Status:
    """Recorded; Location is the penalty's address.

    Who: a referee of this table or an organiser of the tournament."""
    found = reach(request).table
    values = payload.model_dump(exclude={"hand_number"}) | {"deal_number": payload.hand_number}
    values |= deal_arguments.players_by_key(found, {"player": payload.player})
    penalty = services.record_penalty(
        table=found, entered_by=request.user, submission=submission, **values
    )
    status = _submitted(response, penalty)
    return Status(status, _penalty_answer(request, response, found, penalty))


@router.patch(
    f"{TABLE}/penalties/{{int:penalty}}",
    url_name="penalty",
    auth=CORRECTORS,
    response={200: schemas.PenaltyAnswer, **WRITE},
    summary="Correct a penalty",
)
def correct_penalty(
    request: AuthenticatedRequest,
    slug: str,
    number: int,
    table: int,
    penalty: int,
    payload: schemas.PenaltyChange,
) -> dict[str, Any]:
    """Only the fields given change.

    Who: an organiser of the tournament."""
    found, recorded = reach(request).table, reach(request).named
    given = payload.model_dump(exclude_unset=True)
    if "hand_number" in given:  # the penalty's deal, by its name on the wire
        given["deal_number"] = given.pop("hand_number")
    if "player" in given:
        given |= deal_arguments.players_by_key(found, {"player": given["player"]})
    current: dict[str, Any] = {
        "player": recorded.seat.player,
        "points": recorded.points,
        "distributed": recorded.distributed,
        "reason": recorded.reason,
        "deal_number": recorded.deal_number,
    }
    recorded = services.correct_penalty(
        penalty=recorded, entered_by=request.user, **(current | given)
    )
    return _penalty_answer(request, None, found, recorded)


@router.delete(
    f"{TABLE}/penalties/{{int:penalty}}",
    auth=CORRECTORS,
    response={200: schemas.TableAnswer, **refusals(400, 401, 403, 404, 409)},
    summary="Remove a penalty recorded by mistake",
)
def remove_penalty(
    request: AuthenticatedRequest, slug: str, number: int, table: int, penalty: int
) -> dict[str, Any]:
    """Who: an organiser of the tournament."""
    found = reach(request).table
    services.remove_penalty(penalty=reach(request).named, entered_by=request.user)
    return {"table": _table_body(request, found)}


@router.post(
    f"{TABLE}/end",
    url_name="end",
    auth=REFEREES,
    response={200: schemas.TableAnswer, **WRITE},
    summary="End the game at the table",
)
def end_game(
    request: AuthenticatedRequest,
    slug: str,
    number: int,
    table: int,
    payload: schemas.EndRequest = NOT_ENDED_BY_TIME,
) -> dict[str, Any]:
    """After 16 hands, or earlier with ended_by_time when time is called. The body may be
    empty.

    Who: a referee of this table or an organiser of the tournament."""
    found = reach(request).table
    services.end_game(table=found, ended_by_time=payload.ended_by_time, entered_by=request.user)
    return {"table": _table_body(request, found)}


@router.post(
    f"{TABLE}/confirm",
    url_name="confirm",
    auth=INSIDERS,
    response={200: schemas.TableAnswer, **WRITE},
    summary="Confirm the table's submitted game sheet",
)
def confirm_game_sheet(
    request: AuthenticatedRequest,
    slug: str,
    number: int,
    table: int,
    payload: schemas.Empty = schemas.EMPTY,
) -> dict[str, Any]:
    """From then on the game counts in the standings, and only an organiser changes its
    results. The body is empty or {}. Others get 403 with the service's code.

    Who: an organiser of the tournament; where the tournament's confirmation is "referee",
    also any referee of the tournament other than the one who submitted the sheet."""
    found = reach(request).table
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
    payload: schemas.TableTimeRequest,
) -> dict[str, Any]:
    """Add minutes to the table's own time ({"minutes": 10, "reason": "late start"}; negative
    takes some back): the table then plays to the round clock plus its extra_minutes, which
    stay from -60 to 120 (400 bad_table_time otherwise, and for 0). Refused with 400
    round_not_open in a draft or finished round and game_ended at a table whose game has ended.
    Kept in the audit trail with the reason.

    Who: an organiser of the tournament."""
    found = reach(request).table
    services.give_table_time(
        table=found, minutes=payload.minutes, actor=request.user, reason=payload.reason
    )
    return {"table": _table_body(request, found)}
