"""The answers of the API built from model instances, in the shapes of `tournament.api.schemas`,
in a fixed number of queries however many hands, tables or players there are.

Usernames (referees, who entered a result) are added only for insiders: the organisers and the
referees of the tournament.
"""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypedDict

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Count, Max, Prefetch, QuerySet
from django.utils import timezone

from scoring.engine import RulePreset
from tournament.api import schemas
from tournament.domain.rotation import WINDS
from tournament.models import Deal, Penalty, Round, Seat, Table, Tournament
from tournament.reads import stages
from tournament.reads.clock import Clock, clock_of, table_clock
from tournament.reads.deals import following
from tournament.reads.selectors import ScoreSheetLine, score_sheet, table_results

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


class _TableCount(TypedDict):
    table_count: int


class _HandCount(TypedDict):
    hand_count: int


def by_seat(values: tuple[Any, ...] | list[Any]) -> dict[str, Any]:
    return dict(zip(WINDS, values, strict=True))


def points_number(points: Fraction) -> int | float:
    """Table points as a JSON number: whole when whole, else rounded to two decimals."""
    if points.denominator == 1:
        return points.numerator
    return round(float(points), 2)


def tournament_detail(tournament: Tournament, *, rounds: QuerySet[Round]) -> dict[str, Any]:
    """The tournament's settings (the fields of its schema), rules, players and `rounds`."""
    fields = schemas.TournamentCreate.model_fields
    return {name: getattr(tournament, name) for name in fields} | {
        "standings_hidden_from": tournament.standings_hidden_from,
        "standings_revealed_at": tournament.standings_revealed_at,
        "rules": rules(tournament.rules),
        "players": tournament.players.count(),
        "rounds": [round_summary(round) for round in annotated_rounds(rounds)],
        "stage": _stage(tournament),
    }


def _stage(tournament: Tournament) -> str | None:
    if tournament.cut_after_round is None:
        return None
    return "final" if stages.confirmed_cut(tournament) is not None else "main"


def rules(preset: RulePreset) -> dict[str, Any]:
    """The rules in force (a preset with the tournament's settings), as the API shows them."""
    return {
        "name": preset.name,
        "initial_points": preset.initial_points,
        "value_unit": preset.value_unit,
        "minimum": preset.minimum,
        "least_value": preset.least_value,
        "value_step": preset.value_step,
        "limit": preset.limit,
        "hands_per_game": preset.hands_per_game,
        "wind_rounds": preset.wind_rounds,
        "several_winners": preset.deal.several_winners,
        "faulty_out_ends_deal": preset.faulty_out.ends_deal,
        "riichi": preset.deal.riichi_stake > 0,
        "faulty_claims": preset.deal.faulty_claim > 0,
        "ready": preset.deal.ready_pool > 0,
        "settings": {setting.name: preset.value_of(setting) for setting in preset.settings},
    }


def round_summary(round: WithAnnotations[Round, _TableCount]) -> dict[str, Any]:
    """A round of a queryset annotated with `table_count` (see `annotated_rounds`)."""
    return {"number": round.number, "status": round.status, "tables": round.table_count}


def annotated_rounds(
    rounds: QuerySet[Round],
) -> QuerySet[WithAnnotations[Round, _TableCount]]:
    return rounds.annotate(table_count=Count("tables")).order_by("number")


def _seats(seats: list[Seat]) -> dict[str, Any]:
    return {
        seat.starting_wind: {
            "player": seat.player.key,
            "name": seat.player.name,
            "score": seat.score,
        }
        for seat in sorted(seats, key=lambda seat: seat.index)
    }


def table_summary(
    table: WithAnnotations[Table, _HandCount], *, insider: bool, clock: Clock | None = None
) -> dict[str, Any]:
    """A table of a queryset prepared by `tables_for_summary`; `clock` is its round's, when
    already worked out."""
    own = table_clock(table, round_clock=clock)
    body = {
        "number": table.number,
        "seats": _seats(list(table.seats.all())),
        "hands": table.hand_count,
        "ended": table.ended_at is not None,
        "ended_by_time": table.ended_by_time,
        "sheet": table.sheet,
        "extra_minutes": table.extra_minutes,
        "remaining_seconds": own.remaining_seconds,
    }
    if insider:
        body["referees"] = sorted(user.get_username() for user in table.referees.all())
    return body


