"""The dress rehearsal (tournament/services/rehearsal.py): a private copy played through."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from factories import make_players, make_tournament, make_user, seated_round
from preset_world import PRESETS

from tournament.models import (
    AuditEntry,
    Cut,
    Deal,
    Penalty,
    Player,
    Rehearsal,
    Round,
    Seat,
    Table,
    Tournament,
)
from tournament.reads.selectors import standings
from tournament.services import rehearsal as service
from tournament.services.players import add_player
from tournament.services.tournaments import update_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def inline(settings):
    settings.SEATING_JOBS_INLINE = True


def spring_cup(preset: str = "mcr", players: int = 10, rounds: int | None = 3) -> Tournament:
    organiser = make_user("alice")
    tournament = make_tournament(organisers=[organiser], preset=preset, planned_rounds=rounds)
    if preset != "mcr":
        tournament.seat_rotation = "none"
        tournament.rule_settings = {"wind_rounds": 1}
        tournament.save()
    make_players(tournament, players, country="SE")
    return tournament


def organiser_of(tournament: Tournament):
    return tournament.organisers.get()


@pytest.mark.parametrize("preset", PRESETS)
def test_a_rehearsal_plays_every_round_through(preset):
    tournament = spring_cup(preset)
    rehearsal = service.start_rehearsal(tournament, actor=organiser_of(tournament), seed=7)

    assert rehearsal.status == Rehearsal.Status.DONE, rehearsal.message
    copy = rehearsal.copy
    assert copy.preset == preset and not copy.public
    assert copy.name == "Spring Cup (dress rehearsal)" and copy.slug == "spring-cup-rehearsal"
    rounds = list(copy.rounds.order_by("number"))
    assert [r.status for r in rounds] == [Round.Status.FINISHED] * 3
    tables = Table.objects.filter(round__tournament=copy)
    # 10 players: two stand-ins fill the third table in every round.
    assert tables.count() == 9
    assert not tables.filter(confirmed_at__isnull=True).exists()
    assert rehearsal.done == rehearsal.total == 9
    stand_ins = copy.players.filter(substitute=True, name__startswith="Stand-in")
    assert stand_ins.count() == 3  # two fill the tables, one waits to come in for a no-show
    # A player stays away from round 2; the benched stand-in plays in their place.
    away = copy.players.get(substitute=False, withdrawn_from_round=2)
    assert not Seat.objects.filter(round__number__gte=2, player=away).exists()
    in_their_place = copy.players.get(joins_from_round=2)
    assert Seat.objects.filter(round__number=2, player=in_their_place).exists()
    # The games hold results of every kind the preset has.
    hands = Deal.objects.filter(table__round__tournament=copy)
    assert hands.filter(result="win", tiles__isnull=False).exists()
    assert hands.filter(result="win", tiles__isnull=True).exists()
    assert hands.filter(result="draw").exists()
    for table in tables:
        seats = list(table.seats.all())
        assert len(seats) == 4
    ranked = [row for row in standings(copy) if row.rank is not None]
    assert len(ranked) == 10 - 1 + 1  # the regulars (the absentee keeps round 1)


@pytest.mark.parametrize("preset", PRESETS)
def test_every_kind_of_deal_of_the_preset(preset):
    tournament = spring_cup(preset, players=8, rounds=2)
    rehearsal = service.start_rehearsal(tournament, actor=organiser_of(tournament), seed=11)
    assert rehearsal.status == Rehearsal.Status.DONE, rehearsal.message
    copy = rehearsal.copy
    hands = Deal.objects.filter(table__round__tournament=copy)
    penalties = Penalty.objects.filter(table__round__tournament=copy)
    assert penalties.filter(kind="deduction", reason="Dress rehearsal: slow play").exists()
    assert hands.filter(result="win", tiles__isnull=False, discarder__isnull=True).exists() == (
        preset != "mcr"
    )
    assert hands.filter(result="win", tiles__isnull=False, discarder__isnull=False).exists()
    if preset == "japanese-transitional":
        assert hands.filter(result="faulty_out").exists()
        assert hands.filter(result="draw").exclude(ready=[False] * 4).exists()
        assert hands.exclude(faulty_claims=[False] * 4).exists()
        assert not penalties.exclude(kind="deduction").exists()
    else:
        assert penalties.filter(kind="false_win").exists()
    if preset == "mcr":
        assert penalties.filter(kind="false_win_invalid").exists()
    if preset == "wilmington-12-tile":
        assert hands.filter(extra_wins__tiles__isnull=False).exists()
        assert hands.filter(extra_wins__tiles__isnull=True).exists()


def test_the_original_is_left_as_it_was():
    tournament = spring_cup()
    before = {
        "players": list(tournament.players.values_list("key", "name", "withdrawn_from_round")),
        "rounds": tournament.rounds.count(),
    }
    service.start_rehearsal(tournament, actor=organiser_of(tournament), seed=3)
    assert (
        list(tournament.players.values_list("key", "name", "withdrawn_from_round"))
        == before["players"]
    )
    assert tournament.rounds.count() == before["rounds"] == 0
    [entry] = AuditEntry.objects.filter(tournament=tournament)
    assert entry.action == AuditEntry.Action.REHEARSAL
    assert entry.after == {"made": "spring-cup-rehearsal", "seed": 3}


def test_the_same_seed_plays_the_same_rehearsal():
    tournament = spring_cup(players=8, rounds=2)
    organiser = organiser_of(tournament)
    first = service.start_rehearsal(tournament, actor=organiser, seed=5)
    second = service.start_rehearsal(tournament, actor=organiser, seed=5)
    assert second.copy.slug == "spring-cup-rehearsal-2"

    def scores(copy: Tournament) -> list[tuple[int, int, str, int]]:
        return list(
            Seat.objects.filter(round__tournament=copy)
            .order_by("round__number", "table__number", "starting_wind")
            .values_list("round__number", "table__number", "player__key", "score")
        )

    assert scores(first.copy) == scores(second.copy)
    assert scores(first.copy) != []


def test_refused_once_the_tournament_has_started():
    tournament = spring_cup(players=8)
    players = list(tournament.players.order_by("pk"))
    seated_round(tournament, organiser_of(tournament), [players[:4], players[4:]])
    with pytest.raises(ValidationError) as refused:
        service.start_rehearsal(tournament, actor=organiser_of(tournament))
    assert refused.value.code == "started"
    assert not Rehearsal.objects.exists()


def test_refused_without_four_players_and_for_a_copy():
    tournament = spring_cup(players=3)
    with pytest.raises(ValidationError) as refused:
        service.start_rehearsal(tournament, actor=organiser_of(tournament))
    assert refused.value.code == "too_few_players"
    add_player(tournament=tournament, key="4", name="Player 4")
    rehearsal = service.start_rehearsal(tournament, actor=organiser_of(tournament), seed=1)
    with pytest.raises(ValidationError) as refused:
        service.start_rehearsal(rehearsal.copy, actor=organiser_of(tournament))
    assert refused.value.code == "is_rehearsal"


def test_a_copy_is_never_made_public():
    tournament = spring_cup(players=4, rounds=1)
    rehearsal = service.start_rehearsal(tournament, actor=organiser_of(tournament), seed=1)
    with pytest.raises(ValidationError):
        update_tournament(tournament=rehearsal.copy, public=True)
    rehearsal.copy.refresh_from_db()
    assert not rehearsal.copy.public


def test_a_refusal_while_playing_stops_the_rehearsal_saying_why(monkeypatch):
    tournament = spring_cup(players=8, rounds=2)

    def refuse(*args, **kwargs):
        raise ValidationError("The seating engine refused.")

    monkeypatch.setattr(service, "seat_round", refuse)
    rehearsal = service.start_rehearsal(tournament, actor=organiser_of(tournament), seed=1)
    assert rehearsal.status == Rehearsal.Status.FAILED
    assert rehearsal.message == "The seating engine refused."
    assert rehearsal.finished is not None


def test_deleting_leaves_no_row_behind():
    tournament = spring_cup(players=8, rounds=2)
    organiser = organiser_of(tournament)
    counted = (Tournament, Player, Round, Table, Seat, Deal, Penalty, AuditEntry, Rehearsal)
    before = {model.__name__: model.objects.count() for model in counted}
    rehearsal = service.start_rehearsal(tournament, actor=organiser, seed=2)
    assert Deal.objects.count() > before["Deal"]
    service.delete_rehearsal(rehearsal, actor=organiser)
    after = {model.__name__: model.objects.count() for model in counted}
    # Only the original's two audit entries remain: made, then deleted.
    assert after == {**before, "AuditEntry": before["AuditEntry"] + 2}
    entries = list(tournament.audit.order_by("pk").values_list("before", "after"))
    assert entries == [
        (None, {"made": "spring-cup-rehearsal", "seed": 2}),
        ({"deleted": "spring-cup-rehearsal"}, None),
    ]


def test_a_running_rehearsal_is_not_deleted_until_it_stalls():
    tournament = spring_cup(players=4, rounds=1)
    organiser = organiser_of(tournament)
    rehearsal = service.start_rehearsal(tournament, actor=organiser, seed=2)
    Rehearsal.objects.filter(pk=rehearsal.pk).update(status=Rehearsal.Status.RUNNING)
    rehearsal.refresh_from_db()
    with pytest.raises(ValidationError) as refused:
        service.delete_rehearsal(rehearsal, actor=organiser)
    assert refused.value.code == "running"
    with pytest.raises(ValidationError):
        service.start_rehearsal(tournament, actor=organiser)
    stalled = rehearsal.created - service.STALE_AFTER * 2
    Rehearsal.objects.filter(pk=rehearsal.pk).update(heartbeat=stalled, created=stalled)
    service.delete_rehearsal(rehearsal, actor=organiser)
    assert not Rehearsal.objects.exists()


@pytest.mark.parametrize("consolation", [False, True], ids=["others-stop", "consolation"])
@pytest.mark.parametrize("preset", PRESETS)
def test_the_cut_and_the_final_stage_are_played(preset, consolation):
    tournament = spring_cup(preset, players=12, rounds=3)
    tournament.cut_after_round = 2
    tournament.cut_size = 8
    tournament.carry_over = "1/2"
    tournament.consolation = consolation
    tournament.save()
    rehearsal = service.start_rehearsal(tournament, actor=organiser_of(tournament), seed=4)

    assert rehearsal.status == Rehearsal.Status.DONE, rehearsal.message
    copy = rehearsal.copy
    cut = Cut.objects.get(tournament=copy)
    finalists = [finalist.player for finalist in cut.finalists.order_by("position")]
    assert len(finalists) == 8
    final_round = copy.rounds.get(number=3)
    seated = {seat.player for seat in Seat.objects.filter(round=final_round, table__number__lte=2)}
    assert seated == set(finalists)  # the final tables: the finalists, by rank
    table_1 = {seat.player for seat in Seat.objects.filter(round=final_round, table__number=1)}
    assert table_1 == set(finalists[:4])
    assert final_round.tables.count() == (3 if consolation else 2)
    assert rehearsal.done == rehearsal.total == 3 + 3 + final_round.tables.count()
    ranked = [row for row in standings(copy) if row.rank is not None]
    assert {row.player for row in ranked[:8]} == set(finalists)
    # No one stayed away after the cut: the no-shows come before it.
    assert not copy.players.filter(withdrawn_from_round=3).exists()


def test_the_copy_takes_the_settings_and_the_players_as_entered():
    tournament = spring_cup("japanese-transitional", players=8, rounds=2)
    settings = {
        "venue": "Town Hall",
        "table_points": [6, 3, 1, 0],
        "tie_breaks": ["best_game"],
        "round_minutes": 90,
        "team_best_of": 2,
        "separate_clubs": "hard",
        "standings_hidden_from": 2,
    }
    Tournament.objects.filter(pk=tournament.pk).update(**settings)
    tournament.refresh_from_db()
    Player.objects.filter(tournament=tournament, key="1").update(
        team="Oak", club="Oak Club", ema_number="04120001", family_name="Archer"
    )
    copy = service.start_rehearsal(tournament, actor=organiser_of(tournament), seed=1).copy
    for name, value in settings.items():
        assert getattr(copy, name) == value, name
    assert (copy.preset, copy.rule_settings) == (tournament.preset, tournament.rule_settings)
    ann = copy.players.get(key="1")
    assert (ann.team, ann.club, ann.ema_number, ann.family_name) == (
        "Oak",
        "Oak Club",
        "04120001",
        "Archer",
    )
    assert set(copy.organisers.all()) == set(tournament.organisers.all())
