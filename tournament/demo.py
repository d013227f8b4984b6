"""The demo data behind `manage.py load_demo`: a tournament in the middle of its second round.

"Demo Open" has 16 players. Round 1 is finished: four games of 16 hands with wins on a discard
and self-drawn, drawn hands, false wins, a deduction and hands entered with their tiles, every
game sheet confirmed by the organiser. Round 2 is in play, its clock started 75 minutes before
the demo was loaded (of 120), with hands entered by the demo referee, who is assigned to all
its tables: table 1 has played its 16 hands and its sheet waits for the organiser's
confirmation, table 4 has fallen behind the clock. Round 3 is a draft, waiting to be seated.
Everything is entered through the services, from a fixed seed, so every run gives the same
tournament (apart from the moments things were entered).

Two logins, both with the password `mahjong-demo`: `organiser` (organises Demo Open and may
create tournaments) and `referee`.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission, User
from django.db import transaction
from django.utils import timezone

from tournament.models import Player, Round, Table, Tournament
from tournament.services import (
    add_player,
    assign_referees,
    confirm_submitted_games,
    create_round,
    end_game,
    record_false_win,
    record_hand,
    record_penalty,
    seat_round,
    set_round_status,
    start_clock,
)
from tournament.services.tournaments import create_tournament

DEMO_USERNAME = "organiser"
DEMO_PASSWORD = "mahjong-demo"
REFEREE_USERNAME = "referee"
DEMO_TOURNAMENT_SLUG = "demo-open"
SEED = 2006

# Key, name, country, club.
PLAYERS = [
    ("1", "Ada Lindqvist", "Sweden", "Malmö Mahjong"),
    ("2", "Bruno Keller", "Switzerland", "Zürich Four Winds"),
    ("3", "Chen Mei", "China", "Chengdu Bamboo"),
    ("4", "Dora Nowak", "Poland", "Kraków Dragons"),
    ("5", "Emil Horváth", "Hungary", "Budapest Tiles"),
    ("6", "Fleur Janssen", "Netherlands", "Utrecht Red Dragon"),
    ("7", "Giulia Romano", "Italy", "Milano Majiang"),
    ("8", "Hiro Tanaka", "Japan", "Osaka Riverside"),
    ("9", "Inès Moreau", "France", "Paris Vent d'Est"),
    ("10", "Jonas Berg", "Denmark", "Copenhagen Flowers"),
    ("11", "Katja Vogel", "Germany", "Hamburg Harbour"),
    ("12", "Liam O'Brien", "Ireland", "Dublin Green Dragon"),
    ("13", "Marta Silva", "Portugal", "Lisboa Tiles"),
    ("14", "Niko Virtanen", "Finland", "Helsinki Winds"),
    ("15", "Olga Petrova", "Czechia", "Praha Bamboo"),
    ("16", "Pieter de Vries", "Netherlands", "Utrecht Red Dragon"),
]

# Winning hands entered with their tiles (no honour depends on the seat or prevailing wind).
PURE_STRAIGHT = {  # Pure Straight and more: 21 fan on a discard
    "concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "2p", "3p", "4p", "5s"],
    "melds": [],
    "win_tile": "5s",
    "flowers": 1,
}
HALF_FLUSH = {  # Half Flush, All Pungs, Dragon Pung: 21 fan self-drawn
    "concealed": ["2s", "2s", "2s", "6s", "6s", "F", "F"],
    "melds": [
        {"type": "pung", "tiles": ["8s", "8s", "8s"], "concealed": False, "from": "left"},
        {"type": "pung", "tiles": ["P", "P", "P"], "concealed": False, "from": "across"},
    ],
    "win_tile": "F",
    "flowers": 2,
}
FULL_FLUSH = {  # Full Flush, Pure Shifted Chows...: 27 fan on a discard
    "concealed": ["2p", "2p", "4p", "5p", "6p", "6p", "7p", "8p", "8p", "8p", "9p", "9p", "9p"],
    "melds": [],
    "win_tile": "2p",
    "flowers": 0,
}

# Fan values drawn for quick-entry wins: mostly small hands, now and then a big one.
FAN_VALUES = [8] * 6 + [9] * 4 + [10] * 4 + [11, 12, 12, 13, 14, 16, 16, 17, 18, 24, 26, 32, 48, 64]
FLOWERS = [0, 0, 0, 1, 1, 1, 2, 2, 3]

# Scripted events of round 1, by table and hand; every other hand is a random win.
Event = tuple[str, Any]
ROUND_1_EVENTS: dict[int, dict[int, Event]] = {
    1: {2: ("tiles", PURE_STRAIGHT), 6: ("draw", None), 9: ("false_win", False)},
    2: {4: ("tiles_self_drawn", HALF_FLUSH), 11: ("deduction", 10), 12: ("draw", None)},
    3: {8: ("false_win", True), 14: ("draw", None)},
    4: {5: ("self_drawn", None), 13: ("draw", None), 15: ("tiles", FULL_FLUSH)},
}
# Hands already entered in round 2 at tables 1, 2, 3 and 4; table 1 has submitted its sheet.
ROUND_2_PROGRESS = (16, 11, 9, 4)
# How long round 2 has been played when the demo is loaded.
ROUND_2_MINUTES_PLAYED = 75
ROUND_2_EVENTS: dict[int, dict[int, Event]] = {2: {3: ("false_win", False)}}


@dataclass(frozen=True)
class DemoData:
    organiser: User
    referee: User
    tournament: Tournament
    created: bool


def _user(username: str, first_name: str, last_name: str) -> tuple[User, bool]:
    user, created = get_user_model().objects.get_or_create(
        username=username, defaults={"first_name": first_name, "last_name": last_name}
    )
    user.set_password(DEMO_PASSWORD)
    user.is_active = True
    user.save(update_fields=["password", "is_active"])
    return user, created


@transaction.atomic
def load_demo_data() -> DemoData:
    """Create the demo users and tournament, or bring them back to their demo state.

    Running it again creates no new users: it resets their passwords and replaces the demo
    tournament with a fresh copy of the same tournament.
    """
    organiser, organiser_created = _user(DEMO_USERNAME, "Demo", "Organiser")
    organiser.user_permissions.add(
        Permission.objects.get(content_type__app_label="tournament", codename="add_tournament")
    )
    referee, referee_created = _user(REFEREE_USERNAME, "Demo", "Referee")
    deleted, _ = Tournament.objects.filter(slug=DEMO_TOURNAMENT_SLUG).delete()

    tournament = create_tournament(
        organiser=organiser,
        name="Demo Open",
        slug=DEMO_TOURNAMENT_SLUG,
        venue="Community Hall",
        start_date=dt.date(2025, 9, 13),
        end_date=dt.date(2025, 9, 14),
        public=True,
    )
    for key, name, country, club in PLAYERS:
        add_player(tournament=tournament, key=key, name=name, country=country, club=club)
    rng = random.Random(SEED)

    round1 = _start_round(tournament, organiser, seed=SEED)
    for table in round1.tables.order_by("number"):
        _play(table, organiser, rng, 16, ROUND_1_EVENTS.get(table.number, {}))
        end_game(table=table, ended_by_time=False, entered_by=organiser)
    confirm_submitted_games(round=round1, confirmed_by=organiser)
    set_round_status(round=round1, status=Round.Status.FINISHED, actor=organiser)

    round2 = _start_round(tournament, organiser, seed=SEED + 1, referee=referee)
    start_clock(round=round2, actor=organiser)
    Round.objects.filter(pk=round2.pk).update(
        clock_started_at=timezone.now() - dt.timedelta(minutes=ROUND_2_MINUTES_PLAYED)
    )
    for table, hands in zip(round2.tables.order_by("number"), ROUND_2_PROGRESS, strict=True):
        _play(table, referee, rng, hands, ROUND_2_EVENTS.get(table.number, {}))
        if hands == tournament.rules.hands_per_game:
            end_game(table=table, ended_by_time=False, entered_by=referee)

    create_round(tournament=tournament, actor=organiser)
    return DemoData(
        organiser=organiser,
        referee=referee,
        tournament=tournament,
        created=organiser_created or referee_created or not deleted,
    )


def _start_round(
    tournament: Tournament,
    organiser: User,
    *,
    seed: int,
    referee: User | None = None,
) -> Round:
    round = create_round(tournament=tournament, actor=organiser)
    tables = seat_round(round=round, actor=organiser, seed=seed)
    if referee is not None:
        for table in tables:
            assign_referees(table=table, referees=[referee], actor=organiser)
    set_round_status(round=round, status=Round.Status.SEATED, actor=organiser)
    return set_round_status(round=round, status=Round.Status.PLAYING, actor=organiser)


def _play(
    table: Table, user: User, rng: random.Random, hands: int, events: dict[int, Event]
) -> None:
    """Enter hands 1..`hands` at `table`: the scripted events, random wins in between."""
    players: list[Player] = [
        seat.player
        for seat in sorted(table.seats.select_related("player"), key=lambda seat: seat.index)
    ]
    for number in range(1, hands + 1):
        kind, detail = events.get(number, ("win", None))
        winner = rng.choice(players)
        others = [player for player in players if player != winner]
        discarder = rng.choice(others)
        fan, flowers = rng.choice(FAN_VALUES), rng.choice(FLOWERS)
        fields: dict[str, Any] = {"winner": winner, "discarder": discarder, "fan": fan}
        if kind == "draw":
            record_hand(table=table, number=number, result="draw", entered_by=user)
            continue
        if kind == "false_win":
            # One of the others declared a win that was not one; the winner still wins.
            record_false_win(
                table=table,
                number=number,
                offender=rng.choice(others),
                invalid_hand=detail,
                entered_by=user,
            )
        elif kind == "deduction":
            record_penalty(
                table=table,
                player=discarder,
                points=detail,
                distributed=False,
                reason="Took a tile out of turn",
                hand_number=number,
                entered_by=user,
            )
        elif kind in ("tiles", "tiles_self_drawn"):
            fields.update(fan=None, tiles=detail)
            flowers = detail["flowers"]
        if kind in ("self_drawn", "tiles_self_drawn") or (kind == "win" and rng.random() < 0.3):
            fields["discarder"] = None
        record_hand(
            table=table,
            number=number,
            result="win",
            flowers=flowers,
            entered_by=user,
            **fields,
        )
