"""Check-in on the day: who has come. The desk checks players in and out
(`set_checked_in`); a player may check themselves in from their private link while the
organiser allows it (`self_check_in`). Every change is kept in the audit trail."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models import AuditEntry, Player, Tournament
from tournament.services.audit import record
from tournament.services.live import note_change


def _locked(player: Player) -> Player:
    return (
        Player.objects.select_for_update(of=("self",))
        .select_related("tournament")
        .get(pk=player.pk)
    )


@transaction.atomic
def set_checked_in(
    player: Player,
    checked_in: bool,
    *,
    actor: User | AnonymousUser | None,
    source: str = "desk",
) -> Player:
    """Check `player` in (or out, with `checked_in` False). Doing what is already done changes
    nothing and records nothing. `source` says where it was done ("desk", "qr", "link", "api")
    for the audit trail."""
    player = _locked(player)
    if (player.checked_in_at is not None) == checked_in:
        return player
    if player.withdrawn:
        raise ValidationError(
            _("%(name)s has withdrawn and cannot be checked in.") % {"name": player.name},
            code="withdrawn",
        )
    before = {"player": player.key, "checked_in": player.checked_in_at is not None}
    player.checked_in_at = timezone.now() if checked_in else None
    player.save(update_fields=["checked_in_at"])
    record(
        player.tournament,
        AuditEntry.Action.CHECK_IN,
        actor=actor,
        before=before,
        after={"player": player.key, "checked_in": checked_in, "source": source},
    )
    note_change(player.tournament_id)
    return player


def self_check_in(player: Player) -> Player:
    """The player checks themselves in from their private link: only while the organiser
    allows it and check-in has not been closed."""
    tournament: Tournament = player.tournament
    if not (tournament.self_check_in and tournament.check_in_closed_at is None):
        raise ValidationError(
            _("Checking in from your link is not open now: please go to the check-in desk."),
            code="self_check_in_closed",
        )
    return set_checked_in(player, True, actor=None, source="link")
