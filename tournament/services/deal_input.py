"""A deal as a caller states it (`DealInput`), and its checking under the tournament's preset:
the result and its facts, the winners' values from fan, points or tiles, the deal's place in
the game and its payments. The services that record and correct deals take a `DealInput`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from scoring.engine import RulePreset
from scoring.engine.rulebook import Scored
from scoring.engine_messages import engine_message
from tournament.domain.rotation import WINDS
from tournament.models import FALSE_WIN_KINDS, Deal, ExtraWin, Player, Seat, Table, Tournament
from tournament.reads import deals
from tournament.services._common import seat_of


@dataclass(frozen=True)
class DealInput:
    """Everything a caller says of a deal, the players named by `Player`, the values as
    entered; an adapter builds it once from its form, body or record.

    `result` is a win, a draw or (where a faulty out ends the deal: JT) a faulty out with its
    `offender`. A win has its `winner` and `discarder` (None: self-drawn) and its value: under
    MCR `fan` and `flowers`, or `tiles` (the case format) that the engine scores for the
    winner's seat wind and the prevailing wind; under other presets `value` (JT: the final
    score F; WA: points) or, where the preset's engine scores them, `tiles` (the recorded value
    is the engine's, and a value given too must agree), with `extra_winners` (player, value)
    and `extra_tiles` (player, tiles) on the same discard where the preset lets several players
    win. The preset's facts of the deal: `riichi` declarations and `faulty_claims` (one entry
    per claim), and after a draw who was `ready` and whose riichi was faulty.

    `recorded_fan`: the `fan` given with `tiles` is what was recorded when the hand was played
    (an archive's): it is kept even where the tiles score another fan under today's rulings.
    The tiles must still be a winning hand, and the fan at least the minimum.

    Sequences given as lists are kept as tuples.
    """

    result: str
    winner: Player | None = None
    discarder: Player | None = None
    fan: int | None = None
    flowers: int = 0
    tiles: dict[str, Any] | None = None
    value: int | None = None
    extra_winners: Sequence[tuple[Player, int | None]] = ()
    extra_tiles: Sequence[tuple[Player, dict[str, Any]]] = ()
    riichi: Sequence[Player] = ()
    faulty_claims: Sequence[Player] = ()
    ready: Sequence[Player] = ()
    faulty_riichi: Sequence[Player] = ()
    offender: Player | None = None
    recorded_fan: bool = False

    def __post_init__(self) -> None:
        for name in ("riichi", "faulty_claims", "ready", "faulty_riichi"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        for name in ("extra_winners", "extra_tiles"):
            object.__setattr__(self, name, tuple(tuple(pair) for pair in getattr(self, name)))

    def sent(self) -> dict[str, Any]:
        """What a submission key's digest reads of the deal: every fact but `recorded_fan`
        (a resubmission with the same facts is the same submission)."""
        return {
            field.name: getattr(self, field.name)
            for field in fields(self)
            if field.name != "recorded_fan"
        }


def fill_in(
    hand: Deal,
    table: Table,
    seats: list[Seat],
    at: deals.DealAt,
    deal: DealInput,
    false_wins: set[tuple[int, int]] | None = None,
) -> list[ExtraWin]:
    """Check a deal's result and facts under the tournament's preset, and set the deal's fields,
    position and payments; answers its further winners, to save. Raises ValidationError.

    `false_wins` holds the (hand number, seat id) of the false wins recorded at the table,
    when the caller knows them (a game built in memory); None: they are read from the
    database."""
    result = deal.result
    tournament = table.round.tournament
    preset = tournament.rules
    if result not in Deal.Result.values or (
        result == Deal.Result.FAULTY_OUT and not preset.faulty_out.ends_deal
    ):
        raise ValidationError(
            _("The result of a hand is a win or a draw, not %(result)r."),
            code="bad_result",
            params={"result": result},
        )
    hand.result = result
    hand.winner = hand.discarder = hand.offender = None
    hand.fan, hand.flowers, hand.tiles, hand.value = None, 0, None, None
    hand.riichi = _winds(seats, deal.riichi, "riichi", preset.deal.riichi_stake)
    hand.faulty_claims = _winds(
        seats, deal.faulty_claims, "faulty_claims", preset.deal.faulty_claim, repeat=True
    )
    hand.ready, hand.faulty_riichi = [], []
    if result != Deal.Result.DRAW and (deal.ready or deal.faulty_riichi):
        raise ValidationError(
            _("Ready hands and faulty riichi are said only after a drawn deal."),
            code="draw_only",
            params={"fact": "ready" if deal.ready else "faulty riichi"},
        )
    extra: list[ExtraWin] = []
    if result == Deal.Result.DRAW:
        if (
            deal.winner or deal.discarder or deal.fan is not None or deal.flowers
            or deal.tiles or deal.value is not None or deal.extra_winners
            or deal.extra_tiles
            or deal.faulty_claims or deal.offender
        ):  # fmt: skip
            raise ValidationError(
                _("A drawn hand has no winner, discarder, fan, flowers or tiles."),
                code="draw_has_no_winner",
            )
        hand.ready = _winds(seats, deal.ready, "ready", preset.deal.ready_pool)
        hand.faulty_riichi = _winds(seats, deal.faulty_riichi, "faulty_riichi", 1)
        if not set(hand.faulty_riichi) <= set(hand.riichi):
            raise ValidationError(
                _("A faulty riichi is a riichi declared without a ready hand: declare it too."),
                code="bad_riichi",
            )
    elif result == Deal.Result.FAULTY_OUT:
        if deal.offender is None:
            raise ValidationError(_("A faulty out needs its offender."), code="offender_required")
        if (
            deal.winner or deal.discarder or deal.extra_winners or deal.extra_tiles
            or deal.faulty_claims
        ):  # fmt: skip
            raise ValidationError(
                _("A faulty out ends the deal: it has no winner, discarder or claims."),
                code="draw_has_no_winner",
            )
        hand.offender = seat_of(seats, deal.offender, "offender")
    else:
        extra = _fill_in_win(hand, table, seats, at, deal, false_wins)
    hand.number = at.number
    try:
        deals.place(hand, at, preset, extra)
    except ValueError as error:  # facts the engine finds contradictory
        raise ValidationError(str(error), code="bad_deal") from error
    return extra


def _winds(
    seats: list[Seat], players: Sequence[Player], name: str, offered: int, *, repeat: bool = False
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
    hand: Deal,
    table: Table,
    seats: list[Seat],
    at: deals.DealAt,
    deal: DealInput,
    false_wins: set[tuple[int, int]] | None = None,
) -> list[ExtraWin]:
    tournament = table.round.tournament
    preset = tournament.rules
    if deal.winner is None:
        raise ValidationError(_("A win needs a winner."), code="winner_required")
    winner_seat = seat_of(seats, deal.winner, "winner")
    discarder_seat = seat_of(seats, deal.discarder, "discarder") if deal.discarder else None
    if discarder_seat == winner_seat:
        raise ValidationError(
            _("The winner cannot have discarded the winning tile."), code="discarder_is_winner"
        )
    if deal.offender is not None:
        raise ValidationError(
            _("A win has no offender: record a faulty out separately."), code="bad_result"
        )
    _refuse_false_win_offender(table, hand.number, winner_seat, deal.winner, false_wins)
    hand.winner, hand.discarder = winner_seat, discarder_seat
    if preset.counts_fan:
        if deal.value is not None or deal.extra_winners or deal.extra_tiles:
            raise ValidationError(
                _("This tournament counts a hand in fan: give its fan and flowers."),
                code="fan_required",
            )
        hand.fan, hand.flowers, hand.tiles = _fan_of(tournament, at, hand, deal)
        return []
    if deal.fan is not None or deal.flowers:
        raise ValidationError(
            _("This tournament counts a hand in points: give its value, not fan or tiles."),
            code="value_required",
        )
    hand.value, hand.tiles = _value_of(
        tournament, at, hand, winner_seat, deal.winner, deal.value, deal.tiles
    )
    further = list(deal.extra_winners)
    named = {player.pk for player, _value in further}
    further += [(player, None) for player, _tiles in deal.extra_tiles if player.pk not in named]
    tiles_of = {player.pk: tiles for player, tiles in deal.extra_tiles}
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
    hand: Deal,
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
    tournament: Tournament, at: deals.DealAt, hand: Deal, winner: Seat, tiles: dict[str, Any]
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
                deal_number=number, seat=seat, kind__in=FALSE_WIN_KINDS
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
    tournament: Tournament, at: deals.DealAt, hand: Deal, deal: DealInput
) -> tuple[int, int, dict[str, Any] | None]:
    """MCR: the fan and flowers of a win, from its tiles or as entered, checked."""
    preset = tournament.rules
    fan, flowers, tiles = deal.fan, deal.flowers, deal.tiles
    assert hand.winner is not None
    if tiles is not None:
        fan, flowers, tiles = _score_tiles(
            tournament, at, hand, fan, flowers, tiles, recorded=deal.recorded_fan
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
    hand: Deal,
    fan: int | None,
    flowers: int,
    tiles: dict[str, Any],
    *,
    recorded: bool = False,
) -> tuple[int, int, dict[str, Any]]:
    """The fan and flowers of the tiles (and the tiles with the winds of the hand). A `fan`
    given beside them must agree, unless it is `recorded` (see `record_deal`)."""
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
