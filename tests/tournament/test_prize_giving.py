"""The prize-giving: hiding the public standings from a round on, the reveal and hiding again
(tournament.services.prize_giving), which rounds each viewer's standings count
(tournament.reads.prize_giving) and `manage.py standings --public`."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from prize_world import BEFORE_ROUND_2, FULL, build

from tournament.models import AuditEntry, LiveVersion
from tournament.reads import prize_giving
from tournament.reads.selectors import standings
from tournament.services.prize_giving import (
    hide_standings_again,
    hide_standings_from,
    reveal_standings,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(tournament, organiser, referee):
    return build(tournament, organiser, referee)


def ranks(rows):
    return {row.player.key: row.rank for row in rows}


def live_number(tournament):
    return LiveVersion.objects.get(tournament=tournament).number


def test_standings_before_a_round_count_only_the_earlier_rounds(tournament, world):
    assert ranks(standings(tournament)) == FULL
    assert ranks(standings(tournament, before_round=2)) == BEFORE_ROUND_2
    ann = next(row for row in standings(tournament, before_round=2) if row.player.key == "1")
    assert (ann.table_points, ann.score, len(ann.game_scores)) == (4, 480, 1)
    assert all(row.rank == 1 for row in standings(tournament, before_round=1))
    assert ranks(standings(tournament, before_round=3)) == FULL


def test_nothing_is_hidden_by_default(tournament):
    assert prize_giving.hidden_from(tournament) is None
    assert prize_giving.shown(tournament, organiser=False).before_round is None


def test_hidden_rounds_are_left_out_for_everyone_but_organisers(tournament, organiser):
    hide_standings_from(tournament=tournament, round=3, actor=organiser)
    tournament.refresh_from_db()
    public = prize_giving.shown(tournament, organiser=False)
    assert (public.hidden, public.before_round, public.counted_rounds) == (True, 3, 2)
    assert not public.hidden_for_others
    own = prize_giving.shown(tournament, organiser=True)
    assert (own.hidden, own.before_round, own.hidden_for_others) == (False, None, True)
    assert prize_giving.public(tournament) == public


def test_hiding_is_audited_and_moves_the_live_version(tournament, organiser):
    before = live_number(tournament) if LiveVersion.objects.filter(tournament=tournament) else 0
    hide_standings_from(tournament=tournament, round=4, actor=organiser)
    tournament.refresh_from_db()
    assert tournament.standings_hidden_from == 4
    entry = AuditEntry.objects.get(action=AuditEntry.Action.STANDINGS_HIDDEN)
    assert entry.actor == organiser
    assert entry.before == {"hidden_from": None, "revealed_at": None}
    assert entry.after == {"hidden_from": 4, "revealed_at": None}
    assert live_number(tournament) == before + 1


def test_the_same_round_again_records_nothing(tournament, organiser):
    hide_standings_from(tournament=tournament, round=4, actor=organiser)
    number = live_number(tournament)
    hide_standings_from(tournament=tournament, round=4, actor=organiser)
    assert AuditEntry.objects.filter(action=AuditEntry.Action.STANDINGS_HIDDEN).count() == 1
    assert live_number(tournament) == number


@pytest.mark.parametrize("round", [0, 201, -1])
def test_a_round_out_of_range_is_refused(tournament, organiser, round):
    with pytest.raises(ValidationError) as refused:
        hide_standings_from(tournament=tournament, round=round, actor=organiser)
    assert refused.value.code == "round_out_of_range"
    tournament.refresh_from_db()
    assert tournament.standings_hidden_from is None
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.STANDINGS_HIDDEN).exists()


def test_the_reveal_shows_everyone_the_full_standings(tournament, organiser, world):
    hide_standings_from(tournament=tournament, round=2, actor=organiser)
    number = live_number(tournament)
    reveal_standings(tournament=tournament, actor=organiser)
    tournament.refresh_from_db()
    assert tournament.standings_revealed_at is not None
    assert prize_giving.hidden_from(tournament) is None
    assert prize_giving.public(tournament).before_round is None
    entry = AuditEntry.objects.get(action=AuditEntry.Action.STANDINGS_REVEALED)
    assert entry.before["revealed_at"] is None and entry.after["revealed_at"]
    assert entry.after["hidden_from"] == 2
    assert live_number(tournament) == number + 1


def test_nothing_hidden_cannot_be_revealed(tournament, organiser):
    with pytest.raises(ValidationError) as refused:
        reveal_standings(tournament=tournament, actor=organiser)
    assert refused.value.code == "nothing_hidden"


def test_a_reveal_is_made_once(tournament, organiser):
    hide_standings_from(tournament=tournament, round=2, actor=organiser)
    reveal_standings(tournament=tournament, actor=organiser)
    with pytest.raises(ValidationError) as refused:
        reveal_standings(tournament=tournament, actor=organiser)
    assert refused.value.code == "already_revealed"
    assert AuditEntry.objects.filter(action=AuditEntry.Action.STANDINGS_REVEALED).count() == 1


def test_hide_again_undoes_the_reveal(tournament, organiser):
    hide_standings_from(tournament=tournament, round=2, actor=organiser)
    reveal_standings(tournament=tournament, actor=organiser)
    hide_standings_again(tournament=tournament, actor=organiser)
    tournament.refresh_from_db()
    assert tournament.standings_revealed_at is None
    assert prize_giving.hidden_from(tournament) == 2
    last = AuditEntry.objects.order_by("pk").last()
    assert last.action == AuditEntry.Action.STANDINGS_HIDDEN
    assert last.before["revealed_at"] and last.after["revealed_at"] is None


def test_hide_again_needs_a_reveal(tournament, organiser):
    with pytest.raises(ValidationError) as refused:
        hide_standings_again(tournament=tournament, actor=organiser)
    assert refused.value.code == "not_revealed"
    hide_standings_from(tournament=tournament, round=2, actor=organiser)
    with pytest.raises(ValidationError) as refused:
        hide_standings_again(tournament=tournament, actor=organiser)
    assert refused.value.code == "not_revealed"


def test_never_hiding_forgets_the_reveal(tournament, organiser):
    hide_standings_from(tournament=tournament, round=2, actor=organiser)
    reveal_standings(tournament=tournament, actor=organiser)
    hide_standings_from(tournament=tournament, round=None, actor=organiser)
    tournament.refresh_from_db()
    assert (tournament.standings_hidden_from, tournament.standings_revealed_at) == (None, None)


def test_another_round_after_the_reveal_keeps_it(tournament, organiser):
    hide_standings_from(tournament=tournament, round=2, actor=organiser)
    reveal_standings(tournament=tournament, actor=organiser)
    hide_standings_from(tournament=tournament, round=3, actor=organiser)
    tournament.refresh_from_db()
    assert tournament.standings_revealed_at is not None
    assert prize_giving.hidden_from(tournament) is None


def command(*args):
    out = StringIO()
    call_command("standings", "spring-cup", *args, stdout=out)
    return out.getvalue()


def test_the_command_shows_organisers_the_full_standings(tournament, organiser, world):
    hide_standings_from(tournament=tournament, round=2, actor=organiser)
    rows = json.loads(command("--json"))
    assert {row["player"]: row["rank"] for row in rows} == FULL


def test_the_command_shows_what_the_public_sees(tournament, organiser, world):
    assert {row["player"]: row["rank"] for row in json.loads(command("--json", "--public"))} == (
        FULL
    )
    hide_standings_from(tournament=tournament, round=2, actor=organiser)
    rows = json.loads(command("--json", "--public"))
    assert {row["player"]: row["rank"] for row in rows} == BEFORE_ROUND_2
    text = command("--public")
    assert "round 2 and later are hidden until the prize-giving" in text
    assert "hidden" not in command()
    reveal_standings(tournament=tournament, actor=organiser)
    assert {row["player"]: row["rank"] for row in json.loads(command("--json", "--public"))} == (
        FULL
    )
