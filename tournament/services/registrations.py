"""Self-registration: players register on the tournament's public page, the organiser decides.

Registration is open while the tournament's `registration` is not "off" and the time is between
`registration_opens` and `registration_closes` (either may be empty: no bound).

The field is the tournament's players (not withdrawn), whether they registered themselves or
the organiser entered them; `registration_cap` (empty: none) is how many it takes. A new
registration, in order of arrival:

- "instant": accepted at once while the field has a free place, else on the waiting list;
- "approval": pending (awaiting the organiser) while the field and the pending registrations
  leave a place, else on the waiting list. A pending registration holds its place until the
  organiser decides.

An accepted registration is a player of the tournament (the next free numeric key), made by
the players service, so its name, country and EMA number are tidied and checked as an
organiser's entry is.

The organiser accepts (a pending or waiting registration: refused with `field_full` when the
field has no free place, so the cap holds; raise the cap first), rejects, moves one to the
waiting list or back into the field, edits one, or withdraws one. Rejecting, withdrawing or
moving an accepted registration removes its player, refused while the player has a seat.

When a place frees before the tournament starts (its first round is seated) because an
accepted or pending registration is rejected or withdrawn, or the cap is raised, the first on
the waiting list takes it: in "instant" mode they are accepted at once; in "approval" mode (and
when registration is off) they become pending, offered to the organiser to accept. Moving a
registration to the waiting list frees a place that nobody takes: the organiser chose a
smaller field.

Duplicates are refused, saying why: an EMA number that another active registration (pending,
accepted, waiting) or a player of the tournament has; the same name and country as one of
those.

Every registration is checked, counted and written with the tournament's row locked, so the
cap holds exactly under concurrent registrations. One address may register at most
`THROTTLE_LIMIT` times an hour in one tournament (generous: at a venue many share one
address); the count is kept in the audit trail as a keyed digest of the address, never the
address itself. Every change is audited (action "registration"; a registration from the public
page has no account behind it); an import's copy of the registrations of the day
(`restore_registrations`) is not a change. The contact is for the organiser only: it is in no audit
entry, no public page and no export.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from tournament.domain.names import clean_ema_number, country_code, country_name, full_name
from tournament.domain.text import storable
from tournament.models import (
    ACTIVE_REGISTRATION,
    AuditEntry,
    Player,
    Registration,
    Round,
    Tournament,
)
from tournament.services.audit import record
from tournament.services.live import note_change
from tournament.services.players import add_player, remove_player, update_player

Status = Registration.Status
Mode = Tournament.RegistrationMode

#: At most this many registrations from one address in one tournament within THROTTLE_WINDOW.
THROTTLE_LIMIT = 10
THROTTLE_WINDOW = timedelta(hours=1)

#: What a registration gives: the name in parts (or whole), where the player is from, contact.
FIELDS = ("name", "family_name", "given_name", "country", "club", "team", "ema_number", "contact")
#: What goes on to the player when a registration is accepted.
PLAYER_FIELDS = ("name", "family_name", "given_name", "country", "club", "team", "ema_number")
SETTINGS = ("registration", "registration_opens", "registration_closes", "registration_cap")

Actor = User | AnonymousUser | None


def max_length(name: str) -> int:
    """The most characters the registration's text field `name` holds."""
    field = Registration._meta.get_field(name)
    assert isinstance(field, models.CharField) and field.max_length is not None
    return field.max_length


# --- Reading ----------------------------------------------------------------------------------


def is_open(tournament: Tournament, now: datetime | None = None) -> bool:
    """Whether the public may register now."""
    now = now or timezone.now()
    if tournament.registration == Mode.OFF:
        return False
    if tournament.registration_opens is not None and now < tournament.registration_opens:
        return False
    return tournament.registration_closes is None or now < tournament.registration_closes


def started(tournament: Tournament) -> bool:
    """Whether the tournament has started: a round is seated, in play or finished."""
    return tournament.rounds.exclude(status=Round.Status.DRAFT).exists()


def field_size(tournament: Tournament) -> int:
    """The players of the tournament who play (not withdrawn)."""
    return tournament.players.filter(withdrawn_from_round__isnull=True).count()


@dataclass(frozen=True)
class Counts:
    """The registrations of a tournament at a glance."""

    accepted: int
    pending: int
    waiting: int
    rejected: int
    withdrawn: int
    field: int  # the players who play, registered or entered by the organiser
    cap: int | None

    @property
    def more_for_full_tables(self) -> int:
        """How many more players would make full tables of four (0: they are full)."""
        return (-self.field) % 4

    @property
    def fewer_for_full_tables(self) -> int:
        return self.field % 4

    @property
    def free_places(self) -> int | None:
        return None if self.cap is None else max(0, self.cap - self.field)


