"""The prize-giving on the pages: while round 2 on is hidden, visitors, players (their private
link) and referees see the ranking after round 1, organisers the full one with a notice; the
tables' results stay visible; the projector shows the hall the public ranking and reveals the
final one from the last place; the organiser's controls on the settings page."""

from __future__ import annotations

import re

import preset_world
import pytest
from django.urls import reverse
from preset_world import PRESETS
from prize_world import BEFORE_ROUND_2, FULL, build

from tournament.models import AuditEntry, LiveVersion, Round, Tournament
from tournament.reads.standings_cache import clear
from tournament.services import set_round_status
from tournament.services.player_links import issue_link
from tournament.services.prize_giving import hide_standings_from, reveal_standings

pytestmark = pytest.mark.django_db

SLUG = "spring-cup"
STANDINGS = reverse("public:standings", args=[SLUG])
PROJECTOR = reverse("public:projector", args=[SLUG])
REVEAL = reverse("public:projector_reveal", args=[SLUG])
SETTINGS = reverse("organiser:settings", args=[SLUG])
HIDE = reverse("organiser:standings_hide", args=[SLUG])
DO_REVEAL = reverse("organiser:standings_reveal", args=[SLUG])
HIDE_AGAIN = reverse("organiser:standings_hide_again", args=[SLUG])
NOTICE = "Standings from round 2 on are hidden until the prize-giving."
ORGANISER_NOTICE = "You see the full standings as an organiser."
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def fresh_cache():
    clear()  # a rolled-back database may reuse a live number
    yield
    clear()


@pytest.fixture
def world(tournament, organiser, referee):
    return build(tournament, organiser, referee)


@pytest.fixture
def hidden(tournament, organiser, world):
    hide_standings_from(tournament=tournament, round=2, actor=organiser)
    return world


def text(response):
    html = response.content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def page_ranks(response):
    html = response.content.decode()
    return {
        key: int(rank)
        for key, rank in re.findall(r'data-key="(\w+)"><td class="number">(\d+)</td>', html)
    }


def projector_ranks(response):
    html = response.content.decode()
    found = re.findall(r'<td class="number">(\d+)</td>\s*<td class="pj-player">([^<]+?)\s*<', html)
    keys = {"Ann Archer": "1", "Ben Baker": "2", "Cat Carter": "3", "Dan Dyer": "4"}
    return {keys[name]: int(rank) for rank, name in found}


# --- The standings page ----------------------------------------------------------------------


def test_a_visitor_sees_the_standings_after_round_one_with_the_notice(client, hidden):
    response = client.get(STANDINGS)
    assert response.status_code == 200
    assert page_ranks(response) == BEFORE_ROUND_2
    assert NOTICE in text(response)
    assert "The ranking counts round 1 only." in text(response)
    assert "1 game counted" in text(response)  # round 2's game is not counted


def test_a_referee_sees_the_hidden_standings(client, hidden, referee):
    client.force_login(referee)
    response = client.get(STANDINGS)
    assert page_ranks(response) == BEFORE_ROUND_2
    assert NOTICE in text(response)


def test_an_organiser_sees_everything_with_a_notice(client, hidden, organiser):
    client.force_login(organiser)
    response = client.get(STANDINGS)
    assert page_ranks(response) == FULL
    assert ORGANISER_NOTICE in text(response)
    assert NOTICE not in text(response)
    assert f"{SETTINGS}#prize-giving" in response.content.decode()


def test_the_organisers_standings_are_not_kept_for_visitors(client, hidden, organiser):
    client.force_login(organiser)
    assert page_ranks(client.get(STANDINGS)) == FULL
    assert page_ranks(client.get(STANDINGS, **HTMX)) == FULL
    client.logout()
    assert page_ranks(client.get(STANDINGS)) == BEFORE_ROUND_2
    assert page_ranks(client.get(STANDINGS, **HTMX)) == BEFORE_ROUND_2


def test_provisional_standings_and_downloads_are_hidden_too(client, hidden):
    assert page_ranks(client.get(STANDINGS, {"provisional": "1"})) == BEFORE_ROUND_2
    csv = client.get(STANDINGS, {"_export": "csv"}).content.decode()
    lines = [line.split(",") for line in csv.strip().splitlines()[1:]]
    assert lines[0][0] == "1" and "Ann Archer" in lines[0]
    assert {line[0] for line in lines[1:]} == {"2"}


