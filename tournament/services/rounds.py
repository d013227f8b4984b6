"""Rounds: creating them, seating them, assigning referees, and moving them through their status.

A round is seated as given (`set_seating`) or by the seating engine: one round at once
(`seating_plan.seat_round`) or every draft round of the seating plan.

A round goes draft -> seated (its seating is published) -> playing (referees enter results)
-> finished (every game has ended). It can step back: seated -> draft, playing -> seated while
nothing is recorded, finished -> playing to finish a game again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from tournament.domain.text import listed
from tournament.models import (
    AuditEntry,
    Deal,
    Penalty,
    Player,
    Round,
    RoundStatus,
    Seat,
    Table,
    Tournament,
)
from tournament.reads.stages import expected_players
from tournament.services.audit import record
from tournament.services.live import note_change
from tournament.services.seating import create_table, refuse_unless_playing

Status = Round.Status

TRANSITIONS: dict[str, frozenset[RoundStatus]] = {
    Status.DRAFT: frozenset({Status.SEATED}),
    Status.SEATED: frozenset({Status.DRAFT, Status.PLAYING}),
    Status.PLAYING: frozenset({Status.SEATED, Status.FINISHED}),
    Status.FINISHED: frozenset({Status.PLAYING}),
}


def lock_round(round: Round) -> Round:
    return (
        Round.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=round.pk)
    )


def has_results(round: Round) -> bool:
    return (
        Deal.objects.filter(table__round=round).exists()
        or Penalty.objects.filter(table__round=round).exists()
        or Table.objects.filter(round=round, ended_at__isnull=False).exists()
    )


def _audit_round(
    round: Round,
    actor: User,
    action: AuditEntry.Action,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
) -> None:
    record(round.tournament_id, action, actor=actor, before=before, after=after)
    note_change(round.tournament_id)


def _seating_snapshot(round: Round) -> dict[str, Any]:
    tables: dict[str, dict[str, str]] = {}
    for seat in Seat.objects.filter(round=round).select_related("table", "player"):
        tables.setdefault(str(seat.table.number), {})[seat.starting_wind] = seat.player.key
    return {"round": round.number, "tables": tables}


def _refuse_seating_change(round: Round) -> None:
    if round.status not in (Status.DRAFT, Status.SEATED):
        raise ValidationError(
            _(
                "Round %(round)s is %(status)s; its seating can change only while it is a draft or "
                "seated."
            ),
            code="seating_frozen",
            params={"round": round.number, "status": round.get_status_display().lower()},
        )


@transaction.atomic
def create_round(*, tournament: Tournament, actor: User) -> Round:
    """The next round of `tournament`, as a draft with no tables."""
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    last = tournament.rounds.aggregate(last=Max("number"))["last"] or 0
    round = Round.objects.create(tournament=tournament, number=last + 1)
    _audit_round(
        round,
        actor,
        AuditEntry.Action.ROUND_STATUS,
        None,
        {"round": round.number, "status": round.status},
    )
    return round


@transaction.atomic
def remove_round(*, round: Round, actor: User) -> None:
    """Delete the last round of a tournament while it is a draft."""
    round = lock_round(round)
    if round.status != Status.DRAFT:
        raise ValidationError(_("Only a draft round can be removed."), code="not_draft")
    if round.tournament.rounds.filter(number__gt=round.number).exists():
        raise ValidationError(_("Only the last round can be removed."), code="not_last_round")
    _audit_round(
        round,
        actor,
        AuditEntry.Action.ROUND_STATUS,
        {"round": round.number, "status": round.status},
        None,
    )
    round.delete()


def players_to_seat(round: Round) -> list[Player]:
    """Everyone who plays in `round`: active regular players, then substitutes to fill tables.

    Raises ValidationError when the field cannot fill tables of four.
    """
    active = list(round.tournament.players.playing_in(round.number))
    regulars = [player for player in active if not player.substitute]
    substitutes = [player for player in active if player.substitute]
    missing = -len(regulars) % 4
    if missing > len(substitutes):
        raise ValidationError(
            _(
                "%(count)s players play in round %(round)s: %(missing)s more substitutes are "
                "needed to fill tables of four."
            ),
            code="field_not_multiple_of_four",
            params={
                "count": len(regulars) + len(substitutes),
                "round": round.number,
                "missing": missing - len(substitutes),
            },
        )
    field = regulars + substitutes[:missing]
    if not field:
        raise ValidationError(_("There are no players to seat."), code="no_players")
    return field


@transaction.atomic
def set_seating(
    *,
    round: Round,
    tables: Sequence[Sequence[Player]],
    actor: User,
    carry_referees: bool = False,
) -> list[Table]:
    """Replace the seating of `round` with `tables`, numbered from 1, players at E, S, W, N.

    The referees of the round stay with their table numbers. With `carry_referees`, a round
    seated for the first time takes the referees of the previous round's tables of the same
    numbers."""
    round = lock_round(round)
    _refuse_seating_change(round)
    return _replace_tables(round, tables, actor, carry_referees=carry_referees)


def referees_by_table(round: Round) -> dict[int, list[int]]:
    """The user ids of the referees of each table of `round`, by table number."""
    assigned: dict[int, list[int]] = {}
    for number, user_id in Table.referees.through.objects.filter(table__round=round).values_list(
        "table__number", "user_id"
    ):
        assigned.setdefault(number, []).append(user_id)
    return assigned


def _replace_tables(
    round: Round,
    tables: Sequence[Sequence[Player]],
    actor: User,
    *,
    carry_referees: bool = False,
) -> list[Table]:
    before = _seating_snapshot(round)
    if Table.objects.filter(round=round).exists():
        referees = referees_by_table(round)  # seated again: the referees keep their tables
    elif carry_referees:
        previous = Round.objects.filter(
            tournament_id=round.tournament_id, number=round.number - 1
        ).first()
        referees = referees_by_table(previous) if previous is not None else {}
    else:
        referees = {}
    Table.objects.filter(round=round).delete()
    created = [
        create_table(round=round, number=number, players=players)
        for number, players in enumerate(tables, start=1)
    ]
    Table.referees.through.objects.bulk_create(
        [
            Table.referees.through(table_id=table.pk, user_id=user_id)
            for table in created
            for user_id in referees.get(table.number, [])
        ]
    )
    _audit_round(round, actor, AuditEntry.Action.SEATING_CHANGED, before, _seating_snapshot(round))
    return created


@transaction.atomic
def swap_players(*, round: Round, first: Player, second: Player, actor: User) -> None:
    """Exchange the seats of two players in `round`, or put an unseated player in a seat.

    Allowed while the round is a draft or seated, or in play when neither table has a result.
    """
    round = lock_round(round)
    if first.pk == second.pk:
        raise ValidationError(_("Choose two different players."), code="same_player")
    seats = {
        seat.player_id: seat
        for seat in Seat.objects.select_for_update()
        .filter(round=round, player__in=[first, second])
        .select_related("table")
    }
    if not seats:
        raise ValidationError(
            _("Neither player is seated in round %(round)s."),
            code="not_seated",
            params={"round": round.number},
        )
    if round.status == Status.FINISHED or (
        round.status == Status.PLAYING
        and any(
            seat.table.deals.exists()
            or seat.table.penalties.exists()
            or seat.table.ended_at is not None
            for seat in seats.values()
        )
    ):
        raise ValidationError(
            _("Players can change seats only at tables where nothing is recorded yet."),
            code="seating_frozen",
        )
    for player in (first, second):
        if player.tournament_id != round.tournament_id:
            raise ValidationError(
                _("%(player)s does not play in this tournament."),
                code="wrong_tournament",
                params={"player": player.name},
            )
        if player.pk not in seats:
            refuse_unless_playing(player, round.number)
    before = _seating_snapshot(round)
    one, two = seats.get(first.pk), seats.get(second.pk)
    if one and two:
        # Free both seats first so that no unique constraint sees a half-done swap.
        Seat.objects.filter(pk__in=[one.pk, two.pk]).delete()
        Seat.objects.bulk_create(
            [
                Seat(table=two.table, round=round, player=first, starting_wind=two.starting_wind),
                Seat(table=one.table, round=round, player=second, starting_wind=one.starting_wind),
            ]
        )
    else:
        seated, newcomer = (one, second) if one else (two, first)
        assert seated is not None  # `seats` holds one of the two
        seated.player = newcomer
        seated.save(update_fields=["player"])
    _audit_round(round, actor, AuditEntry.Action.SEATING_CHANGED, before, _seating_snapshot(round))


def _set_table_referees(table: Table, users: Sequence[User], actor: User) -> None:
    """Give `table` exactly `users`; the change, if any, in the audit trail with the usernames
    before and after."""
    before = sorted(user.get_username() for user in table.referees.all())
    after = sorted(user.get_username() for user in users)
    if before == after:
        return
    table.referees.set(list(users))
    record(
        table.round.tournament_id,
        AuditEntry.Action.TABLE_REFEREES,
        actor=actor,
        before={"referees": before},
        after={"referees": after},
        table=table,
    )


@transaction.atomic
def assign_referees(*, table: Table, referees: Iterable[User], actor: User) -> None:
    """Make `referees` the referees of `table` (replacing those assigned before); the change is
    kept in the audit trail. Whom a table may be given to is checked where the choice comes
    in (`selectors.assignable_referees`: the round's referee form, the API)."""
    users = list(dict.fromkeys(referees))
    _set_table_referees(table, users, actor)
    note_change(table.round.tournament_id)


@transaction.atomic
def assign_round_referees(
    *, round: Round, referees: Mapping[int, Iterable[User]], actor: User
) -> None:
    """Make `referees[n]` the referees of table n of `round`, for every table number given, all
    at once; tables not given keep theirs. Raises ValidationError (code "unknown_table") naming
    a table number the round does not have, and then changes nothing. Each table's change is
    kept in the audit trail."""
    round = lock_round(round)
    tables = {
        table.number: table
        for table in round.tables.select_related("round").prefetch_related("referees")
    }
    unknown = sorted(set(referees) - set(tables))
    if unknown:
        raise ValidationError(
            _("Round %(round)s has no table %(tables)s."),
            code="unknown_table",
            params={"round": round.number, "tables": listed(unknown)},
        )
    chosen = {number: list(dict.fromkeys(users)) for number, users in referees.items()}
    for number, users in chosen.items():
        _set_table_referees(tables[number], users, actor)
    note_change(round.tournament_id)


def restore_table_referees(referees: Iterable[tuple[Table, Iterable[User]]]) -> None:
    """Give tables that have no referees yet those an archive records for each, in one
    statement whatever their number (a user named twice counts once). The archive's tables as
    they were, so no entry in the audit trail: `assign_round_referees` is the organiser's
    change of referees."""
    Through = Table.referees.through
    Through.objects.bulk_create(
        [
            Through(table_id=table.pk, user_id=user.pk)
            for table, users in referees
            for user in dict.fromkeys(users)
        ]
    )


def tables_without_referees(round: Round) -> list[int]:
    """The numbers of the tables of `round` that no active account referees: only the
    organisers can enter their results."""
    return sorted(
        round.tables.exclude(referees__is_active=True).values_list("number", flat=True).distinct()
    )


def _refuse_transition(round: Round, status: str, *, unrefereed_ok: bool) -> None:
    """Refuse moving `round` (locked) to `status` while the rules of the round forbid it."""
    tables = round.tables.all()
    if status == Status.SEATED and round.status == Status.DRAFT:
        _refuse_publishing(round, tables)
    if status == Status.PLAYING and round.status == Status.SEATED:
        _refuse_starting(round, unrefereed_ok=unrefereed_ok)
    if status == Status.SEATED and round.status == Status.PLAYING and has_results(round):
        raise ValidationError(
            _("Results are recorded in round %(round)s; it stays in play."),
            code="has_results",
            params={"round": round.number},
        )
    if status == Status.FINISHED:
        _refuse_finishing(tables)
    if status == Status.PLAYING and round.status == Status.FINISHED:
        later = round.tournament.rounds.filter(
            number__gt=round.number, status__in=[Status.PLAYING, Status.FINISHED]
        )
        if later.exists():
            raise ValidationError(
                _("A later round has started; correct results instead of reopening the round."),
                code="later_round_started",
            )


def _refuse_publishing(round: Round, tables: QuerySet[Table]) -> None:
    """A draft round is published once every player who plays it is seated."""
    if not tables.exists():
        raise ValidationError(
            _("Seat round %(round)s before publishing it."),
            code="not_seated",
            params={"round": round.number},
        )
    seated = set(Seat.objects.filter(round=round).values_list("player_id", flat=True))

    expected = expected_players(round)  # after a cut the others may stop
    missing = [
        player.name
        for player in round.tournament.players.filter(substitute=False).playing_in(round.number)
        if player.pk not in seated and (expected is None or player.pk in expected)
    ]
    if missing:
        raise ValidationError(
            _("Not everyone is seated in round %(round)s: %(names)s."),
            code="players_unseated",
            params={"round": round.number, "names": listed(missing)},
        )


def _refuse_starting(round: Round, *, unrefereed_ok: bool) -> None:
    """A seated round is played once the rounds before it are finished (and, unless
    `unrefereed_ok`, every table has a referee)."""
    earlier = round.tournament.rounds.filter(number__lt=round.number).exclude(
        status=Status.FINISHED
    )
    unfinished = earlier.first()
    if unfinished is not None:
        raise ValidationError(
            _("Round %(earlier)s is not finished yet."),
            code="earlier_round_open",
            params={"earlier": unfinished.number},
        )
    if not unrefereed_ok:
        unrefereed = tables_without_referees(round)
        if unrefereed:
            raise ValidationError(
                ngettext_lazy(
                    "Table %(tables)s has no referee: only organisers can enter its results.",
                    "Tables %(tables)s have no referee: only organisers can enter their results.",
                    len(unrefereed),
                ),
                code="tables_without_referees",
                params={"tables": listed(unrefereed), "numbers": unrefereed},
            )


def _refuse_finishing(tables: QuerySet[Table]) -> None:
    """A round finishes once every game has ended and every sheet is confirmed."""
    open_tables = [table.number for table in tables if table.ended_at is None]
    if open_tables:
        raise ValidationError(
            _("The games at tables %(tables)s have not ended."),
            code="games_open",
            params={"tables": listed(open_tables)},
        )
    unconfirmed = [table.number for table in tables if table.confirmed_at is None]
    if unconfirmed:
        raise ValidationError(
            _("The game sheets of tables %(tables)s are waiting for confirmation."),
            code="sheets_unconfirmed",
            params={"tables": listed(unconfirmed)},
        )


@transaction.atomic
def set_round_status(
    *, round: Round, status: str, actor: User, unrefereed_ok: bool = True
) -> Round:
    """Move `round` to `status` if the rules of the round allow it now.

    With `unrefereed_ok` False, starting play (seated -> playing) is refused with code
    "tables_without_referees" (params: `tables`, their numbers listed) while a table has no
    active referee: the pages and the API ask the organiser to confirm first."""
    round = lock_round(round)
    if status not in Status.values:
        raise ValidationError(
            _("Unknown round status %(status)r."), code="bad_status", params={"status": status}
        )
    if status == round.status:
        return round
    if status not in TRANSITIONS[round.status]:
        raise ValidationError(
            _("Round %(round)s is %(now)s and cannot become %(next)s."),
            code="bad_transition",
            params={
                "round": round.number,
                "now": round.get_status_display().lower(),
                "next": Status(status).label.lower(),
            },
        )
    _refuse_transition(round, status, unrefereed_ok=unrefereed_ok)
    before = {"round": round.number, "status": round.status}
    round.status = status
    fields = ["status"]
    if status == Status.FINISHED and round.clock_started_at and round.clock_paused_at is None:
        round.clock_paused_at = timezone.now()  # the clock stops with the round
        fields.append("clock_paused_at")
    round.save(update_fields=fields)
    _audit_round(
        round,
        actor,
        AuditEntry.Action.ROUND_STATUS,
        before,
        {"round": round.number, "status": status},
    )
    return round
