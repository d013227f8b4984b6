"""Who plays which round: settling the field when check-in closes, then absences and late
arrivals round by round.

A player plays the rounds from `joins_from_round` (from round 1 when empty) up to, not
including, `withdrawn_from_round` (for ever when empty): one stretch of rounds, read by
`Player.plays_in` and `Player.objects.playing_in`. Substitutes are players like the others whose
stretch the organiser sets: at most three play in a round, to fill the last table (EMA).

The decisions this module takes:

- **Closing check-in** (`close_check_in`) is one decision. Regular players not checked in are
  absent: withdrawn from round 1. The organiser brings in the substitutes that fill the last
  table (checked-in substitutes are offered first) or withdraws checked-in players; the
  substitutes not brought in stay on the bench (withdrawn from round 1, ready to be brought in
  later). The field of round 1 and of every later round must then be a multiple of four with at
  most three substitutes, or nothing is done and the message says how many to add or remove.
  Refused once round 1 is in play. `reopen_check_in` undoes it while round 1 is a draft (or not
  made yet): every player the close marked gets back what they had, unless changed since.
- **An absentee who arrives later** is a late arrival (`arrive_late`): they play from a round not
  yet in play on (`joins_from_round`, their absence cleared), checked in at the same time. A
  substitute may step out from that round to keep the field a multiple of four.
- **An absence from round k on** (`absent_from`): the player is withdrawn from round k; a
  substitute may be brought in from round k.
- **A player has one stretch of rounds**: one who left may come back while the rounds they
  missed are in play or over (they then play from the round they come back), not while a
  round between is still to be played; the message says which round to choose.
- **Seatings**: rounds in play or finished never change. A later round that is seated, whether
  a draft or published, is fitted with as few changed seats as possible: each arriving player
  takes the seat of a leaving one (the late player the seat of the substitute who steps out).
  When as many leave as arrive, that is all; otherwise a draft round is seated again by the
  seating engine (`seat_round`: the rounds before it kept as they are, its separations and
  meetings counted), or loses its tables when the engine cannot seat it (seat it again on its
  page or with the seating plan), and a published round refuses the change (put it back to
  draft first, or choose a later round).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from datetime import datetime

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.domain.names import natural_key
from tournament.models import AuditEntry, Player, Round, Seat, Table, Tournament
from tournament.services.audit import record
from tournament.services.live import note_change
from tournament.services.seating_plan import seat_round

Status = Round.Status
#: Rounds whose seating and field never change again.
IN_PLAY = (Status.PLAYING, Status.FINISHED)
#: The most substitutes that play in one round: they fill the last table (EMA).
MOST_SUBSTITUTES = 3

Actor = User | AnonymousUser | None


@dataclass
class Outcome:
    """What a change did to the seatings of the rounds after it."""

    #: Rounds whose seats were changed in place (an arriving player in a leaving one's seat).
    refitted: list[int] = field(default_factory=list)
    #: Draft rounds seated again by the seating engine (their field changed size).
    reseated: list[int] = field(default_factory=list)
    #: Draft rounds whose tables were removed because the engine could not seat them again
    #: (a field not a multiple of four, the seating plan being generated): seat them again.
    unseated: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Proposal:
    """What the close-check-in screen offers."""

    closed_at: datetime | None
    #: Regular players who would play round 1 and are checked in, and those who are not.
    checked_in: list[Player]
    missing: list[Player]
    #: Substitutes who may be brought in: checked-in ones first, then the others.
    substitutes: list[Player]
    #: Substitutes needed to fill the last table, or players to withdraw to empty it.
    to_add: int
    to_remove: int
    #: The substitutes suggested (the first `to_add` available), empty when too few.
    suggested: list[Player]
    #: Why check-in cannot be closed now ("" when it can).
    blocked: str


@dataclass(frozen=True)
class RoundField:
    """Who plays a round not yet in play."""

    number: int
    status: str  # a Round.Status, or "" for a planned round not made yet
    regulars: list[Player]
    substitutes: list[Player]
    #: Regular players who do not play it: absent or withdrawn, or arriving later.
    away: list[Player]
    #: Players whose first round it is (late arrivals, substitutes brought in).
    joining: list[Player]

    @property
    def size(self) -> int:
        return len(self.regulars) + len(self.substitutes)

    @property
    def full(self) -> bool:
        return self.size % 4 == 0 and len(self.substitutes) <= MOST_SUBSTITUTES


# --- reads -------------------------------------------------------------------------------


def _sorted(players: Iterable[Player]) -> list[Player]:
    return sorted(players, key=lambda player: natural_key(player.key))


def first_open_round(rounds: Iterable[Round]) -> int:
    """The first round whose field may still change: the one after the last in play or over."""
    return max((r.number for r in rounds if r.status in IN_PLAY), default=0) + 1


def last_round(tournament: Tournament, rounds: Iterable[Round]) -> int:
    """The last round there is or is planned; without a plan, at least the first open one.
    Below the first open round when every planned round is in play or over."""
    rounds = list(rounds)
    last = max([tournament.planned_rounds or 0] + [r.number for r in rounds])
    return last if tournament.planned_rounds else max(last, first_open_round(rounds))


def proposal(tournament: Tournament) -> Proposal:
    """What closing check-in would offer now."""
    players = list(tournament.players.all())
    rounds = list(tournament.rounds.all())
    regulars = [p for p in players if not p.substitute and p.plays_in(1)]
    checked_in = _sorted(p for p in regulars if p.checked_in_at is not None)
    missing = _sorted(p for p in regulars if p.checked_in_at is None)
    substitutes = sorted(
        (p for p in players if p.substitute),
        key=lambda p: (p.checked_in_at is None, natural_key(p.key)),
    )
    to_add = -len(checked_in) % 4
    blocked = ""
    if tournament.check_in_closed_at is not None:
        blocked = str(_("Check-in is closed already."))
    elif first_open_round(rounds) > 1:
        blocked = str(_("Round 1 is in play: check-in can no longer be closed."))
    return Proposal(
        closed_at=tournament.check_in_closed_at,
        checked_in=checked_in,
        missing=missing,
        substitutes=substitutes,
        to_add=to_add,
        to_remove=len(checked_in) % 4,
        suggested=substitutes[:to_add] if to_add <= len(substitutes) else [],
        blocked=blocked,
    )


def rounds_ahead(tournament: Tournament) -> list[RoundField]:
    """Who plays each round not yet in play, up to the last round there is or is planned."""
    players = _sorted(tournament.players.all())
    rounds = {r.number: r for r in tournament.rounds.all()}
    first = first_open_round(rounds.values())
    fields = []
    for number in range(first, last_round(tournament, rounds.values()) + 1):
        playing = [p for p in players if p.plays_in(number)]
        fields.append(
            RoundField(
                number=number,
                status=rounds[number].status if number in rounds else "",
                regulars=[p for p in playing if not p.substitute],
                substitutes=[p for p in playing if p.substitute],
                away=[p for p in players if not p.substitute and not p.plays_in(number)],
                joining=[p for p in playing if number > 1 and not p.plays_in(number - 1)],
            )
        )
    return fields


# --- the steps of a change ------------------------------------------------------------------


def _state(player: Player) -> dict[str, int | None]:
    return {
        "withdrawn_from_round": player.withdrawn_from_round,
        "joins_from_round": player.joins_from_round,
    }


class _Change:
    """The players of a tournament, locked, and what a change does to their stretches."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        self.rounds = {
            r.number: r for r in Round.objects.select_for_update().filter(tournament=tournament)
        }
        self.players = {
            p.key: p for p in Player.objects.select_for_update().filter(tournament=tournament)
        }
        self.before = {key: _state(p) for key, p in self.players.items()}
        self.first_open = first_open_round(self.rounds.values())
        self.last = last_round(self.tournament, self.rounds.values())

    def player(self, key: str) -> Player:
        try:
            return self.players[key]
        except KeyError:
            raise ValidationError(
                _("There is no player %(key)s in this tournament."),
                code="unknown_player",
                params={"key": key},
            ) from None

    def substitute(self, key: str) -> Player:
        player = self.player(key)
        if not player.substitute:
            raise ValidationError(
                _("%(name)s is not a substitute."),
                code="not_substitute",
                params={"name": str(player)},
            )
        return player

    def open_round(self, number: int) -> None:
        """Refuse a round in play or over, or beyond the last round."""
        if number < self.first_open:
            raise ValidationError(
                _(
                    "Round %(round)s is in play or over: its players no longer change. The "
                    "earliest round that can change is round %(first)s."
                ),
                code="round_in_play",
                params={"round": number, "first": self.first_open},
            )
        if number > self.last:
            raise ValidationError(
                _("There is no round %(round)s: the last round is round %(last)s."),
                code="no_such_round",
                params={"round": number, "last": self.last},
            )

    def leave(self, player: Player, number: int) -> None:
        """`player` plays no round from `number` on."""
        if not player.plays_in(number):
            raise ValidationError(
                _("%(name)s does not play in round %(round)s."),
                code="not_playing",
                params={"name": str(player), "round": number},
            )
        player.withdrawn_from_round = number

    def join(self, player: Player, number: int) -> None:
        """`player` plays every round from `number` on, the rounds before it as they were."""
        if player.plays_in(number):
            raise ValidationError(
                _("%(name)s plays in round %(round)s already."),
                code="already_playing",
                params={"name": str(player), "round": number},
            )
        if number > 1 and player.plays_in(number - 1):
            # Back in time after all: the absence from `number` on is undone.
            player.withdrawn_from_round = None
            return
        if not any(player.plays_in(n) for n in range(self.first_open, number)):
            # Joins from `number`: the rounds before it in play or over keep what they hold.
            player.withdrawn_from_round = None
            player.joins_from_round = number if number >= 2 else None
            return
        played = max(n for n in range(self.first_open, number) if player.plays_in(n))
        raise ValidationError(
            _(
                "%(name)s plays round %(played)s and misses round %(missed)s: a player plays one "
                "stretch of rounds. Let them play from round %(missed)s on, or record their "
                "return once round %(last_missed)s is in play."
            ),
            code="two_stretches",
            params={
                "name": str(player),
                "played": played,
                "missed": played + 1,
                "last_missed": number - 1,
            },
        )

    def field(self, number: int) -> set[str]:
        """The keys of the players seated in round `number`, as `players_to_seat` takes them:
        the regular players, then the substitutes that fill the last table."""
        playing = [p for key, p in sorted(self.players.items()) if p.plays_in(number)]
        regulars = [p.key for p in playing if not p.substitute]
        substitutes = [p.key for p in playing if p.substitute]
        return {*regulars, *substitutes[: -len(regulars) % 4]}

    def check_field(self, start: int) -> None:
        """Every round from `start` to the last has a field of tables of four and at most three
        substitutes."""
        for number in range(start, self.last + 1):
            playing = [p for p in self.players.values() if p.plays_in(number)]
            substitutes = sum(1 for p in playing if p.substitute)
            if substitutes > MOST_SUBSTITUTES:
                raise ValidationError(
                    _(
                        "Round %(round)s would have %(count)s substitutes: at most three play, to "
                        "fill the last table. Let %(extra)s of them step out."
                    ),
                    code="too_many_substitutes",
                    params={
                        "round": number,
                        "count": substitutes,
                        "extra": substitutes - MOST_SUBSTITUTES,
                    },
                )
            if len(playing) % 4:
                raise ValidationError(
                    _(
                        "Round %(round)s would have %(count)s players, not a multiple of four: "
                        "bring in %(add)s substitutes or withdraw %(remove)s players."
                    ),
                    code="field_not_multiple_of_four",
                    params={
                        "round": number,
                        "count": len(playing),
                        "add": -len(playing) % 4,
                        "remove": len(playing) % 4,
                    },
                )

    def changed(self) -> dict[str, tuple[dict[str, int | None], dict[str, int | None]]]:
        return {
            key: (self.before[key], _state(p))
            for key, p in self.players.items()
            if _state(p) != self.before[key]
        }

    def save(self, start: int, actor: Actor) -> Outcome:
        """Store the changed players, then fit the seated rounds from `start` on."""
        for key in self.changed():
            self.players[key].save(update_fields=["withdrawn_from_round", "joins_from_round"])
        return self.refit(start, actor)

    def refit(self, start: int, actor: Actor) -> Outcome:
        outcome = Outcome()
        for number, round in sorted(self.rounds.items()):
            if number < start or round.status not in (Status.DRAFT, Status.SEATED):
                continue
            seats = {
                seat.player.key: seat
                for seat in Seat.objects.filter(round=round).select_related("player", "table")
            }
            if not seats:
                continue
            playing = self.field(number)
            leaving = sorted(set(seats) - playing, key=natural_key)
            arriving = sorted(playing - set(seats), key=natural_key)
            if not leaving and not arriving:
                continue
            before = _snapshot(seats.values(), number)
            if len(leaving) == len(arriving):
                for old, new in zip(leaving, arriving, strict=True):
                    seat = seats.pop(old)
                    seat.player = self.players[new]
                    seat.save(update_fields=["player"])
                    seats[new] = seat
                outcome.refitted.append(number)
                after = _snapshot(seats.values(), number)
            elif round.status == Status.DRAFT:
                # The seating engine seats the draft round again, keeping the rounds before
                # it as they are; it audits that itself.
                try:
                    if not isinstance(actor, User):
                        raise ValidationError("seating needs an organiser", code="no_actor")
                    seat_round(round=round, actor=actor)
                except ValidationError:
                    Table.objects.filter(round=round).delete()
                    outcome.unseated.append(number)
                    after = {"round": number, "tables": {}}
                else:
                    outcome.reseated.append(number)
                    continue
            else:
                raise ValidationError(
                    _(
                        "Round %(round)s is published and its tables cannot be kept: "
                        "%(leaving)s would leave and %(arriving)s arrive. Put round %(round)s "
                        "back to draft first, or choose a later round."
                    ),
                    code="published_round_changes",
                    params={
                        "round": number,
                        "leaving": len(leaving),
                        "arriving": len(arriving),
                    },
                )
            record(
                self.tournament,
                AuditEntry.Action.SEATING_CHANGED,
                actor=actor,
                before=before,
                after=after,
            )
        return outcome

    def audit(self, action: str, actor: Actor, what: dict) -> None:
        changed = self.changed()
        record(
            self.tournament,
            action,
            actor=actor,
            before={"players": {key: old for key, (old, _new) in changed.items()}},
            after={**what, "players": {key: new for key, (_old, new) in changed.items()}},
        )
        note_change(self.tournament.pk)


