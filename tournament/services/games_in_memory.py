"""Whole games built in memory and then written at once (an import): each hand, penalty, end
and confirmation checked, placed and paid by the same functions as the services that record
them one by one, with what those would read back from the database between one entry and the
next held here instead; then a round's entries written in a fixed number of statements."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from tournament.models import AuditEntry, Deal, ExtraWin, Penalty, Player, Round, Seat, Table
from tournament.reads import deals
from tournament.reads.permissions import is_organiser, referees_in
from tournament.services._common import (
    game_scores,
    hand_snapshot,
    penalty_snapshot,
    refuse_after_end,
    refuse_unless_playing,
)
from tournament.services.as_recorded import AsRecorded, SheetAsRecorded, keep_as_recorded
from tournament.services.audit import record, record_all
from tournament.services.deal_input import DealInput
from tournament.services.deals import prepare_deal
from tournament.services.games import (
    SHEET_FIELDS,
    close_sheet,
    confirmed_scores,
    mark_confirmed,
    may_confirm,
    refuse_confirm,
    refuse_confirmed_unless_organiser,
    refuse_end,
)
from tournament.services.live import note_change
from tournament.services.penalties import prepare_false_win, prepare_penalty


@dataclass
class GameInMemory:
    """The game at one table, entered in memory by `actor` (as `record_deal`, `record_penalty`,
    `record_false_win`, `end_game` and `confirm_game` record it, and refusing what they refuse,
    with the same messages); `write_games` writes it. Got from `games_in_memory`."""

    table: Table
    seats: list[Seat]  # East, South, West, North
    actor: User
    organiser: bool  # whether `actor` organises the tournament
    referee: bool  # whether `actor` referees in it
    # (hand number, seat id) of every false win so far: its offender cannot win that hand.
    false_wins: set[tuple[int, int]] = field(default_factory=set)
    # The hands entered, in order, each with its further winners: the one record of them (the
    # last hand and a hand by its number are read from it).
    hands: list[tuple[Deal, list[ExtraWin]]] = field(default_factory=list)
    penalties: list[Penalty] = field(default_factory=list)
    # What the audit records, in order: an action and what it records (a hand's is made when
    # the hand is written: its snapshot reads its further winners).
    events: list[tuple[str, dict[str, Any] | tuple[Deal, datetime]]] = field(default_factory=list)

    @property
    def last(self) -> Deal | None:
        """The last hand entered (None before the first)."""
        return self.hands[-1][0] if self.hands else None

    def hand(self, number: int) -> Deal | None:
        """The hand entered as `number`, if any (a game holds a few dozen at most)."""
        return next((hand for hand, _extra in reversed(self.hands) if hand.number == number), None)

    @property
    def next_deal(self) -> deals.DealAt | None:
        """The deal in play after the last one entered (None: the game is over)."""
        return deals.following(self.table.round.tournament, self.last)

    def add_hand(
        self, *, number: int, deal: DealInput, as_recorded: AsRecorded | None = None
    ) -> Deal:
        """Enter `deal` as hand `number`, as `record_deal` records it."""
        hand, extra = prepare_deal(
            table=self.table,
            seats=self.seats,
            last=self.last,
            number=number,
            deal=deal,
            entered_by=self.actor,
            false_wins=self.false_wins,
        )
        # The further winners, as the deals after this one and the audit read them.
        hand._prefetched_objects_cache = {"extra_wins": extra}  # type: ignore[attr-defined]
        self.events.append((AuditEntry.Action.HAND_RECORDED, (hand, hand.entered_at)))
        keep_as_recorded(hand, as_recorded)
        self.hands.append((hand, extra))
        return hand

    def _refuse_penalty(self) -> None:
        refuse_unless_playing(self.table)
        refuse_confirmed_unless_organiser(self.table, self.actor, organiser=self.organiser)
        if not self.organiser:
            refuse_after_end(self.table, what="penalty")

    def add_false_win(
        self,
        *,
        number: int,
        offender: Player,
        invalid_hand: bool,
        reason: str = "",
        as_recorded: AsRecorded | None = None,
    ) -> Penalty:
        """Enter a false win, as `record_false_win` records it."""
        self._refuse_penalty()
        last = self.last.number if self.last else 0
        penalty = prepare_false_win(
            table=self.table,
            seats=self.seats,
            number=number,
            offender=offender,
            invalid_hand=invalid_hand,
            last=last,
            in_play=self.table.ended_at is None and self.next_deal is not None,
            hand=self.hand(number),
            entered_by=self.actor,
        )
        penalty.reason = reason.strip() or penalty.reason
        self.false_wins.add((number, penalty.seat.pk))
        return self._add_penalty(penalty, as_recorded)

    def add_penalty(
        self,
        *,
        player: Player,
        points: int,
        distributed: bool,
        reason: str,
        deal_number: int | None = None,
        as_recorded: AsRecorded | None = None,
    ) -> Penalty:
        """Enter a penalty, as `record_penalty` records it."""
        self._refuse_penalty()
        penalty = prepare_penalty(
            table=self.table,
            seats=self.seats,
            player=player,
            points=points,
            distributed=distributed,
            reason=reason,
            deal_number=deal_number,
            entered_by=self.actor,
            deals_so_far=(self.last.number if self.last else 0) + 1,
        )
        return self._add_penalty(penalty, as_recorded)

    def _add_penalty(self, penalty: Penalty, as_recorded: AsRecorded | None) -> Penalty:
        keep_as_recorded(penalty, as_recorded)
        self.events.append((AuditEntry.Action.PENALTY_RECORDED, penalty_snapshot(penalty)))
        self.penalties.append(penalty)
        return penalty

    def set_scores(self) -> None:
        """Set the seats' game scores from the hands and penalties entered so far."""
        scores = game_scores(self.seats, [hand.payments for hand, _ in self.hands], self.penalties)
        for seat, score in zip(self.seats, scores, strict=True):
            seat.score = score

    def end(self, *, ended_by_time: bool, as_recorded: SheetAsRecorded | None = None) -> None:
        """End the game and submit its sheet, as `end_game` does."""
        following = self.next_deal
        hands = refuse_end(
            self.table,
            ended_by_time=ended_by_time,
            hands=lambda: len(self.hands),
            over=lambda: following is None,
        )
        close_sheet(
            self.table,
            ended_by_time=ended_by_time,
            in_play=following is not None,
            entered_by=self.actor,
            as_recorded=as_recorded,
        )
        after = {"hands": hands, "ended_by_time": self.table.ended_by_time}
        self.events.append((AuditEntry.Action.GAME_ENDED, after))

    def confirm(self, *, as_recorded: SheetAsRecorded | None = None) -> None:
        """Confirm the game's sheet, as `confirm_game` does."""
        allowed = may_confirm(
            self.actor, self.table, organiser=self.organiser, referee=self.referee
        )
        refuse_confirm(self.table, self.actor, allowed=allowed)
        mark_confirmed(self.table, self.actor, as_recorded)
        self.set_scores()
        self.events.append((AuditEntry.Action.GAME_CONFIRMED, confirmed_scores(self.seats)))


