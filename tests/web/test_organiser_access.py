"""Who may open the organiser's pages: the permission matrix for every organiser URL."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.urls import reverse
from factories import make_players, make_user, seated_round

from tournament.infra.tokens import issue_token
from tournament.models import (
    ApiToken,
    AuditEntry,
    Deal,
    Penalty,
    Player,
    RefereeAccount,
    Round,
    Seat,
    Table,
    Tournament,
)
from tournament.services import (
    DealInput,
    create_round,
    record_deal,
    record_penalty,
)

pytestmark = pytest.mark.django_db

MODELS = (
    ApiToken, AuditEntry, Deal, Penalty, Player, RefereeAccount, Round, Seat, Table, Tournament,
)  # fmt: skip


@pytest.fixture
def world(tournament, organiser, referee):
    """Round 1 in play (tables 1 and 2, a hand and a penalty at table 1), round 2 a draft."""
    players = make_players(tournament, name="P{}")
    _, tables = seated_round(tournament, organiser, [players[:4], players[4:]])
    record_deal(
        table=tables[0],
        number=1,
        deal=DealInput(result="win", winner=players[0], fan=8),
        entered_by=organiser,
    )
    penalty = record_penalty(table=tables[0], player=players[1], points=10, distributed=False,
                             reason="Slow play", entered_by=organiser)  # fmt: skip
    create_round(tournament=tournament, actor=organiser)
    tables[0].referees.add(referee)
    stranger = make_user("carol", password="stranger-pass-42")
    token, _ = issue_token(user=organiser, name="scoreboard")
    return {
        "players": players,
        "penalty": penalty,
        "referee": referee,
        "stranger": stranger,
        "token": token,
    }


def pages(world) -> list[str]:
    """Every organiser page of the tournament that answers GET."""
    slug = "spring-cup"
    table = {"slug": slug, "number": 1, "table": 1}
    return [
        reverse("organiser:dashboard", kwargs={"slug": slug}),
        reverse("organiser:settings", kwargs={"slug": slug}),
        reverse("organiser:audit", kwargs={"slug": slug}),
        reverse("organiser:players", kwargs={"slug": slug}),
        reverse("organiser:player_add", kwargs={"slug": slug}),
        reverse("organiser:players_import", kwargs={"slug": slug}),
        reverse("organiser:player", kwargs={"slug": slug, "key": "1"}),
        reverse("organiser:referees", kwargs={"slug": slug}),
        reverse("organiser:referee_slips", kwargs={"slug": slug}),
        reverse("organiser:round", kwargs={"slug": slug, "number": 1}),
        reverse("organiser:round_referees", kwargs={"slug": slug, "number": 1}),
        reverse("organiser:table", kwargs=table),
        reverse("organiser:hand", kwargs={**table, "hand": 1}),
        reverse("organiser:penalty", kwargs={**table, "penalty": world["penalty"].pk}),
    ]


def form_pages(world) -> list[str]:
    """The pages that also take a POST (a form)."""
    return [url for url in pages(world) if not url.endswith(("/spring-cup/", "/audit/",
            "/players/", "/rounds/1/", "/tables/1/", "/slips/"))]  # fmt: skip


def actions(world) -> list[str]:
    """Every organiser URL of the tournament that only answers POST."""
    slug = "spring-cup"
    table = {"slug": slug, "number": 1, "table": 1}
    return [
        reverse("organiser:round_create", kwargs={"slug": slug}),
        reverse("organiser:round_seat", kwargs={"slug": slug, "number": 2}),
        reverse("organiser:round_swap", kwargs={"slug": slug, "number": 1}),
        reverse("organiser:round_status", kwargs={"slug": slug, "number": 1}),
        reverse("organiser:round_remove", kwargs={"slug": slug, "number": 2}),
        reverse("organiser:referees_create", kwargs={"slug": slug}),
        reverse("organiser:referee_password", kwargs={"slug": slug, "username": "bob"}),
        reverse("organiser:referee_active", kwargs={"slug": slug, "username": "bob"}),
        reverse("organiser:remove_hand", kwargs=table),
        reverse("organiser:penalty_add", kwargs=table),
        reverse("organiser:penalty_remove", kwargs={**table, "penalty": world["penalty"].pk}),
        reverse("organiser:false_win_add", kwargs=table),
        reverse("organiser:end_game", kwargs=table),
        reverse("organiser:reopen_game", kwargs=table),
    ]


# What a POST to each action would change if it were let through.
POST_DATA = {
    "round_seat": {"seed": "1"},
    "round_swap": {"first": "1", "second": "2"},
    "round_status": {"status": "finished"},
    "referees_create": {"count": "3"},
    "referee_active": {"active": "0"},
    "penalty_add": {"player": "1", "points": "10", "reason": "x"},
    "false_win_add": {"number": "2", "offender": "1"},
    "end_game": {"ended_by_time": "on"},
}


def snapshot() -> dict:
    counts = {model.__name__: model.objects.count() for model in MODELS}
    counts["statuses"] = list(Round.objects.order_by("number").values_list("status", flat=True))
    counts["referees"] = list(Table.referees.through.objects.values_list("user_id", flat=True))
    counts["inactive"] = list(get_user_model().objects.filter(is_active=False).values_list("pk"))
    return counts


def test_anonymous_visitors_are_sent_to_log_in(client, world):
    before = snapshot()
    for url in [reverse("organiser:index"), reverse("organiser:create"),
                reverse("organiser:tokens"), *pages(world)]:  # fmt: skip
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"] == f"/accounts/login/?next={url}", url
    for url in actions(world):
        response = client.post(url, {})
        assert response.status_code == 302, url
        assert response["Location"].startswith("/accounts/login/"), url
    assert snapshot() == before


def test_a_user_who_does_not_organise_gets_403_saying_why(client, world):
    client.force_login(world["stranger"])
    before = snapshot()
    for url in pages(world):
        response = client.get(url)
        assert response.status_code == 403, url
        assert "You are logged in as carol, but you are not an organiser of Spring Cup" in (
            response.content.decode()
        )
        assert response.templates[0].name == "403.html"
    for url in form_pages(world) + actions(world):
        assert client.post(url, {}).status_code == 403, url
    assert snapshot() == before


def test_a_referee_of_a_table_gets_403_on_every_organiser_page(client, world):
    client.force_login(world["referee"])
    before = snapshot()
    assert len(form_pages(world)) == 8
    for url in form_pages(world) + actions(world):
        assert client.post(url, {}).status_code == 403, url
    for url in pages(world):
        assert client.get(url).status_code == 403, url
    assert snapshot() == before


def test_the_organiser_opens_every_page(client, world, organiser):
    client.force_login(organiser)
    for url in [reverse("organiser:index"), reverse("organiser:tokens"), *pages(world)]:
        assert client.get(url).status_code == 200, url


def test_get_on_every_write_url_is_refused_and_changes_nothing(client, world, organiser):
    client.force_login(organiser)
    before = snapshot()
    revoke = reverse("organiser:token_revoke", kwargs={"token": world["token"].pk})
    for url in [*actions(world), revoke]:
        # A visit, not the form: sent to the page above the address, where the form is.
        response = client.get(url)
        assert response.status_code == 303, url
        assert url.startswith(response["Location"]) and url != response["Location"], url
    assert snapshot() == before


def test_the_organisers_posts_reach_the_services(client, world, organiser):
    """The same URLs with the organiser logged in do act (each is tested in detail elsewhere)."""
    client.force_login(organiser)
    url = reverse("organiser:round_status", kwargs={"slug": "spring-cup", "number": 1})
    response = client.post(url, POST_DATA["round_status"])
    # Table 2 has no result and table 1 is still open: the round cannot finish.
    assert response.status_code == 422
    assert "The games at tables 1, 2 have not ended." in response.content.decode()
    url = reverse("organiser:round_create", kwargs={"slug": "spring-cup"})
    assert client.post(url).status_code == 302
    assert Round.objects.count() == 3


def test_an_unknown_tournament_is_404(client, world, organiser):
    client.force_login(organiser)
    assert client.get("/manage/no-such-cup/").status_code == 404
    assert client.get("/manage/spring-cup/rounds/9/").status_code == 404
    assert client.get("/manage/spring-cup/rounds/1/tables/9/").status_code == 404
    assert client.get("/manage/spring-cup/rounds/1/tables/1/hands/5/").status_code == 404
    assert client.post("/manage/no-such-cup/rounds/new/").status_code == 404


def test_a_private_tournament_is_404_to_strangers_and_403_to_its_referees(client, world):
    Tournament.objects.filter(slug="spring-cup").update(public=False)
    client.force_login(world["stranger"])
    assert client.get("/manage/spring-cup/").status_code == 404
    client.force_login(world["referee"])
    assert client.get("/manage/spring-cup/").status_code == 403


def test_a_superuser_organises_every_tournament(client, world):
    admin = get_user_model().objects.create_superuser(username="root", password="root-pass-42")
    client.force_login(admin)
    assert client.get("/manage/spring-cup/").status_code == 200
    assert "Spring Cup" in client.get("/manage/").content.decode()


def test_creating_a_tournament_needs_the_add_permission(client, world):
    client.force_login(world["stranger"])
    response = client.get(reverse("organiser:create"))
    assert response.status_code == 403
    assert "needs the permission “Can add tournament”" in response.content.decode()
    assert client.post(reverse("organiser:create"), {"name": "X", "slug": "x"}).status_code == 403
    assert not Tournament.objects.filter(slug="x").exists()
    world["stranger"].user_permissions.add(Permission.objects.get(codename="add_tournament"))
    assert client.get(reverse("organiser:create")).status_code == 200


def test_only_the_owner_may_revoke_a_token(client, world):
    client.force_login(world["stranger"])
    revoke = reverse("organiser:token_revoke", kwargs={"token": world["token"].pk})
    assert client.post(revoke).status_code == 404
    assert ApiToken.objects.filter(pk=world["token"].pk).exists()


def test_a_post_without_the_csrf_token_is_refused(world, organiser):
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(organiser)
    before = snapshot()
    url = reverse("organiser:round_create", kwargs={"slug": "spring-cup"})
    assert browser.post(url).status_code == 403
    page = browser.get(reverse("organiser:dashboard", kwargs={"slug": "spring-cup"}))
    assert 'name="csrfmiddlewaretoken"' in page.content.decode()
    assert snapshot() == before


def test_round_page_stays_a_few_queries(client, world, organiser, django_assert_max_num_queries):
    client.force_login(organiser)
    with django_assert_max_num_queries(12):
        response = client.get(
            reverse("organiser:round", kwargs={"slug": "spring-cup", "number": 1})
        )
    assert len(response.context["rows"]) == 2


# --- The header's "Organise" link -----------------------------------------------------------


def organise_link(client) -> bool:
    return f'href="{reverse("organiser:index")}"' in client.get(reverse("home")).content.decode()


def test_the_header_offers_organising_only_to_who_may_organise(client, tournament, organiser):
    referee = make_user("bob")
    client.force_login(referee)
    assert not organise_link(client)
    referee.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    assert organise_link(client)  # may create a tournament
    client.force_login(organiser)
    assert organise_link(client)
    client.force_login(make_user("root", is_superuser=True))
    assert organise_link(client)
    client.logout()
    assert not organise_link(client)
