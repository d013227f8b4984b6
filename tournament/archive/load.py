"""Importing an archive: parse the document into the schema, then build the tournament through
the services, so that every rule of a live tournament is checked again. All or nothing."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import pydantic
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q

from tournament import deals
from tournament.archive.errors import ArchiveError, at, describe, place
from tournament.archive.schema import (
    CONTEXT_HANDS,
    FALSE_WIN_KINDS,
    Archive,
    ArchiveV3,
    ArchiveV4,
    ArchiveV5,
    CutRecord,
    DealRecord,
    HandRecord,
    PenaltyRecord,
    RoundRecord,
    TableRecord,
    game_length,
    model_for,
)
from tournament.models import (
    AuditEntry,
    Cut,
    Finalist,
    Hand,
    Penalty,
    Player,
    RefereeAccount,
    Registration,
    Round,
    Table,
    Tournament,
    parse_carry_over,
)
from tournament.rotation import WINDS
from tournament.services import (
    AsRecorded,
    DealInput,
    GameInMemory,
    SheetAsRecorded,
    add_player,
    confirm_game,
    create_round,
    create_table,
    end_game,
    games_in_memory,
    record_false_win,
    record_hand,
    record_penalty,
    set_round_status,
    set_seating,
    write_games,
)
from tournament.services.accounts import audit_accounts
from tournament.services.registrations import update_settings as update_registration_settings
from tournament.services.tournaments import create_tournament


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


@dataclass(frozen=True)
class RescoredHand:
    """A hand recorded with tiles whose tiles score another fan under today's rulings."""

    where: str  # "round 1, table 2, hand 5"
    recorded: int  # the fan the archive records (without flowers)
    now: int  # what the tiles score today

    def __str__(self) -> str:
        return f"{self.where}: recorded {self.recorded} fan, the tiles now score {self.now}"


