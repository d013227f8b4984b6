"""A 16-player, 2-round Japanese Transitional tournament and a Wilmington Advanced 12-Tile one,
run entirely through the HTTP API with tokens.

The organiser's token creates the tournament with its preset and a game of one wind round
(`rule_settings`), enters the players, seats and starts the rounds; the referee's token enters
every deal of every table (wins on a discard and self-drawn, dealer repeats, draws, riichi,
faulty claims, ready hands, faulty riichi and faulty outs for JT; several winners on one
discard, dealer continuations through draws and faulty outs as false wins for WA) and ends the
games, some when time is called; the organiser confirms each sheet. Every number checked is
written here, worked out by hand from the specifications (`../shared/rules/`, sections 8-12):
each deal's payments, who deals next with which extra-hand number, the end of each game, the
final points and the standings. Nothing here calls the settlement code, the services or the
selectors.

Seats 0..3 are the starting seats E, S, W, N; with no seat changes (the presets' default) the
dealer moves E -> S -> W -> N, and after North's last deal the one wind round is over.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth.models import Permission

from tournament.models import RefereeAccount, Tournament

pytestmark = pytest.mark.django_db

JT = "japanese-transitional"
WA = "wilmington-12-tile"
KEYS = [str(n) for n in range(1, 17)]
WINDS = "ESWN"
# Seats E, S, W, N of each table, by round. No two players meet twice.
SEATING = {
    1: [["1", "2", "3", "4"], ["5", "6", "7", "8"], ["9", "10", "11", "12"],
        ["13", "14", "15", "16"]],
    2: [["1", "5", "9", "13"], ["2", "6", "10", "14"], ["3", "7", "11", "15"],
        ["4", "8", "12", "16"]],
}  # fmt: skip


@dataclass
class Deal:
    """A deal of a script: what the referee sends (seats for players), who deals it with which
    extra-hand number, and what each seat gains or pays, worked out by hand."""

    body: dict[str, Any]
    dealer: str
    extra_hands: int
    payments: tuple[int, int, int, int]
    false_win: int | None = None  # a seat declaring a false win in this deal, before it
    refused_first: dict[str, Any] | None = None  # a body refused before the deal is entered


@dataclass
class Game:
    deals: list[Deal]
    ended_by_time: bool
    scores: tuple[int, int, int, int]  # the sum of each seat's payments, by hand
    table_points: tuple[int, int, int, int] = (0, 0, 0, 0)
    penalties: list[int] = field(default_factory=list)


def win(winner: int, value: int, discarder: int | None = None, **facts: Any) -> dict[str, Any]:
    return {"result": "win", "winner": winner, "discarder": discarder, "value": value, **facts}


def draw(**facts: Any) -> dict[str, Any]:
    return {"result": "draw", **facts}


E, S, W, N = range(4)

# --- Japanese Transitional: East (the dealer) pays and receives double; the discarder pays for
# all; riichi and faulty claims 100 to the winner; in extra hand n, 100 x n from each loser
# (the discarder paying all three); after a draw 600 shared between ready and not ready;
# a faulty out 750 to each, East double (dealer offender: 1,500 to each).

JT_A = Game(
    [
        # East wins on South's discard, F 40: 6F = 240; West's riichi 100. East keeps the deal.
        Deal(win(E, 40, S, riichi=[W]), "E", 0, (340, -240, -100, 0)),
        # East self-draws F 60 in extra hand 1: 2F + 100 from each; North's riichi 100.
        Deal(win(E, 60, riichi=[N]), "E", 1, (760, -220, -220, -320)),
        # South wins on West's discard, F 30, extra hand 2: West pays 4F = 120 + 3 x 200;
        # North's faulty claim 100. The deal passes.
        Deal(win(S, 30, W, faulty_claims=[N]), "E", 2, (0, 820, -720, -100)),
        # A draw: East and North ready, 300 each from South and West; North's riichi is free.
        Deal(draw(ready=[E, N], riichi=[N]), "S", 0, (300, -300, -300, 300)),
        # North's faulty out: 1,500 to West (the dealer), 750 to East and South; West deals
        # again, extra-hand number unchanged.
        Deal({"result": "faulty_out", "offender": N}, "W", 0, (750, 750, 1500, -3000)),
        # North self-draws F 100: 2F from West (the dealer), F from East and South.
        Deal(win(N, 100), "W", 0, (-100, -100, -200, 400)),
        # North (the dealer) wins on East's discard, F 20: 6F = 120.
        Deal(win(N, 20, E), "N", 0, (-120, 0, 0, 120)),
        # A draw nobody is ready for: nothing paid, the deal passes from North: game over.
        Deal(draw(), "N", 1, (0, 0, 0, 0)),
    ],
    ended_by_time=False,
    scores=(1930, 710, -40, -2600),
    table_points=(4, 2, 1, 0),
)
JT_B = Game(
    [
        # JT-30: South's faulty riichi (750 each, 1,500 to East); West alone ready: 600, 200
        # from each of the others.
        Deal(draw(riichi=[S], faulty_riichi=[S], ready=[W]), "E", 0, (1300, -3200, 1350, 550)),
        # South (the dealer) self-draws F 50: 2F from each.
        Deal(win(S, 50), "S", 0, (-100, 300, -100, -100)),
        # East wins on the dealer's discard, F 80, extra hand 1: 4F = 320 + 3 x 100; East's own
        # riichi is free, West's costs 100.
        Deal(win(E, 80, S, riichi=[E, W]), "S", 1, (720, -620, -100, 0)),
        # West (the dealer) wins a limit hand on North's discard: 6 x 1,500.
        Deal(win(W, 1500, N), "W", 0, (0, 0, 9000, -9000)),
        # The dealer's faulty out: 1,500 to each; the deal passes.
        Deal({"result": "faulty_out", "offender": W}, "W", 1, (1500, 1500, -4500, 1500)),
        # Three ready: 200 to each from North. The deal passes from North: game over.
        Deal(draw(ready=[E, S, W]), "N", 0, (200, 200, 200, -600)),
    ],
    ended_by_time=False,
    scores=(3620, -1820, 5850, -7650),
    table_points=(2, 1, 4, 0),
)
JT_C = Game(
    [
        # West self-draws F 30: 2F from East (the dealer), F from South and North.
        Deal(win(W, 30), "E", 0, (-60, -30, 120, -30)),
        # East wins on North's discard, F 70: 4F = 280; his own riichi is free; West's two
        # faulty claims 200.
        Deal(win(E, 70, N, riichi=[E], faulty_claims=[W, W]), "S", 0, (480, 0, -200, -280)),
        # South alone ready: 600, 200 from each of the others. Then time is called.
        Deal(draw(ready=[S]), "W", 0, (-200, 600, -200, -200)),
    ],
    ended_by_time=True,
    scores=(220, 570, -280, -510),
    table_points=(2, 4, 1, 0),
)
JT_D = Game(
    [
        # East (the dealer) self-draws F 20: 2F from each.
        Deal(win(E, 20), "E", 0, (120, -40, -40, -40)),
        # East wins on West's discard, F 30, extra hand 1: 6F = 180 + 3 x 100.
        Deal(win(E, 30, W), "E", 1, (480, 0, -480, 0)),
        # North self-draws F 40 in extra hand 2: East 2F, the others F, and 200 from each.
        Deal(win(N, 40), "E", 2, (-280, -240, -240, 760)),
        # South (the dealer) wins on East's discard, F 90: 6F = 540.
        Deal(win(S, 90, E), "S", 0, (-540, 540, 0, 0)),
        # A draw in South's extra hand: nothing paid; the deal passes.
        Deal(draw(), "S", 1, (0, 0, 0, 0)),
        # South wins on the dealer West's discard, F 40: 4F = 160.
        Deal(win(S, 40, W), "W", 0, (0, 160, -160, 0)),
        # West wins on South's discard, F 20: 4F = 80; North's riichi 100. Game over.
        Deal(win(W, 20, S, riichi=[N]), "N", 0, (0, -80, 180, -100)),
    ],
    ended_by_time=False,
    scores=(-220, 340, -740, 620),
    table_points=(1, 2, 0, 4),
)

# --- Wilmington Advanced 12-Tile: self-drawn F from each; on a discard the discarder alone pays
# round(1.5 F), halves up, to each winner; no dealer double, nothing after a draw; a faulty out
# (a false win) 40 to each. The dealer continues after his own win and through the draws that
# follow it, until another player wins.

WA_A = Game(
    [
        # South wins on West's discard, F 25: 37.5 -> 38.
        Deal(win(S, 25, W), "E", 0, (0, 38, -38, 0)),
        # South (the dealer) self-draws F 30: 30 from each. He continues.
        Deal(win(S, 30), "S", 0, (-30, 90, -30, -30)),
        # A draw in a continued deal: the dealer continues again.
        Deal(draw(), "S", 1, (0, 0, 0, 0)),
        # South claims a win worth 12 (refused: below 15), a faulty out: 40 to each. Then West
        # (F 45: 67.5 -> 68) and North (F 35: 52.5 -> 53) win on East's discard.
        Deal(
            win(W, 45, E, also=[{"player": N, "value": 35}]),
            "S",
            2,
            (-121, 0, 68, 53),
            false_win=S,
            refused_first=win(S, 12, E),
        ),
        # East self-draws F 15: 15 from each.
        Deal(win(E, 15), "W", 0, (45, -15, -15, -15)),
        # North (the dealer) wins on East's discard, F 20: 30.
        Deal(win(N, 20, E), "N", 0, (-30, 0, 0, 30)),
        # West wins a limit hand on North's discard: 1.5 x 600. Game over.
        Deal(win(W, 600, N), "N", 1, (0, 0, 900, -900)),
    ],
    ended_by_time=False,
    scores=(-96, -7, 925, -822),  # with South's faulty out: -120 for him, +40 to the others
    table_points=(1, 2, 4, 0),
    penalties=[S],
)
WA_B = Game(
    [
        # A draw in a first deal: the deal passes.
        Deal(draw(), "E", 0, (0, 0, 0, 0)),
        # East wins on South's discard, F 16: 24.
        Deal(win(E, 16, S), "S", 0, (24, -24, 0, 0)),
        # West (the dealer) self-draws F 100: 100 from each. He continues.
        Deal(win(W, 100), "W", 0, (-100, -100, 300, -100)),
        # South (F 15: 22.5 -> 23; first in turn after East) and West (F 20: 30) win on East's
        # discard; the dealer among them continues.
        Deal(win(S, 15, E, also=[{"player": W, "value": 20}]), "W", 1, (-53, 23, 30, 0)),
        # A draw in a continued deal: West continues.
        Deal(draw(), "W", 2, (0, 0, 0, 0)),
        # North wins on West's discard, F 31: 46.5 -> 47. The deal passes.
        Deal(win(N, 31, W), "W", 3, (0, 0, -47, 47)),
        # East self-draws F 17: 17 from each. Game over.
        Deal(win(E, 17), "N", 0, (51, -17, -17, -17)),
    ],
    ended_by_time=False,
    scores=(-78, -118, 266, -70),
    table_points=(1, 0, 4, 2),
)
WA_C = Game(
    [
        # East (the dealer) wins on North's discard, F 40: 60.
        Deal(win(E, 40, N), "E", 0, (60, 0, 0, -60)),
        # South self-draws F 22: 22 from each.
        Deal(win(S, 22), "E", 1, (-22, 66, -22, -22)),
        # West's faulty out (40 to each), then a draw. Then time is called.
        Deal(draw(), "S", 0, (0, 0, 0, 0), false_win=W),
    ],
    ended_by_time=True,
    scores=(78, 106, -142, -42),
    table_points=(2, 4, 0, 1),
    penalties=[W],
)
WA_D = Game(
    [
        # North wins on East's discard, F 50: 75.
        Deal(win(N, 50, E), "E", 0, (-75, 0, 0, 75)),
        # South (the dealer) self-draws F 25.
        Deal(win(S, 25), "S", 0, (-25, 75, -25, -25)),
        # South wins on West's discard, F 19: 28.5 -> 29.
        Deal(win(S, 19, W), "S", 1, (0, 29, -29, 0)),
        # North (F 18: 27; first after South) and East (F 15: 23) win on South's discard.
        Deal(win(N, 18, S, also=[{"player": E, "value": 15}]), "S", 2, (23, -50, 0, 27)),
        # West (the dealer) wins on North's discard, F 60: 90.
        Deal(win(W, 60, N), "W", 0, (0, 0, 90, -90)),
        # East self-draws F 40 in West's continued deal; the deal passes.
        Deal(win(E, 40), "W", 1, (120, -40, -40, -40)),
        # A draw in North's first deal: the deal passes from North. Game over.
        Deal(draw(), "N", 0, (0, 0, 0, 0)),
    ],
    ended_by_time=False,
    scores=(43, 14, -4, -53),
    table_points=(4, 2, 1, 0),
)

# Tables 1 and 3 play one script, tables 2 and 4 the other.
JT_GAMES = {1: [JT_A, JT_B, JT_A, JT_B], 2: [JT_C, JT_D, JT_C, JT_D]}
WA_GAMES = {1: [WA_A, WA_B, WA_A, WA_B], 2: [WA_C, WA_D, WA_C, WA_D]}

# Each player's two games (round 1 seat, round 2 seat), summed by hand: (rank, key, table
# points, score). JT, e.g. player 7: West in JT_B (5,850, 4 points) and South in JT_C (570, 4).
JT_STANDINGS = [
    (1, "7", 8, 6420),    # B-W 5850 (4) + C-S 570 (4)
    (2, "5", 6, 4190),    # B-E 3620 (2) + C-S 570 (4)
    (3, "1", 6, 2150),    # A-E 1930 (4) + C-E 220 (2)
    (4, "9", 5, 1650),    # A-E 1930 (4) + C-W -280 (1)
    (5, "14", 5, -1200),  # B-S -1820 (1) + D-N 620 (4)
    (6, "15", 4, 5340),   # B-W 5850 (4) + C-N -510 (0)
    (7, "16", 4, -7030),  # B-N -7650 (0) + D-N 620 (4)
    (8, "2", 3, 490),     # A-S 710 (2) + D-E -220 (1)
    (9, "3", 3, 180),     # A-W -40 (1) + C-E 220 (2)
    (10, "6", 3, -1480),  # B-S -1820 (1) + D-S 340 (2)
    (11, "13", 2, 3110),  # B-E 3620 (2) + C-N -510 (0)
    (12, "10", 2, -30),   # A-S 710 (2) + D-W -740 (0)
    (13, "11", 2, -320),  # A-W -40 (1) + C-W -280 (1)
    (14, "8", 2, -7310),  # B-N -7650 (0) + D-S 340 (2)
    (15, "4", 1, -2820),  # A-N -2600 (0) + D-E -220 (1)
    (16, "12", 0, -3340),  # A-N -2600 (0) + D-W -740 (0)
]  # fmt: skip
WA_STANDINGS = [
    (1, "7", 8, 372),     # B-W 266 (4) + C-S 106 (4)
    (2, "3", 6, 1003),    # A-W 925 (4) + C-E 78 (2)
    (3, "2", 6, 36),      # A-S -7 (2) + D-E 43 (4)
    (4, "15", 5, 224),    # B-W 266 (4) + C-N -42 (1)
    (5, "5", 5, 28),      # B-E -78 (1) + C-S 106 (4)
    (6, "11", 4, 783),    # A-W 925 (4) + C-W -142 (0)
    (7, "8", 4, -56),     # B-N -70 (2) + D-S 14 (2)
    (8, "4", 4, -779),    # A-N -822 (0) + D-E 43 (4)
    (9, "10", 3, -11),    # A-S -7 (2) + D-W -4 (1)
    (10, "1", 3, -18),    # A-E -96 (1) + C-E 78 (2)
    (11, "6", 2, -104),   # B-S -118 (0) + D-S 14 (2)
    (12, "13", 2, -120),  # B-E -78 (1) + C-N -42 (1)
    (13, "16", 2, -123),  # B-N -70 (2) + D-N -53 (0)
    (14, "9", 1, -238),   # A-E -96 (1) + C-W -142 (0)
    (15, "12", 1, -826),  # A-N -822 (0) + D-W -4 (1)
    (16, "14", 0, -171),  # B-S -118 (0) + D-N -53 (0)
]  # fmt: skip


@pytest.mark.parametrize("script", [JT_A, JT_B, JT_C, JT_D, WA_A, WA_B, WA_C, WA_D])
def test_each_scripts_payments_sum_to_zero_and_to_its_scores(script):
    """The hand-worked numbers agree with themselves: each deal is zero-sum, and the deals
    (with 40 to each from a WA faulty out) add up to the scores written down."""
    totals = [0, 0, 0, 0]
    for deal in script.deals:
        assert sum(deal.payments) == 0
        totals = [total + paid for total, paid in zip(totals, deal.payments, strict=True)]
    for offender in script.penalties:
        totals = [total + (-120 if seat == offender else 40) for seat, total in enumerate(totals)]
    assert tuple(totals) == script.scores


# --- Running it through the API --------------------------------------------------------


def ok(response, status=200):
    assert response.status_code == status, response.json()
    return response.json()


@pytest.fixture
def director(make_user):
    user = make_user("director")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


@pytest.mark.parametrize(
    ("preset", "slug", "initial", "games", "expected"),
    [
        (JT, "riichi-masters", 8000, JT_GAMES, JT_STANDINGS),
        (WA, "wilmington-masters", 500, WA_GAMES, WA_STANDINGS),
    ],
)
def test_a_whole_tournament_of_the_preset_through_the_api(
    api_as, director, make_user, anonymous, preset, slug, initial, games, expected
):
    desk = api_as(director)
    referee = make_user("ref")
    scorer = api_as(referee)
    root = f"/api/tournaments/{slug}"
    body = {"name": slug, "slug": slug, "public": True, "preset": preset}
    created = ok(desk.post("/api/tournaments", body | {"rule_settings": {"wind_rounds": 1}}), 201)
    # The organiser's referee account, made on the referee accounts page.
    RefereeAccount.objects.create(user=referee, tournament=Tournament.objects.get(slug=slug))
    assert (created["preset"], created["seat_rotation"]) == (preset, "none")
    assert (created["rules"]["initial_points"], created["rules"]["wind_rounds"]) == (initial, 1)
    for key in KEYS:
        ok(desk.post(f"{root}/players", {"key": key, "name": f"Player {key}"}), 201)

    for round, tables in SEATING.items():
        assert ok(desk.post(f"{root}/rounds"), 201)["number"] == round
        seating = [dict(zip(WINDS, keys, strict=True)) for keys in tables]
        ok(desk.post(f"{root}/rounds/{round}/seating", {"tables": seating}))
        for number in range(1, 5):
            ok(desk.put(f"{root}/rounds/{round}/tables/{number}/referees", {"referees": ["ref"]}))
        ok(desk.post(f"{root}/rounds/{round}/status", {"status": "seated"}))
        ok(desk.post(f"{root}/rounds/{round}/status", {"status": "playing"}))
        for number, keys in enumerate(tables, start=1):
            url = f"{root}/rounds/{round}/tables/{number}"
            play(scorer, url, keys, games[round][number - 1], initial)
            confirmed = ok(desk.post(f"{url}/confirm"))["table"]
            assert confirmed["sheet"] == "confirmed"
        ok(desk.post(f"{root}/rounds/{round}/status", {"status": "finished"}))

    standings = ok(anonymous.get(f"{root}/standings"))["standings"]

    assert [
        (line["rank"], line["player"], line["table_points"], line["score"]) for line in standings
    ] == expected
    # A game's score is its final points less the initial points: each table sums to zero.
    assert sum(line["score"] for line in standings) == 0


def sent(body: dict[str, Any], keys: list[str]) -> dict[str, Any]:
    """A script's deal as the referee sends it: players by key instead of by seat."""
    named = dict(body)
    for name in ("winner", "discarder", "offender"):
        if named.get(name) is not None:
            named[name] = keys[named[name]]
    for name in ("riichi", "faulty_claims", "ready", "faulty_riichi"):
        if name in named:
            named[name] = [keys[seat] for seat in named[name]]
    if "also" in named:
        named["also"] = [{"player": keys[w["player"]], "value": w["value"]} for w in named["also"]]
    return named