def tables_for_summary(round: Round) -> QuerySet[WithAnnotations[Table, _HandCount]]:
    return (
        round.tables.annotate(hand_count=Count("deals"))
        .prefetch_related(Prefetch("seats", Seat.objects.with_players()), "referees")
        .order_by("number")
    )


def round_detail(round: Round, *, insider: bool, start: int, stop: int) -> dict[str, Any]:
    """The round with its tables from position `start` to `stop` (by number)."""
    tables = tables_for_summary(round)[start:stop]
    clock = clock_of(round)
    return {
        "number": round.number,
        "status": round.status,
        "tables": [table_summary(table, insider=insider, clock=clock) for table in tables],
    }


def hand(
    hand: Deal,
    *,
    usernames: dict[int, str] | None,
    keys: dict[str, str],
    several_winners: bool,
) -> dict[str, Any]:
    """A deal; `usernames` by user id for insiders (None for the public), `keys` the players'
    keys by starting seat, and whether the preset has further winners (then prefetched)."""
    further = hand.extra_wins.all() if several_winners else ()
    body = {
        "number": hand.number,
        "result": hand.result,
        "winner": hand.winner.player.key if hand.winner else None,
        "discarder": hand.discarder.player.key if hand.discarder else None,
        "self_drawn": hand.result == Deal.Result.WIN and hand.discarder_id is None,
        "fan": hand.fan,
        "flowers": hand.flowers,
        "value": hand.value,
        "also": [{"player": win.winner.player.key, "value": win.value} for win in further],
        "riichi": [keys[wind] for wind in hand.riichi],
        "faulty_claims": [keys[wind] for wind in hand.faulty_claims],
        "ready": [keys[wind] for wind in hand.ready],
        "faulty_riichi": [keys[wind] for wind in hand.faulty_riichi],
        "offender": hand.offender.player.key if hand.offender else None,
        "tiles": hand.tiles,
        "payments": by_seat(hand.payments),
        "entered_at": hand.entered_at,
        "prevailing_wind": hand.prevailing_wind,
        "dealer": hand.dealer,
        "extra_hands": hand.extra_hands,
    }
    if usernames is not None:
        body["entered_by"] = usernames[hand.entered_by_id]
    return body


def penalty(penalty: Penalty, *, usernames: dict[int, str] | None) -> dict[str, Any]:
    body = {
        "id": penalty.pk,
        "player": penalty.seat.player.key,
        "kind": penalty.kind,
        "points": penalty.points,
        "distributed": penalty.distributed,
        "reason": penalty.reason,
        "hand_number": penalty.hand_number,
        "entered_at": penalty.entered_at,
    }
    if usernames is not None:
        body["entered_by"] = usernames[penalty.entered_by_id]
    return body


def _usernames(lines: list[ScoreSheetLine]) -> dict[int, str]:
    """Who entered the hands and penalties of a score sheet, in one query."""
    ids = {line.hand.entered_by_id for line in lines if line.hand}
    ids |= {item.entered_by_id for line in lines for item in line.penalties}
    User = get_user_model()
    users = User._default_manager.filter(pk__in=ids)
    return {user.pk: user.get_username() for user in users}


