"""Tournaments, players and standings through the API."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission

from tournament.models import Player, Tournament
from tournament.services import DealInput, end_game, record_deal

pytestmark = pytest.mark.django_db

T = "/api/tournaments/spring-cup"


@pytest.fixture
def creator(make_user):
    user = make_user("dora")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


@pytest.fixture
def private(make_user):
    owner = make_user("olga")
    tournament = Tournament.objects.create(name="Club Night", slug="club-night", public=False)
    tournament.organisers.add(owner)
    return tournament


def slugs(response):
    return [item["slug"] for item in response.json()["tournaments"]]


def test_anyone_lists_public_tournaments(anonymous, tournament, private):
    response = anonymous.get("/api/tournaments")

    assert response.status_code == 200
    assert response.json() == {
        "tournaments": [
            {
                "slug": "spring-cup",
                "name": "Spring Cup",
                "start_date": None,
                "end_date": None,
                "venue": "",
                "public": True,
            }
        ],
        "count": 1,
        "limit": 100,
        "offset": 0,
        "next": None,
    }


def test_organiser_and_referee_also_list_the_private_tournaments_they_work_at(
    api_as, private, tournament, make_user, organiser
):
    from tournament.models import Round
    from tournament.services import create_table

    referee = make_user("rita")
    players = [
        Player.objects.create(tournament=private, key=str(n), name=f"P{n}") for n in range(4)
    ]
    round = Round.objects.create(tournament=private, number=1, status="playing")
    create_table(round=round, number=1, players=players).referees.add(referee)

    assert sorted(slugs(api_as(private.organisers.get()).get("/api/tournaments"))) == [
        "club-night",
        "spring-cup",
    ]
    assert sorted(slugs(api_as(referee).get("/api/tournaments"))) == ["club-night", "spring-cup"]
    assert slugs(api_as(organiser).get("/api/tournaments")) == ["spring-cup"]


def test_create_tournament_makes_the_creator_its_organiser(api_as, creator):
    body = {
        "name": "Autumn Open",
        "slug": "autumn-open",
        "start_date": "2026-10-03",
        "end_date": "2026-10-04",
        "seat_rotation": "half",
        "table_points": [6, 3, 1, 0],
    }

    response = api_as(creator).post("/api/tournaments", body)

    assert response.status_code == 201
    assert response["Location"] == "/api/tournaments/autumn-open"
    created = response.json()
    assert (created["seat_rotation"], created["table_points"]) == ("half", [6, 3, 1, 0])
    assert (created["profile"], created["preset"], created["public"]) == ("wmo-2006", "mcr", False)
    assert created["rounds"] == [] and created["players"] == 0
    assert list(Tournament.objects.get(slug="autumn-open").organisers.all()) == [creator]


def test_create_needs_the_permission(as_organiser):
    response = as_organiser.post("/api/tournaments", {"name": "X", "slug": "x"})

    assert response.status_code == 403
    assert response.json()["error"] == "forbidden"
    assert not Tournament.objects.filter(slug="x").exists()


def test_create_reports_each_wrong_field(api_as, creator, tournament):
    body = {"name": "", "slug": "spring-cup", "table_points": [1, 2, 3, 4], "colour": "red"}

    response = api_as(creator).post("/api/tournaments", body)

    assert response.status_code == 400
    assert response.json()["error"] == "invalid"
    assert response.json()["fields"] == {"colour": "Unknown field."}


def test_create_reports_the_services_field_errors(api_as, creator, tournament):
    body = {"name": "Again", "slug": "spring-cup", "table_points": [1, 2, 3, 4]}

    response = api_as(creator).post("/api/tournaments", body)

    assert response.status_code == 400
    assert set(response.json()["fields"]) == {"slug", "table_points"}
    assert Tournament.objects.count() == 1


def test_end_before_start_is_refused(api_as, creator):
    body = {"name": "Y", "slug": "y", "start_date": "2026-05-02", "end_date": "2026-05-01"}

    response = api_as(creator).post("/api/tournaments", body)

    assert response.status_code == 400
    assert "cannot end before it starts" in response.json()["message"]


def test_tournament_detail_lists_published_rounds(anonymous, as_organiser, tournament, organiser):
    from tournament.services import create_round

    create_round(tournament=tournament, actor=organiser)

    assert anonymous.get(T).json()["rounds"] == []
    assert as_organiser.get(T).json()["rounds"] == [{"number": 1, "status": "draft", "tables": 0}]
    assert anonymous.get(T).json()["tie_breaks"] == ["best_game", "game_scores"]


def test_private_tournament_is_not_found_for_outsiders(anonymous, private):
    response = anonymous.get("/api/tournaments/club-night")

    assert response.status_code == 404
    assert response.json() == {
        "error": "not_found",
        "message": "There is no tournament 'club-night'.",
    }


def test_organiser_changes_settings(as_organiser, tournament):
    response = as_organiser.patch(
        T, {"name": "Spring Cup 2026", "venue": "Hall 2", "public": False}
    )

    assert response.status_code == 200
    tournament.refresh_from_db()
    assert (tournament.name, tournament.venue, tournament.public) == (
        "Spring Cup 2026",
        "Hall 2",
        False,
    )


@pytest.mark.parametrize(
    "points", [[1e30, 2, 1, 0], [1001, 2, 1, 0], [4, 2, 1, -1001], [10**30, 2, 1, 0]]
)
def test_table_points_out_of_range_are_refused(as_organiser, tournament, points):
    response = as_organiser.patch(T, {"table_points": points})

    assert response.status_code == 400
    assert response.json()["fields"] == {
        "table_points": "Give a list of at most 4 whole numbers from -1000 to 1000."
    }
    tournament.refresh_from_db()
    assert tournament.table_points == [4, 2, 1, 0]


def test_table_points_at_the_ends_of_the_range_are_taken(as_organiser, tournament):
    response = as_organiser.patch(T, {"table_points": [1000, 2, 1, -1000]})

    assert response.status_code == 200
    tournament.refresh_from_db()
    assert tournament.table_points == [1000, 2, 1, -1000]


def test_a_new_tournament_with_table_points_out_of_range_is_refused(api_as, creator):
    response = api_as(creator).post(
        "/api/tournaments",
        {"name": "Big Points", "slug": "big-points", "table_points": [1e30, 2, 1, 0]},
    )

    assert response.status_code == 400
    assert list(response.json()["fields"]) == ["table_points"]
    assert not Tournament.objects.filter(slug="big-points").exists()


def test_slug_cannot_change(as_organiser, tournament):
    response = as_organiser.patch(T, {"slug": "summer-cup"})

    assert response.status_code == 400
    assert list(response.json()["fields"]) == ["slug"]


def test_seat_rotation_is_locked_once_a_hand_is_recorded(as_organiser, tournament, organiser):
    from tournament.models import Round
    from tournament.services import create_table

    players = [
        Player.objects.create(tournament=tournament, key=str(n), name=f"P{n}") for n in range(4)
    ]
    round = Round.objects.create(tournament=tournament, number=1, status="playing")
    table = create_table(round=round, number=1, players=players)
    record_deal(table=table, number=1, deal=DealInput(result="draw"), entered_by=organiser)

    response = as_organiser.patch(T, {"seat_rotation": "none", "table_points": [3, 2, 1, 0]})

    assert response.status_code == 400
    assert response.json()["error"] == "rules_locked"
    tournament.refresh_from_db()
    assert (tournament.seat_rotation, tournament.table_points) == ("wmo", [4, 2, 1, 0])


def test_players_are_listed_by_key(anonymous, tournament):
    Player.objects.create(tournament=tournament, key="2", name="Bea", country="NL")
    Player.objects.create(tournament=tournament, key="1", name="Al", substitute=True)

    response = anonymous.get(f"{T}/players")

    assert [(p["key"], p["name"], p["substitute"]) for p in response.json()["players"]] == [
        ("1", "Al", True),
        ("2", "Bea", False),
    ]


def test_organiser_adds_a_player(as_organiser, tournament):
    body = {"key": "17", "name": "Mei Lin", "country": "SG", "ema_number": "06990001"}

    response = as_organiser.post(f"{T}/players", body)

    assert response.status_code == 201
    assert response["Location"] == f"{T}/players/17"
    assert response.json() == {
        "key": "17",
        "name": "Mei Lin",
        "family_name": "",
        "given_name": "",
        "country": "SG",
        "club": "",
        "team": "",
        "ema_number": "06990001",
        "substitute": False,
        "withdrawn_from_round": None,
    }


def test_a_player_key_is_used_once(as_organiser, tournament):
    Player.objects.create(tournament=tournament, key="1", name="Al")

    response = as_organiser.post(f"{T}/players", {"key": "1", "name": "Other"})

    assert response.status_code == 400
    assert "key" in response.json()["fields"]
    assert tournament.players.count() == 1


def test_player_needs_key_and_name(as_organiser, tournament):
    response = as_organiser.post(f"{T}/players", {"club": "Riichi"})

    assert response.json()["fields"] == {"key": "This field is required."}

    response = as_organiser.post(f"{T}/players", {"key": "1", "club": "Riichi"})

    assert response.json()["fields"] == {"name": "Give the player's name."}
    assert not Player.objects.exists()


@pytest.mark.parametrize("key", ["a/b", "A 1", "1²", ".."])
def test_a_player_key_outside_its_alphabet_is_refused(as_organiser, tournament, key):
    response = as_organiser.post(f"{T}/players", {"key": key, "name": "Odd Key"})

    assert (response.status_code, response.json()["error"]) == (400, "bad_key")
    assert "a player's key is made of letters (A to Z)" in response.json()["fields"]["key"]
    assert not Player.objects.exists()


def test_a_player_key_cannot_be_changed_to_one_outside_its_alphabet(as_organiser, tournament):
    Player.objects.create(tournament=tournament, key="1", name="Al")

    response = as_organiser.patch(f"{T}/players/1", {"key": "1/2"})

    assert response.status_code == 400
    assert list(response.json()["fields"]) == ["key"]
    assert Player.objects.get().key == "1"


def test_a_player_with_every_sign_of_the_alphabet_is_reached_by_its_key(as_organiser, tournament):
    assert as_organiser.post(f"{T}/players", {"key": "A-1_b.2", "name": "Odd"}).status_code == 201

    response = as_organiser.patch(f"{T}/players/A-1_b.2", {"club": "Q"})

    assert response.status_code == 200
    assert Player.objects.get().club == "Q"


def test_organiser_withdraws_a_player(as_organiser, tournament):
    Player.objects.create(tournament=tournament, key="1", name="Al")

    response = as_organiser.patch(f"{T}/players/1", {"withdrawn_from_round": 3})

    assert response.status_code == 200
    assert response.json()["withdrawn_from_round"] == 3
    assert as_organiser.patch(f"{T}/players/9", {"name": "X"}).status_code == 404


def test_standings_rank_by_table_points_then_score(anonymous, tournament, organiser):
    from tournament.models import Round
    from tournament.services import confirm_game, create_table, record_penalty

    players = [
        Player.objects.create(tournament=tournament, key=str(n), name=f"P{n}") for n in range(1, 9)
    ]
    Player.objects.create(tournament=tournament, key="9", name="Sub", substitute=True)
    round = Round.objects.create(tournament=tournament, number=1, status="playing")
    one = create_table(round=round, number=1, players=players[:4])
    two = create_table(round=round, number=2, players=players[4:])
    # Table 1: 1 wins 8 on 3's discard (+32 -8 -16 -8); 2 self-draws 8 (-16 +48 -16 -16).
    record_deal(
        table=one,
        number=1,
        deal=DealInput(result="win", winner=players[0], discarder=players[2], fan=8),
        entered_by=organiser,
    )
    record_deal(
        table=one,
        number=2,
        deal=DealInput(result="win", winner=players[1], fan=8),
        entered_by=organiser,
    )
    end_game(table=one, ended_by_time=True, entered_by=organiser)
    # Table 2: one drawn hand, then 8 is fined 9 points, shared: 5, 6, 7 level at +3.
    record_deal(table=two, number=1, deal=DealInput(result="draw"), entered_by=organiser)
    record_penalty(
        table=two,
        player=players[7],
        points=9,
        distributed=True,
        reason="Exposed",
        entered_by=organiser,
    )
    end_game(table=two, ended_by_time=True, entered_by=organiser)
    for table in (one, two):
        confirm_game(table=table, confirmed_by=organiser)

    response = anonymous.get(f"{T}/standings")

    # Table 1 scores: 1 +16, 2 +40, 3 -32, 4 -24 -> 2: 4, 1: 2, 4: 1, 3: 0.
    # Table 2 scores: 5, 6, 7 at +3 share 4+2+1 = 7/3 each; 8 at -9 gets 0.
    assert response.status_code == 200
    assert response.json()["standings"] == [
        row(1, "2", 4, "4", 40),
        row(2, "5", 2.33, "7/3", 3),
        row(2, "6", 2.33, "7/3", 3),
        row(2, "7", 2.33, "7/3", 3),
        row(5, "1", 2, "2", 16),
        row(6, "4", 1, "1", -24),
        row(7, "8", 0, "0", -9),
        row(8, "3", 0, "0", -32),
        {**row(None, "9", 0, "0", 0), "name": "Sub", "substitute": True},
    ]


def row(rank, key, points, exact, score):
    return {
        "rank": rank,
        "player": key,
        "name": f"P{key}",
        "table_points": points,
        "table_points_exact": exact,
        "score": score,
        "substitute": False,
        "provisional_games": 0,
        "stage": None,
        "score_exact": str(score),
        "carried_table_points": None,
        "carried_score": None,
    }


@pytest.mark.parametrize("slug", ["new", "tokens", "Tokens"])
def test_a_slug_taken_by_a_page_is_refused(api_as, creator, slug):
    response = api_as(creator).post("/api/tournaments", {"name": "Clash", "slug": slug})

    assert response.status_code == 400
    assert "taken by a page" in response.json()["fields"]["slug"]
    assert not Tournament.objects.filter(name="Clash").exists()
