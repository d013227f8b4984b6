"""The final stage: confirming the cut, undoing it, and seating the rounds after it
(docs/stages.md)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from fractions import Fraction

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.domain.text import listed
from tournament.models import (
    AuditEntry,
    Cut,
    Finalist,
    FinalSeating,
    Player,
    Round,
    Table,
    Tournament,
    parse_carry_over,
)
from tournament.reads import stages
from tournament.reads.tally import TWELFTHS
from tournament.services.audit import record
from tournament.services.live import note_change
from tournament.services.rounds import players_to_seat, set_seating

Status = Round.Status
STARTED = (Status.PLAYING, Status.FINISHED)


def refuse_unless_cut_possible(tournament: Tournament) -> None:
    """The cut can be confirmed once its round and every earlier one is finished, while no
    round after it has started and no cut is confirmed yet."""
    after = tournament.cut_after_round
    if after is None or tournament.cut_size is None:
        raise ValidationError(
            _("This tournament has no final stage: set one in its settings."), code="no_stage"
        )
    if Cut.objects.filter(tournament=tournament).exists():
        raise ValidationError(_("The cut is confirmed already."), code="cut_confirmed")
    rounds = dict(tournament.rounds.filter(number__lte=after).values_list("number", "status"))
    open_rounds = [n for n in range(1, after + 1) if rounds.get(n) != Status.FINISHED]
    if open_rounds:
        raise ValidationError(
            _("The cut comes after round %(round)s: round %(rounds)s is not finished yet."),
            code="rounds_open",
            params={"round": after, "rounds": listed(open_rounds)},
        )
    if tournament.rounds.filter(number__gt=after, status__in=STARTED).exists():
        raise ValidationError(
            _("A round after the cut has started already."), code="final_stage_started"
        )


@transaction.atomic
def confirm_cut(*, tournament: Tournament, actor: User) -> Cut:
    """Freeze the cut as `stages.cut_preview` shows it now: the finalists in order with their
    table points and score after the cut's round; audited with who went on."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    refuse_unless_cut_possible(tournament)
    preview = stages.cut_preview(tournament)
    qualified = preview.qualified
    if len(qualified) < preview.size:
        raise ValidationError(
            _("Only %(count)s players can go on to the final stage; the cut takes %(size)s."),
            code="too_few_players",
            params={"count": len(qualified), "size": preview.size},
        )
    cut = Cut.objects.create(
        tournament=tournament,
        after_round=preview.after_round,
        size=preview.size,
        carry_over=str(preview.factor),
        consolation=tournament.consolation,
        confirmed_by=actor,
        confirmed_at=timezone.now(),
    )
    Finalist.objects.bulk_create(
        Finalist(
            cut=cut,
            player=row.standing.player,
            position=row.position or 0,
            table_points_twelfths=int(row.standing.table_points * TWELFTHS),
            score=int(row.standing.score),
        )
        for row in qualified
    )
    record(
        tournament,
        AuditEntry.Action.CUT_CONFIRMED,
        actor=actor,
        after=_snapshot(cut, [row.standing.player for row in qualified]),
    )
    note_change(tournament.pk)
    return cut


@transaction.atomic
def restore_cut(
    *,
    tournament: Tournament,
    after_round: int,
    size: int,
    carry_over: str,
    consolation: bool,
    confirmed_at: datetime,
    confirmed_by: User,
    finalists: Sequence[tuple[Player, Fraction, int]],
) -> Cut:
    """The cut as an archive froze it when it was confirmed: `finalists` in order, each
    (player, table points, score) as they stood on that day, not worked out again from today's
    standings; who confirmed it and when as recorded. Checked as the fields of a cut are
    (ValidationError), and not audited: the import restores a cut confirmed before."""
    cut = Cut(
        tournament=tournament,
        after_round=after_round,
        size=size,
        carry_over=str(parse_carry_over(carry_over)),
        consolation=consolation,
        confirmed_at=confirmed_at,
        confirmed_by=confirmed_by,
    )
    cut.full_clean(exclude=["tournament", "confirmed_by"], validate_unique=False)
    cut.save()
    Finalist.objects.bulk_create(
        Finalist(
            cut=cut,
            player=player,
            position=position,
            table_points_twelfths=int(table_points * TWELFTHS),
            score=score,
        )
        for position, (player, table_points, score) in enumerate(finalists, start=1)
    )
    return cut