def counts(tournament: Tournament) -> Counts:
    """Two queries."""
    by_status = dict.fromkeys(Status.values, 0)
    for row in tournament.registrations.order_by().values("status").annotate(number=Count("pk")):
        by_status[row["status"]] = row["number"]
    return Counts(
        accepted=by_status[Status.ACCEPTED],
        pending=by_status[Status.PENDING],
        waiting=by_status[Status.WAITING],
        rejected=by_status[Status.REJECTED],
        withdrawn=by_status[Status.WITHDRAWN],
        field=field_size(tournament),
        cap=tournament.registration_cap,
    )


def waiting_place(registration: Registration) -> int | None:
    """The registration's place on the waiting list (1: next to get a place), or None."""
    if registration.status != Status.WAITING:
        return None
    ahead = Registration.objects.filter(
        tournament_id=registration.tournament_id, status=Status.WAITING
    ).filter(
        Q(created__lt=registration.created)
        | Q(created=registration.created, pk__lt=registration.pk)
    )
    return ahead.count() + 1


# --- Checking what is given -----------------------------------------------------------------


def _tidy(registration: Registration) -> None:
    """Tidy the fields of `registration` and check them all in one pass, as the players
    service does: the ValidationError names every wrong field at once."""
    errors: dict[str, list[ValidationError]] = {}

    def refuse(field: str, error: ValidationError) -> None:
        errors.setdefault(field, []).append(error)

    for name in FIELDS:
        if not storable(getattr(registration, name)):
            refuse(
                name,
                ValidationError(
                    _("This text holds a character that is not allowed (NUL or a lone surrogate)."),
                    code="bad_character",
                ),
            )
    if errors:
        raise ValidationError(errors)
    for name in ("name", "family_name", "given_name", "club", "team", "contact"):
        setattr(registration, name, " ".join(getattr(registration, name).split()))
    registration.ema_number = clean_ema_number(registration.ema_number)
    code = country_code(registration.country)
    registration.country = registration.country.strip() if code is None else code
    if registration.given_name and not registration.family_name:
        refuse(
            "family_name",
            ValidationError(
                _("Give the family name too, or leave both parts empty."), code="name_required"
            ),
        )
    if not registration.name:
        if registration.family_name:
            registration.name = full_name(registration.family_name, registration.given_name)
        elif not registration.given_name:
            refuse("family_name", ValidationError(_("Give your name."), code="name_required"))
    try:
        registration.full_clean(exclude=["tournament", "player", "status", *errors])
    except ValidationError as error:
        for field, listed in error.error_dict.items():
            errors.setdefault(field, []).extend(listed)
    if errors:
        raise ValidationError(errors)


def _same_name(name: str) -> str:
    return " ".join(name.split()).casefold()


def _refuse_duplicate(registration: Registration) -> None:
    """Refuse a registration whose EMA number, or whose name and country, another active
    registration or a player of the tournament has (the player of this registration and this
    registration itself excepted)."""
    others = Registration.objects.filter(
        tournament_id=registration.tournament_id, status__in=ACTIVE_REGISTRATION
    ).exclude(pk=registration.pk)
    players = Player.objects.filter(tournament_id=registration.tournament_id)
    if registration.player_id is not None:
        players = players.exclude(pk=registration.player_id)
    number = registration.ema_number
    if number and (
        others.filter(ema_number=number).exists() or players.filter(ema_number=number).exists()
    ):
        raise ValidationError(
            {
                "ema_number": ValidationError(
                    _(
                        "Someone with the EMA number %(number)s is registered for this "
                        "tournament already. If that is you, you need not register again; "
                        "otherwise check the number."
                    ),
                    code="duplicate_ema_number",
                    params={"number": number},
                )
            }
        )
    name = _same_name(registration.name)
    for rows in (others, players):
        for other_name in rows.filter(country=registration.country).values_list("name", flat=True):
            if _same_name(other_name) == name:
                raise ValidationError(
                    {
                        "family_name": ValidationError(
                            _(
                                "%(name)s%(from)s is registered for this tournament already. "
                                "If that is you, you need not register again; if you are "
                                "someone else of the same name, ask the organiser."
                            ),
                            code="duplicate_name",
                            params={
                                "name": registration.name,
                                "from": (
                                    _(" from %(country)s")
                                    % {"country": country_name(registration.country)}
                                    if registration.country
                                    else ""
                                ),
                            },
                        )
                    }
                )


