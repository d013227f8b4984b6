"""Recording and correcting the result of a hand."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.engine import RulePreset
from scoring.engine.rulebook import Scored
from scoring.engine_messages import engine_message
from tournament import deals
from tournament.models import (
    FALSE_WIN_KINDS,
    AuditEntry,
    ExtraWin,
    Hand,
    Player,
    Seat,
    Table,
    Tournament,
)
from tournament.rotation import WINDS
from tournament.services._common import (
    add_to_scores,
    audit,
    hand_snapshot,
    lock_table,
    recompute_scores,
    refuse_after_end,
    refuse_before_play,
    refuse_unless_playing,
    replayed,
    seat_of,
    seats_of,
    submission_key,
)
from tournament.services.games import refuse_confirmed_unless_organiser


@dataclass(frozen=True)
class Facts:
    """What the caller says of a deal besides its result, as the services take it: the
    players named by Player, the values as entered."""

    winner: Player | None = None
    discarder: Player | None = None
    fan: int | None = None
    flowers: int = 0
    tiles: dict[str, Any] | None = None
    value: int | None = None
    extra_winners: tuple[tuple[Player, int | None], ...] = ()
    riichi: tuple[Player, ...] = ()
    faulty_claims: tuple[Player, ...] = ()
    ready: tuple[Player, ...] = ()
    faulty_riichi: tuple[Player, ...] = ()
    offender: Player | None = None
    # The fan given with the tiles is a record (an archive's): it stands even where the tiles
    # score another fan under the rulings in force today.
    recorded_fan: bool = False
    # The tiles of further winners (WA), scored like the winner's.
    extra_tiles: tuple[tuple[Player, dict[str, Any]], ...] = ()


@transaction.atomic
def record_hand(
    *,
    table: Table,
    number: int,
    result: str,
    winner: Player | None = None,
    discarder: Player | None = None,
    fan: int | None = None,
    flowers: int = 0,
    tiles: dict[str, Any] | None = None,
    value: int | None = None,
    extra_winners: Sequence[tuple[Player, int | None]] = (),
    extra_tiles: Sequence[tuple[Player, dict[str, Any]]] = (),
    riichi: Sequence[Player] = (),
    faulty_claims: Sequence[Player] = (),
    ready: Sequence[Player] = (),
    faulty_riichi: Sequence[Player] = (),
    offender: Player | None = None,
    entered_by: User,
    submission: uuid.UUID | str | None = None,
    recorded_fan: bool = False,
) -> Hand:
    """Record the next deal (MCR: hand) of the game at `table`.

    `result` is a win, a draw or (where a faulty out ends the deal: JT) a faulty out with its
    `offender`. A win has its `winner` and `discarder` (None: self-drawn) and its value: under
    MCR `fan` and `flowers`, or `tiles` (the case format) that the engine scores for the
    winner's seat wind and the prevailing wind; under other presets `value` (JT: the final
    score F; WA: points) or, where the preset's engine scores them (JT, WA), `tiles` (the case
    format: the recorded value is the engine's, and a value given too must agree), with
    `extra_winners` (player, value) on the same discard where the
    preset lets several players win. The preset's facts of the deal: `riichi` declarations and
    `faulty_claims` (one entry per claim), and after a draw who was `ready` and whose riichi was
    faulty. The deal's position (prevailing wind, dealer, extra-hand number) follows from the
    deals before it, and its payments from all of these.

    `submission` is the idempotency key of the form or request: when `entered_by` already
    recorded a deal at the table with that key and the same arguments, that deal is returned
    (marked ``replayed``) and nothing new is recorded, so a resubmission after a lost
    connection is harmless; the key sent again with other arguments is refused
    (`submission_key_reused`).

    `recorded_fan`: the `fan` given with `tiles` is what was recorded when the hand was played
    (an archive's): it is kept even where the tiles score another fan under today's rulings. The
    tiles must still be a winning hand, and the fan at least the minimum.
    """
    key = submission_key(
        submission, user=entered_by, kind="hand", number=number, result=result,
        winner=winner, discarder=discarder, fan=fan, flowers=flowers, tiles=tiles, value=value,
        extra_winners=[list(pair) for pair in extra_winners],
        extra_tiles=[list(pair) for pair in extra_tiles], riichi=riichi,
        faulty_claims=faulty_claims, ready=ready, faulty_riichi=faulty_riichi, offender=offender,
    )  # fmt: skip
    table = lock_table(table)
    earlier = replayed(Hand, table, key)
    if earlier is not None:
        return earlier
    facts = Facts(
        winner, discarder, fan, flowers, tiles, value, tuple(extra_winners), tuple(riichi),
        tuple(faulty_claims), tuple(ready), tuple(faulty_riichi), offender, recorded_fan,
        tuple(extra_tiles),
    )  # fmt: skip
    seats = seats_of(table, false_wins_in=number)
    hand, extra = prepare_hand(
        table=table,
        seats=seats,
        last=deals.last_deal(table),
        number=number,
        result=result,
        facts=facts,
        entered_by=entered_by,
    )
    for name, value in (key.fields() if key else {}).items():
        setattr(hand, name, value)
    try:
        # No savepoint: with the table locked and its last hand read under the lock, the
        # constraint is only a backstop. Should it fire, the error leaves this transaction at
        # once (nothing more may be asked in it), rolled back.
        hand.save()
    except IntegrityError as error:
        raise _conflict(table, number, look=False) from error
    _save_extra_wins(hand, extra)
    add_to_scores(seats, hand.payments)
    audit(
        table=table,
        actor=entered_by,
        action=AuditEntry.Action.HAND_RECORDED,
        before=None,
        after=hand_snapshot(hand),
    )
    return hand


def prepare_hand(
    *,
    table: Table,
    seats: list[Seat],
    last: Hand | None,
    number: int,
    result: str,
    facts: Facts,
    entered_by: User,
    false_wins: set[tuple[int, int]] | None = None,
) -> tuple[Hand, list[ExtraWin]]:
    """The deal `number` after `last` at `table` (its round and tournament loaded; `seats` in
    starting order), checked as `record_hand` checks it, placed and paid: not saved, with its
    further winners (to save after it). Raises ValidationError.

    `false_wins` holds the (hand number, seat id) of the false wins recorded at the table,
    when the caller knows them (an import building a game in memory); None: they are read
    from the database. Everything else is read from the arguments.
    """
    refuse_unless_playing(table)
    refuse_after_end(table)
    last_number = last.number if last else 0
    if number <= last_number:
        raise _conflict(table, number)
    if number != last_number + 1:
        raise ValidationError(
            _("Hands are entered in order: the next hand at table %(table)s is hand %(next)s."),
            code="out_of_order",
            params={"table": table.number, "next": last_number + 1},
        )
    at = deals.following(table.round.tournament, last)
    if at is None:
        raise _game_over(table.round.tournament)
    hand = Hand(table=table, number=number, entered_by=entered_by, entered_at=timezone.now())
    extra = _fill_in(hand, table, seats, at, result, facts, false_wins)
    return hand, extra


@transaction.atomic
def correct_hand(
    *,
    hand: Hand,
    result: str,
    winner: Player | None = None,
    discarder: Player | None = None,
    fan: int | None = None,
    flowers: int = 0,
    tiles: dict[str, Any] | None = None,
    value: int | None = None,
    extra_winners: Sequence[tuple[Player, int | None]] = (),
    extra_tiles: Sequence[tuple[Player, dict[str, Any]]] = (),
    riichi: Sequence[Player] = (),
    faulty_claims: Sequence[Player] = (),
    ready: Sequence[Player] = (),
    faulty_riichi: Sequence[Player] = (),
    offender: Player | None = None,
    entered_by: User,
) -> Hand:
    """Replace a recorded deal (the arguments as for `record_hand`). Every deal after it is
    placed again (who deals, the extra-hand numbers) and paid again, the game scores are
    recomputed and the change audited.

    Once the game's sheet is confirmed, only an organiser corrects it.
    """
    table = lock_table(hand.table)
    refuse_before_play(table)
    refuse_confirmed_unless_organiser(table, entered_by)
    hand = _with_facts(Hand.objects).select_related("entered_by").get(pk=hand.pk)
    before = hand_snapshot(hand)
    seats = seats_of(table)
    tournament = table.round.tournament
    scheme = tournament.seat_rotation
    at = deals.deal_at(deals.position_of(hand, scheme, tournament.rules), scheme)
    facts = Facts(
        winner, discarder, fan, flowers, tiles, value, tuple(extra_winners), tuple(riichi),
        tuple(faulty_claims), tuple(ready), tuple(faulty_riichi), offender,
        extra_tiles=tuple(extra_tiles),
    )  # fmt: skip
    extra = _fill_in(hand, table, seats, at, result, facts)
    hand.entered_by = entered_by
    hand.entered_at = timezone.now()
    hand.save()
    hand.extra_wins.all().delete()
    _save_extra_wins(hand, extra)
    _replay(table)
    recompute_scores(table, seats)
    hand = _with_facts(Hand.objects).select_related("entered_by").get(pk=hand.pk)
    audit(
        table=table,
        actor=entered_by,
        action=AuditEntry.Action.HAND_CORRECTED,
        before=before,
        after=hand_snapshot(hand),
    )
    return hand


@transaction.atomic
def correct_last_hand(
    *,
    table: Table,
    number: int,
    result: str,
    winner: Player | None = None,
    discarder: Player | None = None,
    fan: int | None = None,
    flowers: int = 0,
    entered_by: User,
) -> Hand:
    """The referee's correction at the table: only the last hand, and only while the game is
    open and the round in play (the organiser corrects anything with `correct_hand`).

    A correction sent again, to a hand that already has exactly these values, changes nothing:
    the hand is returned marked ``unchanged = True``.
    """
    table = lock_table(table)
    hand = (
        table.hands.select_related("winner__player", "discarder__player")
        .filter(number=number)
        .first()
    )
    if hand is not None and _has_result(hand, result, winner, discarder, fan, flowers):
        hand.unchanged = True
        return hand
    if table.ended_at is not None:
        raise ValidationError(
            _(
                "The game sheet is submitted, so the referee no longer corrects hands here: "
                "ask the organiser to correct hand %(number)s."
            ),
            code="game_ended",
            params={"number": number},
        )
    refuse_unless_playing(table)
    if hand is None or _last_number(table) != number:
        raise ValidationError(
            _(
                "Hand %(number)s is not the last hand entered any more; only the last hand is "
                "corrected here (the organiser corrects earlier hands). Nothing was changed."
            ),
            code="not_last_hand",
            params={"number": number},
        )
    return correct_hand(
        hand=hand,
        result=result,
        winner=winner,
        discarder=discarder,
        fan=fan,
        flowers=flowers,
        entered_by=entered_by,
    )


def _has_result(
    hand: Hand,
    result: str,
    winner: Player | None,
    discarder: Player | None,
    fan: int | None,
    flowers: int,
) -> bool:
    """Whether `hand` already records this result (the values a referee corrects)."""
    if result != hand.result:
        return False
    if result == Hand.Result.DRAW:
        return True
    return (
        winner is not None
        and hand.winner is not None
        and hand.winner.player_id == winner.pk
        and (hand.discarder.player_id if hand.discarder else None)
        == (discarder.pk if discarder else None)
        and hand.fan == fan
        and hand.flowers == flowers
    )


def _last_number(table: Table) -> int | None:
    return table.hands.aggregate(last=Max("number"))["last"]


def _with_facts(hands: Any) -> Any:
    """`hands` with what placing and paying a deal, and its audit snapshot, read."""
    return hands.select_related(
        "winner__player", "discarder__player", "offender__player"
    ).prefetch_related("extra_wins__winner__player")


def _game_over(tournament: Tournament) -> ValidationError:
    every = tournament.rules.hands_per_game
    if every is not None:
        return ValidationError(
            _("A game has %(hands)s hands."), code="game_complete", params={"hands": every}
        )
    return ValidationError(
        _("The game is over: its last wind round has been played. End the game."),
        code="game_complete",
    )


def _replay(table: Table) -> None:
    """Place and pay every deal of the game again, in order, after a change to one of them."""
    hands = list(_with_facts(table.hands.order_by("number")))
    try:
        changed, _next = deals.replay(table.round.tournament, hands)
    except deals.AfterTheEnd as error:
        raise ValidationError(
            _(
                "With this change the game is over before deal %(number)s: remove the deals "
                "after the end first."
            ),
            code="deals_after_end",
            params={"number": error.number},
        ) from error
    except ValueError as error:
        raise ValidationError(str(error), code="bad_deal") from error
    Hand.objects.bulk_update(changed, deals.POSITIONED + deals.PAID)


def _save_extra_wins(hand: Hand, extra: list[ExtraWin]) -> None:
    for win in extra:
        win.hand = hand
    ExtraWin.objects.bulk_create(extra)


@transaction.atomic
def remove_last_hand(*, table: Table, entered_by: User, number: int | None = None) -> Hand:
    """Delete the last hand entered at `table` (entered by mistake); the game must not have ended.

    `number` is the hand the caller saw as the last one: when another hand has been entered
    since, nothing is removed (`not_last_hand`). False wins recorded for that hand stay: remove
    them separately if they were mistakes too.
    """
    table = lock_table(table)
    refuse_before_play(table)
    refuse_after_end(table)
    hand = (
        table.hands.select_related("winner__player", "discarder__player", "entered_by")
        .order_by("-number")
        .first()
    )
    if hand is None:
        raise ValidationError(_("No hand is entered at this table yet."), code="no_hands")
    if number is not None and hand.number != number:
        raise ValidationError(
            _("Hand %(number)s is not the last hand entered any more; nothing was removed."),
            code="not_last_hand",
            params={"number": number, "last": hand.number},
        )
    before = hand_snapshot(hand)
    hand.delete()
    recompute_scores(table, seats_of(table))
    audit(
        table=table,
        actor=entered_by,
        action=AuditEntry.Action.HAND_REMOVED,
        before=before,
        after=None,
    )
    return hand


def _conflict(table: Table, number: int, *, look: bool = True) -> ValidationError:
    """The hand `number` at `table` is entered already; `look`: say by whom and when."""
    existing = None
    if look:
        existing = (
            Hand.objects.select_related("entered_by").filter(table=table, number=number).first()
        )
    if existing is None:
        who = ""
    else:
        when = timezone.localtime(existing.entered_at)
        who = f" by {existing.entered_by.get_username()} at {when:%H:%M:%S}"
    return ValidationError(
        _(
            "Hand %(number)s at table %(table)s was already entered%(who)s. Reload the score sheet "
            "to see it; to change it, correct that hand."
        ),
        code="conflict",
        params={"number": number, "table": table.number, "who": who},
    )


def _fill_in(
    hand: Hand,
    table: Table,
    seats: list[Seat],
    at: deals.DealAt,
    result: str,
    facts: Facts,
    false_wins: set[tuple[int, int]] | None = None,
) -> list[ExtraWin]:
    """Check a deal's result and facts under the tournament's preset, and set the deal's fields,
    position and payments; answers its further winners, to save. Raises ValidationError."""
    tournament = table.round.tournament
    preset = tournament.rules
    if result not in Hand.Result.values or (
        result == Hand.Result.FAULTY_OUT and not preset.faulty_out.ends_deal
    ):
        raise ValidationError(
            _("The result of a hand is a win or a draw, not %(result)r."),
            code="bad_result",
            params={"result": result},
        )
    hand.result = result
    hand.winner = hand.discarder = hand.offender = None
    hand.fan, hand.flowers, hand.tiles, hand.value = None, 0, None, None
    hand.riichi = _winds(seats, facts.riichi, "riichi", preset.deal.riichi_stake)
    hand.faulty_claims = _winds(
        seats, facts.faulty_claims, "faulty_claims", preset.deal.faulty_claim, repeat=True
    )
    hand.ready, hand.faulty_riichi = [], []
    if result != Hand.Result.DRAW and (facts.ready or facts.faulty_riichi):
        raise ValidationError(
            _("Ready hands and faulty riichi are said only after a drawn deal."),
            code="draw_only",
            params={"fact": "ready" if facts.ready else "faulty riichi"},
        )
    extra: list[ExtraWin] = []
    if result == Hand.Result.DRAW:
        if (
            facts.winner or facts.discarder or facts.fan is not None or facts.flowers
            or facts.tiles or facts.value is not None or facts.extra_winners
            or facts.extra_tiles
            or facts.faulty_claims or facts.offender
        ):  # fmt: skip
            raise ValidationError(
                _("A drawn hand has no winner, discarder, fan, flowers or tiles."),
                code="draw_has_no_winner",
            )
        hand.ready = _winds(seats, facts.ready, "ready", preset.deal.ready_pool)
        hand.faulty_riichi = _winds(seats, facts.faulty_riichi, "faulty_riichi", 1)
        if not set(hand.faulty_riichi) <= set(hand.riichi):
            raise ValidationError(
                _("A faulty riichi is a riichi declared without a ready hand: declare it too."),
                code="bad_riichi",
            )
    elif result == Hand.Result.FAULTY_OUT:
        if facts.offender is None:
            raise ValidationError(_("A faulty out needs its offender."), code="offender_required")
        if (
            facts.winner or facts.discarder or facts.extra_winners or facts.extra_tiles
            or facts.faulty_claims
        ):  # fmt: skip
            raise ValidationError(
                _("A faulty out ends the deal: it has no winner, discarder or claims."),
                code="draw_has_no_winner",
            )
        hand.offender = seat_of(seats, facts.offender, "offender")
    else:
        extra = _fill_in_win(hand, table, seats, at, facts, false_wins)
    hand.number = at.number
    try:
        deals.place(hand, at, preset, extra)
    except ValueError as error:  # facts the engine finds contradictory
        raise ValidationError(str(error), code="bad_deal") from error
    return extra


def _winds(
    seats: list[Seat], players: Sequence[Player], name: str, offered: int, *, repeat=False
) -> list[str]:
    """The starting winds of `players`, for a fact of the deal the preset has (`offered`)."""
    if players and not offered:
        raise ValidationError(
            _("This tournament's rules have no %(fact)s."),
            code="not_in_preset",
            params={"fact": name.replace("_", " ")},
        )
    winds = [seat_of(seats, player, name.replace("_", " ")).starting_wind for player in players]
    if not repeat and len(set(winds)) != len(winds):
        raise ValidationError(
            _("Name each player once for %(fact)s."),
            code="named_twice",
            params={"fact": name.replace("_", " ")},
        )
    return sorted(winds, key=WINDS.index)


def _fill_in_win(
    hand: Hand,
    table: Table,
    seats: list[Seat],
    at: deals.DealAt,
    facts: Facts,
    false_wins: set[tuple[int, int]] | None = None,
) -> list[ExtraWin]:
    tournament = table.round.tournament
    preset = tournament.rules
    if facts.winner is None:
        raise ValidationError(_("A win needs a winner."), code="winner_required")
    winner_seat = seat_of(seats, facts.winner, "winner")
    discarder_seat = seat_of(seats, facts.discarder, "discarder") if facts.discarder else None
    if discarder_seat == winner_seat:
        raise ValidationError(
            _("The winner cannot have discarded the winning tile."), code="discarder_is_winner"
        )
    if facts.offender is not None:
        raise ValidationError(
            _("A win has no offender: record a faulty out separately."), code="bad_result"
        )
    _refuse_false_win_offender(table, hand.number, winner_seat, facts.winner, false_wins)
    hand.winner, hand.discarder = winner_seat, discarder_seat
    if preset.counts_fan:
        if facts.value is not None or facts.extra_winners or facts.extra_tiles:
            raise ValidationError(
                _("This tournament counts a hand in fan: give its fan and flowers."),
                code="fan_required",
            )
        hand.fan, hand.flowers, hand.tiles = _fan_of(tournament, at, hand, facts)
        return []
    if facts.fan is not None or facts.flowers:
        raise ValidationError(
            _("This tournament counts a hand in points: give its value, not fan or tiles."),
            code="value_required",
        )
    hand.value, hand.tiles = _value_of(
        tournament, at, hand, winner_seat, facts.winner, facts.value, facts.tiles
    )
    further = list(facts.extra_winners)
    named = {player.pk for player, _value in further}
    further += [(player, None) for player, _tiles in facts.extra_tiles if player.pk not in named]
    tiles_of = {player.pk: tiles for player, tiles in facts.extra_tiles}
    if further and not (preset.deal.several_winners and discarder_seat):
        raise ValidationError(
            _("Only on a discard, and only where the rules allow it, do several players win."),
            code="one_winner",
        )
    extra, winners = [], {winner_seat.pk}
    for player, value in further:
        seat = seat_of(seats, player, "winner")
        if seat.pk in winners or seat == discarder_seat:
            raise ValidationError(
                _("%(player)s is named twice among the winners, or discarded the tile."),
                code="winner_twice",
                params={"player": player.name},
            )
        _refuse_false_win_offender(table, hand.number, seat, player, false_wins)
        winners.add(seat.pk)
        scored, tiles = _value_of(
            tournament, at, hand, seat, player, value, tiles_of.get(player.pk)
        )
        extra.append(ExtraWin(winner=seat, value=scored, tiles=tiles))
    return extra


def _value_of(
    tournament: Tournament,
    at: deals.DealAt,
    hand: Hand,
    seat: Seat,
    player: Player,
    value: int | None,
    tiles: dict[str, Any] | None,
) -> tuple[int, dict[str, Any] | None]:
    """A winner's value under a preset that counts points: the rulebook's from the tiles (a
    value given too must agree), else the value as given; checked against the preset."""
    preset = tournament.rules
    if tiles is not None:
        scored, tiles = _scored_tiles(tournament, at, hand, seat, tiles)
        if scored.below_minimum:
            raise ValidationError(
                _(
                    "%(player)s's tiles are worth %(value)s points, below the minimum of "
                    "%(minimum)s: a faulty out, not a win."
                ),
                code="below_minimum",
                params={"player": player.name, "value": scored.value, "minimum": preset.minimum},
            )
        if scored.refused or scored.value is None:
            raise ValidationError(engine_message(scored.verdict), code="invalid_tiles")
        if value is not None and value != scored.value:
            raise ValidationError(
                _("%(player)s's tiles score %(scored)s, not the %(value)s entered."),
                code="value_disagrees_with_tiles",
                params={"player": player.name, "scored": scored.value, "value": value},
            )
        value = scored.value
    return _checked_value(preset, value, player), tiles


def _scored_tiles(
    tournament: Tournament, at: deals.DealAt, hand: Hand, winner: Seat, tiles: dict[str, Any]
) -> tuple[Scored, dict[str, Any]]:
    """A winner's tiles with the situation of the deal (the winner's seat wind, the prevailing
    wind, self-drawn when no one discarded, the winner's riichi), scored by the rulebook."""
    rules = tournament.rulebook
    case = rules.situation(
        tiles,
        seat_wind=at.seat_winds[winner.index],
        prevailing_wind=at.prevailing_wind,
        self_drawn=hand.discarder is None,
        riichi=winner.starting_wind in hand.riichi,
    )
    return rules.score(case, profile=tournament.profile), case


def _refuse_false_win_offender(
    table: Table,
    number: int,
    seat: Seat,
    player: Player,
    false_wins: set[tuple[int, int]] | None = None,
) -> None:
    if false_wins is not None:
        offended = (number, seat.pk) in false_wins
    else:
        known = getattr(seat, "false_win", None)  # read with the seats (seats_of's false_wins_in)
        if known is None or getattr(seat, "false_wins_in", None) != number:
            known = table.penalties.filter(
                hand_number=number, seat=seat, kind__in=FALSE_WIN_KINDS
            ).exists()
        offended = known
    if offended:
        raise ValidationError(
            _("%(player)s declared a false win in hand %(number)s and cannot win it."),
            code="offender_cannot_win",
            params={"player": player.name, "number": number},
        )


def _checked_value(preset: RulePreset, value: int | None, player: Player) -> int:
    """A hand's value as the preset allows it (JT: a multiple of 10 from 20 to the limit);
    below the preset's minimum it is a faulty out (WA: 15)."""
    if value is None:
        raise ValidationError(
            _("A win needs its value."), code="value_required", params={"player": player.name}
        )
    limit = preset.limit
    if value < preset.least_value or value % preset.value_step or (limit and value > limit):
        raise ValidationError(
            _(
                "%(player)s's hand cannot be worth %(value)s: give a value from %(least)s to "
                "%(limit)s, a multiple of %(step)s."
            ),
            code="bad_value",
            params={
                "player": player.name,
                "value": value,
                "least": max(preset.least_value, preset.minimum),
                "limit": limit,
                "step": preset.value_step,
            },
        )
    if value < preset.minimum:
        raise ValidationError(
            _("A win needs at least %(minimum)s points; %(player)s's %(value)s is a faulty out."),
            code="below_minimum",
            params={"minimum": preset.minimum, "player": player.name, "value": value},
        )
    return value


def _fan_of(
    tournament: Tournament, at: deals.DealAt, hand: Hand, facts: Facts
) -> tuple[int, int, dict[str, Any] | None]:
    """MCR: the fan and flowers of a win, from its tiles or as entered, checked."""
    preset = tournament.rules
    fan, flowers, tiles = facts.fan, facts.flowers, facts.tiles
    assert hand.winner is not None
    if tiles is not None:
        fan, flowers, tiles = _score_tiles(
            tournament, at, hand, fan, flowers, tiles, recorded=facts.recorded_fan
        )
    if fan is None:
        raise ValidationError(_("A win needs its fan (or its tiles)."), code="fan_required")
    if flowers and not preset.flowers:
        raise ValidationError(_("This tournament's rules have no flowers."), code="bad_flowers")
    if fan + (flowers if preset.flowers_count_toward_minimum else 0) < preset.minimum:
        raise ValidationError(
            _(
                "A win needs at least %(minimum)s fan, not counting flowers; "
                "%(fan)s is a false win."
            ),
            code="below_minimum",
            params={"minimum": preset.minimum, "fan": fan},
        )
    if not 0 <= flowers <= 8:
        raise ValidationError(_("Flowers are 0 to 8."), code="bad_flowers")
    return fan, flowers, tiles


def _score_tiles(
    tournament: Tournament,
    at: deals.DealAt,
    hand: Hand,
    fan: int | None,
    flowers: int,
    tiles: dict[str, Any],
    *,
    recorded: bool = False,
) -> tuple[int, int, dict[str, Any]]:
    """The fan and flowers of the tiles (and the tiles with the winds of the hand). A `fan`
    given beside them must agree, unless it is `recorded` (see `record_hand`)."""
    winner = hand.winner
    assert winner is not None
    scored, case = _scored_tiles(
        tournament, at, hand, winner, {**tiles, "flowers": tiles.get("flowers", flowers)}
    )
    keep = recorded and fan is not None and fan != scored.value
    if scored.below_minimum and not keep:
        raise ValidationError(
            _("These tiles are worth %(fan)s fan without flowers: a false win, not a win."),
            code="below_minimum",
            params={"fan": scored.value},
        )
    if scored.refused or scored.value is None:
        raise ValidationError(engine_message(scored.verdict), code="invalid_tiles")
    scored_fan, scored_flowers = scored.value, scored.flowers
    if keep and fan is not None:
        scored_fan = fan  # the record stands; the minimum is checked on it
    if (fan is not None and fan != scored_fan) or (flowers and flowers != scored_flowers):
        raise ValidationError(
            _("The tiles score %(fan)s fan and %(flowers)s flowers, not what was entered."),
            code="fan_mismatch",
            params={"fan": scored_fan, "flowers": scored_flowers},
        )
    return scored_fan, scored_flowers, case