def play(scorer, url: str, keys: list[str], script: Game, initial: int) -> None:
    """Enter one game as the referee, checking each deal against the script."""
    points = [initial] * 4
    for number, deal in enumerate(script.deals, start=1):
        upcoming = ok(scorer.get(url))["next_hand"]
        assert (upcoming["number"], upcoming["dealer"], upcoming["extra_hands"]) == (
            number,
            deal.dealer,
            deal.extra_hands,
        ), (url, number)
        assert upcoming["prevailing_wind"] == "E"
        if deal.refused_first is not None:
            refused = scorer.post(
                f"{url}/hands", {"number": number, **sent(deal.refused_first, keys)}
            )
            assert (refused.status_code, refused.json()["error"]) == (400, "below_minimum")
        if deal.false_win is not None:
            body = {"number": number, "player": keys[deal.false_win]}
            penalty = ok(scorer.post(f"{url}/false-wins", body), 201)["penalty"]
            assert penalty["points"] == 120  # 40 to each of the three others
            points = [p + (-120 if seat == deal.false_win else 40) for seat, p in enumerate(points)]
        answer = ok(scorer.post(f"{url}/hands", {"number": number, **sent(deal.body, keys)}), 201)
        hand = answer["hand"]
        assert tuple(hand["payments"].values()) == deal.payments, (url, number)
        assert (hand["dealer"], hand["extra_hands"]) == (deal.dealer, deal.extra_hands)
        assert hand["value"] == deal.body.get("value")
        assert [win["player"] for win in hand["also"]] == [
            win["player"] for win in sent(deal.body, keys).get("also", [])
        ]
        points = [p + paid for p, paid in zip(points, deal.payments, strict=True)]
        assert tuple(answer["table"]["points"].values()) == tuple(points), (url, number)
    table = ok(scorer.get(url))
    # A game that ran its wind round is over: no next deal. Otherwise time is called.
    assert (table["next_hand"] is None) == (not script.ended_by_time)
    ended = ok(scorer.post(f"{url}/end", {"ended_by_time": script.ended_by_time}))["table"]
    assert (ended["ended"], ended["ended_by_time"]) == (True, script.ended_by_time)
    assert tuple(seat["score"] for seat in ended["seats"].values()) == script.scores
    assert tuple(ended["points"].values()) == tuple(initial + s for s in script.scores)
    by_player = {result["player"]: result["table_points"] for result in ended["results"]}
    assert tuple(by_player[key] for key in keys) == script.table_points
