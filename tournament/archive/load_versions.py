"""Loading what versions 3 to 5 of the archive keep around the games: the referee accounts
(3), the registration settings, registrations and check-in (4), the prize-giving's settings and
the cut of the final stage (5). Each is written by a service, as the archive recorded it (its
moments and people kept) through the services' `restore_*` functions."""

from __future__ import annotations

from fractions import Fraction

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db.models import Q

from tournament.archive.errors import ArchiveError, at
from tournament.archive.loader import Loader
from tournament.archive.schema import (
    ArchiveV3,
    ArchiveV4,
    CutRecord,
)
from tournament.models import Tournament
from tournament.services.accounts import restore_referee_accounts
from tournament.services.check_in import restore_check_in
from tournament.services.registrations import (
    registration_as_recorded,
    restore_registrations,
)
from tournament.services.registrations import update_settings as update_registration_settings
from tournament.services.stages import restore_cut

# The settings of version 4 that are not the tournament's own (create_tournament), but of
# registration (its service) and check-in.
REGISTRATION_SETTINGS = (
    "registration",
    "registration_opens",
    "registration_closes",
    "registration_cap",
)
CHECK_IN_SETTINGS = ("check_in_open", "self_check_in", "check_in_closed_at")
EVENT_SETTINGS = (*REGISTRATION_SETTINGS, *CHECK_IN_SETTINGS)


def load_registration_and_check_in(
    loader: Loader, tournament: Tournament, archive: ArchiveV4
) -> None:
    """Version 4: the registration settings (through their service), the check-in settings,
    each player's check-in and late arrival (`restore_check_in`), and the registrations as they
    were (`restore_registrations`, in a few statements whatever their number: a copy, not new
    registrations, so nobody is promoted and nothing is counted by the throttle)."""
    record = archive.tournament
    with at("tournament"):
        update_registration_settings(
            tournament,
            actor=loader.actor,
            **{name: getattr(record, name) for name in REGISTRATION_SETTINGS},
        )
    tournament.refresh_from_db(fields=list(REGISTRATION_SETTINGS))
    restore_check_in(
        tournament,
        desk_open=record.check_in_open,
        self_check_in=record.self_check_in,
        closed_at=record.check_in_closed_at,
        players=[
            (loader.players[item.key], item.checked_in_at, item.joins_from_round)
            for item in archive.players
            if item.checked_in_at is not None or item.joins_from_round is not None
        ],
    )
    made = []
    for index, item in enumerate(archive.registrations):
        with at(loader.where("registrations", index)):
            made.append(
                registration_as_recorded(
                    tournament,
                    status=item.status,
                    created=item.created,
                    changed=item.changed or item.created,
                    player=loader.players[item.player] if item.player is not None else None,
                    name=item.name,
                    family_name=item.family_name,
                    given_name=item.given_name,
                    country=item.country,
                    club=item.club,
                    team=item.team,
                    ema_number=item.ema_id,
                    contact=item.contact,
                )
            )
    restore_registrations(made)


# The settings of version 5 that belong to the prize-giving, not the tournament's settings.
PRIZE_GIVING = ("standings_hidden_from", "standings_revealed_at")


def load_cut(loader: Loader, tournament: Tournament, record: CutRecord) -> None:
    """Version 5: the confirmed cut as the archive froze it (not worked out again: it was
    confirmed on the standings of that day)."""
    with at(loader.where("cut")):
        restore_cut(
            tournament=tournament,
            after_round=record.after_round,
            size=record.size,
            carry_over=record.carry_over,
            consolation=record.consolation,
            confirmed_at=record.confirmed_at,
            confirmed_by=loader.users.get(record.confirmed_by or "") or loader.actor,
            finalists=[
                (
                    loader.players[finalist.player],
                    Fraction(finalist.table_points),
                    finalist.score,
                )
                for finalist in record.finalists
            ],
        )


def load_referee_accounts(
    loader: Loader,
    tournament: Tournament,
    archive: ArchiveV3,
    previous: set[str],
    warnings: list[str] | None,
) -> None:
    """Make the archive's referee accounts the tournament's (`restore_referee_accounts`), in a
    few statements whatever their number. An account missing here is made with its name and no
    usable password (the organiser gives it one: a warning says which). A user of that name who
    exists here is never changed: only when it was a plain referee account of the tournament
    this import replaces does it become this tournament's again; any other (another
    tournament's referee, someone's own login) is left as it is, and a warning names it. Where
    the archive assigns such a user to tables, they referee those tables, as every username of
    the archive is matched."""
    Users = get_user_model()
    new: list[tuple[str, str]] = []
    kept: list[str] = []
    candidates: list[User] = []
    for index, record in enumerate(archive.referee_accounts):
        found = loader.users.get(record.username)
        if found is None:
            try:
                Users.username_validator(record.username)
            except ValidationError as error:
                raise ArchiveError(
                    f"{loader.where('referee_accounts', index)}: the username "
                    f"{record.username!r} cannot be used here: {' '.join(error.messages)}",
                    code="bad_username",
                ) from None
            new.append((record.username, record.name))
        elif record.username in previous and not (found.is_staff or found.is_superuser):
            candidates.append(found)
        else:
            kept.append(record.username)
    if candidates:
        # Not one that has become another tournament's account or organises one since.
        taken = set(
            Users.objects.filter(pk__in=[user.pk for user in candidates])
            .filter(Q(referee_account__isnull=False) | Q(organised_tournaments__isnull=False))
            .values_list("pk", flat=True)
        )
        kept += [user.get_username() for user in candidates if user.pk in taken]
        candidates = [user for user in candidates if user.pk not in taken]
    created = restore_referee_accounts(
        tournament=tournament, actor=loader.actor, new=new, again=candidates
    )
    loader.users.update((user.get_username(), user) for user in created)
    if warnings is None:
        return
    if created:
        warnings.append(
            "Referee accounts made without a password: "
            + ", ".join(sorted(user.get_username() for user in created))
            + ". Each needs a password before it can log in: give it one with "
            '"New password" on the tournament\'s referee accounts page.'
        )
    if kept:
        warnings.append(
            "Users of these names exist here already and are not this tournament's referee "
            "accounts (another tournament's referees, or other people's logins); they are left "
            "as they are and keep their passwords: "
            + ", ".join(sorted(kept))
            + ". Where the archive assigns them to tables, they referee those tables."
        )
