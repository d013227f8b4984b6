"""What the services of a game share: locking the table, finding seats, scores and the audit."""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db.models import Case, Exists, F, IntegerField, OuterRef, Sum, When
from django.utils.translation import gettext_lazy as _

from tournament.models import (
    FALSE_WIN_KINDS,
    AuditEntry,
    Deal,
    Penalty,
    Player,
    Round,
    Seat,
    Table,
)
from tournament.services.audit import record
from tournament.services.live import note_change


def lock_table(table: Table) -> Table:
    """The table, re-read and locked until the transaction ends: one writer per game at a time."""
    return (
        Table.objects.select_for_update(of=("self",))
        .select_related("round__tournament")
        .get(pk=table.pk)
    )


def seats_of(table: Table, *, false_wins_in: int | None = None) -> list[Seat]:
    """The four seats in starting order East, South, West, North. With `false_wins_in`, each
    seat's `false_win` says, from the same query, whether its player declared a false win in
    that hand."""
    seats = table.seats.with_players()
    if false_wins_in is not None:
        seats = seats.annotate(
            false_win=Exists(
                Penalty.objects.filter(
                    seat=OuterRef("pk"), deal_number=false_wins_in, kind__in=FALSE_WIN_KINDS
                )
            )
        )
    found = sorted(seats, key=lambda seat: seat.index)
    for seat in found:
        seat.false_wins_in = false_wins_in  # type: ignore[attr-defined]
    return found


def seat_of(seats: list[Seat], player: Player, role: str) -> Seat:
    for seat in seats:
        if seat.player_id == player.pk:
            return seat
    raise ValidationError(
        _("The %(role)s, %(player)s, is not seated at this table."),
        code="not_seated",
        params={"role": role, "player": player.name},
    )


@dataclass(frozen=True)
class SubmissionKey:
    """An idempotency key as a service holds it: the key, whose it is, and a digest of what
    was sent with it (the kind of record and the service's arguments)."""

    key: uuid.UUID
    user: User
    digest: str

    def fields(self) -> dict[str, Any]:
        """The record's fields that keep the key."""
        return {"submission": self.key, "submitted_by": self.user, "submission_digest": self.digest}


def submission_key(submission: Any, *, user: User, kind: str, **sent: Any) -> SubmissionKey | None:
    """The key `submission` (None: the request came without one) of `user`, sending `sent` for
    a record of `kind`. A key that is not a UUID is refused."""
    if submission is None:
        return None
    try:
        key = uuid.UUID(str(submission))
    except ValueError as error:
        raise ValidationError(
            _("The submission key %(key)s is not a UUID."),
            code="bad_submission_key",
            params={"key": str(submission)[:60]},
        ) from error
    text = json.dumps({"kind": kind, **sent}, sort_keys=True, default=_plain)
    return SubmissionKey(key, user, hashlib.sha256(text.encode()).hexdigest())


def _plain(value: Any) -> Any:
    if isinstance(value, Player):
        return f"player:{value.pk}"
    if isinstance(value, (tuple, list, set, frozenset)):
        return list(value)
    return str(value)


def replayed(model: type[Deal] | type[Penalty], table: Table, key: SubmissionKey | None) -> Any:
    """The record an earlier submission with the same key made at `table`, if any: a key is
    its user's and its table's (another user's key, or a key at another table, is another key).

    It is marked ``replayed = True``. The key sent again with something else (other values,
    or for another kind of record) is refused: nothing is recorded. Called with the table
    locked, so two submissions with one key are answered one after the other.
    """
    if key is None:
        return None
    mine = {"table": table, "submitted_by": key.user, "submission": key.key}
    earlier = model.objects.filter(**mine).order_by("pk").first()  # one at most
    if earlier is None:
        other: type[Deal] | type[Penalty] = Penalty if model is Deal else Deal
        if other.objects.filter(**mine).exists():
            raise _reused()
        return None
    # A record from before digests were kept (empty) is taken as the same submission.
    if earlier.submission_digest and earlier.submission_digest != key.digest:
        raise _reused()
    earlier.replayed = True  # type: ignore[union-attr]  # a mark on this instance only
    return earlier


def _reused() -> ValidationError:
    return ValidationError(
        _(
            "This submission key was already used for a different entry at this table, so "
            "nothing was recorded. Send the new entry with a new key."
        ),
        code="submission_key_reused",
    )


def refuse_after_end(table: Table, *, what: str = "hand") -> None:
    """Nothing new is entered at a game that has ended (its sheet is submitted): a hand
    needs the game reopened; a false win or a penalty (`what`) too, unless an organiser
    records it as a correction (the caller decides)."""
    if table.ended_at is None:
        return
    if what == "hand":
        message = _("The game at table %(table)s has ended; correct a hand instead.")
    else:
        message = _(
            "The game at table %(table)s has ended: the organiser records a false win or a "
            "penalty now, or reopens the game."
        )
    raise ValidationError(message, code="game_ended", params={"table": table.number})


def refuse_unless_playing(table: Table) -> None:
    """Results are entered only while the table's round is being played."""
    round = table.round
    if round.status != Round.Status.PLAYING:
        raise ValidationError(
            _("Round %(round)s is %(status)s, not in play: results cannot be entered now."),
            code="round_not_playing",
            params={"round": round.number, "status": round.get_status_display().lower()},
        )


