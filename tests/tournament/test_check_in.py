"""The check-in services: in and out at the desk (only while it is open), idempotent and
audited; a withdrawn player refused; self check-in only while allowed and before check-in is
closed; the desk's switches; the counts; a player found from their private link."""

from __future__ import annotations

import hashlib

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone
from factories import make_players, make_tournament

from tournament.models import AuditEntry, LiveVersion, Player
from tournament.services import add_player, update_player
from tournament.services.check_in import (
    NotALink,
    check_in_counts,
    desk_check_in,
    link_secret,
    player_for_link,
    self_check_in,
    set_checked_in,
    set_desk_open,
    set_self_check_in,
)

pytestmark = pytest.mark.django_db

SECRET = "k3Jx9-Qw_e7Lm2Pz0aBcDeFgHiJ"  # 28 URL-safe characters, like a link's secret


def check_ins(tournament) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(tournament=tournament, action=AuditEntry.Action.CHECK_IN))


def version(tournament) -> int:
    row = LiveVersion.objects.filter(tournament=tournament).first()
    return row.number if row else 0


def give_link(player: Player, secret: str = SECRET) -> Player:
    player.link_digest = hashlib.sha256(secret.encode()).hexdigest()
    player.save(update_fields=["link_digest"])
    return player


@pytest.fixture
def open_desk(tournament, organiser):
    return set_desk_open(tournament, True, actor=organiser)


def test_check_in_and_out_are_idempotent_and_audited(tournament, players, organiser):
    player = players[0]
    before = version(tournament)

    done = set_checked_in(player, True, actor=organiser)
    again = set_checked_in(player, True, actor=organiser)

    assert done.checked_in_at is not None
    assert again.checked_in_at == done.checked_in_at
    [entry] = check_ins(tournament)
    assert entry.actor == organiser
    assert entry.before == {"player": "1", "checked_in": False}
    assert entry.after == {"player": "1", "checked_in": True, "source": "desk"}
    assert version(tournament) == before + 1

    out = set_checked_in(player, False, actor=organiser, source="api")
    set_checked_in(player, False, actor=organiser)

    assert out.checked_in_at is None
    assert Player.objects.get(pk=player.pk).checked_in_at is None
    assert [entry.after for entry in check_ins(tournament)][-1] == {
        "player": "1",
        "checked_in": False,
        "source": "api",
    }
    assert len(check_ins(tournament)) == 2


def test_a_withdrawn_player_is_refused_but_may_be_checked_out(tournament, players, organiser):
    player = players[0]
    set_checked_in(player, True, actor=organiser)
    update_player(player=player, withdrawn_from_round=1)
    other = update_player(player=players[1], withdrawn_from_round=1)

    with pytest.raises(ValidationError) as refused:
        set_checked_in(other, True, actor=organiser)

    assert refused.value.code == "withdrawn"
    assert Player.objects.get(pk=other.pk).checked_in_at is None
    assert set_checked_in(player, False, actor=organiser).checked_in_at is None


def test_the_desk_checks_in_only_while_open(tournament, players, organiser):
    with pytest.raises(ValidationError) as refused:
        desk_check_in(players[0], True, actor=organiser)
    assert refused.value.code == "desk_closed"
    assert check_ins(tournament) == []

    set_desk_open(tournament, True, actor=organiser)
    assert desk_check_in(players[0], True, actor=organiser, source="qr").checked_in_at

    set_desk_open(tournament, False, actor=organiser)
    with pytest.raises(ValidationError):
        desk_check_in(players[0], False, actor=organiser)
    assert Player.objects.get(pk=players[0].pk).checked_in_at is not None


def test_the_switches_are_audited_once_each(tournament, organiser):
    before = version(tournament)

    set_desk_open(tournament, True, actor=organiser)
    set_desk_open(tournament, True, actor=organiser)
    set_self_check_in(tournament, True, actor=organiser)
    set_self_check_in(tournament, False, actor=organiser)

    tournament.refresh_from_db()
    assert tournament.check_in_open and not tournament.self_check_in
    assert [(entry.before, entry.after) for entry in check_ins(tournament)] == [
        ({"check_in_open": False}, {"check_in_open": True}),
        ({"self_check_in": False}, {"self_check_in": True}),
        ({"self_check_in": True}, {"self_check_in": False}),
    ]
    assert version(tournament) == before + 3


