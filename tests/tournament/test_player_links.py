"""Players' private links (tournament/services/player_links.py): a secret given once and kept only
as its digest, replaced by a new one, revoked; links for the whole field; referee calls from a
player's table, throttled, answered, audited."""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from factories import make_players, make_tournament, seated_round

from tournament.archive import export_tournament
from tournament.models import AuditEntry, LiveVersion, Player, RefereeCall
from tournament.services.player_links import (
    answer_call,
    call_referee,
    issue_link,
    issue_links,
    player_for_secret,
    revoke_link,
)

pytestmark = pytest.mark.django_db


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def test_a_link_is_kept_as_the_digest_of_its_secret_only(players, organiser):
    secret = issue_link(players[0], actor=organiser)

    player = Player.objects.get(pk=players[0].pk)
    assert len(secret) >= 32
    assert player.link_digest == _digest(secret)
    assert player.link_issued_at is not None
    assert player_for_secret(secret) == player
    assert player_for_secret(secret).tournament.slug == "spring-cup"


def test_two_links_are_never_the_same(players, organiser):
    secrets = {issue_link(player, actor=organiser) for player in players}
    assert len(secrets) == len(players)


def test_a_new_link_replaces_the_old_one(players, organiser):
    old = issue_link(players[0], actor=organiser)
    new = issue_link(players[0], actor=organiser)

    assert new != old
    assert player_for_secret(old) is None
    assert player_for_secret(new) == players[0]


def test_a_revoked_link_opens_nothing_and_revoking_none_is_refused(players, organiser):
    secret = issue_link(players[0], actor=organiser)
    revoke_link(players[0], actor=organiser)

    assert player_for_secret(secret) is None
    assert Player.objects.get(pk=players[0].pk).link_digest == ""
    with pytest.raises(ValidationError) as refused:
        revoke_link(players[0], actor=organiser)
    assert refused.value.code == "no_link"


@pytest.mark.parametrize("secret", ["", "x", "a" * 500, "é/..%00", _digest("x")])
def test_a_wrong_secret_finds_nobody_in_one_query(players, organiser, secret):
    issue_link(players[0], actor=organiser)
    with CaptureQueriesContext(connection) as queries:
        assert player_for_secret(secret) is None
    assert len(queries) == 1


def test_the_lookup_is_one_query_whether_found_or_not(players, organiser):
    secret = issue_link(players[0], actor=organiser)
    with CaptureQueriesContext(connection) as queries:
        assert player_for_secret(secret) is not None
    assert len(queries) == 1


def test_the_audit_trail_keeps_who_and_what_never_the_secret(players, organiser):
    secret = issue_link(players[0], actor=organiser)
    issue_link(players[0], actor=organiser)
    revoke_link(players[0], actor=organiser)
    digest = _digest(secret)

    entries = list(AuditEntry.objects.filter(action=AuditEntry.Action.PLAYER_LINK).order_by("pk"))
    assert len(entries) == 3
    assert all(entry.actor == organiser for entry in entries)
    assert entries[0].after == {"player": "1", "link": True, "replaced": False}
    assert entries[1].after["replaced"] is True
    assert entries[2].after == {"player": "1", "link": False}
    text = json.dumps([[entry.before, entry.after] for entry in entries])
    assert secret not in text and digest not in text


def test_links_for_the_field_go_to_those_without_one_unless_everyone_is_asked(players, organiser):
    kept = issue_link(players[2], actor=organiser)

    made = issue_links(players[0].tournament, actor=organiser)

    assert [player.key for player in made] == ["1", "2", "4", "5", "6", "7", "8"]
    for player, secret in made.items():
        assert player_for_secret(secret) == player
    assert player_for_secret(kept) == players[2]
    assert issue_links(players[0].tournament, actor=organiser) == {}

    everyone = issue_links(players[0].tournament, actor=organiser, only_missing=False)
    assert len(everyone) == 8
    assert player_for_secret(kept) is None
    assert all(player_for_secret(made[player]) is None for player in made)
    entry = AuditEntry.objects.filter(action=AuditEntry.Action.PLAYER_LINK).latest("pk")
    assert entry.after == {"players": [str(n) for n in range(1, 9)], "link": True}
    assert entry.before == {"players": [str(n) for n in range(1, 9)]}
    assert not any(secret in json.dumps(entry.after) for secret in everyone.values())


def test_links_of_another_tournament_are_left_alone(players, organiser):
    other = make_tournament(organisers=[organiser], slug="autumn", name="Autumn")
    theirs = make_players(other, 4)
    secret = issue_link(theirs[0], actor=organiser)

    issue_links(players[0].tournament, actor=organiser, only_missing=False)

    assert player_for_secret(secret) == theirs[0]


def test_the_archive_holds_no_link(players, organiser):
    secret = issue_link(players[0], actor=organiser)
    text = json.dumps(export_tournament(players[0].tournament), default=str)
    assert _digest(secret) not in text and secret not in text
    assert "link" not in text


# --- Referee calls ------------------------------------------------------------------------


@pytest.fixture
def playing(tournament, organiser, players):
    """Round 1 in play: players 1-4 at table 1, 5-8 at table 2."""
    round, tables = seated_round(tournament, organiser, [players[:4], players[4:]])
    return tables


def _version(tournament) -> int:
    row = LiveVersion.objects.filter(tournament=tournament).first()
    return row.number if row else 0


def test_a_call_from_a_players_table_is_kept_audited_and_moves_the_live_version(
    playing, players, tournament
):
    before = _version(tournament)

    call = call_referee(players[1])

    assert (call.table, call.player, call.answered_at) == (playing[0], players[1], None)
    assert _version(tournament) > before
    entry = AuditEntry.objects.get(action=AuditEntry.Action.REFEREE_CALL)
    assert (entry.actor, entry.table) == (None, playing[0])
    assert entry.after == {"round": 1, "table": 1, "player": "2", "answered": False}


def test_one_open_call_a_table_and_none_again_within_a_minute(
    playing, players, organiser, monkeypatch
):
    call_referee(players[0])
    with pytest.raises(ValidationError) as refused:
        call_referee(players[3])  # the same table
    assert refused.value.code == "call_open"
    call_referee(players[4])  # another table calls at once

    answer_call(RefereeCall.objects.get(table=playing[0]), actor=organiser)
    with pytest.raises(ValidationError) as refused:
        call_referee(players[0])
    assert refused.value.code == "too_soon"
    assert "less than a minute ago" in refused.value.messages[0]

    later = timezone.now() + timedelta(seconds=61)
    monkeypatch.setattr(timezone, "now", lambda: later)
    call_referee(players[0])
    assert RefereeCall.objects.filter(table=playing[0]).count() == 2


def test_no_call_without_a_round_in_play(tournament, organiser, players):
    seated_round(tournament, organiser, [players[:4], players[4:]], status="seated")
    with pytest.raises(ValidationError) as refused:
        call_referee(players[0])
    assert refused.value.code == "not_playing"
    assert not RefereeCall.objects.exists()


def test_answering_a_call_is_audited_once(playing, players, organiser, tournament):
    call = call_referee(players[0])
    before = _version(tournament)

    answered = answer_call(call, actor=organiser)

    assert answered.answered_at is not None and answered.answered_by == organiser
    assert _version(tournament) > before
    entry = AuditEntry.objects.filter(action=AuditEntry.Action.REFEREE_CALL).latest("pk")
    assert (entry.actor, entry.table, entry.after["answered"]) == (organiser, playing[0], True)
    with pytest.raises(ValidationError) as refused:
        answer_call(call, actor=organiser)
    assert refused.value.code == "answered"