def test_after_the_reveal_everyone_sees_the_full_standings(client, hidden, tournament, organiser):
    first = client.get(STANDINGS, **HTMX)
    reveal_standings(tournament=tournament, actor=organiser)
    # The live poll's tag moved: the visitor's copy is not answered 304.
    again = client.get(STANDINGS, HTTP_IF_NONE_MATCH=first["ETag"], **HTMX)
    assert again.status_code == 200
    assert again["ETag"] != first["ETag"]
    assert page_ranks(again) == FULL
    assert NOTICE not in text(again)
    assert page_ranks(client.get(STANDINGS)) == FULL


def test_nothing_hidden_shows_no_notice(client, world):
    response = client.get(STANDINGS)
    assert page_ranks(response) == FULL
    assert "prize-giving" not in text(response)


# --- The tournament page, the players' pages, the tables ----------------------------------


def test_the_tournament_page_says_so(client, hidden, organiser):
    url = reverse("public:tournament", args=[SLUG])
    assert NOTICE in text(client.get(url))
    client.force_login(organiser)
    assert ORGANISER_NOTICE in text(client.get(url))


def rank_on(response):
    return re.search(r'<dd class="rank">(\d+)</dd>', response.content.decode()).group(1)


def test_a_player_page_shows_the_rank_after_round_one_and_every_game(client, hidden, organiser):
    url = reverse("public:player", args=[SLUG, "4"])
    response = client.get(url)
    assert rank_on(response) == "2"
    assert '<dd class="table-points">1</dd>' in response.content.decode()
    assert NOTICE in text(response)
    # Round 2's game and deals are on the page all the same: a table's results stay visible.
    assert reverse("public:table", args=[SLUG, 2, 1]) in response.content.decode()
    client.force_login(organiser)
    assert rank_on(client.get(url)) == "1"


def test_the_private_link_shows_the_public_rank(client, hidden, organiser, world):
    secret = issue_link(world["players"][3], actor=organiser)
    url = reverse("player_link", args=[secret])
    response = client.get(url)
    assert response.status_code == 200
    assert rank_on(response) == "2"
    assert NOTICE in text(response)
    # Even an organiser opening it sees what the player sees.
    client.force_login(organiser)
    assert rank_on(client.get(url)) == "2"


def test_a_table_sheet_stays_visible_to_visitors_and_its_referee(client, hidden, referee):
    url = reverse("public:table", args=[SLUG, 2, 1])
    visitor = client.get(url)
    assert visitor.status_code == 200
    assert "768" in text(visitor)  # Dan's score at the table
    client.force_login(referee)
    assert "768" in text(client.get(url))


def test_the_statistics_stop_the_rank_before_the_hidden_rounds(client, hidden, organiser):
    url = reverse("stats:player", args=[SLUG, "4"])
    html = client.get(url).content.decode()
    rows = re.findall(r'<tr><th scope="row" class="number">(\d+)</th>', html)
    assert rows == ["1"]
    assert NOTICE in text(client.get(url))
    client.force_login(organiser)
    html = client.get(url).content.decode()
    assert re.findall(r'<tr><th scope="row" class="number">(\d+)</th>', html) == ["1", "2"]


# --- The projector ---------------------------------------------------------------------------


def test_the_projector_shows_the_hall_the_public_ranking(client, hidden, organiser):
    response = client.get(PROJECTOR)
    assert projector_ranks(response) == BEFORE_ROUND_2
    assert NOTICE in text(response)
    # An organiser's laptop on the projector shows the hall the same.
    client.force_login(organiser)
    assert projector_ranks(client.get(PROJECTOR)) == BEFORE_ROUND_2
    panel = client.get(PROJECTOR, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="pj-panel")
    assert projector_ranks(panel) == BEFORE_ROUND_2


