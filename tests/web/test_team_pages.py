"""The public team standings, each team's page, their exports and the navigation's link."""

from __future__ import annotations

import csv
import io
import re
from html import unescape

import pytest
from django.urls import reverse
from preset_world import PRESETS, build

from tournament.services import update_player
from tournament.services.tournaments import update_tournament

pytestmark = pytest.mark.django_db

TEAMS = ["Oak Tree", "東京 チーム", "Red/Green", "Oak Tree"]


@pytest.fixture
def teamed(tournament, board, organiser):
    """The board's eight players: 1 and 4 in "Oak Tree", 2 in "東京 チーム", 3 in
    "Red/Green", the others in no team; each team's best 1 counts."""
    for player, team in zip(board["players"], TEAMS, strict=False):
        update_player(player=player, team=team)
    update_tournament(tournament=tournament, team_best_of=1)
    return board


def _texts(response) -> str:
    return unescape(re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_team_standings_page_lists_every_team(client, tournament, teamed):
    response = client.get(reverse("public:teams", args=[tournament.slug]))
    assert response.status_code == 200
    assert response.content.count(b"data-team=") == 3
    text = _texts(response)
    for name in ("Oak Tree", "東京 チーム", "Red/Green"):
        assert name in text
    assert "None" not in text


@pytest.mark.parametrize(
    ("slug", "name"),
    [("oak-tree", "Oak Tree"), ("東京-チーム", "東京 チーム"), ("redgreen", "Red/Green")],
)
def test_each_team_has_a_page_at_its_slug(client, tournament, teamed, slug, name):
    url = reverse("public:team", args=[tournament.slug, slug])
    response = client.get(url)
    assert response.status_code == 200
    assert f"<h1>{name}" in unescape(response.content.decode())
    # The standings link to it at that very address (CJK percent-encoded).
    standings = client.get(reverse("public:teams", args=[tournament.slug])).content.decode()
    assert f'href="{url}"' in standings


def test_a_team_page_shows_its_members_and_which_counted(client, tournament, teamed):
    response = client.get(reverse("public:team", args=[tournament.slug, "oak-tree"]))
    body = response.content.decode()
    assert body.count("data-key=") == 2
    assert body.count('data-counted="yes"') == 1
    assert body.count('data-counted="no"') == 1


def test_an_unknown_team_is_404(client, tournament, teamed):
    response = client.get(reverse("public:team", args=[tournament.slug, "no-such-team"]))
    assert response.status_code == 404


def test_a_slash_in_the_address_is_not_a_team(client, tournament, teamed):
    assert client.get(f"/t/{tournament.slug}/teams/Red/Green/").status_code == 404


def test_without_two_teams_there_are_no_team_standings(client, tournament, board):
    update_player(player=board["players"][0], team="Oak")
    assert client.get(reverse("public:teams", args=[tournament.slug])).status_code == 404
    assert client.get(reverse("public:team", args=[tournament.slug, "oak"])).status_code == 404
    page = client.get(reverse("public:standings", args=[tournament.slug]))
    assert reverse("public:teams", args=[tournament.slug]).encode() not in page.content


@pytest.mark.parametrize(
    ("name", "more"),
    [("tournament", []), ("standings", []), ("round", [1]), ("player", ["1"]),
     ("table", [1, 1])],
)  # fmt: skip
def test_the_navigation_links_the_team_standings_when_there_are_teams(
    client, tournament, teamed, name, more
):
    page = client.get(reverse(f"public:{name}", args=[tournament.slug, *more]))
    assert page.status_code == 200
    assert reverse("public:teams", args=[tournament.slug]).encode() in page.content


@pytest.mark.parametrize(("name", "more"), [("round", [1]), ("player", ["1"]), ("table", [1, 1])])
def test_the_navigation_has_no_team_link_without_teams(client, tournament, board, name, more):
    page = client.get(reverse(f"public:{name}", args=[tournament.slug, *more]))
    assert page.status_code == 200
    assert reverse("public:teams", args=[tournament.slug]).encode() not in page.content


def test_private_team_standings_are_404_for_visitors(client, tournament, teamed):
    tournament.public = False
    tournament.save()
    assert client.get(reverse("public:teams", args=[tournament.slug])).status_code == 404
    assert client.get(reverse("public:team", args=[tournament.slug, "oak-tree"])).status_code == 404


def test_the_csv_export_holds_every_team_with_exact_points(client, tournament, teamed):
    response = client.get(reverse("public:teams", args=[tournament.slug]), {"_export": "csv"})
    assert response.status_code == 200
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert [row["Team"] for row in rows] == sorted(
        ["Oak Tree", "東京 チーム", "Red/Green"], key=lambda name: name.casefold()
    )  # nothing played: all level, by name
    assert {row["Rank"] for row in rows} == {"1"}
    assert {row["Table points (exact)"] for row in rows} == {"0"}
    assert rows[0]["Players counted"]


def test_an_unknown_export_format_is_refused(client, tournament, teamed):
    response = client.get(reverse("public:teams", args=[tournament.slug]), {"_export": "pdf"})
    assert response.status_code == 400


@pytest.mark.parametrize("key", PRESETS)
@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_team_pages_of_every_preset(client, key, language):
    world = build(key)
    for player, team in zip(world.players, ["A", "B"] * 4, strict=True):
        update_player(player=player, team=team)
    update_player(player=world.substitute, team="A")
    slug = world.tournament.slug
    for url in (
        reverse("public:teams", args=[slug]),
        reverse("public:team", args=[slug, "a"]),
        reverse("public:team", args=[slug, "b"]),
        reverse("public:teams", args=[slug]) + "?provisional=1",
    ):
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200, url
        assert not re.search(r"\bNone\b", _texts(response)), url


# --- The organiser's printout and file ------------------------------------------------------


def test_the_printout_lists_each_team_with_its_players(client, organiser, tournament, teamed):
    client.force_login(organiser)
    response = client.get(reverse("outputs:teams", args=[tournament.slug]))
    assert response.status_code == 200
    body = unescape(response.content.decode())
    assert body.count("data-team=") == 3
    assert "<strong>Ann Archer</strong>" in body or "<strong>Dora Diaz</strong>" in body
    assert 'class="tag">incomplete' not in body


def test_the_csv_file_for_the_organiser(client, organiser, tournament, teamed):
    client.force_login(organiser)
    response = client.get(reverse("outputs:teams_csv", args=[tournament.slug]))
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert len(rows) == 3


def test_the_printout_and_file_are_for_organisers_only(client, tournament, teamed):
    for name in ("outputs:teams", "outputs:teams_csv"):
        assert client.get(reverse(name, args=[tournament.slug])).status_code in (302, 403, 404)


def test_a_players_page_links_their_team(client, tournament, teamed):
    page = client.get(reverse("public:player", args=[tournament.slug, "3"]))
    assert reverse("public:team", args=[tournament.slug, "redgreen"]).encode() in page.content
    alone = client.get(reverse("public:player", args=[tournament.slug, "5"]))
    assert b"/teams/" not in alone.content.replace(b"/t/spring-cup/teams/", b"")


def test_team_pages_ask_a_fixed_number_of_queries(
    client, tournament, teamed, django_assert_max_num_queries
):
    standings_url = reverse("public:teams", args=[tournament.slug])
    team_url = reverse("public:team", args=[tournament.slug, "oak-tree"])
    # The first visit reads the standings (players and seats) once for both pages.
    with django_assert_max_num_queries(4):
        client.get(standings_url)
    # Then the tournament and its LiveVersion number, whatever the size.
    with django_assert_max_num_queries(2):
        assert client.get(standings_url).status_code == 200
    with django_assert_max_num_queries(2):
        assert client.get(team_url).status_code == 200
