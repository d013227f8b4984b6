"""Loading the rounds of an archive: each round's tables, seating, referees and status, then the
game at each table (hands and penalties in order, its end and its sheet), checked by the
services as a live tournament's, and what the services made of each deal checked against what
the archive says of it."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.contrib.auth.models import User

from tournament.archive.errors import ArchiveError, at
from tournament.archive.loader import Loader, RescoredHand
from tournament.archive.schema import (
    FALSE_WIN_KINDS,
    DealRecord,
    HandRecord,
    PenaltyRecord,
    RoundRecord,
    TableRecord,
)
from tournament.domain.rotation import WINDS
from tournament.models import (
    Deal,
    Penalty,
    Round,
    Table,
    Tournament,
)
from tournament.reads import deals
from tournament.services import (
    AsRecorded,
    DealInput,
    GameInMemory,
    SheetAsRecorded,
    confirm_game,
    create_round,
    create_table,
    end_game,
    games_in_memory,
    record_deal,
    record_false_win,
    record_penalty,
    restore_table_referees,
    restore_table_time,
    set_round_status,
    set_seating,
    write_games,
)


def load_round(
    loader: Loader, tournament: Tournament, data: RoundRecord, location: tuple[str | int, ...]
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
        restore_table_referees(
            (table, [loader.users[name] for name in record.referees if name in loader.users])
            for table, (_, record) in zip(tables, records, strict=True)
        )
        # Version 5: a table's own extra time.
        restore_table_time(
            (table, getattr(record, "extra_minutes", 0))
            for table, (_, record) in zip(tables, records, strict=True)
        )
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
    loader: Loader, round: Round, games: list[_Game], location: tuple[str | int, ...]
) -> None:
    """Load the games of a round entered in memory (`games_in_memory`), then write them all
    at once: the round's hands, further winners, penalties, audit entries, seat scores and game
    sheets each in one statement, whatever the number of tables and hands."""
    with at(loader.where(*location)):
        drafts = games_in_memory(round=round, actor=loader.actor)
    for game in games:
        draft = drafts[game.table.pk]
        game.table = draft.table  # as the services read it: locked, the round as it is now
        game.load(draft)
    with at(loader.where(*location)):
        write_games([drafts[game.table.pk] for game in games])


class _OneByOne:
    """A game recorded entry by entry through the services, as a referee enters it: what
    `GameInMemory` offers, written at once."""

    def __init__(self, table: Table, actor: User) -> None:
        self.table, self.actor = table, actor

    @property
    def next_deal(self) -> deals.DealAt | None:
        return deals.next_deal(self.table)

    def add_hand(self, *, number: int, deal: DealInput, as_recorded: AsRecorded) -> Deal:
        return record_deal(
            table=self.table,
            number=number,
            deal=deal,
            entered_by=self.actor,
            as_recorded=as_recorded,
        )

    def add_false_win(self, **entry: Any) -> Penalty:
        return record_false_win(table=self.table, entered_by=self.actor, **entry)

    def add_penalty(self, **entry: Any) -> Penalty:
        return record_penalty(table=self.table, entered_by=self.actor, **entry)

    def end(self, *, ended_by_time: bool, as_recorded: SheetAsRecorded) -> None:
        self.table = end_game(
            table=self.table,
            ended_by_time=ended_by_time,
            entered_by=self.actor,
            as_recorded=as_recorded,
        )

    def confirm(self, *, as_recorded: SheetAsRecorded) -> None:
        self.table = confirm_game(
            table=self.table, confirmed_by=self.actor, as_recorded=as_recorded
        )


@dataclass
class _Game:
    """Loads one table's game: hands and penalties in order, then its end and game sheet."""

    loader: Loader
    table: Table
    data: TableRecord
    round_finished: bool
    location: tuple[str | int, ...]

    def load(self, game: GameInMemory | None = None) -> None:
        """Record the game through the services one entry at a time; or, given `game`, enter
        it there in memory (nothing is written: see `_load_in_bulk`)."""
        into = game or _OneByOne(self.table, self.loader.actor)
        for index, hand in enumerate(self.data.hands):
            where = (*self.location, "hands", index)
            for position, penalty in enumerate(hand.penalties):
                self._penalty(into, penalty, hand.number, (*where, "penalties", position))
            self._hand(into, hand, self.loader.where(*where))
        for position, penalty in enumerate(self.data.penalties):
            location = (*self.location, "penalties", position)
            self._penalty(into, penalty, penalty.hand_number, location)
        if self.data.ended(round_finished=self.round_finished):
            self._end(into)

    def _hand(
        self, game: GameInMemory | _OneByOne, hand: HandRecord | DealRecord, where: str
    ) -> None:
        with at(where):
            self._check_situations(hand, game.next_deal, where)
            recorded = game.add_hand(
                number=hand.number, deal=self._deal(hand), as_recorded=self.loader.entered(hand)
            )
            self._check_recorded(hand, recorded, where)

    def _penalty(
        self,
        game: GameInMemory | _OneByOne,
        data: PenaltyRecord,
        deal_number: int | None,
        location: tuple[str | int, ...],
    ) -> None:
        loader = self.loader
        where = loader.where(*location)
        with at(where):
            player = loader.players[data.player]
            if data.kind not in FALSE_WIN_KINDS:
                game.add_penalty(
                    player=player,
                    points=data.points,
                    distributed=data.distributed,
                    reason=data.reason,
                    deal_number=deal_number,
                    as_recorded=loader.entered(data),
                )
                return
            assert deal_number is not None  # the schema gives every false win its hand
            penalty = game.add_false_win(
                number=deal_number,
                offender=player,
                invalid_hand=data.kind == Penalty.Kind.FALSE_WIN_INVALID_HAND,
                reason=data.reason,
                as_recorded=loader.entered(data),
            )
            if penalty.points != data.points:
                raise ArchiveError(
                    f"{where}: under this tournament's rules this false win costs "
                    f"{penalty.points} points, not {data.points}.",
                    code="false_win_points",
                )

    def _end(self, game: GameInMemory | _OneByOne) -> None:
        loader, data = self.loader, self.data
        confirmed = data.confirmed(round_finished=self.round_finished)
        sheet = loader.sheet(data, confirmed=confirmed)
        with at(loader.where(*self.location)):
            game.end(ended_by_time=data.ended_by_time, as_recorded=sheet)
            if confirmed and game.table.confirmed_at is None:
                game.confirm(as_recorded=sheet)
            elif not confirmed and game.table.confirmed_at is not None:
                raise ArchiveError(
                    f"{loader.where(*self.location)}: the game sheet is not confirmed, but in "
                    "this tournament game sheets count as soon as they are submitted.",
                    code="sheet_unconfirmed",
                )

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

    def _check_recorded(self, hand: HandRecord | DealRecord, recorded: Deal, where: str) -> None:
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

    def _check_deal(self, deal: DealRecord, recorded: Deal, where: str) -> None:
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