def refuse_before_play(table: Table) -> None:
    """Corrections are made once a round has been played (in play or finished)."""
    round = table.round
    if round.status not in (Round.Status.PLAYING, Round.Status.FINISHED):
        raise ValidationError(
            _("Round %(round)s has not been played yet."),
            code="round_not_playing",
            params={"round": round.number},
        )


def game_scores(
    seats: list[Seat], payments: list[list[int]], penalties: list[Penalty]
) -> list[int]:
    """The game scores of `seats` (East, South, West, North) from the payments of the hands
    and from the penalties (their seats among `seats`): what `recompute_scores` stores, for a
    game held in memory."""
    scores = [sum(points) for points in zip(*payments, strict=True)] if payments else [0] * 4
    _add_penalties(scores, seats, penalties)
    return scores


def _add_penalties(scores: list[int], seats: list[Seat], penalties: Iterable[Penalty]) -> None:
    """Add to `scores` (E, S, W, N) what each of `penalties` pays and receives."""
    for penalty in penalties:
        offender = next(seat.index for seat in seats if seat.pk == penalty.seat_id)
        for index, points in enumerate(penalty.payments(offender)):
            scores[index] += points


def recompute_scores(table: Table, seats: list[Seat]) -> None:
    """Set each seat's game score from the hands and penalties recorded so far."""
    totals = table.deals.aggregate(
        east=Sum("east_points"),
        south=Sum("south_points"),
        west=Sum("west_points"),
        north=Sum("north_points"),
    )
    scores = [totals[name] or 0 for name in ("east", "south", "west", "north")]
    _add_penalties(scores, seats, table.penalties.all())
    for seat, score in zip(seats, scores, strict=True):
        seat.score = score
    Seat.objects.bulk_update(seats, ["score"])


def add_to_scores(seats: list[Seat], payments: list[int]) -> None:
    """Add a new deal's `payments` (E, S, W, N) to the seats' game scores, in one statement
    (none when nobody pays). Only with the table locked, whose scores are its hands' and
    penalties' so far (recompute_scores sets them from scratch)."""
    changed = [(seat, paid) for seat, paid in zip(seats, payments, strict=True) if paid]
    if not changed:
        return
    Seat.objects.filter(pk__in=[seat.pk for seat, _paid in changed]).update(
        score=Case(
            *(When(pk=seat.pk, then=F("score") + paid) for seat, paid in changed),
            output_field=IntegerField(),
        )
    )
    for seat, paid in changed:
        seat.score += paid


def hand_snapshot(hand: Deal) -> dict[str, Any]:
    """A deal as the audit trail keeps it; the facts of other presets only where they are."""
    snapshot: dict[str, Any] = {
        "number": hand.number,
        "result": hand.result,
        "winner": hand.winner.player.key if hand.winner else None,
        "discarder": hand.discarder.player.key if hand.discarder else None,
        "fan": hand.fan,
        "flowers": hand.flowers,
        "tiles": hand.tiles,
        "payments": hand.payments,
        "entered_by": hand.entered_by.get_username(),
        "entered_at": hand.entered_at.isoformat(),
    }
    if hand.value is not None:
        snapshot["value"] = hand.value
    several = hand.table.round.tournament.rules.deal.several_winners
    if hand.pk is not None and hand.winner is not None and several:
        extra = [f"{win.winner.player.key}: {win.value}" for win in hand.extra_wins.all()]
        if extra:
            snapshot["extra_winners"] = extra
    for name in ("riichi", "faulty_claims", "ready", "faulty_riichi"):
        if getattr(hand, name):
            snapshot[name] = list(getattr(hand, name))
    if hand.offender is not None:
        snapshot["offender"] = hand.offender.player.key
    if hand.extra_hands:
        snapshot["extra_hands"] = hand.extra_hands
    return snapshot


def penalty_snapshot(penalty: Penalty) -> dict[str, Any]:
    return {
        "player": penalty.seat.player.key,
        "kind": penalty.kind,
        "points": penalty.points,
        "distributed": penalty.distributed,
        "reason": penalty.reason,
        "hand_number": penalty.deal_number,
    }


def audit(
    *,
    table: Table,
    actor: User,
    action: str,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
) -> AuditEntry:
    """Keep a change to the game at `table` through the audit gate, and tell the live pages."""
    entry = record(
        table.round.tournament_id, action, actor=actor, before=before, after=after, table=table
    )
    # The live pages of a table and of its round see this entry (tournament.web.live); the
    # tournament's version, which every live page reads, moves only when more than a game in
    # play changed: its hands and penalties count nowhere else until its sheet is submitted.
    if not (action in IN_GAME_ACTIONS and table.ended_at is None):
        note_change(table.round.tournament_id)
    return entry


# What changes only the game at its table while the game is open.
IN_GAME_ACTIONS = frozenset(
    {
        AuditEntry.Action.HAND_RECORDED,
        AuditEntry.Action.HAND_CORRECTED,
        AuditEntry.Action.HAND_REMOVED,
        AuditEntry.Action.PENALTY_RECORDED,
        AuditEntry.Action.PENALTY_CORRECTED,
        AuditEntry.Action.PENALTY_REMOVED,
    }
)
