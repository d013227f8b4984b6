"""Attendance: closing check-in settles the field of round 1, late arrivals and absences change
the rounds not yet in play, seatings in play never change, published ones as little as can be."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone
from factories import make_players, make_tournament, make_user, seated_round
from preset_world import PRESETS, build

from tournament.models import AuditEntry, Player, Round, Seat
from tournament.reads.selectors import standings
from tournament.services import add_player, create_round, set_round_status, set_seating
from tournament.services.attendance import (
    absent_from,
    arrive_late,
    close_check_in,
    proposal,
    reopen_check_in,
    rounds_ahead,
)
from tournament.services.rounds import players_to_seat
from tournament.services.seating_plan import seat_round

pytestmark = pytest.mark.django_db


def _keys(players) -> set[str]:
    return {player.key for player in players}


def _seats(round: Round) -> dict[tuple[int, str], str]:
    return {
        (seat.table.number, seat.starting_wind): seat.player.key
        for seat in Seat.objects.filter(round=round).select_related("table", "player")
    }


def _fresh(key: str) -> Player:
    return Player.objects.get(tournament__slug="spring-cup", key=key)


@pytest.fixture
def organiser():
    return make_user("alice")


@pytest.fixture
def sixty(organiser):
    """60 regular players (keys 1-60), 57 of them checked in (58, 59, 60 are not), and four
    substitutes S1-S4 of whom S3 and S4 are checked in."""
    tournament = make_tournament(organisers=[organiser], planned_rounds=3)
    players = make_players(tournament, 60)
    subs = [
        add_player(tournament=tournament, key=f"S{n}", name=f"Stand-in {n}", substitute=True)
        for n in range(1, 5)
    ]
    now = timezone.now()
    Player.objects.filter(pk__in=[p.pk for p in players[:57]]).update(checked_in_at=now)
    Player.objects.filter(pk__in=[p.pk for p in subs[2:]]).update(checked_in_at=now)
    return tournament


def test_57_checked_in_are_offered_three_substitutes_checked_in_first(sixty):
    offer = proposal(sixty)
    assert len(offer.checked_in) == 57
    assert [p.key for p in offer.missing] == ["58", "59", "60"]
    assert (offer.to_add, offer.to_remove) == (3, 1)
    assert [p.key for p in offer.substitutes] == ["S3", "S4", "S1", "S2"]
    assert [p.key for p in offer.suggested] == ["S3", "S4", "S1"]
    assert offer.blocked == ""


def test_closing_with_the_three_substitutes_gives_a_field_of_60(sixty, organiser):
    close_check_in(sixty, actor=organiser, substitutes=["S3", "S4", "S1"])
    sixty.refresh_from_db()
    assert sixty.check_in_closed_at is not None
    field = players_to_seat(Round(tournament=sixty, number=1))
    assert len(field) == 60
    assert {"S1", "S3", "S4"} <= _keys(field)
    assert not _keys(field) & {"58", "59", "60", "S2"}
    for key in ("58", "59", "60", "S2"):  # absent; S2 stays on the bench
        assert _fresh(key).withdrawn_from_round == 1
    for round_field in rounds_ahead(sixty):  # the planned rounds 1-3 all have 60
        assert round_field.size == 60 and round_field.full
    entry = AuditEntry.objects.get(tournament=sixty, action=AuditEntry.Action.CHECK_IN)
    assert entry.after["absent"] == ["58", "59", "60"]
    assert entry.after["substitutes"] == ["S1", "S3", "S4"]
    assert entry.before["players"]["58"] == {
        "withdrawn_from_round": None,
        "joins_from_round": None,
    }
    assert proposal(sixty).blocked  # closed: the screen offers no second close


def test_closing_by_withdrawing_one_of_57(sixty, organiser):
    close_check_in(sixty, actor=organiser, withdraw=["7"])
    assert len(players_to_seat(Round(tournament=sixty, number=1))) == 56
    assert _fresh("7").withdrawn_from_round == 1
    assert all(_fresh(f"S{n}").withdrawn_from_round == 1 for n in range(1, 5))


@pytest.mark.parametrize(
    ("substitutes", "withdraw", "code"),
    [
        ([], [], "field_not_multiple_of_four"),
        (["S1", "S2"], [], "field_not_multiple_of_four"),
        (["S1", "S2", "S3", "S4"], ["1"], "too_many_substitutes"),
        (["S9"], [], "unknown_player"),
        (["1"], [], "not_substitute"),
        ([], ["S1"], "withdraw_substitute"),
        ([], ["58"], "field_not_multiple_of_four"),  # 58 is absent anyway
    ],
)
def test_a_close_that_is_refused_changes_nothing(sixty, organiser, substitutes, withdraw, code):
    before = list(Player.objects.values_list("key", "withdrawn_from_round", "joins_from_round"))
    with pytest.raises(ValidationError) as refused:
        close_check_in(sixty, actor=organiser, substitutes=substitutes, withdraw=withdraw)
    assert refused.value.code == code
    assert refused.value.messages[0]
    sixty.refresh_from_db()
    assert sixty.check_in_closed_at is None
    after = list(Player.objects.values_list("key", "withdrawn_from_round", "joins_from_round"))
    assert after == before
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.CHECK_IN).exists()


def test_the_message_says_how_many_to_add_or_remove(sixty, organiser):
    with pytest.raises(ValidationError) as refused:
        close_check_in(sixty, actor=organiser)
    assert refused.value.messages == [
        "Round 1 would have 57 players, not a multiple of four: bring in 3 substitutes or "
        "withdraw 1 players."
    ]


def test_closing_twice_and_closing_once_round_1_is_in_play_are_refused(organiser):
    tournament = make_tournament(organisers=[organiser])
    players = make_players(tournament, 8)
    Player.objects.update(checked_in_at=timezone.now())
    close_check_in(tournament, actor=organiser)
    with pytest.raises(ValidationError) as refused:
        close_check_in(tournament, actor=organiser)
    assert refused.value.code == "check_in_closed"
    reopen_check_in(tournament, actor=organiser)
    seated_round(tournament, organiser, [players[:4], players[4:]])
    with pytest.raises(ValidationError) as refused:
        close_check_in(tournament, actor=organiser)
    assert refused.value.code == "round_in_play"
    assert "in play" in proposal(tournament).blocked


def test_reopening_gives_back_what_the_close_changed(sixty, organiser):
    close_check_in(sixty, actor=organiser, substitutes=["S3", "S4", "S1"])
    reopen_check_in(sixty, actor=organiser)
    sixty.refresh_from_db()
    assert sixty.check_in_closed_at is None
    assert not Player.objects.filter(withdrawn_from_round__isnull=False).exists()
    assert len(proposal(sixty).missing) == 3


def test_reopening_keeps_a_draft_round_1_seated_by_swapping_back(organiser):
    tournament = make_tournament(organisers=[organiser])
    players = make_players(tournament, 8)
    add_player(tournament=tournament, key="S", name="Sam Stand-in", substitute=True)
    Player.objects.exclude(key="8").update(checked_in_at=timezone.now())
    round_1, _tables = seated_round(
        tournament, organiser, [players[:4], players[4:]], status=Round.Status.DRAFT
    )
    before = _seats(round_1)
    close_check_in(tournament, actor=organiser, substitutes=["S"])
    assert "S" in _seats(round_1).values()
    outcome = reopen_check_in(tournament, actor=organiser)
    assert outcome.refitted == [1]
    assert _seats(round_1) == before
    assert _fresh("8").withdrawn_from_round is None and _fresh("S").withdrawn_from_round is None


def test_reopening_is_refused_once_round_1_is_published(organiser):
    tournament = make_tournament(organisers=[organiser])
    players = make_players(tournament, 8)
    Player.objects.update(checked_in_at=timezone.now())
    close_check_in(tournament, actor=organiser)
    seated_round(tournament, organiser, [players[:4], players[4:]], status=Round.Status.SEATED)
    with pytest.raises(ValidationError) as refused:
        reopen_check_in(tournament, actor=organiser)
    assert refused.value.code == "round_published"


@pytest.fixture
def twelve(organiser):
    """12 regular players, 11 checked in (12 is not), and the substitute S (checked in)
    brought in at the close; round 1 in play, round 2 published, round 3 a draft, each seated."""
    tournament = make_tournament(organisers=[organiser], planned_rounds=3)
    make_players(tournament, 12)
    add_player(tournament=tournament, key="S", name="Sam Stand-in", substitute=True)
    Player.objects.exclude(key="12").update(checked_in_at=timezone.now())
    close_check_in(tournament, actor=organiser, substitutes=["S"])
    field = {p.key: p for p in Player.objects.all()}
    order = [field[k] for k in ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "S"]]
    seated_round(tournament, organiser, [order[0:4], order[4:8], order[8:12]])
    again = [order[i] for i in (0, 4, 8, 11, 1, 5, 9, 2, 3, 6, 10, 7)]
    seated_round(tournament, organiser, [again[0:4], again[4:8], again[8:12]], status="seated")
    third = [order[i] for i in (0, 5, 10, 3, 1, 6, 11, 8, 2, 4, 9, 7)]
    seated_round(tournament, organiser, [third[0:4], third[4:8], third[8:12]], status="draft")
    return tournament


def test_a_late_arrival_takes_the_substitutes_seats_from_the_round_chosen(twelve, organiser):
    rounds = {r.number: r for r in twelve.rounds.all()}
    before = {n: _seats(r) for n, r in rounds.items()}
    outcome = arrive_late(_fresh("12"), from_round=3, actor=organiser, substitute="S")
    late, substitute = _fresh("12"), _fresh("S")
    assert (late.joins_from_round, late.withdrawn_from_round) == (3, None)
    assert late.checked_in_at is not None
    assert substitute.withdrawn_from_round == 3
    assert outcome.refitted == [3] and outcome.unseated == []
    assert _seats(rounds[1]) == before[1]  # in play
    assert _seats(rounds[2]) == before[2]  # published, before the late arrival's round
    changed = {place for place, key in _seats(rounds[3]).items() if before[3][place] != key}
    assert len(changed) == 1
    (place,) = changed
    assert before[3][place] == "S" and _seats(rounds[3])[place] == "12"
    assert late.plays_in(3) and not late.plays_in(2) and not substitute.plays_in(3)
    entry = AuditEntry.objects.filter(action=AuditEntry.Action.ATTENDANCE).get()
    assert entry.after["late"] == "12" and entry.after["round"] == 3


def test_a_late_arrival_in_a_published_round_is_seated_in_one_seat(twelve, organiser):
    round_2 = twelve.rounds.get(number=2)
    before = _seats(round_2)
    outcome = arrive_late(_fresh("12"), from_round=2, actor=organiser, substitute="S")
    assert outcome.refitted == [2, 3]
    after = _seats(round_2)
    assert [place for place in before if before[place] != after[place]] == [
        next(place for place, key in before.items() if key == "S")
    ]
    round_2.refresh_from_db()
    assert round_2.status == Round.Status.SEATED
    assert _fresh("12").joins_from_round == 2


def test_a_late_arrival_without_a_substitute_stepping_out_is_refused(twelve, organiser):
    with pytest.raises(ValidationError) as refused:
        arrive_late(_fresh("12"), from_round=3, actor=organiser)
    assert refused.value.code == "field_not_multiple_of_four"
    assert _fresh("12").withdrawn_from_round == 1
    assert _fresh("12").checked_in_at is None


def test_a_late_arrival_cannot_join_a_round_in_play(twelve, organiser):
    with pytest.raises(ValidationError) as refused:
        arrive_late(_fresh("12"), from_round=1, actor=organiser, substitute="S")
    assert refused.value.code == "round_in_play"
    assert "earliest round that can change is round 2" in refused.value.messages[0]
    with pytest.raises(ValidationError) as refused:
        arrive_late(_fresh("12"), from_round=7, actor=organiser, substitute="S")
    assert refused.value.code == "no_such_round"
    with pytest.raises(ValidationError) as refused:
        arrive_late(_fresh("5"), from_round=2, actor=organiser, substitute="S")
    assert refused.value.code == "already_playing"


@pytest.mark.parametrize("status", [Round.Status.SEATED, Round.Status.DRAFT])
def test_a_round_whose_tables_would_change_size(organiser, status):
    """Round 1 is seated with 12 before check-in closes, and 4 players have not come: a
    published round 1 refuses the close, a draft one is seated again by the engine."""
    tournament = make_tournament(organisers=[organiser], planned_rounds=2)
    players = make_players(tournament, 12)
    Player.objects.exclude(key__in=["9", "10", "11", "12"]).update(checked_in_at=timezone.now())
    round_1, _tables = seated_round(
        tournament, organiser, [players[:4], players[4:8], players[8:]], status=status
    )
    before = _seats(round_1)
    if status == Round.Status.SEATED:
        with pytest.raises(ValidationError) as refused:
            close_check_in(tournament, actor=organiser)
        assert refused.value.code == "published_round_changes"
        assert "4 would leave and 0 arrive" in refused.value.messages[0]
        assert _seats(round_1) == before
        assert not Player.objects.filter(withdrawn_from_round__isnull=False).exists()
        tournament.refresh_from_db()
        assert tournament.check_in_closed_at is None
    else:
        outcome = close_check_in(tournament, actor=organiser)
        # The draft round is seated again by the engine with the eight who came.
        assert outcome.reseated == [1] and outcome.unseated == []
        seated = set(Seat.objects.filter(round=round_1).values_list("player__key", flat=True))
        assert seated == {str(n) for n in range(1, 9)}
        assert round_1.tables.count() == 2


def test_a_one_for_one_change_keeps_a_draft_rounds_tables(organiser):
    tournament = make_tournament(organisers=[organiser], planned_rounds=2)
    players = make_players(tournament, 8)
    add_player(tournament=tournament, key="S", name="Sam Stand-in", substitute=True)
    Player.objects.exclude(key="8").update(checked_in_at=timezone.now())
    round_1, _tables = seated_round(
        tournament, organiser, [players[:4], players[4:]], status=Round.Status.DRAFT
    )
    before = _seats(round_1)
    outcome = close_check_in(tournament, actor=organiser, substitutes=["S"])
    assert outcome.refitted == [1]
    after = _seats(round_1)
    assert {p: k for p, k in after.items() if before[p] != k} == {
        next(p for p, k in before.items() if k == "8"): "S"
    }


def test_absent_from_round_3_with_a_substitute(organiser):
    tournament = make_tournament(organisers=[organiser], planned_rounds=4)
    players = make_players(tournament, 8)
    add_player(tournament=tournament, key="S", name="Sam Stand-in", substitute=True)
    Player.objects.filter(substitute=False).update(checked_in_at=timezone.now())
    close_check_in(tournament, actor=organiser)
    assert _fresh("S").withdrawn_from_round == 1  # on the bench
    seated_round(tournament, organiser, [players[:4], players[4:]])
    round_2, _ = seated_round(tournament, organiser, [players[::2], players[1::2]], status="draft")
    absent_from(_fresh("3"), 3, actor=organiser, substitute="S")
    absentee, substitute = _fresh("3"), _fresh("S")
    assert absentee.withdrawn_from_round == 3
    assert (substitute.joins_from_round, substitute.withdrawn_from_round) == (3, None)
    assert absentee.plays_in(2) and not absentee.plays_in(3)
    assert not substitute.plays_in(2) and substitute.plays_in(3) and substitute.plays_in(4)
    assert "S" not in _keys(players_to_seat(round_2))
    round_3 = create_round(tournament=tournament, actor=organiser)
    assert _keys(players_to_seat(round_3)) == {"1", "2", "4", "5", "6", "7", "8", "S"}
    fields = {f.number: f for f in rounds_ahead(tournament)}
    assert [p.key for p in fields[3].joining] == ["S"]
    assert "3" in _keys(fields[3].away)
    entry = AuditEntry.objects.filter(action=AuditEntry.Action.ATTENDANCE).get()
    assert entry.after == {
        "absent": "3",
        "round": 3,
        "substitute_in": "S",
        "players": {
            "3": {"withdrawn_from_round": 3, "joins_from_round": None},
            "S": {"withdrawn_from_round": None, "joins_from_round": 3},
        },
    }


def test_an_absence_without_a_substitute_is_refused_and_so_is_a_second_stretch(organiser):
    tournament = make_tournament(organisers=[organiser], planned_rounds=4)
    players = make_players(tournament, 8)
    add_player(tournament=tournament, key="S", name="Sam Stand-in", substitute=True)
    Player.objects.filter(substitute=False).update(checked_in_at=timezone.now())
    close_check_in(tournament, actor=organiser)
    seated_round(tournament, organiser, [players[:4], players[4:]])
    with pytest.raises(ValidationError) as refused:
        absent_from(_fresh("3"), 3, actor=organiser)
    assert refused.value.code == "field_not_multiple_of_four"
    with pytest.raises(ValidationError) as refused:
        absent_from(_fresh("3"), 1, actor=organiser, substitute="S")
    assert refused.value.code == "round_in_play"
    absent_from(_fresh("3"), 3, actor=organiser, substitute="S")
    # Back for round 4 while round 3 is still to be played: two stretches, refused ...
    with pytest.raises(ValidationError) as refused:
        arrive_late(_fresh("3"), from_round=4, actor=organiser, substitute="S")
    assert refused.value.code == "two_stretches"
    assert "misses round 3" in refused.value.messages[0]
    # ... back for round 3 after all: the absence is undone.
    arrive_late(_fresh("3"), from_round=3, actor=organiser, substitute="S")
    assert _fresh("3").withdrawn_from_round is None
    assert _fresh("S").withdrawn_from_round == 3 and not _fresh("S").plays_in(3)


def test_seating_skips_a_late_arrival_before_their_round(twelve, organiser):
    arrive_late(_fresh("12"), from_round=3, actor=organiser, substitute="S")
    round_2 = twelve.rounds.get(number=2)
    set_round_status(round=round_2, status=Round.Status.DRAFT, actor=organiser)
    tables = seat_round(round=round_2, actor=organiser, seed=3)
    seated = {seat.player.key for table in tables for seat in table.seats.all()}
    assert "12" not in seated and "S" in seated
    late = _fresh("12")
    with pytest.raises(ValidationError) as refused:
        set_seating(
            round=round_2,
            tables=[[late, *[_fresh(k) for k in ("1", "2", "3")]]],
            actor=organiser,
        )
    assert refused.value.code == "joins_later"
    round_3 = twelve.rounds.get(number=3)
    tables = seat_round(round=round_3, actor=organiser, seed=3)
    seated = {seat.player.key for table in tables for seat in table.seats.all()}
    assert "12" in seated and "S" not in seated
    set_round_status(round=round_3, status=Round.Status.SEATED, actor=organiser)


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_the_withdrawn_player_arrives_back_and_the_substitute_steps_out(preset):
    world = build(preset)
    tournament = world.tournament
    tournament.planned_rounds = 4
    tournament.save()
    organiser = world.organiser
    round_3 = create_round(tournament=tournament, actor=organiser)
    seat_round(round=round_3, actor=organiser, seed=1)
    set_round_status(round=round_3, status=Round.Status.SEATED, actor=organiser)
    round_4 = create_round(tournament=tournament, actor=organiser)
    seat_round(round=round_4, actor=organiser, seed=2)
    kept = {n: _seats(r) for n, r in ((2, tournament.rounds.get(number=2)), (3, round_3))}
    draft = _seats(round_4)
    # Player 8 withdrew from round 2 (round 2 is in play); they are back for round 4.
    outcome = arrive_late(world.players[7], from_round=4, actor=organiser, substitute="9")
    assert outcome.refitted == [4]
    assert _seats(tournament.rounds.get(number=2)) == kept[2]
    assert _seats(round_3) == kept[3]
    after = _seats(round_4)
    assert {p: k for p, k in after.items() if draft[p] != k} == {
        next(p for p, k in draft.items() if k == "9"): "8"
    }
    eight = Player.objects.get(tournament=tournament, key="8")
    assert (eight.joins_from_round, eight.withdrawn_from_round) == (4, None)
    assert eight.plays_in(4) and not eight.plays_in(3)
    standings_row = next(row for row in standings(tournament) if row.player.key == "8")
    assert standings_row.rank is not None  # ranked, with the games they played


def test_a_draft_round_the_engine_cannot_seat_again_loses_its_tables(organiser):
    """While the seating plan is being generated the engine seats nothing: the draft round
    whose field changed size is left without tables, and the page says to seat it again."""
    from tournament.models import SeatingJob

    tournament = make_tournament(organisers=[organiser], planned_rounds=2)
    players = make_players(tournament, 12)
    Player.objects.exclude(key__in=["9", "10", "11", "12"]).update(checked_in_at=timezone.now())
    round_1, _tables = seated_round(
        tournament, organiser, [players[:4], players[4:8], players[8:]], status="draft"
    )
    SeatingJob.objects.create(tournament=tournament, created_by=organiser)

    outcome = close_check_in(tournament, actor=organiser)

    assert outcome.unseated == [1] and outcome.reseated == []
    assert not Seat.objects.filter(round=round_1).exists()
