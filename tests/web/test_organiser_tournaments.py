"""The organiser's list of tournaments, creating one, its settings and the dashboard."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Permission
from django.contrib.messages import get_messages
from django.urls import reverse
from factories import make_players, seated_round, submit

from tournament.models import Tournament
from tournament.services import (
    DealInput,
    add_player,
    confirm_game,
    create_round,
    end_game,
    record_deal,
    set_round_status,
)

pytestmark = pytest.mark.django_db

SETTINGS = reverse("organiser:settings", kwargs={"slug": "spring-cup"})
DASHBOARD = reverse("organiser:dashboard", kwargs={"slug": "spring-cup"})


def tournament_data(**changes) -> dict:
    data = {
        "name": "Autumn Open",
        "slug": "autumn-open",
        "start_date": "2025-10-04",
        "end_date": "2025-10-05",
        "venue": "Town hall",
        "preset": "mcr",
        "profile": "wmo-2006",
        "seat_rotation": "wmo",
        "table_points_0": "4",
        "table_points_1": "2",
        "table_points_2": "1",
        "table_points_3": "0",
        "tie_breaks_0": "best_game",
        "tie_breaks_1": "game_scores",
        "public": "on",
    }
    data.update(changes)
    return {name: value for name, value in data.items() if value is not None}


@pytest.fixture
def creator(organiser):
    organiser.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return organiser


@pytest.fixture
def played(tournament, organiser):
    """Eight players; round 1 in play with hand 1 won at table 1 and table 2 ended early."""
    players = make_players(tournament, name="P{}")
    add_player(tournament=tournament, key="9", name="Sub", substitute=True)
    add_player(tournament=tournament, key="10", name="Gone", withdrawn_from_round=1)
    _, tables = seated_round(tournament, organiser, [players[:4], players[4:]])
    record_deal(
        table=tables[0],
        number=1,
        deal=DealInput(result="win", winner=players[0], fan=8),
        entered_by=organiser,
    )
    record_deal(table=tables[0], number=2, deal=DealInput(result="draw"), entered_by=organiser)
    end_game(table=tables[1], ended_by_time=True, entered_by=organiser)
    create_round(tournament=tournament, actor=organiser)
    return tables


def messages_of(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


# --- The list -------------------------------------------------------------------------------


def test_index_lists_the_tournaments_i_organise_only(client, tournament, organiser):
    Tournament.objects.create(name="Other Cup", slug="other-cup")
    client.force_login(organiser)
    response = client.get(reverse("organiser:index"))
    assert list(response.context["tournaments"]) == [tournament]
    assert "Other Cup" not in response.content.decode()
    assert "New tournament" not in response.content.decode()


def test_index_offers_a_new_tournament_when_permitted(client, creator):
    client.force_login(creator)
    response = client.get(reverse("organiser:index"))
    assert reverse("organiser:create") in response.content.decode()


# --- Creating ------------------------------------------------------------------------------


def test_create_makes_the_creator_its_organiser(client, creator):
    client.force_login(creator)
    response = client.post(reverse("organiser:create"), tournament_data())
    assert response.status_code == 302
    assert response["Location"] == "/manage/autumn-open/"
    created = Tournament.objects.get(slug="autumn-open")
    assert list(created.organisers.all()) == [creator]
    assert created.name == "Autumn Open"
    assert created.start_date == datetime.date(2025, 10, 4)
    assert created.table_points == [4, 2, 1, 0]
    assert created.tie_breaks == ["best_game", "game_scores"]
    assert created.public is True
    assert messages_of(response) == ["Autumn Open is created; you are its organiser."]


def test_create_form_starts_with_the_defaults(client, creator):
    client.force_login(creator)
    form = client.get(reverse("organiser:create")).context["form"]
    assert form["table_points"].value() == [4, 2, 1, 0]
    assert form["tie_breaks"].value() == ["best_game", "game_scores"]
    assert form["preset"].value() == "mcr"
    assert form["seat_rotation"].value() == ""  # the preset's own: MCR's WMO chart


@pytest.mark.parametrize(
    ("preset", "rotation"), [("mcr", "wmo"), ("japanese-transitional", "none")]
)
def test_a_new_tournament_takes_its_presets_seat_rotation(client, creator, preset, rotation):
    client.force_login(creator)
    client.post(
        reverse("organiser:create"),
        tournament_data(slug="new-cup", preset=preset, seat_rotation=""),
    )

    assert Tournament.objects.get(slug="new-cup").seat_rotation == rotation


def test_a_japanese_tournament_sets_its_wind_rounds_and_others_ignore_them(client, creator):
    """A setting the chosen preset lacks is hidden on the form (another preset's, sent by a
    browser without JavaScript after the preset was switched): it is not read."""
    client.force_login(creator)
    client.post(
        reverse("organiser:create"),
        tournament_data(slug="jt-cup", preset="japanese-transitional", wind_rounds="2"),
    )
    mcr = client.post(
        reverse("organiser:create"),
        tournament_data(slug="mcr-cup", wind_rounds="2", ready_pool="6"),
    )

    assert Tournament.objects.get(slug="jt-cup").rules.wind_rounds == 2
    assert mcr.status_code == 302
    assert Tournament.objects.get(slug="mcr-cup").rule_settings == {}


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("ready_pool", "100", "The ready payment after a draw is 0 to 6,000, a multiple of 6."),
        ("extra_hand_bonus", "3000", "The dealer's extra-hand bonus is 1 to 2,000."),
    ],
)
def test_a_setting_out_of_range_is_named_in_words(client, creator, field, value, message):
    client.force_login(creator)
    data = tournament_data(slug="jt-cup", preset="japanese-transitional", seat_rotation="none")

    refused = client.post(reverse("organiser:create"), {**data, field: value})

    assert refused.status_code == 422
    assert refused.context["form"].errors[field] == [message]
    assert "deal." not in refused.content.decode()
    assert not Tournament.objects.filter(slug="jt-cup").exists()


def test_a_setting_out_of_range_is_named_in_chinese(client, creator):
    client.force_login(creator)
    data = tournament_data(slug="jt-cup", preset="japanese-transitional", seat_rotation="none")

    refused = client.post(
        reverse("organiser:create"), {**data, "ready_pool": "100"}, HTTP_ACCEPT_LANGUAGE="zh-hans"
    )

    assert refused.context["form"].errors["ready_pool"] == [
        "荒庄后的听牌支付为 0 到 6000，且须为 6 的倍数。"
    ]


def test_create_keeps_only_the_chosen_tie_breaks(client, creator):
    client.force_login(creator)
    client.post(
        reverse("organiser:create"),
        tournament_data(tie_breaks_0="game_scores", tie_breaks_1="", table_points_0="5"),
    )
    created = Tournament.objects.get(slug="autumn-open")
    assert created.tie_breaks == ["game_scores"]
    assert created.table_points == [5, 2, 1, 0]


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"slug": "spring-cup"}, "slug", "Another tournament has this slug."),
        ({"slug": "tokens"}, "slug", "“tokens” is taken by a page."),
        ({"end_date": "2025-10-01"}, "end_date", "A tournament cannot end before it starts."),
        ({"table_points_1": "5"}, "table_points", "Table points are four whole numbers"),
        ({"table_points_0": "1001"}, "table_points", "less than or equal to 1000"),
        ({"table_points_3": "-1001"}, "table_points", "greater than or equal to -1000"),
        ({"table_points_0": "1e30"}, "table_points", "Enter a whole number."),
        ({"table_points_3": ""}, "table_points", "Give the table points of all four places."),
        ({"tie_breaks_1": "best_game"}, "tie_breaks", "Choose each tie-break once."),
        ({"preset": "poker"}, "preset", "Select a valid choice."),
        ({"name": "  "}, "name", "This field is required."),
    ],
)
def test_create_refuses_bad_settings_and_keeps_what_was_typed(
    client, creator, tournament, changes, field, message
):
    client.force_login(creator)
    response = client.post(reverse("organiser:create"), tournament_data(**changes))
    assert response.status_code == 422
    form = response.context["form"]
    errors = form.errors.get(field or "__all__")
    assert errors and message in " ".join(errors)
    assert form["venue"].value() == "Town hall"
    assert 'value="Town hall"' in response.content.decode()
    assert Tournament.objects.count() == 1


# --- Settings ------------------------------------------------------------------------------


def test_settings_show_the_current_values(client, organiser, tournament):
    client.force_login(organiser)
    form = client.get(SETTINGS).context["form"]
    assert form["name"].value() == "Spring Cup"
    assert form["public"].value() is True


def test_settings_save_and_follow_a_new_slug(client, organiser, tournament):
    client.force_login(organiser)
    data = tournament_data(name="Spring Cup 2025", slug="spring-2025", public=None)
    response = client.post(SETTINGS, data)
    assert response.status_code == 302
    assert response["Location"] == "/manage/spring-2025/"
    tournament.refresh_from_db()
    assert (tournament.name, tournament.slug, tournament.public) == (
        "Spring Cup 2025",
        "spring-2025",
        False,
    )
    assert messages_of(response) == ["The settings are saved."]


def test_settings_may_change_rules_before_any_hand(client, organiser, tournament):
    client.force_login(organiser)
    data = tournament_data(slug="spring-cup", profile="cn-1998", seat_rotation="half")
    assert client.post(SETTINGS, data).status_code == 302
    tournament.refresh_from_db()
    assert (tournament.profile, tournament.seat_rotation) == ("cn-1998", "half")


def test_settings_refuse_new_rules_once_hands_are_recorded(client, organiser, tournament, played):
    client.force_login(organiser)
    assert "the rule preset, its rule settings, the ruling profile and seat rotation are fixed" in (
        client.get(SETTINGS).content.decode()
    )
    data = tournament_data(slug="spring-cup", seat_rotation="none", profile="cn-1998")
    response = client.post(SETTINGS, data)
    assert response.status_code == 422
    errors = response.context["form"].errors
    assert errors["seat_rotation"] == [
        "Hands are recorded under the current seat rotation; it cannot change now."
    ]
    assert errors["profile"] == [
        "Hands are recorded under the current ruling profile; it cannot change now."
    ]
    tournament.refresh_from_db()
    assert (tournament.name, tournament.seat_rotation) == ("Spring Cup", "wmo")


def test_settings_change_table_points_after_hands_with_a_warning(
    client, organiser, tournament, played
):
    client.force_login(organiser)
    data = tournament_data(slug="spring-cup", table_points_0="8", table_points_1="4")
    response = client.post(SETTINGS, data)
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.table_points == [8, 4, 1, 0]
    assert messages_of(response)[1].startswith("Table points or tie-breaks changed")


# --- Dashboard -----------------------------------------------------------------------------


def test_dashboard_counts_players_rounds_hands_and_games(client, organiser, played):
    client.force_login(organiser)
    response = client.get(DASHBOARD)
    assert response.context["players"] == {"total": 10, "substitutes": 1, "withdrawn": 1}
    rounds = response.context["rounds"]
    assert [(r.number, r.status, r.table_count, r.ended_count) for r in rounds] == [
        (1, "playing", 2, 1),
        (2, "draft", 0, 0),
    ]
    assert response.context["current"].number == 1
    assert [
        (t.number, t.hand_count, t.ended_at is not None) for t in response.context["tables"]
    ] == [
        (1, 2, False),
        (2, 0, True),
    ]
    assert response.context["games_ended"] == 1
    page = response.content.decode()
    assert "<strong>10</strong> players (1 substitute), 1 withdrawn" in page
    assert "2 / 16" in page
    assert "Create round 3" in page


def test_dashboard_links_the_public_pages_and_the_audit_trail(client, organiser, played):
    client.force_login(organiser)
    page = client.get(DASHBOARD).content.decode()
    for url in (
        reverse("public:tournament", kwargs={"slug": "spring-cup"}),
        reverse("public:standings", kwargs={"slug": "spring-cup"}),
        reverse("public:round", kwargs={"slug": "spring-cup", "number": 1}),
        reverse("public:table", kwargs={"slug": "spring-cup", "number": 1, "table": 2}),
        reverse("organiser:audit", kwargs={"slug": "spring-cup"}),
    ):
        assert f'href="{url}"' in page
    # A draft round's seating is not public yet.
    assert reverse("public:round", kwargs={"slug": "spring-cup", "number": 2}) not in page


def test_dashboard_of_a_new_tournament(client, organiser, tournament):
    client.force_login(organiser)
    response = client.get(DASHBOARD)
    assert response.context["current"] is None
    assert "No round yet." in response.content.decode()
    assert "Create round 1" in response.content.decode()


def test_dashboard_stays_a_few_queries(client, organiser, played, django_assert_max_num_queries):
    client.force_login(organiser)
    with django_assert_max_num_queries(12):
        client.get(DASHBOARD)


def play_round(tournament, organiser, players) -> None:
    """The next round, its one game submitted, confirmed and the round finished."""
    round, tables = seated_round(tournament, organiser, [players])
    confirm_game(table=submit(tables[0], organiser, hands=2), confirmed_by=organiser)
    set_round_status(round=round, status="finished", actor=organiser)


def test_after_the_planned_rounds_the_dashboard_offers_finishing(client, organiser, tournament):
    Tournament.objects.filter(pk=tournament.pk).update(planned_rounds=2)
    players = make_players(tournament, count=4)
    client.force_login(organiser)
    play_round(tournament, organiser, players)
    page = client.get(DASHBOARD).content.decode()
    assert '<button type="submit">Create round 2</button>' in page  # the plan goes on
    assert "Finish the tournament" not in page

    round, tables = seated_round(tournament, organiser, [players])  # round 2, in play
    page = client.get(DASHBOARD).content.decode()
    assert "Finish the tournament" not in page
    assert '<button type="submit">Create round 3</button>' not in page
    assert "Add a round beyond the 2 planned" in page  # still possible, not offered first

    confirm_game(table=submit(tables[0], organiser, hands=2), confirmed_by=organiser)
    set_round_status(round=round, status="finished", actor=organiser)
    response = client.get(DASHBOARD)
    page = response.content.decode()
    assert response.context["finished"]
    assert "Finish the tournament" in page
    assert "All 2 planned rounds are played and their sheets confirmed" in page
    assert reverse("outputs:ema", args=["spring-cup"]) in page
    assert '<button type="submit">Create round 3</button>' not in page


def test_without_a_plan_the_dashboard_offers_the_next_round(client, organiser, tournament):
    players = make_players(tournament, count=4)
    play_round(tournament, organiser, players)
    client.force_login(organiser)
    page = client.get(DASHBOARD).content.decode()
    assert '<button type="submit">Create round 2</button>' in page
    assert "Finish the tournament" not in page
