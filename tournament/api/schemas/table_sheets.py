"""Schemas of a table: its score sheet, hands, penalties and false wins, and the end of the
game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import Field

from tournament import models
from tournament.api.fields import Moment, Wind, choice, list_of, of, text
from tournament.api.schemas.base import (
    MAX_FAN,
    MAX_FLOWERS,
    Answer,
    Context,
    HandNumber,
    Key,
    Points,
    Request,
    SeatWinds,
    Sheet,
    TablePoints,
    TablePointsExact,
    Username,
    by_seat,
    changes,
    for_insiders,
    points_number,
)
from tournament.api.schemas.rounds import TableSummary
from tournament.domain.rotation import WINDS
from tournament.reads import selectors
from tournament.reads.deals import DealAt, following

# The score sheet's answers are read with a context (`serialisers.score_sheet_context`):
# "lines" its lines, "preset" the rules in force, "keys" the players' keys by starting seat
# and, for insiders, "usernames" by user id.


def _key(seat: models.Seat | None) -> str | None:
    return seat.player.key if seat is not None else None


def _username(user: Any) -> str | None:
    return user.get_username() if user is not None else None


class FurtherWinner(Answer):
    player: str = Field(alias="winner.player.key")
    value: int


class Hand(Answer):
    """A deal (MCR: a hand): where it stands in the game, its result, its winners and their
    values, the preset's facts of the deal (players by key) and what each player paid."""

    number: HandNumber
    result: choice(models.Deal.Result.values)
    winner: str | None
    discarder: str | None
    self_drawn: bool
    fan: int | None = Field(description="MCR: the winner's fan without flowers.")
    flowers: int
    value: int | None = Field(
        description="Presets that count points: the winner's value (JT: the final score F; "
        "WA: points)."
    )
    also: list[FurtherWinner] = Field(
        description="Further winners on the same discard, with their values (WA)."
    )
    riichi: list[str] = Field(description="Who declared riichi (JT).")
    faulty_claims: list[str] = Field(description="A player for each faulty claim (JT).")
    ready: list[str] = Field(description="After a draw: whose hands were ready (JT).")
    faulty_riichi: list[str] = Field(description="After a draw: riichi declared not ready (JT).")
    offender: str | None = Field(description="Who made the faulty out that ended the deal.")
    tiles: dict[str, Any] | None = Field(
        description="The winning hand in the case format, when it was entered."
    )
    payments: Points
    entered_at: Moment
    entered_by: Username = None
    prevailing_wind: Wind
    dealer: Wind = Field(description="The starting seat of the player who dealt.")
    extra_hands: int = Field(
        ge=0, description="The dealer's extra-hand number (0 for the dealer's first deal)."
    )

    @staticmethod
    def resolve_winner(hand: models.Deal) -> str | None:
        return _key(hand.winner)

    @staticmethod
    def resolve_discarder(hand: models.Deal) -> str | None:
        return _key(hand.discarder)

    @staticmethod
    def resolve_offender(hand: models.Deal) -> str | None:
        return _key(hand.offender)

    @staticmethod
    def resolve_self_drawn(hand: models.Deal) -> bool:
        return hand.result == models.Deal.Result.WIN and hand.discarder_id is None

    @staticmethod
    def resolve_also(hand: models.Deal, context: Context) -> Any:
        # Prefetched only where the preset has further winners.
        return hand.extra_wins.all() if context["preset"].deal.several_winners else []

    @staticmethod
    def resolve_riichi(hand: models.Deal, context: Context) -> list[str]:
        return [context["keys"][wind] for wind in hand.riichi]

    @staticmethod
    def resolve_faulty_claims(hand: models.Deal, context: Context) -> list[str]:
        return [context["keys"][wind] for wind in hand.faulty_claims]

    @staticmethod
    def resolve_ready(hand: models.Deal, context: Context) -> list[str]:
        return [context["keys"][wind] for wind in hand.ready]

    @staticmethod
    def resolve_faulty_riichi(hand: models.Deal, context: Context) -> list[str]:
        return [context["keys"][wind] for wind in hand.faulty_riichi]

    @staticmethod
    def resolve_payments(hand: models.Deal) -> dict[str, int]:
        return by_seat(hand.payments)

    @staticmethod
    def resolve_entered_by(hand: models.Deal, context: Context) -> str:
        return for_insiders(context, lambda: context["usernames"][hand.entered_by_id])


