"""Each player's private link: an address with a secret in it, no account and no password.

Only the SHA-256 of the secret is stored (`Player.link_digest`): whoever holds the link is the
player, and a stolen database gives no link away. A new link replaces the old one; a revoked
link opens nothing. Issuing and revoking are kept in the audit trail, never the secret nor its
digest.

From the link a player may call a referee to their table (`call_referee`); the organiser's
board lists the open calls until someone answers them (`answer_call`).
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models import AuditEntry, Player, RefereeCall, Round, Seat, Table, Tournament
from tournament.services.audit import record
from tournament.services.live import note_change

# Bytes of randomness in a secret: 24 bytes are 32 characters of the URL-safe alphabet.
SECRET_BYTES = 24
# A table may call again this many seconds after its last call, once that one is answered.
CALL_INTERVAL = timedelta(seconds=60)

Actor = User | AnonymousUser | None


def digest_of(secret: str) -> str:
    """What is stored of `secret`: the hex SHA-256 of the text as it appears in the address."""
    return hashlib.sha256(secret.encode()).hexdigest()


def _new_secret() -> str:
    return secrets.token_urlsafe(SECRET_BYTES)


def _locked(player: Player) -> Player:
    return (
        Player.objects.select_for_update(of=("self",))
        .select_related("tournament")
        .get(pk=player.pk)
    )


@transaction.atomic
def issue_link(player: Player, *, actor: Actor) -> str:
    """A new private link for `player`: returns its secret, which is shown this once and
    stored only as its digest. The player's previous link, if any, opens nothing any more."""
    player = _locked(player)
    had_one = bool(player.link_digest)
    secret = _new_secret()
    player.link_digest = digest_of(secret)
    player.link_issued_at = timezone.now()
    player.save(update_fields=["link_digest", "link_issued_at"])
    record(
        player.tournament,
        AuditEntry.Action.PLAYER_LINK,
        actor=actor,
        before={"player": player.key, "link": had_one},
        after={"player": player.key, "link": True, "replaced": had_one},
    )
    return secret


@transaction.atomic
def first_link(player: Player, *, actor: Actor) -> str | None:
    """A private link for `player` if they have none yet (its secret, shown this once), else
    None: an existing link is never replaced here. For the registration page, which shows a
    newly accepted player their link once, in the browser they registered from."""
    if _locked(player).link_digest:
        return None
    return issue_link(player, actor=actor)


@transaction.atomic
def revoke_link(player: Player, *, actor: Actor) -> Player:
    """Take `player`'s private link away: it opens nothing any more. A player without one is
    refused (code no_link)."""
    player = _locked(player)
    if not player.link_digest:
        raise ValidationError(
            _("%(name)s has no private link to revoke.") % {"name": player.name},
            code="no_link",
        )
    player.link_digest = ""
    player.link_issued_at = None
    player.save(update_fields=["link_digest", "link_issued_at"])
    record(
        player.tournament,
        AuditEntry.Action.PLAYER_LINK,
        actor=actor,
        before={"player": player.key, "link": True},
        after={"player": player.key, "link": False},
    )
    return player


@transaction.atomic
def issue_links(
    tournament: Tournament, *, actor: Actor, only_missing: bool = True
) -> dict[Player, str]:
    """New private links for the whole field: for the players who have none, or with
    `only_missing` False for every player (their old links stop working). Returns each
    player's new secret, in the order of their keys; one audit entry lists the keys."""
    players = list(
        Player.objects.select_for_update(of=("self",))
        .filter(tournament=tournament)
        .select_related("tournament")
        .order_by("pk")
    )
    if only_missing:
        players = [player for player in players if not player.link_digest]
    now = timezone.now()
    made: dict[Player, str] = {}
    replaced = []
    for player in players:
        secret = _new_secret()
        if player.link_digest:
            replaced.append(player.key)
        player.link_digest = digest_of(secret)
        player.link_issued_at = now
        made[player] = secret
    Player.objects.bulk_update(players, ["link_digest", "link_issued_at"])
    if made:
        record(
            tournament,
            AuditEntry.Action.PLAYER_LINK,
            actor=actor,
            before={"players": replaced} if replaced else None,
            after={"players": [player.key for player in made], "link": True},
        )
    return dict(sorted(made.items(), key=lambda item: _key_order(item[0].key)))