# --- Audit ------------------------------------------------------------------------------------


def _snapshot(registration: Registration) -> dict[str, Any]:
    """A registration as the audit trail keeps it: never the contact."""
    snapshot: dict[str, Any] = {
        "registration": registration.pk,
        "name": registration.name,
        "status": registration.status,
    }
    for name in ("country", "club", "team", "ema_number"):
        if getattr(registration, name):
            snapshot[name] = getattr(registration, name)
    if registration.player is not None:
        snapshot["player"] = registration.player.key
    return snapshot


def client_digest(address: str) -> str:
    """A keyed digest of a client's address: what the throttle counts, never the address."""
    key = settings.SECRET_KEY.encode()
    return hmac.new(key, f"registration:{address}".encode(), hashlib.sha256).hexdigest()[:16]


def _audit(
    registration: Registration,
    *,
    actor: Actor,
    before: dict[str, Any] | None,
    **extra: Any,
) -> None:
    record(
        registration.tournament_id,
        AuditEntry.Action.REGISTRATION,
        actor=actor,
        before=before,
        after=_snapshot(registration) | extra,
    )


# --- Places -----------------------------------------------------------------------------------


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _locked_registration(registration: Registration) -> tuple[Tournament, Registration]:
    """The tournament's row, then the registration, both locked and read again: the tournament
    first, as every registration service locks it, so they run one after the other."""
    tournament = _locked(registration.tournament)
    found = (
        Registration.objects.select_for_update(of=("self",))
        .select_related("player")
        .get(pk=registration.pk, tournament=tournament)
    )
    found.tournament = tournament
    return tournament, found


def places_taken(tournament: Tournament) -> int:
    """The places the field and the pending registrations take (pending only count in
    approval mode, where they wait for the organiser with a place kept)."""
    taken = field_size(tournament)
    if tournament.registration != Mode.INSTANT:
        taken += tournament.registrations.filter(status=Status.PENDING).count()
    return taken


def _has_place(tournament: Tournament) -> bool:
    cap = tournament.registration_cap
    return cap is None or places_taken(tournament) < cap


def _next_key(tournament: Tournament) -> str:
    """One more than the largest numeric key of the tournament's players ("1" for the first)."""
    keys = tournament.players.values_list("key", flat=True)
    numbers = [int(key) for key in keys if key.isdigit()]
    return str(max(numbers, default=0) + 1)


def _make_player(registration: Registration) -> None:
    """The accepted registration's player, made by the players service."""
    tournament = registration.tournament
    fields = {name: getattr(registration, name) for name in PLAYER_FIELDS}
    registration.player = add_player(tournament=tournament, key=_next_key(tournament), **fields)


def _drop_player(registration: Registration) -> None:
    """Remove the player of an accepted registration, refused while they have a seat."""
    player = registration.player
    if player is None:
        return
    if player.seats.exists():
        raise ValidationError(
            _(
                "%(name)s is seated in a round, so their place cannot be given up here. Put "
                "another player in that seat first (Change seats on the round page), or "
                "withdraw them on the players page."
            ),
            code="registration_seated",
            params={"name": player.name},
        )
    registration.player = None
    remove_player(player=player)


def _fill_places(tournament: Tournament, *, actor: Actor) -> None:
    """Give the free places to the first on the waiting list, before the tournament starts:
    accepted at once in instant mode, pending (offered to the organiser) otherwise."""
    if started(tournament):
        return
    waiting = tournament.registrations.filter(status=Status.WAITING).order_by("created", "pk")
    for registration in waiting.select_for_update():
        if not _has_place(tournament):
            return
        registration.tournament = tournament
        before = _snapshot(registration)
        registration.status = Status.PENDING
        if tournament.registration == Mode.INSTANT:
            try:
                with transaction.atomic():
                    _make_player(registration)
                registration.status = Status.ACCEPTED
            except ValidationError:
                # A player entered since has its EMA number or key: the organiser decides.
                registration.player = None
        registration.changed = timezone.now()
        registration.save()
        _audit(registration, actor=actor, before=before, reason="place_freed")


# --- The public page --------------------------------------------------------------------------


