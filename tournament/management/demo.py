"""The demo data behind `manage.py load_demo`: a tournament in the middle of its second round.

"Demo Open" has 16 players, twelve of them in four teams (the best three of a team count;
one team of two is incomplete). Round 1 is finished: four games of 16 hands with wins on a discard
and self-drawn, drawn hands, false wins, a deduction and hands entered with their tiles, every
game sheet confirmed by the organiser. Round 2 is in play, its clock started 75 minutes before
the demo was loaded (of 120), with hands entered by the demo referee, who is assigned to all
its tables: table 1 has played its 16 hands and its sheet waits for the organiser's
confirmation, table 4 has fallen behind the clock. Round 3 is a draft, waiting to be seated.
Everything is entered through the services, from a fixed seed, so every run gives the same
tournament (apart from the moments things were entered).

Beside it, two small tournaments of the presets that count a deal's points: "Demo Japanese
Transitional" (demo-jt) and "Demo Wilmington" (demo-wa), 8 players each and games of two wind
rounds. Their round 1 is finished and confirmed, their round 2 in play with deals entered by the
demo referee (demo-jt has a final stage: after round 1 the best four play round 2's table 1,
carrying half their points, the others a consolation table): wins on a discard and self-drawn,
dealers keeping the deal, riichi, faulty claims, draws with ready players and a faulty out (JT),
two winners on one discard and faulty outs (WA).

And two that have not started: "Demo Autumn Open" (demo-autumn), a month ahead, taking
registrations on its public page with the organiser's approval and 8 places: six players
registered and accepted, two await approval and two are on the waiting list; and "Demo Check-in
Day" (demo-day), today: 14 players and 3 substitutes, each with a private link, the check-in
desk open and self check-in allowed, 11 players and one substitute checked in, no round yet.

Two logins, both with the password `mahjong-demo`: `organiser` (organises the five demo
tournaments and may create tournaments) and `referee`.
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

from scoring.engine import get_preset
from tournament.models import Player, Round, Table, Tournament
from tournament.reads import deals
from tournament.services import (
    DealInput,
    add_player,
    assign_referees,
    check_in,
    confirm_submitted_games,
    create_round,
    end_game,
    player_links,
    record_deal,
    record_false_win,
    record_penalty,
    registrations,
    seat_round,
    set_round_status,
    start_clock,
)
from tournament.services.stages import confirm_cut
from tournament.services.tournaments import create_tournament

DEMO_USERNAME = "organiser"
DEMO_PASSWORD = "mahjong-demo"
REFEREE_USERNAME = "referee"
DEMO_TOURNAMENT_SLUG = "demo-open"
REGISTRATION_DEMO_SLUG = "demo-autumn"
CHECK_IN_DEMO_SLUG = "demo-day"
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

# The teams of Demo Open's players (by key), each team's best 3 counting: "Utrecht/Tiles" has
# two players (incomplete), the players not named here have no team.
TEAMS = {
    "1": "Northern Lights",
    "10": "Northern Lights",
    "11": "Northern Lights",
    "14": "Northern Lights",
    "3": "东方之珠",
    "8": "东方之珠",
    "12": "东方之珠",
    "7": "Mare Nostrum",
    "9": "Mare Nostrum",
    "13": "Mare Nostrum",
    "6": "Utrecht/Tiles",
    "16": "Utrecht/Tiles",
}
DEMO_TEAM_BEST_OF = 3

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
class DealDemo:
    """A small demo tournament of a preset whose games are deals worth points (JT, WA)."""

    slug: str
    name: str
    preset: str
    players: tuple[int, ...]  # indexes into PLAYERS
    seed: int
    values: tuple[int, ...]  # the values drawn for a win
    riichi_chance: float  # how often a random win comes with riichi declarations
    round_1: dict[int, dict[int, str]]  # table -> deal number -> scripted kind of deal
    round_2: dict[int, dict[int, str]]
    round_2_progress: tuple[int, ...]  # deals entered at each table of round 2
    # A final stage after round 1: the best four play round 2's table 1 carrying half their
    # points, the others a consolation table (docs/stages.md); False: one stage.
    final_stage: bool = False


# Kinds of deal: "win" (anyone, on a discard or self-drawn; the default), "self_drawn",
# "dealer" (the dealer wins and keeps the deal), "riichi" (the winner and the discarder had
# declared riichi), "claim" (a win with a faulty claim), "draw", "draw_ready" (one player
# declared riichi, two are ready), "faulty_out" (ends the deal), "false_win" (a declared win
# below the minimum before someone else wins the deal), "two_winners" (on one discard).
DEAL_DEMOS = (
    DealDemo(
        slug="demo-jt",
        name="Demo Japanese Transitional",
        preset="japanese-transitional",
        players=tuple(range(8)),
        seed=SEED + 10,
        values=(20, 30, 40, 40, 60, 60, 60, 70, 90, 100, 120, 150, 160, 250, 380, 400, 580, 1500),
        riichi_chance=0.3,
        round_1={
            1: {1: "riichi", 3: "dealer", 4: "dealer", 6: "draw_ready", 8: "faulty_out"},
            2: {2: "self_drawn", 4: "claim", 5: "dealer", 7: "draw", 9: "draw_ready"},
        },
        round_2={1: {1: "dealer", 3: "draw_ready", 4: "riichi"}, 2: {2: "faulty_out", 3: "dealer"}},
        round_2_progress=(5, 3),
        final_stage=True,
    ),
    DealDemo(
        slug="demo-wa",
        name="Demo Wilmington",
        preset="wilmington-12-tile",
        players=tuple(range(8, 16)),
        seed=SEED + 20,
        values=(15, 16, 18, 20, 22, 25, 25, 28, 30, 32, 35, 40, 45, 50, 60, 75, 90, 120, 300),
        riichi_chance=0,
        round_1={
            1: {1: "two_winners", 2: "dealer", 3: "draw", 5: "false_win", 7: "self_drawn"},
            2: {2: "dealer", 3: "dealer", 4: "draw", 6: "two_winners", 8: "false_win"},
        },
        round_2={1: {2: "two_winners", 3: "dealer"}, 2: {1: "false_win", 2: "dealer"}},
        round_2_progress=(4, 2),
    ),
)
DEAL_DEMO_RULES = {"wind_rounds": 2}
FINAL_STAGE = {
    "planned_rounds": 2,
    "cut_after_round": 1,
    "cut_size": 4,
    "carry_over": "1/2",
    "consolation": True,
}
DEAL_DEMO_MINUTES_PLAYED = 30
# A game ends after its last wind round; no demo game comes near this many deals.
MOST_DEALS = 60


@dataclass(frozen=True)
class DemoData:
    organiser: User
    referee: User
    tournament: Tournament  # Demo Open
    tournaments: tuple[Tournament, ...]  # every demo tournament, Demo Open first
    reset: frozenset[str]  # the slugs of the demo tournaments that existed and were reset
    # The private link of the check-in day's player 1, as a path (/p/<secret>/): its secret
    # is shown only here, like every link's.
    player_link: str = ""


def _user(username: str, first_name: str, last_name: str) -> User:
    user, _created = get_user_model().objects.get_or_create(
        username=username, defaults={"first_name": first_name, "last_name": last_name}
    )
    user.set_password(DEMO_PASSWORD)
    user.is_active = True
    user.save(update_fields=["password", "is_active"])
    return user


@transaction.atomic
def load_demo_data() -> DemoData:
    """Create the demo users and tournament, or bring them back to their demo state.

    Running it again creates no new users: it resets their passwords and replaces each demo
    tournament with a fresh copy of the same tournament.
    """
    organiser = _user(DEMO_USERNAME, "Demo", "Organiser")
    organiser.user_permissions.add(
        Permission.objects.get(content_type__app_label="tournament", codename="add_tournament")
    )
    referee = _user(REFEREE_USERNAME, "Demo", "Referee")
    slugs = [
        DEMO_TOURNAMENT_SLUG,
        *(demo.slug for demo in DEAL_DEMOS),
        REGISTRATION_DEMO_SLUG,
        CHECK_IN_DEMO_SLUG,
    ]
    existing = Tournament.objects.filter(slug__in=slugs)
    reset = frozenset(existing.values_list("slug", flat=True))
    existing.delete()

    tournament = create_tournament(
        organiser=organiser,
        name="Demo Open",
        slug=DEMO_TOURNAMENT_SLUG,
        venue="Community Hall",
        start_date=dt.date(2025, 9, 13),
        end_date=dt.date(2025, 9, 14),
        public=True,
        team_best_of=DEMO_TEAM_BEST_OF,
    )
    for key, name, country, club in PLAYERS:
        add_player(
            tournament=tournament,
            key=key,
            name=name,
            country=country,
            club=club,
            team=TEAMS.get(key, ""),
        )
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
    others = tuple(_load_deal_demo(demo, organiser, referee) for demo in DEAL_DEMOS)
    others += (_load_registration_demo(organiser),)
    day, player_link = _load_check_in_demo(organiser)
    return DemoData(
        organiser=organiser,
        referee=referee,
        tournament=tournament,
        tournaments=(tournament, *others, day),
        reset=reset,
        player_link=player_link,
    )


# Family name, given name, country, club, how to reach them: the registrations of the
# registration demo, in order of arrival.
REGISTRANTS = [
    ("Andersson", "Maja", "SE", "Malmö Mahjong", "maja@example.org"),
    ("李", "娜", "CN", "Chengdu Bamboo", ""),
    ("Dubois", "Lucas", "FR", "Paris Vent d'Est", "+33 6 00 00 00 00"),
    ("Tanaka", "Yuki", "JP", "Osaka Riverside", "yuki@example.org"),
    ("Kowalski", "Piotr", "PL", "Kraków Dragons", ""),
    ("van der Berg", "Sanne", "NL", "Utrecht Red Dragon", "sanne@example.org"),
    ("Rossi", "Marco", "IT", "Milano Majiang", ""),  # pending
    ("Schmidt", "Lena", "DE", "Hamburg Harbour", "lena@example.org"),  # pending
    ("Murphy", "Aoife", "IE", "Dublin Green Dragon", ""),  # waiting
    ("Costa", "Rui", "PT", "Lisboa Tiles", "rui@example.org"),  # waiting
]
REGISTRATION_DEMO_ACCEPTED = 6  # registered while registration accepted at once


def _load_registration_demo(organiser: User) -> Tournament:
    """A tournament a month ahead, its registration open with the organiser's approval: the
    first registrations came while it accepted them at once, the later ones wait."""
    today = timezone.localdate()
    tournament = create_tournament(
        organiser=organiser,
        name="Demo Autumn Open",
        slug=REGISTRATION_DEMO_SLUG,
        venue="Community Hall",
        start_date=today + dt.timedelta(days=30),
        end_date=today + dt.timedelta(days=31),
        public=True,
    )
    closes = timezone.now() + dt.timedelta(days=28)
    registrations.update_settings(
        tournament,
        actor=organiser,
        registration=Tournament.RegistrationMode.INSTANT,
        registration_closes=closes,
        registration_cap=8,
    )
    for number, (family, given, country, club, contact) in enumerate(REGISTRANTS):
        if number == REGISTRATION_DEMO_ACCEPTED:
            registrations.update_settings(
                tournament, actor=organiser, registration=Tournament.RegistrationMode.APPROVAL
            )
        registrations.register(
            tournament,
            {
                "family_name": family,
                "given_name": given,
                "country": country,
                "club": club,
                "contact": contact,
            },
            address=f"demo-{number}",
        )
    tournament.refresh_from_db()
    return tournament


# Name, country, club of the check-in day's players; the last three are substitutes.
CHECK_IN_PLAYERS = [
    ("Ines Moreau", "FR", "Paris Vent d'Est"),
    ("周杰", "CN", "Chengdu Bamboo"),
    ("Karl Berg", "SE", "Malmö Mahjong"),
    ("Olivia Brown", "GB", "London East Wind"),
    ("Tomás Novák", "CZ", "Praha Tiles"),
    ("Eva Horvat", "HR", "Zagreb Bamboo"),
    ("山本 花子", "JP", "Osaka Riverside"),
    ("Jonas Weber", "DE", "Hamburg Harbour"),
    ("Sofia Ricci", "IT", "Milano Majiang"),
    ("Nils Dahl", "NO", "Oslo Dragons"),
    ("Anna Kovács", "HU", "Budapest Winds"),
    ("Liam Walsh", "IE", "Dublin Green Dragon"),
    ("Marta Silva", "PT", "Lisboa Tiles"),
    ("Pieter de Vries", "NL", "Utrecht Red Dragon"),
    ("Hana Dvořák", "CZ", "Praha Tiles"),  # substitutes
    ("Leo Fischer", "AT", "Wien Mahjong"),
    ("Chloé Martin", "BE", "Bruxelles Mahjong"),
]
CHECK_IN_SUBSTITUTES = 3
CHECK_IN_ARRIVED = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15)  # keys of those checked in


def _load_check_in_demo(organiser: User) -> tuple[Tournament, str]:
    """Today's tournament at its check-in desk: the field and its substitutes, every player
    with a private link, some of them checked in; round 1 not yet made. Returns it with the
    path of player 1's private link."""
    today = timezone.localdate()
    tournament = create_tournament(
        organiser=organiser,
        name="Demo Check-in Day",
        slug=CHECK_IN_DEMO_SLUG,
        venue="Community Hall",
        start_date=today,
        end_date=today,
        public=True,
        planned_rounds=4,
    )
    regulars = len(CHECK_IN_PLAYERS) - CHECK_IN_SUBSTITUTES
    players = [
        add_player(
            tournament=tournament,
            key=str(number),
            name=name,
            country=country,
            club=club,
            substitute=number > regulars,
        )
        for number, (name, country, club) in enumerate(CHECK_IN_PLAYERS, start=1)
    ]
    secrets = player_links.issue_links(tournament, actor=organiser)
    check_in.set_desk_open(tournament, True, actor=organiser)
    check_in.set_self_check_in(tournament, True, actor=organiser)
    for player in players:
        if int(player.key) in CHECK_IN_ARRIVED:
            check_in.desk_check_in(player, True, actor=organiser)
    tournament.refresh_from_db()
    return tournament, f"/p/{secrets[players[0]]}/"