def test_the_projector_shows_the_full_ranking_after_the_reveal(
    client, hidden, tournament, organiser
):
    panel = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "pj-panel"}
    before = client.get(PROJECTOR, **panel)
    reveal_standings(tournament=tournament, actor=organiser)
    after = client.get(PROJECTOR, HTTP_IF_NONE_MATCH=before["ETag"], **panel)
    assert after.status_code == 200
    assert projector_ranks(after) == FULL
    assert NOTICE not in text(after)


def reveal_rows(response):
    return re.findall(r'data-reveal-row data-rank="(\d+)"', response.content.decode())


def test_the_reveal_page_waits_for_the_reveal_for_visitors(client, hidden, referee):
    response = client.get(REVEAL)
    assert response.status_code == 200
    assert reveal_rows(response) == []
    assert NOTICE in text(response)
    assert "no-store" in response["Cache-Control"]
    client.force_login(referee)
    assert reveal_rows(client.get(REVEAL)) == []


def test_an_organiser_may_rehearse_the_reveal_before_it(client, hidden, organiser):
    client.force_login(organiser)
    response = client.get(REVEAL)
    assert reveal_rows(response) == ["1", "2", "3", "3"]
    assert "Dan Dyer" in text(response)
    assert "Only organisers see this ranking" in text(response)
    assert "tournament/reveal.js" in response.content.decode()
    assert "<script>" not in response.content.decode()  # no inline script (the CSP)


def test_after_the_reveal_anyone_sees_the_ranking_to_reveal(client, hidden, tournament, organiser):
    reveal_standings(tournament=tournament, actor=organiser)
    response = client.get(REVEAL)
    assert reveal_rows(response) == ["1", "2", "3", "3"]
    assert reveal_rows(client.get(REVEAL, {"top": "2"})) == ["1", "2"]
    assert reveal_rows(client.get(REVEAL, {"top": "junk"})) == ["1", "2", "3", "3"]
    timed = client.get(REVEAL, {"every": "1"}).content.decode()
    assert 'data-reveal-every="2"' in timed  # brought into the projector's range
    assert client.post(REVEAL).status_code == 405


def test_the_reveal_page_of_a_private_tournament_is_404_to_strangers(client, hidden, tournament):
    tournament.public = False
    tournament.save()
    assert client.get(REVEAL).status_code == 404


# --- The organiser's controls ---------------------------------------------------------------


def test_the_settings_page_has_the_prize_giving_controls(client, world, organiser):
    client.force_login(organiser)
    html = client.get(SETTINGS).content.decode()
    assert 'id="prize-giving"' in html
    assert f'action="{HIDE}"' in html
    assert 'name="hidden_from"' in html
    assert DO_REVEAL not in html  # nothing hidden: nothing to reveal


def test_an_organiser_hides_the_standings_from_a_round(client, world, organiser, tournament):
    client.force_login(organiser)
    response = client.post(HIDE, {"hidden_from": "2"})
    assert response.status_code == 302
    assert response["Location"] == f"{SETTINGS}#prize-giving"
    tournament.refresh_from_db()
    assert tournament.standings_hidden_from == 2
    assert AuditEntry.objects.filter(action=AuditEntry.Action.STANDINGS_HIDDEN).count() == 1
    html = client.get(SETTINGS).content.decode()
    assert f'action="{DO_REVEAL}"' in html and 'value="2"' in html
    client.logout()
    assert page_ranks(client.get(STANDINGS)) == BEFORE_ROUND_2


def test_an_empty_round_never_hides(client, hidden, organiser, tournament):
    client.force_login(organiser)
    assert client.post(HIDE, {"hidden_from": ""}).status_code == 302
    tournament.refresh_from_db()
    assert tournament.standings_hidden_from is None


@pytest.mark.parametrize("value", ["0", "201", "two"])
def test_a_bad_round_is_shown_on_the_form(client, world, organiser, tournament, value):
    client.force_login(organiser)
    response = client.post(HIDE, {"hidden_from": value})
    assert response.status_code == 422
    assert 'id="prize-giving"' in response.content.decode()
    assert "errorlist" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.standings_hidden_from is None


def test_the_reveal_needs_the_box_ticked(client, hidden, organiser, tournament):
    client.force_login(organiser)
    response = client.post(DO_REVEAL, {})
    assert response.status_code == 422
    assert "Tick the box to reveal the standings to everyone." in text(response)
    tournament.refresh_from_db()
    assert tournament.standings_revealed_at is None