@transaction.atomic
def register(tournament: Tournament, data: dict[str, Any], *, address: str) -> Registration:
    """A registration from the public page, from the client at `address`, with `data` (the
    names of FIELDS; missing ones empty). Accepted, pending or waiting as the rules of this
    module say; refused with a ValidationError naming the field or the reason."""
    unknown = set(data) - set(FIELDS)
    if unknown:
        raise ValidationError(f"Unknown registration fields: {', '.join(sorted(unknown))}.")
    tournament = _locked(tournament)
    now = timezone.now()
    if not is_open(tournament, now):
        raise ValidationError(closed_message(tournament, now), code="registration_closed")
    digest = client_digest(address)
    recent = AuditEntry.objects.filter(
        tournament=tournament,
        action=AuditEntry.Action.REGISTRATION,
        actor__isnull=True,
        at__gte=now - THROTTLE_WINDOW,
        after__client=digest,
    ).count()
    if recent >= THROTTLE_LIMIT:
        raise ValidationError(
            _(
                "Too many registrations came from your address in the last hour (at most "
                "%(most)s). Please try again later, or ask the organiser to register you."
            ),
            code="too_many_registrations",
            params={"most": THROTTLE_LIMIT},
        )
    registration = Registration(
        tournament=tournament,
        created=now,
        changed=now,
        **{name: str(data.get(name) or "") for name in FIELDS},
    )
    _tidy(registration)
    _refuse_duplicate(registration)
    if not _has_place(tournament):
        registration.status = Status.WAITING
    elif tournament.registration == Mode.INSTANT:
        registration.status = Status.ACCEPTED
    else:
        registration.status = Status.PENDING
    if registration.status == Status.ACCEPTED:
        _make_player(registration)
    registration.save()
    _audit(registration, actor=None, before=None, client=digest)
    note_change(tournament.pk)
    return registration


def registration_as_recorded(
    tournament: Tournament,
    *,
    status: str,
    created: datetime,
    changed: datetime,
    player: Player | None,
    **fields: str,
) -> Registration:
    """A registration as an archive recorded it (`FIELDS` as they were, its status, when it was
    made and last changed, its player if accepted), checked as its fields are stored
    (ValidationError) but not tidied again nor saved: `restore_registrations` writes them."""
    registration = Registration(
        tournament=tournament,
        status=status,
        created=created,
        changed=changed,
        player=player,
        **fields,
    )
    registration.full_clean(
        exclude=["tournament", "player"], validate_unique=False, validate_constraints=False
    )
    return registration


def restore_registrations(registrations: list[Registration]) -> None:
    """Write registrations made by `registration_as_recorded`, in one statement whatever their
    number: a copy of those of the day, not new ones, so nobody takes a freed place, nothing
    counts against an address's limit and nothing is audited."""
    Registration.objects.bulk_create(registrations)


def closed_message(tournament: Tournament, now: datetime | None = None) -> Any:
    """Why registration is not open now, in the reader's words."""
    now = now or timezone.now()
    opens, closes = tournament.registration_opens, tournament.registration_closes
    if tournament.registration == Mode.OFF:
        return _("This tournament takes no registrations here: the organiser enters the players.")
    if opens is not None and now < opens:
        return _("Registration opens on %(when)s.") % {"when": _moment(opens)}
    return _("Registration closed on %(when)s.") % {"when": _moment(closes) if closes else "—"}


def _moment(moment: datetime) -> str:
    return date_format(timezone.localtime(moment), "DATETIME_FORMAT")


# --- The organiser's decisions ----------------------------------------------------------------


def _refuse_unless(registration: Registration, *statuses: str, doing: Any) -> None:
    if registration.status not in statuses:
        raise ValidationError(
            _("%(name)s's registration is %(status)s: it cannot be %(doing)s now."),
            code="registration_status",
            params={
                "name": registration.name,
                "status": registration.get_status_display().lower(),
                "doing": doing,
            },
        )


def _set_status(registration: Registration, status: str) -> None:
    registration.status = status
    registration.changed = timezone.now()
    registration.save()


@transaction.atomic
def accept(registration: Registration, *, actor: Actor) -> Registration:
    """Put a pending or waiting registration in the field: it becomes a player. Refused when
    the field is full (`field_full`): the cap holds; raise it first."""
    tournament, registration = _locked_registration(registration)
    _refuse_unless(registration, Status.PENDING, Status.WAITING, doing=_("accepted"))
    cap = tournament.registration_cap
    if cap is not None and field_size(tournament) >= cap:
        raise ValidationError(
            _(
                "The field is full (%(cap)s players). Raise the cap in the registration "
                "settings, or free a place, before accepting %(name)s."
            ),
            code="field_full",
            params={"cap": cap, "name": registration.name},
        )
    _refuse_duplicate(registration)
    before = _snapshot(registration)
    _make_player(registration)
    _set_status(registration, Status.ACCEPTED)
    _audit(registration, actor=actor, before=before)
    note_change(tournament.pk)
    return registration