def _load_deal_demo(demo: DealDemo, organiser: User, referee: User) -> Tournament:
    """A small tournament of `demo.preset`: round 1 played and confirmed, round 2 in play."""
    tournament = create_tournament(
        organiser=organiser,
        name=demo.name,
        slug=demo.slug,
        venue="Community Hall",
        start_date=dt.date(2025, 9, 12),
        end_date=dt.date(2025, 9, 12),
        public=True,
        preset=demo.preset,
        seat_rotation=get_preset(demo.preset).seat_rotation,
        rule_settings=DEAL_DEMO_RULES,
        **(FINAL_STAGE if demo.final_stage else {}),
    )
    for key, index in enumerate(demo.players, start=1):
        _key, name, country, club = PLAYERS[index]
        add_player(tournament=tournament, key=str(key), name=name, country=country, club=club)
    rng = random.Random(demo.seed)

    round1 = _start_round(tournament, organiser, seed=demo.seed)
    for table in round1.tables.order_by("number"):
        _play_deals(table, organiser, rng, demo, demo.round_1.get(table.number, {}), None)
        end_game(table=table, ended_by_time=False, entered_by=organiser)
    confirm_submitted_games(round=round1, confirmed_by=organiser)
    set_round_status(round=round1, status=Round.Status.FINISHED, actor=organiser)
    if demo.final_stage:
        confirm_cut(tournament=tournament, actor=organiser)

    round2 = _start_round(tournament, organiser, seed=demo.seed + 1, referee=referee)
    start_clock(round=round2, actor=organiser)
    Round.objects.filter(pk=round2.pk).update(
        clock_started_at=timezone.now() - dt.timedelta(minutes=DEAL_DEMO_MINUTES_PLAYED)
    )
    tables = round2.tables.order_by("number")
    for table, progress in zip(tables, demo.round_2_progress, strict=True):
        _play_deals(table, referee, rng, demo, demo.round_2.get(table.number, {}), progress)
    return tournament