def _key_order(key: str) -> tuple[int, int | str]:
    return (0, int(key)) if key.isdigit() else (1, key)


def player_for_secret(secret: str, *, queryset: QuerySet[Player] | None = None) -> Player | None:
    """The player whose private link holds `secret`, with their tournament; None for a wrong
    or revoked one. The same work whatever the secret: one hash, one query by the unique
    index. `queryset` may add annotations (a page's live tag) to that one query."""
    digest = digest_of(secret)
    players = Player.objects.all() if queryset is None else queryset
    return players.select_related("tournament").filter(link_digest=digest).order_by().first()


def mark_seen(player: Player, at: datetime | None = None) -> None:
    """Keep that the player looked at their page now (`at`): what changes after is marked on
    it next time. Not audited: it changes nothing anybody relies on."""
    Player.objects.filter(pk=player.pk).update(link_seen_at=at or timezone.now())


def current_seat(player: Player) -> Seat | None:
    """The player's seat in the round in play (the latest, were there several), with its table
    and round; None when they play in none now."""
    return (
        Seat.objects.filter(player=player, round__status=Round.Status.PLAYING)
        .select_related("table__round")
        .order_by("-round__number")
        .first()
    )


@transaction.atomic
def call_referee(player: Player) -> RefereeCall:
    """The player calls a referee to their table in the round in play. Refused when they play
    in no round now (code not_playing), while their table's call is still open (call_open), or
    within CALL_INTERVAL of its last call (too_soon). Kept in the audit trail without an
    actor; the organiser's board shows it at once."""
    seat = current_seat(player)
    if seat is None:
        raise ValidationError(
            _("You are not playing at a table now: there is no table to call a referee to."),
            code="not_playing",
        )
    table = Table.objects.select_for_update(of=("self",)).get(pk=seat.table_id)
    last = RefereeCall.objects.filter(table=table).order_by("-called_at", "-pk").first()
    now = timezone.now()
    if last is not None and last.answered_at is None:
        raise ValidationError(
            _("A referee has been called to table %(table)s already: please wait for them.")
            % {"table": table.number},
            code="call_open",
        )
    if last is not None and now - last.called_at < CALL_INTERVAL:
        raise ValidationError(
            _("Table %(table)s called a referee less than a minute ago: please wait a moment.")
            % {"table": table.number},
            code="too_soon",
        )
    call = RefereeCall.objects.create(
        tournament_id=player.tournament_id, table=table, player=player, called_at=now
    )
    record(
        player.tournament_id,
        AuditEntry.Action.REFEREE_CALL,
        actor=None,
        table=table,
        after={
            "round": seat.table.round.number,
            "table": table.number,
            "player": player.key,
            "answered": False,
        },
    )
    note_change(player.tournament_id)
    return call


@transaction.atomic
def answer_call(call: RefereeCall, *, actor: Actor) -> RefereeCall:
    """Someone went to the table of `call`: it leaves the board. Answering one already
    answered is refused (code answered)."""
    call = (
        RefereeCall.objects.select_for_update(of=("self",))
        .select_related("table__round")
        .get(pk=call.pk)
    )
    if call.answered_at is not None:
        raise ValidationError(
            _("The call from table %(table)s has been answered already.")
            % {"table": call.table.number},
            code="answered",
        )
    call.answered_at = timezone.now()
    call.answered_by = actor if isinstance(actor, User) else None
    call.save(update_fields=["answered_at", "answered_by"])
    facts = {"round": call.table.round.number, "table": call.table.number}
    record(
        call.tournament_id,
        AuditEntry.Action.REFEREE_CALL,
        actor=actor,
        table=call.table,
        before={**facts, "answered": False},
        after={**facts, "answered": True},
    )
    note_change(call.tournament_id)
    return call