class Penalty(Answer):
    id: int
    player: str = Field(alias="seat.player.key")
    kind: choice(models.Penalty.Kind.values)
    points: int = Field(description="What the player loses.")
    distributed: bool
    reason: str
    hand_number: HandNumber | None = Field(alias="deal_number")  # the wire keeps its name
    entered_at: Moment
    entered_by: Username = None

    @staticmethod
    def resolve_entered_by(penalty: models.Penalty, context: Context) -> str:
        return for_insiders(context, lambda: context["usernames"][penalty.entered_by_id])


class ScoreSheetLine(Answer):
    number: HandNumber | None = Field(
        description="The hand; null for the line of penalties on the whole game."
    )
    prevailing_wind: Wind | None
    seat_winds: SeatWinds | None
    hand: Hand | None = Field(
        description="Null on a line of penalties only (a false win in the hand in play, or game "
        "penalties)."
    )
    penalties: list[Penalty]
    payments: Points = Field(description="The hand and its penalties.")
    running: Points = Field(description="Game scores after this line.")
    points: Points = Field(
        description="Each player's points after this line: the initial points plus the game score."
    )

    @staticmethod
    def resolve_prevailing_wind(line: selectors.ScoreSheetLine) -> str | None:
        return line.prevailing_wind or None

    @staticmethod
    def resolve_seat_winds(line: selectors.ScoreSheetLine) -> dict[str, str] | None:
        return by_seat(line.seat_winds) if line.seat_winds else None

    @staticmethod
    def resolve_payments(line: selectors.ScoreSheetLine) -> dict[str, int]:
        return by_seat(line.payments)

    @staticmethod
    def resolve_running(line: selectors.ScoreSheetLine) -> dict[str, int]:
        return by_seat(line.running)

    @staticmethod
    def resolve_points(line: selectors.ScoreSheetLine, context: Context) -> dict[str, int]:
        initial = context["preset"].initial_points
        return by_seat([initial + score for score in line.running])


# Read from the deal to come (`tournament.reads.deals.following`).
class NextHand(Answer):
    number: HandNumber
    prevailing_wind: Wind
    seat_winds: SeatWinds
    dealer: Wind = Field(description="The starting seat of the player who deals.")
    extra_hands: int = Field(ge=0, description="The dealer's extra-hand number.")

    @staticmethod
    def resolve_seat_winds(upcoming: DealAt) -> dict[str, str]:
        return by_seat(upcoming.seat_winds)

    @staticmethod
    def resolve_dealer(upcoming: DealAt) -> str:
        return WINDS[upcoming.dealer]


class TableResult(Answer):
    player: str = Field(alias="seat.player.key")
    seat: Wind = Field(alias="seat.starting_wind", description="The starting seat.")
    score: int
    place: int = Field(ge=1, le=4)
    table_points: TablePoints
    table_points_exact: TablePointsExact

    @staticmethod
    def resolve_table_points(result: selectors.SeatResult) -> int | float:
        return points_number(result.table_points)

    @staticmethod
    def resolve_table_points_exact(result: selectors.SeatResult) -> str:
        return str(result.table_points)