def _snapshot(seats: Iterable[Seat], number: int) -> dict:
    tables: dict[str, dict[str, str]] = {}
    for seat in seats:
        tables.setdefault(str(seat.table.number), {})[seat.starting_wind] = seat.player.key
    return {"round": number, "tables": tables}


def _unique(keys: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(str(key).strip() for key in keys if str(key).strip()))


# --- the services ----------------------------------------------------------------------------


@transaction.atomic
def close_check_in(
    tournament: Tournament,
    *,
    actor: Actor,
    substitutes: Collection[str] = (),
    withdraw: Collection[str] = (),
) -> Outcome:
    """Close check-in: the regular players not checked in are absent from round 1, the
    substitutes `substitutes` (keys) play from round 1 and the others wait on the bench, the
    checked-in players `withdraw` (keys) are withdrawn. Refused, changing nothing, when the
    field of a round would not be a multiple of four (or hold more than three substitutes),
    when round 1 is in play, or when check-in is closed already."""
    change = _Change(tournament)
    if change.tournament.check_in_closed_at is not None:
        raise ValidationError(
            _("Check-in is closed already. Reopen it first to decide again."),
            code="check_in_closed",
        )
    if change.first_open > 1:
        raise ValidationError(
            _("Round 1 is in play: check-in can no longer be closed."), code="round_in_play"
        )
    chosen = {change.substitute(key).key for key in _unique(substitutes)}
    withdrawn = [change.player(key) for key in _unique(withdraw)]
    for player in withdrawn:
        if player.substitute:
            raise ValidationError(
                _(
                    "%(name)s is a substitute: leave them out of the substitutes brought in "
                    "instead of withdrawing them."
                ),
                code="withdraw_substitute",
                params={"name": str(player)},
            )
        change.leave(player, 1)
    absent = []
    for player in _sorted(change.players.values()):
        if player.substitute:
            if player.key in chosen and not player.plays_in(1):
                change.join(player, 1)
            elif player.key not in chosen and player.plays_in(1):
                change.leave(player, 1)
        elif player.plays_in(1) and player.checked_in_at is None:
            change.leave(player, 1)
            absent.append(player.key)
    change.check_field(1)
    outcome = change.save(1, actor)
    change.tournament.check_in_closed_at = timezone.now()
    change.tournament.save(update_fields=["check_in_closed_at"])
    change.audit(
        AuditEntry.Action.CHECK_IN,
        actor,
        {
            "closed": True,
            "absent": absent,
            "withdrawn": [p.key for p in withdrawn],
            "substitutes": sorted(chosen, key=natural_key),
        },
    )
    return outcome


