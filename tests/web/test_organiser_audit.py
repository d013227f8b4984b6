"""The audit trail page and its readable differences; the API tokens page."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from factories import make_players, make_user, seated_round

from tournament.infra.tokens import issue_token, user_for_token
from tournament.models import ApiToken, AuditEntry
from tournament.services import (
    DealInput,
    correct_deal,
    record_deal,
)
from tournament.web.organiser.audit import Change, changes

pytestmark = pytest.mark.django_db

AUDIT = reverse("organiser:audit", kwargs={"slug": "spring-cup"})
TOKENS = reverse("organiser:tokens")


@pytest.fixture
def logged_in(client, organiser, tournament):
    client.force_login(organiser)
    return client


@pytest.fixture
def corrected(tournament, organiser):
    """Round 1 in play; hand 1 at table 1 entered by bob as P1 8 fan from P2, then corrected by
    alice to P3 from P2."""
    players = make_players(tournament, 4, name="P{}")
    _, (table,) = seated_round(tournament, organiser, [players])
    bob = make_user("bob", password="referee-pass-42")
    hand = record_deal(
        table=table,
        number=1,
        deal=DealInput(result="win", winner=players[0], discarder=players[1], fan=8),
        entered_by=bob,
    )
    correct_deal(
        hand=hand,
        deal=DealInput(result="win", winner=players[2], discarder=players[1], fan=8),
        entered_by=organiser,
    )
    return table


# --- Differences ---------------------------------------------------------------------------


def test_changes_list_only_the_fields_that_differ():
    before = {"number": 1, "winner": "1", "fan": 8, "payments": [32, -16, -8, -8],
              "entered_at": "2025-01-01T10:00:00"}  # fmt: skip
    after = {"number": 1, "winner": "3", "fan": 8, "payments": [-8, -16, 32, -8],
             "entered_at": "2025-01-01T10:05:00"}  # fmt: skip
    assert changes(before, after) == [
        Change("winner", "1", "3"),
        Change("payments", "32, -16, -8, -8", "-8, -16, 32, -8"),
    ]


def test_changes_of_a_new_record_list_every_field():
    assert changes(None, {"round": 2, "status": "draft"}) == [
        Change("round", None, "2"),
        Change("status", None, "draft"),
    ]


def test_changes_of_a_removed_record_list_every_field_as_gone():
    assert changes({"player": "4", "distributed": False, "hand_number": None}, None) == [
        Change("player", "4", None),
        Change("distributed", "no", None),
        Change("hand_number", "—", None),
    ]


def test_changes_flatten_a_seating_to_table_and_seat():
    before = {"round": 1, "tables": {"1": {"E": "1", "S": "2"}, "2": {"E": "5", "S": "6"}}}
    after = {"round": 1, "tables": {"1": {"E": "6", "S": "2"}, "2": {"E": "5", "S": "1"}}}
    assert changes(before, after) == [
        Change("tables.1.E", "1", "6"),
        Change("tables.2.S", "6", "1"),
    ]


def test_changes_show_tiles_in_the_compact_notation():
    tiles = {"concealed": ["3p", "4p", "5p", "7s", "8s", "E", "E"], "win_tile": "6s",
             "melds": [{"type": "pung", "tiles": ["P", "P", "P"]},
                       {"type": "chow", "tiles": ["7m", "8m", "9m"]}]}  # fmt: skip
    assert changes({"tiles": None}, {"tiles": tiles}) == [
        Change("tiles", "—", "345p 78s EE [PPP] [789m] 6s")
    ]


# --- The page ------------------------------------------------------------------------------


def test_audit_page_shows_who_what_where_newest_first(logged_in, corrected):
    response = logged_in.get(AUDIT)
    rows = response.context["rows"]
    assert [row["entry"].action for row in rows] == [
        "hand_corrected",
        "hand_recorded",
        "round_status",
        "round_status",
        "seating_changed",
        "round_status",
    ]
    newest = rows[0]
    assert newest["where"] == "Round 1, table 1"
    assert newest["entry"].actor.username == "alice"
    assert Change("winner", "1", "3") in newest["changes"]
    assert Change("entered_by", "bob", "alice") in newest["changes"]
    assert rows[2]["where"] == "Round 1"
    assert rows[2]["changes"] == [Change("status", "seated", "playing")]
    page = " ".join(response.content.decode().split())
    assert "Hand corrected" in page
    # Players by name, payments by seat wind with signs, choices by their labels.
    assert "Winner</span>: P1 → P3" in page
    assert "Discarder</span>: P2" in page
    assert "E +32, S −16, W −8, N −8 → E −8, S −16, W +32, N −8" in page
    assert "Result</span>: Win" in page
    assert '"winner"' not in page and "[32, -16" not in page


def test_audit_page_is_paginated(logged_in, tournament, organiser, django_assert_max_num_queries):
    for number in range(1, 56):
        AuditEntry.objects.create(
            tournament=tournament,
            actor=organiser,
            action="round_status",
            after={"round": number, "status": "draft"},
        )
    # The session and user, the tournament, its tables, players and actors (for the filters),
    # the count and the page.
    with django_assert_max_num_queries(11):
        first = logged_in.get(AUDIT)
    assert len(first.context["rows"]) == 50
    assert first.context["rows"][0]["where"] == "Round 55"
    second = logged_in.get(AUDIT, {"page": 2})
    assert [row["where"] for row in second.context["rows"]] == [
        f"Round {n}" for n in range(5, 0, -1)
    ]
    assert "Page 2 of 2" in second.content.decode()


def test_audit_page_shows_only_this_tournaments_entries(logged_in, corrected, organiser):
    from tournament.models import Tournament

    other = Tournament.objects.create(name="Other", slug="other")
    AuditEntry.objects.create(tournament=other, actor=organiser, action="round_status",
                              after={"round": 9, "status": "draft"})  # fmt: skip
    rows = logged_in.get(AUDIT).context["rows"]
    assert "Round 9" not in [row["where"] for row in rows]


def test_a_seating_shows_its_players_by_name(logged_in, corrected):
    rows = logged_in.get(AUDIT, {"kind": "seating_changed"}).context["rows"]

    (seating,) = rows
    shown = {change.label: change.new_shown for change in seating["changes"]}
    assert shown["Table 1, East"] == "P1"
    assert shown["Table 1, North"] == "P4"


def test_further_winners_and_confirmed_scores_are_shown_by_name_and_wind():
    names = {"7": "Anna Schmidt", "9": "Li Wei"}
    (winners,) = changes(None, {"extra_winners": ["7: 24", "9: 30"]}, names)
    (scores,) = changes(None, {"scores": [40, -8, 0, -32]}, names)

    assert winners.new_shown == "Anna Schmidt: 24, Li Wei: 30"
    assert scores.new_shown == "E +40, S −8, W 0, N −32"


@pytest.fixture
def two_tables(tournament, organiser):
    """Round 1 in play at two tables: bob records hand 1 at table 1 (P1 wins), alice at
    table 2 (P7 wins) and a penalty for P5 there."""
    from tournament.services import record_penalty

    players = make_players(tournament, 8, name="P{}")
    _, tables = seated_round(tournament, organiser, [players[:4], players[4:]])
    bob = make_user("bob", password="referee-pass-42")
    record_deal(
        table=tables[0],
        number=1,
        deal=DealInput(result="win", winner=players[0], discarder=players[1], fan=8),
        entered_by=bob,
    )
    record_deal(
        table=tables[1],
        number=1,
        deal=DealInput(result="win", winner=players[6], discarder=players[5], fan=8),
        entered_by=organiser,
    )
    record_penalty(table=tables[1], player=players[4], points=10, distributed=False,
                   reason="Slow play", entered_by=organiser)  # fmt: skip
    return tables, players, bob


def actions(response):
    return [(row["where"], row["entry"].action) for row in response.context["rows"]]


def test_the_trail_filters_by_table(logged_in, two_tables):
    tables, _players, _bob = two_tables

    response = logged_in.get(AUDIT, {"table": tables[1].pk})

    assert actions(response) == [
        ("Round 1, table 2", "penalty_recorded"),
        ("Round 1, table 2", "hand_recorded"),
    ]
    assert f'<option value="{tables[1].pk}" selected>' in response.content.decode()


def test_the_trail_filters_by_player_kind_and_actor_together(logged_in, two_tables):
    tables, players, bob = two_tables

    by_player = logged_in.get(AUDIT, {"player": players[4].pk})
    by_kind = logged_in.get(AUDIT, {"kind": "hand_recorded"})
    by_actor = logged_in.get(AUDIT, {"actor": bob.pk})
    combined = logged_in.get(AUDIT, {"kind": "hand_recorded", "player": players[4].pk})

    assert actions(by_player) == [
        ("Round 1, table 2", "penalty_recorded"),
        ("Round 1, table 2", "hand_recorded"),
    ]
    assert actions(by_kind) == [
        ("Round 1, table 2", "hand_recorded"),
        ("Round 1, table 1", "hand_recorded"),
    ]
    assert actions(by_actor) == [("Round 1, table 1", "hand_recorded")]
    assert actions(combined) == [("Round 1, table 2", "hand_recorded")]


@pytest.mark.parametrize(
    "params",
    [
        {"table": "abc"},
        {"table": "999999"},
        {"table": "-1"},
        {"player": "1e3"},
        {"player": "99999999999999999999999"},
        {"kind": "dropped_tables"},
        {"kind": ""},
        {"actor": "²"},
        {"actor": "424242"},
    ],
)
def test_a_filter_the_page_does_not_take_is_left_off(logged_in, two_tables, params):
    everything = actions(logged_in.get(AUDIT))

    response = logged_in.get(AUDIT, params)

    assert response.status_code == 200
    assert actions(response) == everything
    assert response.context["filters"].query() == ""


def test_another_tournaments_table_or_player_is_no_filter(logged_in, two_tables, organiser):
    from tournament.models import Tournament

    other = Tournament.objects.create(name="Other", slug="other")
    (stranger,) = make_players(other, 1)
    everything = actions(logged_in.get(AUDIT))

    assert actions(logged_in.get(AUDIT, {"player": stranger.pk})) == everything


def test_page_links_keep_the_filters(logged_in, tournament, organiser):
    for number in range(1, 56):
        AuditEntry.objects.create(tournament=tournament, actor=organiser, action="round_status",
                                  after={"round": number, "status": "draft"})  # fmt: skip

    response = logged_in.get(AUDIT, {"kind": "round_status", "actor": organiser.pk})

    assert f"?page=2&amp;kind=round_status&amp;actor={organiser.pk}" in response.content.decode()


# --- API tokens ----------------------------------------------------------------------------


def test_create_a_token_shows_its_secret_once(logged_in, organiser):
    response = logged_in.post(TOKENS, {"name": "results screen"})
    assert response.status_code == 302
    assert response["Location"] == TOKENS
    page = logged_in.get(TOKENS)
    secret = page.context["secret"]
    assert secret.startswith("mcr_")
    assert user_for_token(secret) == organiser
    token = ApiToken.objects.get()
    assert (token.name, token.prefix) == ("results screen", secret[:8])
    assert secret in page.content.decode()
    assert "no-store" in page["Cache-Control"]  # no cache keeps a copy of the secret
    again = logged_in.get(TOKENS)
    assert again.context["secret"] is None
    assert secret not in again.content.decode()
    assert f"{token.prefix}…" in again.content.decode()


def test_tokens_list_shows_only_mine_with_last_use(logged_in, organiser):
    mine, secret = issue_token(user=organiser, name="scoreboard")
    bob = get_user_model().objects.create_user(username="bob", password="referee-pass-42")
    issue_token(user=bob, name="bobs")
    user_for_token(secret)
    response = logged_in.get(TOKENS)
    assert list(response.context["tokens"]) == [mine]
    assert "never" not in response.content.decode()
    assert "bobs" not in response.content.decode()


def test_a_token_needs_a_name(logged_in):
    response = logged_in.post(TOKENS, {"name": ""})
    assert response.status_code == 422
    assert response.context["form"].errors["name"] == ["This field is required."]
    assert not ApiToken.objects.exists()


def test_revoke_a_token(logged_in, organiser):
    token, secret = issue_token(user=organiser, name="scoreboard")
    response = logged_in.post(reverse("organiser:token_revoke", kwargs={"token": token.pk}))
    assert response.status_code == 302
    assert not ApiToken.objects.exists()
    assert user_for_token(secret) is None


def test_anyone_logged_in_has_a_tokens_page(client):
    user = get_user_model().objects.create_user(username="dan", password="some-pass-42")
    client.force_login(user)
    assert client.get(TOKENS).status_code == 200