@transaction.atomic
def undo_cut(*, tournament: Tournament, actor: User) -> None:
    """Forget the confirmed cut while no round after it has started (its draft and seated
    rounds keep their seating: seat them again)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    cut = Cut.objects.filter(tournament=tournament).first()
    if cut is None:
        raise ValidationError(_("No cut is confirmed."), code="no_cut")
    if tournament.rounds.filter(number__gt=cut.after_round, status__in=STARTED).exists():
        raise ValidationError(
            _("A round after the cut has started; the cut stays."), code="final_stage_started"
        )
    players = [finalist.player for finalist in cut.finalists.select_related("player")]
    record(tournament, AuditEntry.Action.CUT_UNDONE, actor=actor, before=_snapshot(cut, players))
    cut.delete()
    note_change(tournament.pk)


def _snapshot(cut: Cut, players: list[Player]) -> dict:
    return {
        "after_round": cut.after_round,
        "size": cut.size,
        "carry_over": cut.carry_over,
        "consolation": cut.consolation,
        "finalists": [player.key for player in players],
    }


def stage_field(round: Round) -> tuple[list[Player], list[Player]] | None:
    """For a round after a confirmed cut: the finalists in the order of the final stage's
    standings, and the players of the consolation stage in the order of theirs (none when the
    others stop); None for a round before it or without a cut."""
    tournament = round.tournament
    cut = stages.confirmed_cut(tournament)
    if cut is None or round.number <= cut.after_round:
        return None
    finalists = [row.player for row in stages.stage_standings(tournament, stage=stages.FINAL)]
    away = [player.name for player in finalists if not player.plays_in(round.number)]
    if away:
        raise ValidationError(
            _(
                "%(names)s made the cut but does not play round %(round)s: seat the final "
                "tables by hand (a substitute in their seat)."
            ),
            code="finalist_away",
            params={"names": listed(away), "round": round.number},
        )
    if not cut.consolation:
        return finalists, []
    chosen = {player.pk for player in finalists}
    field = {player.pk for player in players_to_seat(round) if player.pk not in chosen}
    order = stages.stage_standings(tournament, stage=stages.CONSOLATION)
    others = [row.player for row in order if row.player.pk in field]
    if len(others) % 4:
        raise ValidationError(
            _(
                "%(count)s players play the consolation stage in round %(round)s: add "
                "substitutes to fill tables of four."
            ),
            code="field_not_multiple_of_four",
            params={"count": len(others), "round": round.number},
        )
    return finalists, others


def stage_tables(round: Round) -> list[list[Player]] | None:
    """The tables of a round after the cut: the final tables by the tournament's scheme
    (numbered first), then the consolation tables by rank; None before the cut."""
    field = stage_field(round)
    if field is None:
        return None
    finalists, others = field
    scheme = round.tournament.final_seating
    return stages.final_tables(finalists, scheme) + stages.final_tables(others, FinalSeating.RANK)


@transaction.atomic
def seat_stage_round(*, round: Round, actor: User) -> list[Table]:
    """Seat a round after the cut (see `stage_tables`), replacing its tables."""
    tables = stage_tables(round)
    if tables is None:
        raise ValidationError(
            _("Round %(round)s is not in the final stage."),
            code="not_final_stage",
            params={"round": round.number},
        )
    return set_seating(round=round, tables=tables, actor=actor, carry_referees=True)
