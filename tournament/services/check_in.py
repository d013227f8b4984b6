"""Check-in on the day: who has come. The desk checks players in and out
(`set_checked_in`, at the desk `desk_check_in` while the desk is open); a player may check
themselves in from their private link while the organiser allows it (`self_check_in`). The
organiser opens and closes the desk (`set_desk_open`) and allows or stops self check-in
(`set_self_check_in`). Every change is kept in the audit trail (an import's
`restore_check_in` aside: it restores the day as the archive recorded it).

The desk finds a player from the text of their private link (`player_for_link`: the whole
address or the bare secret, scanned from its QR code) and counts who has come
(`check_in_counts`)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models import PLAYER_KEY_LENGTH, AuditEntry, Player, Tournament
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
    nothing and records nothing. A withdrawn player is not checked in (but may be checked
    out). `source` says where it was done ("desk", "qr", "link", "api") for the audit
    trail."""
    player = _locked(player)
    if (player.checked_in_at is not None) == checked_in:
        return player
    if checked_in and player.withdrawn:
        raise ValidationError(
            _(
                "%(name)s is marked absent or withdrawn: a player who came after all is "
                "recorded with “Arrived late” on the Attendance page, which checks them in."
            )
            % {"name": player.name},
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


@transaction.atomic
def desk_check_in(
    player: Player,
    checked_in: bool,
    *,
    actor: User | AnonymousUser | None,
    source: str = "desk",
) -> Player:
    """The check-in desk checks `player` in or out (`set_checked_in`): only while the organiser
    has the desk open."""
    tournament = _locked_tournament(player.tournament_id)
    if not tournament.check_in_open:
        raise ValidationError(
            _("The check-in desk is closed: open it to check players in or out."),
            code="desk_closed",
        )
    return set_checked_in(player, checked_in, actor=actor, source=source)


def _locked_tournament(pk: int) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=pk)


@transaction.atomic
def set_desk_open(
    tournament: Tournament, open: bool, *, actor: User | AnonymousUser | None
) -> Tournament:
    """Open the check-in desk (or close it, with `open` False). Doing what is already done
    changes nothing and records nothing."""
    return _set_flag(_locked_tournament(tournament.pk), "check_in_open", open, actor=actor)


@transaction.atomic
def set_self_check_in(
    tournament: Tournament, allowed: bool, *, actor: User | AnonymousUser | None
) -> Tournament:
    """Allow players to check themselves in from their private link (or stop it, with
    `allowed` False). Not allowed again once check-in is closed; stopping always is."""
    locked = _locked_tournament(tournament.pk)
    if allowed and not locked.self_check_in and locked.check_in_closed_at is not None:
        raise ValidationError(
            _("Check-in is closed: players can no longer check themselves in."),
            code="check_in_closed",
        )
    return _set_flag(locked, "self_check_in", allowed, actor=actor)


def _set_flag(
    locked: Tournament, field: str, value: bool, *, actor: User | AnonymousUser | None
) -> Tournament:
    """Set the tournament's check-in flag `field` (the tournament locked) to `value`."""
    if getattr(locked, field) == value:
        return locked
    before = {field: getattr(locked, field)}
    setattr(locked, field, value)
    locked.save(update_fields=[field])
    record(locked, AuditEntry.Action.CHECK_IN, actor=actor, before=before, after={field: value})
    note_change(locked.pk)
    return locked


@transaction.atomic
def restore_check_in(
    tournament: Tournament,
    *,
    desk_open: bool,
    self_check_in: bool,
    closed_at: datetime | None,
    players: Iterable[tuple[Player, datetime | None, int | None]],
) -> None:
    """Set check-in as an archive records it, in two statements whatever the number of
    players: the desk open or not, self check-in allowed or not, when check-in was closed
    (`attendance.close_check_in`), and for each of `players` (player, checked in at, first
    round) when they checked in and the round a late arrival joins from (`arrive_late`).
    The moments are the archive's, and nothing is audited: the import restores the day as it
    was, nobody checks in now."""
    tournament.check_in_open = desk_open
    tournament.self_check_in = self_check_in
    tournament.check_in_closed_at = closed_at
    tournament.save(update_fields=["check_in_open", "self_check_in", "check_in_closed_at"])
    changed = []
    for player, checked_in_at, joins_from_round in players:
        player.checked_in_at = checked_in_at
        player.joins_from_round = joins_from_round
        changed.append(player)
    Player.objects.bulk_update(changed, ["checked_in_at", "joins_from_round"])


@dataclass(frozen=True)
class CheckInCounts:
    """Who has come, at a glance. Withdrawn players count in `withdrawn` only; substitutes in
    `substitutes` and, once checked in, `substitutes_ready`; `checked_in`, `missing` and `late`
    count the other players (late: not here and joining from a later round)."""

    checked_in: int
    missing: int
    late: int
    substitutes: int
    substitutes_ready: int
    withdrawn: int

    @property
    def expected(self) -> int:
        """The players (not substitutes) expected now: checked in or missing."""
        return self.checked_in + self.missing


def check_in_counts(tournament: Tournament | int) -> CheckInCounts:
    """The counts of `tournament`'s players, in one query."""
    present = Q(withdrawn_from_round__isnull=True)
    here = Q(checked_in_at__isnull=False)
    regular = present & Q(substitute=False)
    substitute = present & Q(substitute=True)
    later = Q(joins_from_round__isnull=False)
    counts = Player.objects.filter(
        tournament_id=tournament if isinstance(tournament, int) else tournament.pk
    ).aggregate(
        checked_in=Count("pk", filter=regular & here),
        missing=Count("pk", filter=regular & ~here & ~later),
        late=Count("pk", filter=regular & ~here & later),
        substitutes=Count("pk", filter=substitute),
        substitutes_ready=Count("pk", filter=substitute & here),
        withdrawn=Count("pk", filter=~present),
    )
    return CheckInCounts(**counts)


# A private link's secret as its address holds it: URL-safe characters, longer than any
# player's key (so that a key typed at the desk is never taken for one).
LINK_SECRET = re.compile(rf"[A-Za-z0-9_-]{{{PLAYER_KEY_LENGTH + 1},200}}")
# The secret in a link's address: /p/<secret>/, with or without the site before it.
LINK_PATH = re.compile(r"(?:^|/)p/([^/?#\s]+)/?(?:[?#].*)?$")


class NotALink(Exception):
    """The text is not a player's private link at all (an address of another kind)."""


def link_secret(text: str) -> str | None:
    """The secret of a private link given as `text`: its whole address (`.../p/<secret>/`)
    or the bare secret. None when `text` does not look like a link; NotALink when it is an
    address, but not a player's link."""
    text = text.strip()
    if LINK_SECRET.fullmatch(text):
        return text
    if "/" not in text:
        return None
    match = LINK_PATH.search(text)
    if match is None or not LINK_SECRET.fullmatch(match[1]):
        raise NotALink(text)
    return match[1]


def player_for_link(tournament: Tournament, text: str) -> Player | None:
    """The player of `tournament` whose private link is `text` (its whole address or the bare
    secret), or None: another tournament's link, a link replaced since, or any other text."""
    try:
        secret = link_secret(text)
    except NotALink:
        return None
    if secret is None:
        return None
    digest = hashlib.sha256(secret.encode()).hexdigest()
    return Player.objects.filter(tournament=tournament, link_digest=digest).first()