def move_to_field(registration: Registration, *, actor: Actor) -> Registration:
    """The same as accepting: from the waiting list (or pending) into the field."""
    return accept(registration, actor=actor)


@transaction.atomic
def move_to_waiting(registration: Registration, *, actor: Actor) -> Registration:
    """Put a pending or accepted registration on the waiting list (in its order of arrival).
    An accepted one's player is removed; the place it frees is left free."""
    tournament, registration = _locked_registration(registration)
    _refuse_unless(
        registration, Status.PENDING, Status.ACCEPTED, doing=_("moved to the waiting list")
    )
    before = _snapshot(registration)
    _drop_player(registration)
    _set_status(registration, Status.WAITING)
    _audit(registration, actor=actor, before=before)
    note_change(tournament.pk)
    return registration


def _give_up(registration: Registration, status: str, *, actor: Actor, doing: Any) -> Registration:
    tournament, registration = _locked_registration(registration)
    _refuse_unless(registration, Status.PENDING, Status.ACCEPTED, Status.WAITING, doing=doing)
    held_place = registration.status == Status.ACCEPTED or (
        registration.status == Status.PENDING and tournament.registration != Mode.INSTANT
    )
    before = _snapshot(registration)
    _drop_player(registration)
    _set_status(registration, status)
    _audit(registration, actor=actor, before=before)
    if held_place:
        _fill_places(tournament, actor=actor)
    note_change(tournament.pk)
    return registration


@transaction.atomic
def reject(registration: Registration, *, actor: Actor) -> Registration:
    """Reject a pending, waiting or accepted registration (an accepted one's player is
    removed, refused while seated). A place it held goes to the waiting list."""
    return _give_up(registration, Status.REJECTED, actor=actor, doing=_("rejected"))


@transaction.atomic
def withdraw(registration: Registration, *, actor: Actor) -> Registration:
    """The player withdraws their registration (the organiser records it). A place it held
    goes to the waiting list, before the tournament starts."""
    return _give_up(registration, Status.WITHDRAWN, actor=actor, doing=_("withdrawn"))


@transaction.atomic
def edit(registration: Registration, *, actor: Actor, **fields: Any) -> Registration:
    """Change what a registration gives (FIELDS); an accepted one's player changes with it."""
    unknown = set(fields) - set(FIELDS)
    if unknown:
        raise ValidationError(f"Unknown registration fields: {', '.join(sorted(unknown))}.")
    tournament, registration = _locked_registration(registration)
    before = _snapshot(registration)
    contact_before = registration.contact
    parts_changed = any(
        part in fields and (fields[part] or "") != getattr(registration, part)
        for part in ("family_name", "given_name")
    )
    name_kept = not fields.get("name") or fields["name"] == registration.name
    for name, value in fields.items():
        setattr(registration, name, str(value or ""))
    if parts_changed and name_kept:
        registration.name = ""  # made again from its parts
    _tidy(registration)
    if registration.status in ACTIVE_REGISTRATION:
        _refuse_duplicate(registration)
    registration.changed = timezone.now()
    registration.save()
    if registration.player is not None:
        update_player(
            player=registration.player,
            **{name: getattr(registration, name) for name in PLAYER_FIELDS},
        )
    extra = {"contact_changed": True} if registration.contact != contact_before else {}
    _audit(registration, actor=actor, before=before, **extra)
    note_change(tournament.pk)
    return registration


@transaction.atomic
def update_settings(tournament: Tournament, *, actor: Actor, **fields: Any) -> Tournament:
    """Change the registration settings (SETTINGS). Raising the cap gives the new places to
    the waiting list, before the tournament starts."""
    unknown = set(fields) - set(SETTINGS)
    if unknown:
        raise ValidationError(f"Unknown registration settings: {', '.join(sorted(unknown))}.")
    tournament = _locked(tournament)
    before = {name: _plain(getattr(tournament, name)) for name in SETTINGS}
    for name, value in fields.items():
        setattr(tournament, name, value)
    opens, closes = tournament.registration_opens, tournament.registration_closes
    if opens is not None and closes is not None and closes <= opens:
        raise ValidationError(
            {
                "registration_closes": ValidationError(
                    _("Registration must close after it opens."), code="bad_registration_times"
                )
            }
        )
    tournament.full_clean(exclude=["organisers"])
    tournament.save(update_fields=list(SETTINGS))
    after = {name: _plain(getattr(tournament, name)) for name in SETTINGS}
    if after != before:
        record(tournament, AuditEntry.Action.REGISTRATION, actor=actor, before=before, after=after)
        _fill_places(tournament, actor=actor)
        note_change(tournament.pk)
    return tournament


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value