def test_an_organiser_reveals_and_hides_again(client, hidden, organiser, tournament):
    client.force_login(organiser)
    number = LiveVersion.objects.get(tournament=tournament).number
    assert client.post(DO_REVEAL, {"confirm": "on"}).status_code == 302
    tournament.refresh_from_db()
    assert tournament.standings_revealed_at is not None
    assert LiveVersion.objects.get(tournament=tournament).number == number + 1
    assert AuditEntry.objects.filter(action=AuditEntry.Action.STANDINGS_REVEALED).count() == 1
    html = client.get(SETTINGS).content.decode()
    assert f'action="{HIDE_AGAIN}"' in html and "The standings were revealed on" in html
    # A second reveal (another tab) is refused on the page, not a 500.
    again = client.post(DO_REVEAL, {"confirm": "on"})
    assert again.status_code == 422
    assert "The standings are revealed already." in text(again)
    assert client.post(HIDE_AGAIN).status_code == 302
    tournament.refresh_from_db()
    assert tournament.standings_revealed_at is None
    refused = client.post(HIDE_AGAIN)
    assert refused.status_code == 422
    assert "nothing to hide again" in text(refused)


def test_the_audit_page_names_the_prize_giving(client, hidden, organiser):
    client.force_login(organiser)
    html = text(client.get(reverse("organiser:audit", args=[SLUG])))
    assert "Standings hidden for the prize-giving" in html
    assert "Standings hidden from round" in html


@pytest.mark.parametrize("url", [HIDE, DO_REVEAL, HIDE_AGAIN])
def test_the_controls_refuse_get_and_other_users(client, hidden, referee, organiser, url):
    client.force_login(organiser)
    visit = client.get(url)  # a visit is sent to the settings page (tournament.web.form_only)
    assert (visit.status_code, visit["Location"]) == (303, SETTINGS)
    assert AuditEntry.objects.filter(action=AuditEntry.Action.STANDINGS_REVEALED).count() == 0
    client.force_login(referee)
    assert client.post(url, {"hidden_from": "1", "confirm": "on"}).status_code == 403
    client.logout()
    assert client.post(url, {"hidden_from": "1", "confirm": "on"}).status_code == 302  # login


# --- Every preset ----------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_every_page_of_every_preset_hides_from_round_one(client, preset):
    world = preset_world.build(preset)
    tournament = world.tournament
    hide_standings_from(tournament=tournament, round=1, actor=world.organiser)
    secret = issue_link(world.players[0], actor=world.organiser)
    pages = [
        reverse("public:tournament", args=[SLUG]),
        STANDINGS,
        f"{STANDINGS}?provisional=1",
        PROJECTOR,
        REVEAL,
        reverse("public:player", args=[SLUG, "1"]),
        reverse("stats:player", args=[SLUG, "1"]),
        reverse("player_link", args=[secret]),
    ]
    notice = "Standings from round 1 on are hidden until the prize-giving."
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        assert notice in text(response), url
        assert "None" not in text(response), url
    # Nothing counts: every regular player shares the first place, with nothing.
    ranks = page_ranks(client.get(STANDINGS))
    assert set(ranks.values()) == {1}
    client.force_login(world.organiser)
    assert len(set(page_ranks(client.get(STANDINGS)).values())) > 1
    assert reveal_rows(client.get(REVEAL))
    settings = client.get(SETTINGS)
    assert settings.status_code == 200 and DO_REVEAL in settings.content.decode()


def test_the_dashboard_reminds_to_reveal_when_the_tournament_is_played(
    client, hidden, organiser, tournament
):
    Tournament.objects.filter(pk=tournament.pk).update(planned_rounds=2)
    set_round_status(round=hidden["rounds"][1], status=Round.Status.FINISHED, actor=organiser)
    client.force_login(organiser)
    dashboard = reverse("organiser:dashboard", args=[SLUG])
    reminder = "everyone but the organisers sees them without round 2 and later."
    assert reminder in text(client.get(dashboard))
    reveal_standings(tournament=tournament, actor=organiser)
    assert reminder not in text(client.get(dashboard))
