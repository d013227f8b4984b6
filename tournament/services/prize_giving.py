"""The prize-giving: hiding the public standings from a round on, revealing them, hiding them
again. Which standings each viewer then sees is `tournament.reads.prize_giving`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models import AuditEntry, Tournament
from tournament.services.audit import record
from tournament.services.live import note_change

# The rounds a tournament may hide from (the field's own validators say the same).
FIRST_ROUND, LAST_ROUND = 1, 200


def _facts(tournament: Tournament) -> dict[str, Any]:
    revealed = tournament.standings_revealed_at
    return {
        "hidden_from": tournament.standings_hidden_from,
        "revealed_at": revealed.isoformat(timespec="seconds") if revealed else None,
    }


def _refuse_out_of_range(round: int | None) -> None:
    if round is not None and not FIRST_ROUND <= round <= LAST_ROUND:
        raise ValidationError(
            _("Give a round between %(first)s and %(last)s.")
            % {"first": FIRST_ROUND, "last": LAST_ROUND},
            code="round_out_of_range",
        )


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _saved(tournament: Tournament, before: dict[str, Any], action: str, actor: User) -> None:
    tournament.save(update_fields=["standings_hidden_from", "standings_revealed_at"])
    record(tournament, action, actor=actor, before=before, after=_facts(tournament))
    # The live pages (standings, projector, player pages) and the kept standings of every
    # application server move on to what is shown now.
    note_change(tournament.pk)


@transaction.atomic
def hide_standings_from(*, tournament: Tournament, round: int | None, actor: User) -> Tournament:
    """Hide the public standings from round `round` on until they are revealed; None: never
    hide them (and forget a reveal: there is nothing left to reveal). Setting the same round
    again changes nothing and records nothing. Changing the round after a reveal keeps the
    reveal: "hide again" (`hide_standings_again`) hides them."""
    _refuse_out_of_range(round)
    tournament = _locked(tournament)
    if round == tournament.standings_hidden_from:
        return tournament
    before = _facts(tournament)
    tournament.standings_hidden_from = round
    if round is None:
        tournament.standings_revealed_at = None
    _saved(tournament, before, AuditEntry.Action.STANDINGS_HIDDEN, actor)
    return tournament


@transaction.atomic
def reveal_standings(*, tournament: Tournament, actor: User) -> Tournament:
    """Show everyone the full standings (the prize-giving). Refused (code "nothing_hidden")
    when no round is hidden, and (code "already_revealed") when they are shown already."""
    tournament = _locked(tournament)
    if tournament.standings_hidden_from is None:
        raise ValidationError(
            _("No round is hidden: everyone sees the full standings already."),
            code="nothing_hidden",
        )
    if tournament.standings_revealed_at is not None:
        raise ValidationError(_("The standings are revealed already."), code="already_revealed")
    before = _facts(tournament)
    tournament.standings_revealed_at = timezone.now()
    _saved(tournament, before, AuditEntry.Action.STANDINGS_REVEALED, actor)
    return tournament


@transaction.atomic
def hide_standings_again(*, tournament: Tournament, actor: User) -> Tournament:
    """Undo a reveal: the public sees the standings before the hidden round again. Refused
    (code "not_revealed") unless they are revealed."""
    tournament = _locked(tournament)
    if tournament.standings_hidden_from is None or tournament.standings_revealed_at is None:
        raise ValidationError(
            _("The standings are not revealed: there is nothing to hide again."),
            code="not_revealed",
        )
    before = _facts(tournament)
    tournament.standings_revealed_at = None
    _saved(tournament, before, AuditEntry.Action.STANDINGS_HIDDEN, actor)
    return tournament


def restore_prize_giving(
    *, tournament: Tournament, hidden_from: int | None, revealed_at: datetime | None
) -> Tournament:
    """Set the round the standings are hidden from and the moment they were revealed as an
    archive records them (the moment kept, not now), without an entry in the audit trail: the
    import restores the tournament as it was, it does not hide or reveal anything today."""
    _refuse_out_of_range(hidden_from)
    tournament.standings_hidden_from = hidden_from
    tournament.standings_revealed_at = revealed_at
    tournament.save(update_fields=["standings_hidden_from", "standings_revealed_at"])
    return tournament
