"""Exporting a tournament: the schema's models (of the version written, 5) filled from the
database, dumped as JSON data. Referee accounts are written by username and name, never with
their passwords; players never with their private links. Registrations are written with the
contact each gave: the archive is the organisers' own copy of their tournament.

The models are built without validation (`model_construct`): what the database holds is
written as it is. Keys are written in the schema's order; `tiles` and a game penalty's
`hand_number` only when there are some. Every deal is written whole, whatever the preset: its
place in the game, its result, winners and values, the preset's facts (empty lists where the
preset has none) and its payments.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db.models import Prefetch, QuerySet

from tournament.archive.schema import (
    FORMAT,
    VERSION,
    ArchiveV5,
    CutRecord,
    DrawDeal,
    ExtraWinRecord,
    FaultyOutDeal,
    FinalistRecord,
    Payments,
    PenaltyRecord,
    PlayerRecordV4,
    RefereeAccountRecord,
    RegistrationRecord,
    RoundRecordV5,
    Seats,
    TableRecordV5,
    TournamentRecordV5,
    WinDeal,
)
from tournament.models import Cut, Deal, ExtraWin, Penalty, Seat, Table, Tournament


def export_tournament(tournament: Tournament) -> dict[str, Any]:
    """The whole tournament as a JSON-ready dict in the archive format. A few queries in all."""
    rounds = tournament.rounds.prefetch_related(
        Prefetch(
            "tables",
            queryset=Table.objects.select_related("submitted_by", "confirmed_by").order_by(
                "number"
            ),
        ),
        Prefetch("tables__seats", queryset=Seat.objects.with_players()),
        Prefetch("tables__referees"),
        Prefetch(
            "tables__deals",
            queryset=Deal.objects.select_related(
                "winner__player", "discarder__player", "offender__player", "entered_by"
            ).order_by("number"),
        ),
        Prefetch("tables__deals__extra_wins", queryset=_extra_wins()),
        Prefetch(
            "tables__penalties",
            queryset=Penalty.objects.select_related("seat__player", "entered_by").order_by(
                "entered_at", "pk"
            ),
        ),
    )
    archive = ArchiveV5.model_construct(
        format=FORMAT,
        version=VERSION,
        tournament=TournamentRecordV5.model_construct(
            name=tournament.name,
            slug=tournament.slug,
            preset=tournament.preset,
            profile=tournament.profile,
            seat_rotation=tournament.seat_rotation,
            table_points=list(tournament.table_points),
            public=tournament.public,
            start_date=tournament.start_date,
            end_date=tournament.end_date,
            venue=tournament.venue,
            tie_breaks=list(tournament.tie_breaks),
            confirmation=tournament.confirmation,
            round_minutes=tournament.round_minutes,
            organisers=sorted(user.get_username() for user in tournament.organisers.all()),
            rule_settings=dict(tournament.rule_settings or {}),
            registration=tournament.registration,
            registration_opens=tournament.registration_opens,
            registration_closes=tournament.registration_closes,
            registration_cap=tournament.registration_cap,
            check_in_open=tournament.check_in_open,
            self_check_in=tournament.self_check_in,
            check_in_closed_at=tournament.check_in_closed_at,
            standings_hidden_from=tournament.standings_hidden_from,
            standings_revealed_at=tournament.standings_revealed_at,
            team_best_of=tournament.team_best_of,
            cut_after_round=tournament.cut_after_round,
            cut_size=tournament.cut_size,
            carry_over=tournament.carry_over,
            final_seating=tournament.final_seating,
            consolation=tournament.consolation,
        ),
        players=[
            PlayerRecordV4.model_construct(
                key=player.key,
                name=player.name,
                family_name=player.family_name,
                given_name=player.given_name,
                country=player.country,
                club=player.club,
                team=player.team,
                ema_id=player.ema_number,
                substitute=player.substitute,
                withdrawn_from_round=player.withdrawn_from_round,
                checked_in_at=player.checked_in_at,
                joins_from_round=player.joins_from_round,
            )
            for player in tournament.players.order_by("key")
        ],
        rounds=[
            RoundRecordV5.model_construct(
                number=round.number,
                status=round.status,
                tables=[_table(table) for table in round.tables.all()],
            )
            for round in rounds
        ],
        referee_accounts=[
            RefereeAccountRecord.model_construct(
                username=account.user.get_username(), name=account.user.first_name
            )
            for account in tournament.referee_accounts.select_related("user").order_by(
                "user__username"
            )
        ],
        registrations=[
            RegistrationRecord.model_construct(
                created=registration.created,
                changed=registration.changed,
                name=registration.name,
                family_name=registration.family_name,
                given_name=registration.given_name,
                country=registration.country,
                club=registration.club,
                team=registration.team,
                ema_id=registration.ema_number,
                contact=registration.contact,
                status=registration.status,
                player=registration.player.key if registration.player else None,
            )
            for registration in tournament.registrations.select_related("player").order_by(
                "created", "pk"
            )
        ],
    )
    cut = _cut(tournament)
    if cut is not None:  # written only when there is one
        archive.cut = cut
        archive.model_fields_set.add("cut")
    return archive.model_dump(mode="json", exclude_unset=True)


def _extra_wins() -> QuerySet[ExtraWin]:
    return ExtraWin.objects.select_related("winner__player").order_by("pk")


def _cut(tournament: Tournament) -> CutRecord | None:
    if tournament.cut_after_round is None:
        return None  # no final stage: no query
    cut = Cut.objects.filter(tournament=tournament).select_related("confirmed_by").first()
    if cut is None:
        return None
    return CutRecord.model_construct(
        after_round=cut.after_round,
        size=cut.size,
        carry_over=cut.carry_over,
        consolation=cut.consolation,
        confirmed_at=cut.confirmed_at,
        confirmed_by=_username(cut.confirmed_by),
        finalists=[
            FinalistRecord.model_construct(
                player=finalist.player.key,
                table_points=str(finalist.table_points),
                score=finalist.score,
            )
            for finalist in cut.finalists.select_related("player").order_by("position")
        ],
    )


def _table(table: Table) -> TableRecordV5:
    seats = {seat.starting_wind: seat.player.key for seat in table.seats.all()}
    hands = list(table.deals.all())
    numbers = {hand.number for hand in hands}
    by_hand: dict[int, list[Penalty]] = {}
    game_penalties = []
    for penalty in table.penalties.all():
        if penalty.deal_number in numbers:
            by_hand.setdefault(penalty.deal_number, []).append(penalty)
        else:
            game_penalties.append(penalty)
    return TableRecordV5.model_construct(
        number=table.number,
        seats=Seats.model_construct(_fields_set=None, **seats),
        referees=sorted(user.get_username() for user in table.referees.all()),
        hands=[_hand(hand, seats, by_hand.get(hand.number, [])) for hand in hands],
        penalties=[_penalty(penalty, in_hand=False) for penalty in game_penalties],
        ended_by_time=table.ended_by_time,
        ended_at=table.ended_at,
        submitted_by=_username(table.submitted_by),
        confirmed_at=table.confirmed_at,
        confirmed_by=_username(table.confirmed_by),
        extra_minutes=table.extra_minutes,
    )


def _username(user: User | None) -> str | None:
    return user.get_username() if user is not None else None


_DEALS: dict[str, type[WinDeal | DrawDeal | FaultyOutDeal]] = {
    Deal.Result.WIN: WinDeal,
    Deal.Result.DRAW: DrawDeal,
    Deal.Result.FAULTY_OUT: FaultyOutDeal,
}


def _hand(
    hand: Deal, seats: dict[str, str], penalties: list[Penalty]
) -> WinDeal | DrawDeal | FaultyOutDeal:
    """A deal; `seats` gives the key of the player at each starting wind."""

    def keys(winds: list[str]) -> list[str]:
        return [seats[wind] for wind in winds]

    fields: dict[str, Any] = {
        "number": hand.number,
        "prevailing_wind": hand.prevailing_wind,
        "dealer": seats[hand.dealer],
        "extra_hands": hand.extra_hands,
        "result": hand.result,
        "winner": hand.winner.player.key if hand.winner else None,
        "discarder": hand.discarder.player.key if hand.discarder else None,
        "fan": hand.fan,
        "flowers": hand.flowers,
        "value": hand.value,
        "extra_winners": [_extra_win(win) for win in hand.extra_wins.all()],
        "riichi": keys(hand.riichi),
        "faulty_claims": keys(hand.faulty_claims),
        "ready": keys(hand.ready),
        "faulty_riichi": keys(hand.faulty_riichi),
        "offender": hand.offender.player.key if hand.offender else None,
        "payments": Payments.model_construct(
            _fields_set=None, **dict(zip("ESWN", hand.payments, strict=True))
        ),
        "penalties": [_penalty(penalty, in_hand=True) for penalty in penalties],
        "entered_by": hand.entered_by.get_username(),
        "entered_at": hand.entered_at,
    }
    if hand.tiles is not None:
        fields["tiles"] = hand.tiles
    return _DEALS[hand.result].model_construct(**fields)


def _extra_win(win: ExtraWin) -> ExtraWinRecord:
    """A further winner, with his tiles when there are some."""
    fields: dict[str, Any] = {"winner": win.winner.player.key, "value": win.value}
    if win.tiles is not None:
        fields["tiles"] = win.tiles
    return ExtraWinRecord.model_construct(**fields)


def _penalty(penalty: Penalty, *, in_hand: bool) -> PenaltyRecord:
    fields: dict[str, Any] = {
        "player": penalty.seat.player.key,
        "points": penalty.points,
        "distributed": penalty.distributed,
        "reason": penalty.reason,
        "kind": penalty.kind,
        "entered_by": penalty.entered_by.get_username(),
        "entered_at": penalty.entered_at,
    }
    if not in_hand and penalty.deal_number is not None:
        fields["hand_number"] = penalty.deal_number
    return PenaltyRecord.model_construct(**fields)
