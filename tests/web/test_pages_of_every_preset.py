"""Every page works for every preset: a Japanese Transitional and a Wilmington tournament with
a finished round and a round in play open on every public, organiser, referee, statistics and
printed page, and in every export."""

from __future__ import annotations

import pytest
from django.urls import reverse
from factories import make_players, make_user, seated_round

from tournament.models import Round
from tournament.services import (
    DealInput,
    assign_referees,
    confirm_game,
    end_game,
    record_deal,
    record_false_win,
    set_round_status,
)

pytestmark = pytest.mark.django_db

JT_DEALS = [
    {"result": "win", "winner": 0, "discarder": 1, "value": 60, "riichi": [3]},
    {"result": "win", "winner": 0, "value": 60},  # the dealer keeps the deal: extra hand 1
    {"result": "draw", "ready": [2]},
    {"result": "faulty_out", "offender": 3},
    {"result": "win", "winner": 2, "discarder": 1, "value": 1500},
    {"result": "draw"},
    {"result": "draw"},
]
WA_DEALS = [
    {"result": "win", "winner": 1, "discarder": 2, "value": 45, "extra_winners": [(3, 35)]},
    {"result": "win", "winner": 1, "value": 20},  # the dealer (South) continues
    {"result": "draw"},  # a draw in a continued deal: still South
    {"result": "win", "winner": 0, "discarder": 2, "value": 600},
    {"result": "draw"},
    {"result": "draw"},
]


def play(table, referee, deals, players) -> None:
    for number, facts in enumerate(deals, start=1):
        facts = dict(facts)
        for name in ("winner", "discarder", "offender"):
            if name in facts:
                facts[name] = players[facts[name]]
        for name in ("riichi", "ready"):
            if name in facts:
                facts[name] = [players[index] for index in facts[name]]
        if "extra_winners" in facts:
            facts["extra_winners"] = [(players[i], value) for i, value in facts["extra_winners"]]
        record_deal(table=table, number=number, entered_by=referee, deal=DealInput(**facts))


@pytest.fixture(params=["japanese-transitional", "wilmington-12-tile"])
def event(request, tournament, organiser):
    tournament.preset = request.param
    tournament.seat_rotation = "none"
    tournament.rule_settings = {"wind_rounds": 1}
    tournament.save()
    referee = make_user("bob")
    players = make_players(tournament, 4)
    deals = JT_DEALS if request.param == "japanese-transitional" else WA_DEALS
    first, [table] = seated_round(tournament, organiser, [players])
    assign_referees(table=table, referees=[referee], actor=organiser)
    play(table, referee, deals, players)
    if request.param == "wilmington-12-tile":
        record_false_win(table=table, number=len(deals), offender=players[2],
                         invalid_hand=False, entered_by=referee)  # fmt: skip
    end_game(table=table, ended_by_time=False, entered_by=referee)
    confirm_game(table=table, confirmed_by=organiser)
    set_round_status(round=first, status=Round.Status.FINISHED, actor=organiser)
    second, [playing] = seated_round(tournament, organiser, [players[::-1]])
    assign_referees(table=playing, referees=[referee], actor=organiser)
    play(playing, referee, deals[:2], players[::-1])
    return {"tournament": tournament, "referee": referee, "players": players}


def urls() -> list[str]:
    slug = "spring-cup"
    table = {"slug": slug, "number": 1, "table": 1}
    return [
        reverse("public:tournament", args=[slug]),
        reverse("public:standings", args=[slug]),
        reverse("public:standings", args=[slug]) + "?_export=csv",
        reverse("public:standings", args=[slug]) + "?_export=xlsx",
        reverse("public:round", args=[slug, 1]),
        reverse("public:table", args=[slug, 1, 1]),
        reverse("public:table", args=[slug, 2, 1]),
        reverse("public:player", args=[slug, "1"]),
        reverse("public:projector", args=[slug]),
        reverse("stats:tournament", args=[slug]),
        reverse("stats:player", args=[slug, "1"]),
        reverse("organiser:dashboard", args=[slug]),
        reverse("organiser:round", kwargs={"slug": slug, "number": 2}),
        reverse("organiser:table", kwargs=table),
        reverse("organiser:board", kwargs={"slug": slug, "number": 2}),
        reverse("organiser:audit", args=[slug]),
        reverse("organiser:settings", args=[slug]),
        reverse("outputs:ema", args=[slug]),
        reverse("outputs:ema_csv", args=[slug]),
        reverse("outputs:ema_readiness", args=[slug]),
        reverse("outputs:standings", args=[slug]),
        reverse("outputs:sheets", args=[slug, 1]),
        reverse("outputs:blank_sheets", args=[slug, 2]),
        reverse("referee:index"),
        reverse("referee:table", args=[slug, 2, 1]),
        f"/api/tournaments/{slug}/rounds/1/tables/1",
        f"/api/tournaments/{slug}/standings",
        f"/api/tournaments/{slug}/ema-readiness",
    ]


def test_every_page_opens(client, event, organiser):
    client.force_login(organiser)

    failed = [url for url in urls() if client.get(url).status_code != 200]

    assert failed == []