def games_in_memory(*, round: Round, actor: User) -> dict[int, GameInMemory]:
    """The games of `round` (by table id) to enter in memory, for `actor`: its tables locked
    until the transaction ends, as the services lock a table, and their seats read once."""
    tables = list(
        Table.objects.select_related("round__tournament")
        .select_for_update(of=("self",))
        .filter(round=round)
    )
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.select_related("player").filter(table__round=round):
        seats.setdefault(seat.table_id, []).append(seat)
    if not tables:
        return {}
    organiser = is_organiser(actor, round.tournament)
    referee = not organiser and referees_in(actor, round.tournament)
    return {
        table.pk: GameInMemory(
            table=table,
            seats=sorted(seats.get(table.pk, []), key=lambda seat: seat.index),
            actor=actor,
            organiser=organiser,
            referee=referee,
        )
        for table in tables
    }


@transaction.atomic
def write_games(games: list[GameInMemory]) -> None:
    """Write the games entered in memory (of one round): their hands, further winners,
    penalties, audit entries, seat scores and game sheets, each in one statement."""
    hands = [hand for game in games for hand, _extra in game.hands]
    Deal.objects.bulk_create(hands)
    wins = []
    for game in games:
        for hand, extra in game.hands:
            for win in extra:
                win.deal = hand
                wins.append(win)
    ExtraWin.objects.bulk_create(wins)
    Penalty.objects.bulk_create([penalty for game in games for penalty in game.penalties])
    entries = [
        record(
            game.table.round.tournament_id,
            action,
            actor=game.actor,
            table=game.table,
            after=_after(game, recorded),
            save=False,
        )
        for game in games
        for action, recorded in game.events
    ]
    record_all(entries)
    for game in games:
        game.set_scores()
    Seat.objects.bulk_update([seat for game in games for seat in game.seats], ["score"])
    Table.objects.bulk_update(
        [game.table for game in games if game.table.ended_at is not None], [*SHEET_FIELDS]
    )
    if entries:
        note_change(games[0].table.round.tournament_id)


def _after(game: GameInMemory, recorded: dict[str, Any] | tuple[Deal, datetime]) -> dict[str, Any]:
    if isinstance(recorded, dict):
        return recorded
    hand, entered_at = recorded  # written now: its snapshot reads its further winners
    return hand_snapshot(hand) | {
        "entered_by": game.actor.get_username(),
        "entered_at": entered_at.isoformat(),
    }
