"""Who may read the public pages: everyone for a public tournament; for a private one only its
organisers and the referees of its tables (everyone else gets 404). Draft rounds are for
organisers only. Unknown things are 404; the pages refuse writes (405)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from factories import make_user

from tournament.models import Table, Tournament
from tournament.services import add_player, assign_referees

PAGES = [
    ("public:tournament", []),
    ("public:standings", []),
    ("public:round", [1]),
    ("public:table", [1, 1]),
    ("public:player", ["1"]),
]
URLS = [reverse(name, args=["spring-cup", *args]) for name, args in PAGES] + [
    reverse("public:standings", args=["spring-cup"]) + "?_export=csv",
    reverse("public:standings", args=["spring-cup"]) + "?_export=xlsx",
]
DRAFT_URLS = [
    reverse("public:round", args=["spring-cup", 3]),
    reverse("public:table", args=["spring-cup", 3, 2]),
]


@pytest.fixture
def private(tournament, cup):
    tournament.public = False
    tournament.save()
    return tournament


@pytest.fixture
def referee(private, organiser):
    """A referee of table 2 in round 2 only."""
    user = make_user("bob")
    table = Table.objects.get(round__tournament=private, round__number=2, number=2)
    assign_referees(table=table, referees=[user], actor=organiser)
    return user


def statuses(client, urls):
    return [client.get(url).status_code for url in urls]


def test_public_tournament_is_open_to_anonymous_visitors(client, cup):
    assert statuses(client, URLS) == [200] * len(URLS)


def test_private_tournament_is_404_to_anonymous_visitors(client, private):
    assert statuses(client, URLS) == [404] * len(URLS)


def test_private_tournament_is_open_to_its_organisers(client, private, organiser):
    client.force_login(organiser)

    assert statuses(client, URLS) == [200] * len(URLS)


def test_private_tournament_is_open_to_a_referee_of_one_of_its_tables(client, referee):
    client.force_login(referee)

    assert statuses(client, URLS) == [200] * len(URLS)


def test_private_tournament_is_404_to_another_logged_in_user(client, private):
    client.force_login(make_user("carol"))

    assert statuses(client, URLS) == [404] * len(URLS)


def test_private_tournament_is_open_to_a_superuser(client, private):
    client.force_login(
        get_user_model().objects.create_superuser(username="root", password="a-long-pass-42")
    )

    assert statuses(client, URLS) == [200] * len(URLS)


def test_an_inactive_organiser_is_refused(client, private, organiser):
    organiser.is_active = False
    organiser.save()
    client.force_login(organiser)

    assert client.get(URLS[0]).status_code == 404


def test_the_organiser_of_another_tournament_is_refused(client, private):
    other = Tournament.objects.create(name="Other", slug="other")
    someone = make_user("dave")
    other.organisers.add(someone)
    client.force_login(someone)

    assert statuses(client, URLS) == [404] * len(URLS)


def test_a_draft_round_and_its_tables_are_404_to_the_public(client, cup):
    assert statuses(client, DRAFT_URLS) == [404, 404]


def test_a_draft_round_is_404_to_a_referee(client, referee):
    client.force_login(referee)

    assert statuses(client, DRAFT_URLS) == [404, 404]


def test_a_draft_round_is_open_to_organisers(client, private, organiser):
    client.force_login(organiser)

    assert statuses(client, DRAFT_URLS) == [200, 200]


def test_draft_rounds_do_not_show_on_a_players_page_to_the_public(client, cup):
    html = client.get(reverse("public:player", args=["spring-cup", "1"])).content.decode()

    assert reverse("public:round", args=["spring-cup", 3]) not in html


@pytest.mark.parametrize(
    "url",
    [
        "/t/no-such-cup/",
        "/t/no-such-cup/standings/",
        "/t/no-such-cup/standings/?_export=csv",
        "/t/no-such-cup/rounds/1/",
        "/t/no-such-cup/rounds/1/tables/1/",
        "/t/no-such-cup/players/1/",
        "/t/spring-cup/rounds/99/",
        "/t/spring-cup/rounds/0/",
        "/t/spring-cup/rounds/99/tables/1/",
        "/t/spring-cup/rounds/1/tables/3/",
        "/t/spring-cup/rounds/1/tables/0/",
        "/t/spring-cup/players/nobody/",
        "/t/spring-cup/rounds/one/",
    ],
)
def test_unknown_things_are_404(client, cup, url):
    assert client.get(url).status_code == 404


def test_a_player_of_another_tournament_is_404(client, cup):
    other = Tournament.objects.create(name="Other", slug="other", public=True)
    add_player(tournament=other, key="X1", name="Xavier")

    assert client.get("/t/spring-cup/players/X1/").status_code == 404
    assert client.get("/t/other/players/X1/").status_code == 200


@pytest.mark.parametrize("url", URLS)
@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_writes_are_refused(client, tournament, organiser, url, method):
    client.force_login(organiser)

    assert getattr(client, method)(url).status_code == 405
    assert tournament.players.count() == 0


def test_head_is_allowed(client, cup):
    assert client.head(URLS[0]).status_code == 200