def table_detail(table: Table, *, insider: bool) -> dict[str, Any]:
    """A table with its score sheet hand by hand, the next hand's winds and the results so far.

    A fixed number of queries, however many hands are entered.
    """
    table = (
        Table.objects.select_related("round__tournament", "submitted_by", "confirmed_by")
        .prefetch_related(Prefetch("seats", Seat.objects.with_players()), "referees")
        .annotate(hand_count=Count("deals"), last_hand=Max("deals__number"))
        .get(pk=table.pk)
    )
    sheet = score_sheet(table)
    usernames = _usernames(sheet) if insider else None
    preset = table.round.tournament.rules
    initial = preset.initial_points
    keys = {seat.starting_wind: seat.player.key for seat in table.seats.all()}
    several = preset.deal.several_winners
    lines = [
        {
            "number": line.number,
            "prevailing_wind": line.prevailing_wind or None,
            "seat_winds": by_seat(line.seat_winds) if line.seat_winds else None,
            "hand": (
                hand(line.hand, usernames=usernames, keys=keys, several_winners=several)
                if line.hand
                else None
            ),
            "penalties": [penalty(item, usernames=usernames) for item in line.penalties],
            "payments": by_seat(line.payments),
            "running": by_seat(line.running),
            "points": by_seat([initial + score for score in line.running]),
        }
        for line in sheet
    ]
    recorded = [line.hand for line in sheet if line.hand is not None]
    upcoming = following(table.round.tournament, recorded[-1] if recorded else None)
    next_hand = None
    if table.ended_at is None and upcoming is not None:
        next_hand = {
            "number": upcoming.number,
            "prevailing_wind": upcoming.prevailing_wind,
            "seat_winds": by_seat(upcoming.seat_winds),
            "dealer": WINDS[upcoming.dealer],
            "extra_hands": upcoming.extra_hands,
        }
    game_sheet: dict[str, Any] = {
        "status": table.sheet,
        "submitted_at": table.ended_at,
        "confirmed_at": table.confirmed_at,
    }
    if insider:
        game_sheet["submitted_by"] = _username(table.submitted_by)
        game_sheet["confirmed_by"] = _username(table.confirmed_by)
    return {
        "round": table.round.number,
        **table_summary(table, insider=insider),
        "game_sheet": game_sheet,
        "initial_points": initial,
        "points": {
            seat.starting_wind: initial + seat.score
            for seat in sorted(table.seats.all(), key=lambda seat: seat.index)
        },
        "lines": lines,
        "next_hand": next_hand,
        "results": [
            {
                "player": result.seat.player.key,
                "seat": result.seat.starting_wind,
                "score": result.score,
                "place": result.place,
                "table_points": points_number(result.table_points),
                "table_points_exact": str(result.table_points),
            }
            for result in table_results(table, table.seats.all())
        ],
    }


def _username(user: AbstractBaseUser | None) -> str | None:
    return user.get_username() if user is not None else None


def clock(round: Round, now: datetime | None = None) -> dict[str, Any]:
    """The round clock (`tournament.reads.clock`) as the API shows it."""
    state = clock_of(round, now)
    return {
        "round": round.number,
        "state": state.state,
        "minutes": round.clock_minutes or round.tournament.round_minutes,
        "extra_minutes": round.clock_extra_minutes,
        "total_seconds": state.total_seconds,
        "elapsed_seconds": state.elapsed_seconds,
        "remaining_seconds": state.remaining_seconds,
        "display": state.display,
        "started_at": round.clock_started_at,
        "paused_at": round.clock_paused_at,
        "expected_hands": state.expected_hands,
    }


def board(round: Round, *, insider: bool, start: int, stop: int) -> dict[str, Any]:
    """The live board of a round: the clock, the sheets and tables behind counted over every
    table, and the tables from position `start` to `stop` (by number) with their hands,
    scores, sheet and whether each is falling behind the clock. A fixed number of queries."""
    now = timezone.now()
    state = clock_of(round, now)
    tables = []
    for table in tables_for_summary(round)[start:stop]:
        body = table_summary(table, insider=insider, clock=state)
        own = state.plus(table.extra_minutes)
        body["behind"] = own.behind(table.hand_count, table.ended_at is not None)
        tables.append(body)
    sheets = dict.fromkeys(Table.Sheet.values, 0)
    behind = 0
    every = round.tables.annotate(hand_count=Count("deals")).order_by()
    for hand_count, ended_at, confirmed_at, extra in every.values_list(
        "hand_count", "ended_at", "confirmed_at", "extra_minutes"
    ):
        if confirmed_at is not None:
            sheets[Table.Sheet.CONFIRMED] += 1
        else:
            sheets[Table.Sheet.SUBMITTED if ended_at is not None else Table.Sheet.OPEN] += 1
        behind += state.plus(extra).behind(hand_count, ended_at is not None)
    return {
        "round": round.number,
        "status": round.status,
        "clock": clock(round, now),
        "sheets": sheets,
        "behind": behind,
        "tables": tables,
    }