class GameSheet(Answer):
    """The game sheet: submitted when the game ends, then confirmed by the organiser (or a
    second referee, as the tournament says). The standings count confirmed games."""

    status: Sheet = Field(alias="sheet")
    submitted_at: Moment | None = Field(
        alias="ended_at", description="When the game ended and its sheet was submitted."
    )
    confirmed_at: Moment | None
    submitted_by: Username = None
    confirmed_by: Username = None

    @staticmethod
    def resolve_submitted_by(table: models.Table, context: Context) -> str | None:
        return for_insiders(context, lambda: _username(table.submitted_by))

    @staticmethod
    def resolve_confirmed_by(table: models.Table, context: Context) -> str | None:
        return for_insiders(context, lambda: _username(table.confirmed_by))


# Read from a table prepared by `serialisers.score_sheet_context`, with its context.
class Table(TableSummary):
    """A table with its score sheet hand by hand, the next hand's winds and the results so
    far."""

    round: int = Field(ge=1, alias="round.number")
    game_sheet: GameSheet
    initial_points: int = Field(
        description="Every player's points when the game started (MCR 0, JT 8,000, WA 500)."
    )
    points: Points = Field(description="Each player's points now: initial points plus score.")
    lines: list[ScoreSheetLine]
    next_hand: NextHand | None = Field(
        description="The deal to enter next, with its dealer, winds and the dealer's "
        "extra-hand number; null when the game has ended or is over (MCR: 16 hands; JT, WA: "
        "the last wind round played): then end it."
    )
    results: list[TableResult] = Field(
        description="Places and table points on the scores so far, best first."
    )

    @staticmethod
    def resolve_game_sheet(table: models.Table) -> models.Table:
        return table

    @staticmethod
    def resolve_initial_points(table: models.Table, context: Context) -> int:
        return int(context["preset"].initial_points)

    @staticmethod
    def resolve_points(table: models.Table, context: Context) -> dict[str, int]:
        initial = context["preset"].initial_points
        return {seat.starting_wind: initial + seat.score for seat in table.seats.all()}

    @staticmethod
    def resolve_lines(table: models.Table, context: Context) -> list[selectors.ScoreSheetLine]:
        return list(context["lines"])

    @staticmethod
    def resolve_next_hand(table: models.Table, context: Context) -> DealAt | None:
        if table.ended_at is not None:
            return None
        recorded = [line.hand for line in context["lines"] if line.hand is not None]
        return following(table.round.tournament, recorded[-1] if recorded else None)

    @staticmethod
    def resolve_results(table: models.Table) -> list[selectors.SeatResult]:
        return selectors.table_results(table, table.seats.all())


class TableAnswer(Answer):
    table: Table


class HandAnswer(Answer):
    hand: Hand
    table: Table


class PenaltyAnswer(Answer):
    penalty: Penalty
    table: Table


# Far above any real game: every claim of a deal is a line on the sheet.
MAX_CLAIMS = 20
Keys = list_of(Key, "player keys", 4)


class FurtherWin(Request):
    """A further winner on the same discard."""

    player: Key
    value: int | None = Field(
        None, description="The further winner's value, as `value` (may be left out with tiles)."
    )
    tiles: dict[str, Any] | None = Field(
        None,
        description="The further winner's tiles in the case format, scored by the preset's "
        "engine (WA) like the winner's `tiles`; a `value` given too must agree.",
    )


class Situation(Request):
    # These may be left out, not sent as null: None only marks them unset.
    last_tile_of_kind: bool = None  # type: ignore[assignment]
    kong_related: bool = Field(  # type: ignore[assignment]
        None,
        description="Self-drawn: Out with Replacement Tile; on a discard: Robbing the Kong.",
    )
    last_wall_tile: bool = None  # type: ignore[assignment]