@dataclass
class _Loader:
    data: Any  # the document as given, for the places in messages
    actor: User
    users: dict[str, User]
    players: dict[str, Player] = field(default_factory=dict)
    rescored: list[RescoredHand] = field(default_factory=list)
    # Build each game in memory and write it in a few statements (see `_load_in_bulk`);
    # False: hand by hand through the services, as a referee enters them.
    bulk: bool = True

    def where(self, *location: str | int) -> str:
        return place(location, self.data)

    def user(self, username: str | None) -> User:
        """The user of that name here, or the importing user."""
        return self.users.get(username or "", self.actor)

    def entered(self, record: HandRecord | DealRecord | PenaltyRecord) -> AsRecorded:
        """Who entered a result and when, as the archive says (the audit names the actor)."""
        return AsRecorded(self.user(record.entered_by), record.entered_at)

    def sheet(self, record: TableRecord, *, confirmed: bool) -> SheetAsRecorded:
        """Who submitted and confirmed a game sheet, and when, as the archive says."""
        return SheetAsRecorded(
            submitted_by=self.user(record.submitted_by),
            ended_at=record.ended_at,
            confirmed_by=self.user(record.confirmed_by) if confirmed else None,
            confirmed_at=record.confirmed_at if confirmed else None,
        )


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
    through `record_hand` and the penalty services. Both refuse the same archives with the
    same messages and build the same tournament.
    """
    archive = parse(data)
    settings = archive.tournament.model_dump(exclude={"organisers", *EVENT_SETTINGS, *V5_OWN})
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
        # Its referee accounts may become the new tournament's (see _load_referee_accounts).
        previous_accounts = set(existing.referee_accounts.values_list("user__username", flat=True))
        existing.delete()
    usernames = archive.usernames()
    users = {
        user.get_username(): user
        for user in get_user_model().objects.filter(username__in=usernames)
    }
    loader = _Loader(data=data, actor=actor, users=users, bulk=bulk)
    with at("tournament"):
        # While loading, the importing user organises the tournament (and so confirms its
        # game sheets); the archive's organisers take over at the end.
        tournament = create_tournament(organiser=actor, **settings)
    if isinstance(archive, ArchiveV3):
        _load_referee_accounts(loader, tournament, archive, previous_accounts, warnings)
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
        _load_registration_and_check_in(loader, tournament, archive)
    if isinstance(archive, ArchiveV5):
        # Not the tournament's own settings (create_tournament), but other pages'.
        Tournament.objects.filter(pk=tournament.pk).update(
            **{name: getattr(archive.tournament, name) for name in V5_OWN}
        )
        tournament.refresh_from_db(fields=list(V5_OWN))
    for index, round in enumerate(archive.rounds):
        _load_round(loader, tournament, round, ("rounds", index))
        if (
            isinstance(archive, ArchiveV5)
            and archive.cut
            and round.number == archive.cut.after_round
        ):
            _load_cut(loader, tournament, archive.cut)  # before the final stage's rounds
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
    tournament.organisers.set(organisers or [actor])
    return tournament


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


def _load_registration_and_check_in(
    loader: _Loader, tournament: Tournament, archive: ArchiveV4
) -> None:
    """Version 4: the registration settings (through their service), the check-in settings,
    each player's check-in and late arrival, and the registrations as they were (in a few
    statements, whatever their number: a copy, not new registrations, so nobody is promoted
    and nothing is counted by the throttle)."""
    record = archive.tournament
    with at("tournament"):
        update_registration_settings(
            tournament,
            actor=loader.actor,
            **{name: getattr(record, name) for name in REGISTRATION_SETTINGS},
        )
    Tournament.objects.filter(pk=tournament.pk).update(
        **{name: getattr(record, name) for name in CHECK_IN_SETTINGS}
    )
    tournament.refresh_from_db(fields=list(EVENT_SETTINGS))
    changed = []
    for player_record in archive.players:
        if player_record.checked_in_at is None and player_record.joins_from_round is None:
            continue
        player = loader.players[player_record.key]
        player.checked_in_at = player_record.checked_in_at
        player.joins_from_round = player_record.joins_from_round
        changed.append(player)
    Player.objects.bulk_update(changed, ["checked_in_at", "joins_from_round"])
    made = []
    for index, item in enumerate(archive.registrations):
        registration = Registration(
            tournament=tournament,
            created=item.created,
            changed=item.changed or item.created,
            name=item.name,
            family_name=item.family_name,
            given_name=item.given_name,
            country=item.country,
            club=item.club,
            team=item.team,
            ema_number=item.ema_id,
            contact=item.contact,
            status=item.status,
            player=loader.players[item.player] if item.player is not None else None,
        )
        with at(loader.where("registrations", index)):
            registration.full_clean(
                exclude=["tournament", "player"], validate_unique=False, validate_constraints=False
            )
        made.append(registration)
    Registration.objects.bulk_create(made)


# The settings of version 5 that belong to other pages than the tournament's settings.
V5_OWN = ("standings_hidden_from", "standings_revealed_at", "team_best_of")


def _load_cut(loader: _Loader, tournament: Tournament, record: CutRecord) -> None:
    """Version 5: the confirmed cut as the archive froze it (not worked out again: it was
    confirmed on the standings of that day)."""
    with at(loader.where("cut")):
        cut = Cut(
            tournament=tournament,
            after_round=record.after_round,
            size=record.size,
            carry_over=str(parse_carry_over(record.carry_over)),
            consolation=record.consolation,
            confirmed_at=record.confirmed_at,
            confirmed_by=loader.users.get(record.confirmed_by or "") or loader.actor,
        )
        cut.full_clean(exclude=["tournament", "confirmed_by"], validate_unique=False)
        cut.save()
        Finalist.objects.bulk_create(
            Finalist(
                cut=cut,
                player=loader.players[finalist.player],
                position=position,
                table_points_twelfths=int(Fraction(finalist.table_points) * 12),
                score=finalist.score,
            )
            for position, finalist in enumerate(record.finalists, start=1)
        )


def _load_referee_accounts(
    loader: _Loader,
    tournament: Tournament,
    archive: ArchiveV3,
    previous: set[str],
    warnings: list[str] | None,
) -> None:
    """Make the archive's referee accounts the tournament's, in a few statements whatever
    their number. An account missing here is made with its name and no usable password (the
    organiser gives it one: a warning says which). A user of that name who exists here is never
    changed: only when it was a plain referee account of the tournament this import replaces
    does it become this tournament's again; any other (another tournament's referee, someone's
    own login) is left as it is, and a warning names it. Where the archive assigns such a user
    to tables, they referee those tables, as every username of the archive is matched."""
    Users = get_user_model()
    new: list[User] = []
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
            user = Users(username=record.username, first_name=record.name)
            user.set_unusable_password()
            new.append(user)
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
    Users.objects.bulk_create(new)
    made = new + candidates
    RefereeAccount.objects.bulk_create(
        [RefereeAccount(user=user, tournament=tournament) for user in made]
    )
    loader.users.update((user.get_username(), user) for user in new)
    if made:
        named = {"usernames": sorted(user.get_username() for user in made)}
        audit_accounts(tournament, loader.actor, AuditEntry.Action.ACCOUNTS_CREATED, named)
    if warnings is None:
        return
    if new:
        warnings.append(
            "Referee accounts made without a password: "
            + ", ".join(sorted(user.get_username() for user in new))
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


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def _load_round(
    loader: _Loader, tournament: Tournament, data: RoundRecord, location: tuple[str | int, ...]
) -> None:
    actor = loader.actor
    status = data.status_to_load()
    # Tables by number, each with its place in the document.
    records = sorted(enumerate(data.tables), key=lambda item: item[1].number)
    with at(loader.where(*location)):
        round = create_round(tournament=tournament, actor=actor)
        seating = [[loader.players[key] for key in table.seats.keys()] for _, table in records]
        if not records:
            tables = []
        elif [table.number for _, table in records] == list(range(1, len(records) + 1)):
            tables = set_seating(round=round, tables=seating, actor=actor)
        else:
            tables = [
                create_table(round=round, number=table.number, players=players)
                for (_, table), players in zip(records, seating, strict=True)
            ]
        # The referees of every table of the round, in one statement.
        Table.referees.through.objects.bulk_create(
            [
                Table.referees.through(table_id=table.pk, user_id=loader.users[name].pk)
                for table, (_, record) in zip(tables, records, strict=True)
                for name in dict.fromkeys(record.referees)
                if name in loader.users
            ]
        )
        # Version 5: a table's own extra time.
        timed = []
        for table, (_, record) in zip(tables, records, strict=True):
            table.extra_minutes = getattr(record, "extra_minutes", 0)
            if table.extra_minutes:
                timed.append(table)
        Table.objects.bulk_update(timed, ["extra_minutes"])
        steps: dict[str, list[str]] = {
            Round.Status.DRAFT: [],
            Round.Status.SEATED: [Round.Status.SEATED],
            Round.Status.PLAYING: [Round.Status.SEATED, Round.Status.PLAYING],
            Round.Status.FINISHED: [Round.Status.SEATED, Round.Status.PLAYING],
        }
        for step in steps[status]:
            round = set_round_status(round=round, status=step, actor=actor)
    games = [
        _Game(loader, table, record, data.finished, (*location, "tables", index))
        for table, (index, record) in zip(tables, records, strict=True)
    ]
    if loader.bulk:
        _load_in_bulk(loader, round, games, location)
    else:
        for game in games:
            game.load()
    if status == Round.Status.FINISHED:
        with at(loader.where(*location)):
            set_round_status(round=round, status=Round.Status.FINISHED, actor=actor)


def _load_in_bulk(
    loader: _Loader, round: Round, games: list[_Game], location: tuple[str | int, ...]
) -> None:
    """Load the games of a round entered in memory (`_Game.build`), then write them all at
    once: the round's hands, further winners, penalties, audit entries, seat scores and game
    sheets each in one statement, whatever the number of tables and hands."""
    with at(loader.where(*location)):
        drafts = games_in_memory(round=round, actor=loader.actor)
    for game in games:
        draft = drafts[game.table.pk]
        game.table = draft.table  # as the services read it: locked, the round as it is now
        game.build(draft)
    with at(loader.where(*location)):
        write_games([drafts[game.table.pk] for game in games])


@dataclass
class _Game:
    """Loads one table's game: hands and penalties in order, then its end and game sheet."""

    loader: _Loader
    table: Table
    data: TableRecord
    round_finished: bool
    location: tuple[str | int, ...]

    def load(self) -> None:
        for index, hand in enumerate(self.data.hands):
            where = (*self.location, "hands", index)
            for position, penalty in enumerate(hand.penalties):
                self._penalty(penalty, hand.number, (*where, "penalties", position))
            self._hand(hand, self.loader.where(*where))
        for position, penalty in enumerate(self.data.penalties):
            self._penalty(penalty, penalty.hand_number, (*self.location, "penalties", position))
        if self.data.ended(round_finished=self.round_finished):
            self._end()

    def build(self, game: GameInMemory) -> None:
        """The game entered in memory, as `load` records it (see `games_in_memory`): nothing
        is written (see `_load_in_bulk`)."""
        for index, hand in enumerate(self.data.hands):
            where = (*self.location, "hands", index)
            for position, penalty in enumerate(hand.penalties):
                self._penalty_in_memory(game, penalty, hand.number, (*where, "penalties", position))
            self._hand_in_memory(game, hand, self.loader.where(*where))
        for position, penalty in enumerate(self.data.penalties):
            location = (*self.location, "penalties", position)
            self._penalty_in_memory(game, penalty, penalty.hand_number, location)
        if self.data.ended(round_finished=self.round_finished):
            self._end_in_memory(game)

    def _end_in_memory(self, game: GameInMemory) -> None:
        """As `_end`, on the game entered in memory."""
        loader, data, table = self.loader, self.data, self.table
        confirmed = data.confirmed(round_finished=self.round_finished)
        sheet = loader.sheet(data, confirmed=confirmed)
        with at(loader.where(*self.location)):
            game.end(ended_by_time=data.ended_by_time, as_recorded=sheet)
            if confirmed and table.confirmed_at is None:
                game.confirm(as_recorded=sheet)
            elif not confirmed and table.confirmed_at is not None:
                raise self._unconfirmed()

    def _unconfirmed(self) -> ArchiveError:
        return ArchiveError(
            f"{self.loader.where(*self.location)}: the game sheet is not confirmed, but in this "
            "tournament game sheets count as soon as they are submitted.",
            code="sheet_unconfirmed",
        )

    def _hand_in_memory(
        self, game: GameInMemory, hand: HandRecord | DealRecord, where: str
    ) -> None:
        with at(where):
            self._check_situations(hand, game.next_deal, where)
            recorded = game.add_hand(
                number=hand.number, deal=self._deal(hand), as_recorded=self.loader.entered(hand)
            )
            self._check_recorded(hand, recorded, where)

    def _penalty_in_memory(
        self,
        game: GameInMemory,
        data: PenaltyRecord,
        hand_number: int | None,
        location: tuple[str | int, ...],
    ) -> None:
        loader = self.loader
        where = loader.where(*location)
        with at(where):
            player = loader.players[data.player]
            if data.kind in FALSE_WIN_KINDS:
                assert hand_number is not None  # the schema gives every false win its hand
                penalty = game.add_false_win(
                    number=hand_number,
                    offender=player,
                    invalid_hand=data.kind == Penalty.Kind.FALSE_WIN_INVALID_HAND,
                    reason=data.reason,
                    as_recorded=loader.entered(data),
                )
                self._check_false_win(penalty, data, where)
            else:
                game.add_penalty(
                    player=player,
                    points=data.points,
                    distributed=data.distributed,
                    reason=data.reason,
                    hand_number=hand_number,
                    as_recorded=loader.entered(data),
                )

    @staticmethod
    def _check_false_win(penalty: Penalty, data: PenaltyRecord, where: str) -> None:
        if penalty.points != data.points:
            raise ArchiveError(
                f"{where}: under this tournament's rules this false win costs "
                f"{penalty.points} points, not {data.points}.",
                code="false_win_points",
            )

    def _hand(self, hand: HandRecord | DealRecord, where: str) -> None:
        loader = self.loader
        with at(where):
            self._check_situations(hand, deals.next_deal(self.table), where)
            recorded = record_hand(
                table=self.table,
                number=hand.number,
                deal=self._deal(hand),
                entered_by=loader.actor,
                as_recorded=loader.entered(hand),
            )
            self._check_recorded(hand, recorded, where)

    def _check_situations(
        self, hand: HandRecord | DealRecord, at: deals.DealAt | None, where: str
    ) -> None:
        """Tiles that state the winds or self-draw (the winner's, and each further winner's)
        must state those of this deal, as the deals before it place it."""
        if at is None:  # after the game's end: the services refuse the deal
            return
        tiled = [(hand.winner, hand.tiles)]
        if isinstance(hand, DealRecord):
            tiled += [(win.winner, win.tiles) for win in hand.extra_winners]
        keys = list(self.data.seats.keys())
        for winner, tiles in tiled:
            if tiles is not None and winner:
                _check_situation(hand, tiles, where, at.seat_winds[keys.index(winner)], at)

    def _check_recorded(self, hand: HandRecord | DealRecord, recorded: Hand, where: str) -> None:
        """What the services made of a hand must be what the archive says of it."""
        loader = self.loader
        tournament = self.table.round.tournament
        if recorded.tiles is not None and tournament.rulebook.counts_fan:
            now = _fan_now(recorded.tiles, tournament)
            if now != recorded.fan:
                assert recorded.fan is not None  # a win with tiles has its fan
                loader.rescored.append(RescoredHand(where, recorded.fan, now))
        if (recorded.fan, recorded.flowers) != (hand.fan, hand.flowers):
            raise ArchiveError(
                f"{where}: the tiles score {recorded.fan} fan and {recorded.flowers} "
                f"flowers, but the archive says {hand.fan} fan and {hand.flowers} flowers.",
                code="fan_mismatch",
            )
        if isinstance(hand, DealRecord):
            self._check_deal(hand, recorded, where)

    def _deal(self, hand: HandRecord | DealRecord) -> DealInput:
        """The deal as the services take it; the fan its tiles were scored at is the record's
        (see `DealInput.recorded_fan`)."""
        players = self.loader.players
        recorded = DealInput(
            result=hand.result,
            winner=players[hand.winner] if hand.winner else None,
            discarder=players[hand.discarder] if hand.discarder else None,
            fan=hand.fan,
            flowers=hand.flowers,
            tiles=hand.tiles,
            recorded_fan=True,
        )
        if not isinstance(hand, DealRecord):
            return recorded
        # What a deal of version 2 says beyond a version-1 hand.
        return replace(
            recorded,
            value=hand.value,
            extra_winners=[(players[win.winner], win.value) for win in hand.extra_winners],
            extra_tiles=[
                (players[win.winner], win.tiles)
                for win in hand.extra_winners
                if win.tiles is not None
            ],
            riichi=[players[key] for key in hand.riichi],
            faulty_claims=[players[key] for key in hand.faulty_claims],
            ready=[players[key] for key in hand.ready],
            faulty_riichi=[players[key] for key in hand.faulty_riichi],
            offender=players[hand.offender] if hand.offender else None,
        )

    def _check_deal(self, deal: DealRecord, recorded: Hand, where: str) -> None:
        """The deal's place in the game and its payments, where the archive gives them, must
        be those the deals before it and the preset's settlement make."""
        seated = dict(zip(WINDS, self.data.seats.keys(), strict=True))
        dealer = seated[recorded.dealer]
        positions = (
            ("prevailing wind", deal.prevailing_wind, recorded.prevailing_wind),
            ("dealer", deal.dealer, dealer),
            ("dealer's extra-hand number", deal.extra_hands, recorded.extra_hands),
        )
        for what, said, worked_out in positions:
            if said is not None and said != worked_out:
                shown = (repr(worked_out), repr(said)) if what == "dealer" else (worked_out, said)
                raise ArchiveError(
                    f"{where}: after the deals before it the {what} is {shown[0]}, not {shown[1]}.",
                    code="deal_position",
                )
        if deal.payments is not None and deal.payments.values() != recorded.payments:
            raise ArchiveError(
                f"{where}: under this tournament's rules the deal pays "
                f"{_payments(recorded.payments)}, not {_payments(deal.payments.values())}.",
                code="payments_mismatch",
            )

    def _penalty(
        self, data: PenaltyRecord, hand_number: int | None, location: tuple[str | int, ...]
    ) -> None:
        loader = self.loader
        where = loader.where(*location)
        with at(where):
            player = loader.players[data.player]
            if data.kind in FALSE_WIN_KINDS:
                assert hand_number is not None  # the schema gives every false win its hand
                penalty = record_false_win(
                    table=self.table,
                    number=hand_number,
                    offender=player,
                    invalid_hand=data.kind == Penalty.Kind.FALSE_WIN_INVALID_HAND,
                    entered_by=loader.actor,
                    reason=data.reason,
                    as_recorded=loader.entered(data),
                )
                self._check_false_win(penalty, data, where)
            else:
                record_penalty(
                    table=self.table,
                    player=player,
                    points=data.points,
                    distributed=data.distributed,
                    reason=data.reason,
                    hand_number=hand_number,
                    entered_by=loader.actor,
                    as_recorded=loader.entered(data),
                )

    def _end(self) -> None:
        loader, data, table = self.loader, self.data, self.table
        confirmed = data.confirmed(round_finished=self.round_finished)
        sheet = loader.sheet(data, confirmed=confirmed)
        with at(loader.where(*self.location)):
            table = end_game(
                table=table,
                ended_by_time=data.ended_by_time,
                entered_by=loader.actor,
                as_recorded=sheet,
            )
            if confirmed and table.confirmed_at is None:
                confirm_game(table=table, confirmed_by=loader.actor, as_recorded=sheet)
            elif not confirmed and table.confirmed_at is not None:
                raise self._unconfirmed()