@transaction.atomic
def reopen_check_in(tournament: Tournament, *, actor: Actor) -> Outcome:
    """Undo closing check-in while round 1 is a draft (or not made yet): check-in is open
    again and every player the close marked gets back what they had before it, unless their
    rounds were changed since."""
    change = _Change(tournament)
    if change.tournament.check_in_closed_at is None:
        raise ValidationError(_("Check-in is open already."), code="check_in_open")
    first = change.rounds.get(1)
    if first is not None and first.status != Status.DRAFT:
        raise ValidationError(
            _(
                "Round 1 is %(status)s: check-in can be reopened only while round 1 is a draft. "
                "Record absences and late arrivals instead."
            ),
            code="round_published",
            params={"status": first.get_status_display().lower()},
        )
    closing = (
        AuditEntry.objects.filter(
            tournament=change.tournament, action=AuditEntry.Action.CHECK_IN, after__closed=True
        )
        .order_by("-pk")
        .first()
    )
    if closing is not None:
        before = (closing.before or {}).get("players", {})
        after = (closing.after or {}).get("players", {})
        for key, state in after.items():
            player = change.players.get(key)
            if player is not None and _state(player) == state and key in before:
                player.withdrawn_from_round = before[key]["withdrawn_from_round"]
                player.joins_from_round = before[key]["joins_from_round"]
    outcome = change.save(1, actor)
    change.tournament.check_in_closed_at = None
    change.tournament.save(update_fields=["check_in_closed_at"])
    change.audit(AuditEntry.Action.CHECK_IN, actor, {"closed": False})
    return outcome


