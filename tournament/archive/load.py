"""Importing an archive: parse the document into the schema, then build the tournament through
the services' public functions only (no model written here), so that every rule of a live
tournament is checked again; what the archive keeps as it was on the day (moments, who did it,
the cut, registrations) goes through the services' `restore_*` functions. All or nothing."""

from __future__ import annotations

from typing import Any

import pydantic
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction

from tournament.archive.errors import ArchiveError, at, describe
from tournament.archive.load_rounds import load_round
from tournament.archive.load_versions import (
    EVENT_SETTINGS,
    PRIZE_GIVING,
    load_cut,
    load_referee_accounts,
    load_registration_and_check_in,
)
from tournament.archive.loader import Loader
from tournament.archive.schema import (
    CONTEXT_HANDS,
    Archive,
    ArchiveV3,
    ArchiveV4,
    ArchiveV5,
    game_length,
    model_for,
)
from tournament.models import (
    Tournament,
)
from tournament.services import (
    add_player,
)
from tournament.services.prize_giving import restore_prize_giving
from tournament.services.tournaments import create_tournament, delete_tournament, set_organisers


def parse(data: Any) -> Archive:
    """The document `data` (as read from JSON) as the archive's models; ArchiveError if the
    format is broken, naming the first place where it is."""
    try:
        archive: Archive = model_for(data).validate_python(
            data, context={CONTEXT_HANDS: game_length(data)}
        )
    except pydantic.ValidationError as error:
        raise describe(error, data) from None
    return archive


@transaction.atomic
def import_tournament(
    data: Any,
    *,
    actor: User,
    slug: str | None = None,
    replace: bool = False,
    warnings: list[str] | None = None,
    keep_recorded_fan: bool = False,
    bulk: bool = True,
) -> Tournament:
    """Create the tournament described by the archive `data`; all or nothing.

    `actor` is recorded in the audit trail as the one who entered everything. `slug` imports
    under another slug than the document's. A tournament with the same slug is an error unless
    `replace` is true: it is then deleted first, in the same transaction. Notes about users that
    do not exist here are appended to `warnings`.

    A hand recorded with its tiles keeps the fan the archive records. When the tiles of some
    hands score another fan under today's rulings (they were scored under older ones), the
    import is refused with the list of those hands, unless `keep_recorded_fan` is true: the
    hands are then imported with their recorded fan and listed in `warnings`.

    `bulk` (the default) enters every game of a round in memory through the services'
    `games_in_memory` (the checks of the services that record entries one by one) and writes
    them in a fixed number of statements (`write_games`); False records them one by one
    through `record_deal` and the penalty services. Both refuse the same archives with the
    same messages and build the same tournament.
    """
    archive = parse(data)
    settings = archive.tournament.model_dump(exclude={"organisers", *EVENT_SETTINGS, *PRIZE_GIVING})
    if "seat_rotation" not in archive.tournament.model_fields_set:
        del settings["seat_rotation"]  # the preset's own (MCR wmo; JT and WA none)
    if slug is not None:
        settings["slug"] = slug
    existing = Tournament.objects.filter(slug=settings["slug"]).first()
    previous_accounts: set[str] = set()
    if existing is not None:
        if not replace:
            raise ArchiveError(
                f"tournament: a tournament with the slug {settings['slug']!r} exists already; "
                "import it under another slug or replace the existing one.",
                code="slug_taken",
            )
        # Its referee accounts may become the new tournament's (see load_referee_accounts).
        previous_accounts = set(existing.referee_accounts.values_list("user__username", flat=True))
        delete_tournament(existing)
    usernames = archive.usernames()
    users = {
        user.get_username(): user
        for user in get_user_model().objects.filter(username__in=usernames)
    }
    loader = Loader(data=data, actor=actor, users=users, bulk=bulk)
    with at("tournament"):
        # While loading, the importing user organises the tournament (and so confirms its
        # game sheets); the archive's organisers take over at the end.
        tournament = create_tournament(organiser=actor, **settings)
    if isinstance(archive, ArchiveV3):
        load_referee_accounts(loader, tournament, archive, previous_accounts, warnings)
    unknown = sorted(usernames - set(users))
    if unknown and warnings is not None:
        warnings.append(
            "These users do not exist here: "
            + ", ".join(unknown)
            + f". Their roles are left out and their entries are attributed to "
            f"{actor.get_username()}."
        )
    for index, player in enumerate(archive.players):
        with at(loader.where("players", index)):
            loader.players[player.key] = add_player(
                tournament=tournament,
                key=player.key,
                name=player.name,
                family_name=player.family_name,
                given_name=player.given_name,
                country=player.country,
                club=player.club,
                team=player.team,
                ema_number=player.ema_id,
                substitute=player.substitute,
                withdrawn_from_round=player.withdrawn_from_round,
            )
    if isinstance(archive, ArchiveV4):
        load_registration_and_check_in(loader, tournament, archive)
    if isinstance(archive, ArchiveV5):
        # Not the tournament's own settings (create_tournament), but the prize-giving's.
        with at("tournament"):
            restore_prize_giving(
                tournament=tournament,
                hidden_from=archive.tournament.standings_hidden_from,
                revealed_at=archive.tournament.standings_revealed_at,
            )
    for index, round in enumerate(archive.rounds):
        load_round(loader, tournament, round, ("rounds", index))
        if (
            isinstance(archive, ArchiveV5)
            and archive.cut
            and round.number == archive.cut.after_round
        ):
            load_cut(loader, tournament, archive.cut)  # before the final stage's rounds
    if loader.rescored:
        hands = "; ".join(map(str, loader.rescored))
        if not keep_recorded_fan:
            raise ArchiveError(
                f"The tiles of {_count(len(loader.rescored), 'hand')} now score a different "
                "fan from the one the archive records (the rulings changed since they were "
                f"scored): {hands}. To import them with their recorded fan, keep the recorded "
                "fan (--keep-recorded-fan); or correct the archive.",
                code="fan_rescored",
            )
        if warnings is not None:
            warnings.append(
                f"Kept the recorded fan of {_count(len(loader.rescored), 'hand')} whose tiles "
                f"now score a different fan: {hands}."
            )
    organisers = [users[name] for name in archive.tournament.organisers if name in users]
    set_organisers(tournament=tournament, organisers=organisers or [actor])
    return tournament


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")