def _fan_now(tiles: dict[str, Any], tournament: Tournament) -> int:
    """What the tiles of a recorded MCR hand score today, without flowers (the services
    checked them when recording: they are a winning hand, perhaps below the minimum now)."""
    scored = tournament.rulebook.score(tiles, profile=tournament.profile)
    assert scored.value is not None
    return scored.value


def _payments(points: list[int]) -> str:
    """Payments by starting seat as a message says them: "E +1500, S -500, W -500, N -500"."""
    return ", ".join(
        f"{wind} {amount:+d}" if amount else f"{wind} 0"
        for wind, amount in zip(WINDS, points, strict=True)
    )


def _check_situation(
    hand: HandRecord | DealRecord,
    tiles: dict[str, Any],
    where: str,
    seat_wind: str,
    at: deals.DealAt,
) -> None:
    """Tiles that state the winds or self-draw must state those of this deal and winner."""
    expected = {
        "seat_wind": seat_wind,
        "prevalent_wind": at.prevailing_wind,
        "self_drawn": hand.discarder is None,
    }
    for name, value in expected.items():
        given = tiles.get(name, value)
        if isinstance(given, str):
            given = given.strip().upper()
        if given != value:
            raise ArchiveError(
                f"{where}: the tiles give {name} {tiles[name]!r}, but in this deal "
                f"it is {value!r}.",
                code="situation_mismatch",
            )