def test_self_check_in_only_while_allowed_and_before_close(tournament, players, organiser):
    player = players[0]
    with pytest.raises(ValidationError) as refused:
        self_check_in(player)
    assert refused.value.code == "self_check_in_closed"

    set_self_check_in(tournament, True, actor=organiser)
    player.refresh_from_db()
    done = self_check_in(player)
    assert done.checked_in_at is not None
    [entry] = check_ins(tournament)[-1:]
    assert entry.actor is None
    assert entry.after["source"] == "link"

    tournament.check_in_closed_at = timezone.now()
    tournament.save()
    other = Player.objects.get(pk=players[1].pk)
    with pytest.raises(ValidationError):
        self_check_in(other)
    assert Player.objects.get(pk=other.pk).checked_in_at is None


def test_self_check_in_cannot_be_allowed_again_after_close(tournament, organiser):
    tournament.check_in_closed_at = timezone.now()
    tournament.save()

    with pytest.raises(ValidationError) as refused:
        set_self_check_in(tournament, True, actor=organiser)

    assert refused.value.code == "check_in_closed"
    tournament.refresh_from_db()
    assert not tournament.self_check_in
    set_self_check_in(tournament, False, actor=organiser)  # stopping is always allowed


def test_counts(tournament, players, organiser):
    sub_in = add_player(tournament=tournament, key="S1", name="Sub In", substitute=True)
    add_player(tournament=tournament, key="S2", name="Sub Out", substitute=True)
    late = add_player(tournament=tournament, key="L", name="Late Comer")
    Player.objects.filter(pk=late.pk).update(joins_from_round=3)  # set at the close of check-in
    for player in (players[0], players[1], players[2], sub_in):
        set_checked_in(player, True, actor=organiser)
    update_player(player=players[7], withdrawn_from_round=1)

    counts = check_in_counts(tournament)

    assert counts.checked_in == 3
    assert counts.missing == 4  # players 4 to 7; 8 has withdrawn, L comes later
    assert counts.late == 1
    assert counts.substitutes == 2
    assert counts.substitutes_ready == 1
    assert counts.withdrawn == 1
    assert counts.expected == 7
    assert check_in_counts(tournament.pk) == counts


def test_counts_of_an_empty_tournament(tournament):
    counts = check_in_counts(tournament)
    assert (counts.checked_in, counts.missing, counts.substitutes_ready, counts.withdrawn) == (
        0,
        0,
        0,
        0,
    )


@pytest.mark.parametrize(
    "text",
    [
        SECRET,
        f"  {SECRET}\n",
        f"http://192.168.1.20:8000/p/{SECRET}/",
        f"https://cup.example.org/p/{SECRET}",
        f"/p/{SECRET}/",
        f"https://cup.example.org/p/{SECRET}/?from=qr#top",
    ],
)
def test_a_link_is_read_whole_or_bare(text):
    assert link_secret(text) == SECRET


@pytest.mark.parametrize("text", ["Ann", "12", "04010001", "Ann Archer", "", "A-7.x"])
def test_a_search_is_no_link(text):
    assert link_secret(text) is None


@pytest.mark.parametrize(
    "text",
    ["https://example.com/", "http://x/p/", "https://x/p/short/", "/t/cup/players/1/", "a/b"],
)
def test_another_address_is_not_a_link(text):
    with pytest.raises(NotALink):
        link_secret(text)


def test_player_for_link_finds_only_this_tournaments_player(tournament, players):
    give_link(players[2])
    other = make_tournament(slug="autumn-cup", name="Autumn Cup")
    [stranger] = make_players(other, count=1)
    give_link(stranger, "Z" * 30)

    assert player_for_link(tournament, SECRET) == players[2]
    assert player_for_link(tournament, f"http://host/p/{SECRET}/") == players[2]
    assert player_for_link(tournament, "Z" * 30) is None
    assert player_for_link(other, "Z" * 30) == stranger
    assert player_for_link(tournament, "Y" * 30) is None
    assert player_for_link(tournament, "https://example.com/") is None
    assert player_for_link(tournament, "Player 3") is None
    assert player_for_link(tournament, "\x00" * 30) is None