def _play_deals(
    table: Table,
    user: User,
    rng: random.Random,
    demo: DealDemo,
    events: dict[int, str],
    count: int | None,
) -> None:
    """Enter deals at `table`, the scripted ones by number and random wins between them:
    `count` deals, or (None) until the game is over."""
    players: list[Player] = [
        seat.player
        for seat in sorted(table.seats.select_related("player"), key=lambda seat: seat.index)
    ]
    for _deal in range(MOST_DEALS if count is None else count):
        at = deals.next_deal(table)
        if at is None:
            return
        facts = _deal_facts(events.get(at.number, "win"), rng, demo, players, players[at.dealer])
        offender = facts.pop("false_win", None)
        if offender is not None:
            record_false_win(
                table=table, number=at.number, offender=offender, invalid_hand=False,
                entered_by=user,
            )  # fmt: skip
        record_deal(table=table, number=at.number, entered_by=user, deal=DealInput(**facts))
    if count is None:
        raise RuntimeError(f"A demo game at table {table.number} did not end.")


def _deal_facts(
    kind: str, rng: random.Random, demo: DealDemo, players: list[Player], dealer: Player
) -> dict[str, Any]:
    """The arguments of `record_deal` for a deal of `kind` (and, as "false_win", the player
    who declared a false win in it first)."""
    if kind == "draw":
        return {"result": "draw"}
    if kind == "draw_ready":
        declarer, other = rng.sample(players, 2)
        return {"result": "draw", "riichi": [declarer], "ready": [declarer, other]}
    if kind == "faulty_out":
        return {"result": "faulty_out", "offender": rng.choice(players)}
    if kind == "two_winners":
        winner, second, discarder = rng.sample(players, 3)
        return {
            "result": "win",
            "winner": winner,
            "discarder": discarder,
            "value": rng.choice(demo.values),
            "extra_winners": [(second, rng.choice(demo.values))],
        }
    offender = rng.choice(players) if kind == "false_win" else None
    winner = dealer if kind == "dealer" else rng.choice([p for p in players if p != offender])
    others = [player for player in players if player != winner]
    discarder = rng.choice(others)
    facts: dict[str, Any] = {
        "result": "win",
        "winner": winner,
        "discarder": discarder,
        "value": rng.choice(demo.values),
    }
    if kind == "self_drawn" or (kind in ("win", "dealer") and rng.random() < 0.3):
        facts["discarder"] = None
    if kind == "riichi":
        facts["riichi"] = [winner, discarder]
    elif kind in ("win", "dealer") and rng.random() < demo.riichi_chance:
        facts["riichi"] = [winner]
    if kind == "claim":
        facts["faulty_claims"] = [rng.choice(others)]
    if offender is not None:
        facts["false_win"] = offender
    return facts


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
            record_deal(table=table, number=number, deal=DealInput(result="draw"), entered_by=user)
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
                deal_number=number,
                entered_by=user,
            )
        elif kind in ("tiles", "tiles_self_drawn"):
            fields.update(fan=None, tiles=detail)
            flowers = detail["flowers"]
        if kind in ("self_drawn", "tiles_self_drawn") or (kind == "win" and rng.random() < 0.3):
            fields["discarder"] = None
        record_deal(
            table=table,
            number=number,
            deal=DealInput(result="win", flowers=flowers, **fields),
            entered_by=user,
        )