@transaction.atomic
def arrive_late(
    player: Player, *, from_round: int, actor: Actor, substitute: str | None = None
) -> Outcome:
    """`player` has arrived: they play from round `from_round` on (a round not yet in play),
    and are checked in. The substitute `substitute` (a key), if given, steps out from that round
    so that the field stays a multiple of four. Rounds before `from_round` keep their field;
    the seated rounds from it on are fitted (see the module's notes)."""
    change = _Change(player.tournament)
    arriving = change.player(player.key)
    change.open_round(from_round)
    change.join(arriving, from_round)
    if substitute:
        out = change.substitute(substitute)
        if out.key == arriving.key:
            raise ValidationError(_("Choose another substitute to step out."), code="same_player")
        change.leave(out, from_round)
    change.check_field(from_round)
    if arriving.checked_in_at is None:
        arriving.checked_in_at = timezone.now()
        arriving.save(update_fields=["checked_in_at"])
    outcome = change.save(from_round, actor)
    change.audit(
        AuditEntry.Action.ATTENDANCE,
        actor,
        {"late": arriving.key, "round": from_round, "substitute_out": substitute or None},
    )
    return outcome


@transaction.atomic
def absent_from(
    player: Player, round_number: int, *, actor: Actor, substitute: str | None = None
) -> Outcome:
    """`player` plays no round from `round_number` on (a round not yet in play); the
    substitute `substitute` (a key), if given, plays from that round instead so that the field
    stays a multiple of four. A player back later is a late arrival (`arrive_late`)."""
    change = _Change(player.tournament)
    leaving = change.player(player.key)
    change.open_round(round_number)
    change.leave(leaving, round_number)
    if substitute:
        stand_in = change.substitute(substitute)
        if stand_in.key == leaving.key:
            raise ValidationError(_("Choose another substitute to come in."), code="same_player")
        change.join(stand_in, round_number)
    change.check_field(round_number)
    outcome = change.save(round_number, actor)
    change.audit(
        AuditEntry.Action.ATTENDANCE,
        actor,
        {"absent": leaving.key, "round": round_number, "substitute_in": substitute or None},
    )
    return outcome
