"""A tournament of each preset with everything its games can hold, for the tests that crawl
every page, print and export and that round-trip the archive.

`build(key)` makes the Spring Cup under the preset `key` ("mcr", "japanese-transitional",
"wilmington-12-tile") with eight regular players and a substitute:

- round 1 (finished): table 1 plays a whole game (MCR 16 hands; JT and WA four wind rounds,
  more than 16 deals because the dealer repeats), table 2 a game ended by time;
- round 2 (in play): a player withdrawn, the substitute seated in their place, a few deals.

The long game holds wins entered by their tiles (JT: a limit hand among them; WA: the joker in
a set and in the pair, two winners on one discard with their tiles), wins entered by value,
draws (JT: with ready players), the preset's faulty out (JT: a result of its own; MCR and WA:
a false win penalty), and a deduction. Each deal is chosen from the deal the game is at
(`deals.next_deal`), so the dealer's repeats come from the rules, not from the builder.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from factories import make_players, make_tournament, make_user, seated_round

from tournament.domain.rotation import WINDS
from tournament.domain.sample_hands import (
    JT_LIMIT,
    JT_TILES,
    MCR_TILES,
    WA_JOKER_PAIR,
    WA_JOKER_SET,
)
from tournament.models import Player, Round, Table, Tournament
from tournament.reads import deals
from tournament.services import (
    DealInput,
    add_player,
    assign_referees,
    confirm_game,
    end_game,
    record_deal,
    record_false_win,
    record_penalty,
    set_round_status,
    update_player,
)

PRESETS = ("mcr", "japanese-transitional", "wilmington-12-tile")


@dataclass
class World:
    tournament: Tournament
    organiser: AbstractBaseUser
    referee: AbstractBaseUser
    players: list[Player]
    substitute: Player
    long_game: Table
    timed_game: Table
    playing: Table


def _seat(table: Table, index: int) -> Player:
    return table.seats.get(starting_wind=WINDS[index]).player


def _deal(table: Table, referee: AbstractBaseUser, **facts: Any) -> None:
    number = table.deals.count() + 1
    record_deal(table=table, number=number, entered_by=referee, deal=DealInput(**facts))


def _play_long_game(key: str, table: Table, referee: AbstractBaseUser) -> None:
    """Deals until the game is over: a pattern of wins by tiles and by value, draws and the
    preset's faulty outs, each told from the deal in play."""
    step = 0
    while (at := deals.next_deal(table)) is not None:
        dealer = _seat(table, at.dealer)
        other = _seat(table, (at.dealer + 1) % 4)
        third = _seat(table, (at.dealer + 2) % 4)
        kind = step % 6
        step += 1
        number = table.deals.count() + 1
        if key == "mcr":
            if kind == 0:
                _deal(table, referee, result="win", winner=dealer, discarder=other,
                      tiles=MCR_TILES)  # fmt: skip
            elif kind == 1:
                record_false_win(table=table, number=number, offender=other,
                                 invalid_hand=False, entered_by=referee)  # fmt: skip
                _deal(table, referee, result="win", winner=third, fan=12, flowers=2)
            elif kind == 3:
                _deal(table, referee, result="draw")
            else:
                _deal(table, referee, result="win", winner=other, discarder=third, fan=8)
        elif key == "japanese-transitional":
            if kind == 0:  # the dealer wins by tiles and deals again
                _deal(table, referee, result="win", winner=dealer, discarder=other,
                      tiles=JT_TILES, riichi=[dealer])  # fmt: skip
            elif kind == 1:
                _deal(table, referee, result="win", winner=dealer, tiles=JT_LIMIT)
            elif kind == 2:
                _deal(table, referee, result="draw", ready=[other, third])
            elif kind == 3:
                _deal(table, referee, result="faulty_out", offender=third)
            elif kind == 4:
                _deal(table, referee, result="win", winner=other, discarder=third, value=60)
            else:
                _deal(table, referee, result="draw")
        else:
            if kind == 0:  # two winners on the dealer's discard, each by tiles
                _deal(table, referee, result="win", winner=other, discarder=dealer,
                      tiles=WA_JOKER_SET, extra_tiles=[(third, WA_JOKER_PAIR)])  # fmt: skip
            elif kind == 1:
                record_false_win(table=table, number=number, offender=third,
                                 invalid_hand=False, entered_by=referee)  # fmt: skip
                _deal(table, referee, result="win", winner=dealer, value=30)
            elif kind == 2:
                _deal(table, referee, result="draw")
            elif kind == 3:
                _deal(table, referee, result="win", winner=other, discarder=dealer, value=45,
                      extra_winners=[(third, 20)])  # fmt: skip
            else:
                _deal(table, referee, result="win", winner=other, tiles=WA_JOKER_SET)


def build(
    key: str,
    organiser: AbstractBaseUser | None = None,
    *,
    slug: str = "spring-cup",
    referee: AbstractBaseUser | None = None,
) -> World:
    organiser = organiser or make_user("alice")
    name = "Spring Cup" if slug == "spring-cup" else slug.replace("-", " ").title()
    tournament = make_tournament(organisers=[organiser], preset=key, slug=slug, name=name)
    if key != "mcr":
        tournament.seat_rotation = "none"
        tournament.save()
    referee = referee or make_user("bob")
    players = make_players(
        tournament,
        names=[
            "Ann Archer",
            "Ben Baker",
            "陈彩",
            "Dora Diaz",
            "Eve Evans",
            "Fay Fox",
            "Gus Green",
            "Hal Hill",
        ],  # fmt: skip
    )
    substitute = add_player(tournament=tournament, key="9", name="Sam Stand-in", substitute=True)
    first, (long_game, timed_game) = seated_round(tournament, organiser, [players[:4], players[4:]])
    for table in (long_game, timed_game):
        assign_referees(table=table, referees=[referee], actor=organiser)
    _play_long_game(key, long_game, referee)
    record_penalty(table=long_game, player=players[1], points=10, distributed=False,
                   reason="Slow play", deal_number=3, entered_by=referee)  # fmt: skip
    end_game(table=long_game, ended_by_time=False, entered_by=referee)
    confirm_game(table=long_game, confirmed_by=organiser)
    _deal(timed_game, referee, result="draw")
    end_game(table=timed_game, ended_by_time=True, entered_by=referee)
    confirm_game(table=timed_game, confirmed_by=organiser)
    set_round_status(round=first, status=Round.Status.FINISHED, actor=organiser)
    update_player(player=players[7], withdrawn_from_round=2)
    seating = [players[:4][::-1], [*players[4:7], substitute]]
    _second, (playing, _other) = seated_round(tournament, organiser, seating)
    assign_referees(table=playing, referees=[referee], actor=organiser)
    _play_long_game_start(key, playing, referee)
    return World(tournament, organiser, referee, players, substitute, long_game, timed_game,
                 playing)  # fmt: skip


def _play_long_game_start(key: str, table: Table, referee: AbstractBaseUser) -> None:
    """Two deals of a game in play: a win by value and a draw."""
    at = deals.next_deal(table)
    assert at is not None
    winner = _seat(table, at.dealer)
    if key == "mcr":
        _deal(table, referee, result="win", winner=winner, fan=9)
    else:
        _deal(table, referee, result="win", winner=winner, value=60)
    _deal(table, referee, result="draw")