class HandCorrection(Situation):
    """The whole hand as it should be; `number`, if given, must be the one in the address. The
    scores after it are recomputed."""

    number: int = Field(None, ge=1)  # type: ignore[assignment]  # may be left out, not null
    result: of(models.Deal, "result")
    winner: Key | None = Field(None, description="The winner's key; null for a drawn hand.")
    discarder: Key | None = Field(
        None, description="Who discarded the winning tile; null or absent for a self-drawn win."
    )
    fan: of(models.Deal, "fan", le=MAX_FAN) = Field(
        None,
        description="Fan without flowers (at least 8 for a win). May be left out when tiles "
        "are given: the engine computes it; when both are given they must agree.",
    )
    flowers: of(models.Deal, "flowers", le=MAX_FLOWERS) = 0
    tiles: dict[str, Any] | None = Field(
        None,
        description="The winning hand in the case format (as POST /api/score takes it). Seat "
        "wind, prevailing wind and self-drawn follow from the table and are filled in.",
    )
    compact: text(200) | None = Field(
        None,
        description="The winning hand in compact notation (as POST /api/score takes it), "
        "instead of tiles; the situation flags may be given next to it.",
    )
    # Presets that count points (see the tournament's rules). Lists may be left out, not null.
    value: int | None = Field(
        None,
        description="Presets that count points: the winner's value (JT: the final score F, a "
        "multiple of 10 from 20 to 1,500; WA: the hand's points, 15 to 600). Not for MCR.",
    )
    also: list_of(FurtherWin, "objects", 2) = Field(
        None,
        description="Where several players may win on one discard (WA): the further winners "
        "on the same discard, each with its value; `winner` is the first in turn after the "
        "discarder.",
    )
    riichi: Keys = Field(
        None, description="JT: the keys of the players who declared riichi in the deal."
    )
    faulty_claims: list_of(Key, "player keys", MAX_CLAIMS) = Field(
        None,
        description="JT: a player's key for each faulty claim made in the deal (a player may "
        "appear more than once). Paid to the winner; nothing after a draw.",
    )
    ready: Keys = Field(
        None, description="JT, after a draw: the keys of the players whose hands were ready."
    )
    faulty_riichi: Keys = Field(
        None,
        description="JT, after a draw: the keys of riichi declarers who were not ready (each "
        "also in riichi).",
    )
    offender: Key | None = Field(
        None,
        description="For a faulty_out result (where the preset ends a deal with it: JT): who "
        "made it.",
    )


class HandSubmission(HandCorrection):
    """Quick entry: the result, winner, discarder (null when self-drawn) and the value: MCR
    fan and flowers, other presets `value` with the preset's facts of the deal (riichi, faulty
    claims, further winners on the same discard; after a draw who was ready; for a faulty out
    its offender). Full entry (MCR): the tiles (or compact) as well; the engine scores them for
    the winner's seat wind and the prevailing wind of the hand. A hand under the minimum (MCR
    8 fan, WA 15 points) is refused (below_minimum): record it as a false win (faulty out)."""

    number: int = Field(ge=1)


class FalseWinRequest(Request):
    number: int = Field(ge=1, description="The hand in play or one entered.")
    player: Key
    invalid_hand: bool = Field(
        False,
        description="Wrong tiles or count (MCR: 20 to each other player instead of 10; WA: 40 "
        "either way).",
    )


class PenaltyCreate(Request):
    player: Key
    points: of(models.Penalty, "points", ge=1)
    distributed: bool = Field(
        False,
        description="Paid in equal thirds to the other three (a multiple of 3); otherwise a "
        "deduction given to nobody, on the preset's scale (MCR, WA: 5 to 60; JT: 5 to 1,500, "
        "a multiple of 5).",
    )
    reason: of(models.Penalty, "reason")
    hand_number: of(models.Penalty, "deal_number", ge=1) = Field(
        None, description="The hand it belongs to; null for a penalty on the whole game."
    )


if TYPE_CHECKING:  # as a type: its fields, none of them required at run time
    PenaltyChange = PenaltyCreate
else:
    PenaltyChange = changes(PenaltyCreate, "Only the fields given change.")


class EndRequest(Request):
    ended_by_time: bool = Field(
        False,
        description="Time was called: end before the game is over (MCR: 16 hands; JT, WA: "
        "the last wind round).",
    )
