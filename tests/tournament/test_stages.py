"""The final stage: the cut, the carry-over, seating by rank and the standings per stage."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone
from factories import make_players, make_tournament, make_user, seated_round
from hypothesis import given
from hypothesis import strategies as st

from tournament.models import AuditEntry, Cut, Round, Seat, Table
from tournament.reads import stages
from tournament.reads.selectors import standings
from tournament.services import create_round, set_round_status
from tournament.services.stages import confirm_cut, seat_stage_round, undo_cut

# --- Arithmetic ----------------------------------------------------------------------------


def test_cut_takes_the_best_ranks():
    line = stages.choose_cut([3, 1, 2, 4, 5], ["a", "b", "c", "d", "e"], 2)
    assert line.qualified == (1, 2)
    assert line.tied == ()


def test_tie_at_the_line_goes_to_the_lower_start_number():
    # Ranks 1, 2, 2, 2: a cut of two splits three level players; "9" comes before "10".
    line = stages.choose_cut([1, 2, 2, 2], ["1", "10", "9", "11"], 2)
    assert line.qualified == (0, 2)
    assert set(line.tied) == {1, 2, 3}


@given(
    ranks=st.lists(st.integers(min_value=1, max_value=8), min_size=1, max_size=40),
    size=st.integers(min_value=1, max_value=40),
)
def test_property_cut_is_top_n_by_rank(ranks, size):
    keys = [str(index) for index in range(len(ranks))]
    line = stages.choose_cut(ranks, keys, size)
    chosen = set(line.qualified)
    assert len(chosen) == min(size, len(ranks))
    left_out = [i for i in range(len(ranks)) if i not in chosen]
    # Nobody left out ranks better than anyone chosen.
    if chosen and left_out:
        assert max(ranks[i] for i in chosen) <= min(ranks[i] for i in left_out)
        worst = max(ranks[i] for i in chosen)
        # Level players at the line: the lower start numbers are in.
        for i in left_out:
            if ranks[i] == worst:
                assert all(int(keys[j]) < int(keys[i]) for j in chosen if ranks[j] == worst)
                assert i in line.tied
    else:
        assert line.tied == ()


@given(
    numerator=st.integers(min_value=0, max_value=100),
    denominator=st.integers(min_value=1, max_value=100),
    twelfths=st.integers(min_value=-10_000, max_value=10_000),
    score=st.integers(min_value=-100_000, max_value=100_000),
)
def test_property_carry_over_is_exact(numerator, denominator, twelfths, score):
    factor = Fraction(min(numerator, denominator), denominator)
    points = Fraction(twelfths, 12)
    assert stages.carried(points, factor) == Fraction(
        twelfths * factor.numerator, 12 * factor.denominator
    )
    assert stages.carried(score, factor) * factor.denominator == score * factor.numerator


@given(tables=st.integers(min_value=1, max_value=30), scheme=st.sampled_from(["rank", "spread"]))
def test_property_final_tables_seat_everyone_once(tables, scheme):
    players = list(range(4 * tables))
    seated = stages.final_tables(players, scheme)
    assert len(seated) == tables
    assert sorted(p for table in seated for p in table) == players


def test_rank_seating_puts_one_to_four_at_table_one():
    assert stages.final_tables(list(range(1, 9)), "rank") == [[1, 2, 3, 4], [5, 6, 7, 8]]


def test_spread_seating_takes_one_of_each_quarter():
    assert stages.final_tables(list(range(1, 9)), "spread") == [[1, 4, 5, 8], [2, 3, 6, 7]]


def test_score_shows_two_decimals_when_carried_makes_a_fraction():
    assert stages.format_score(Fraction(7, 2)) == "3.50"
    assert stages.format_score(Fraction(-1, 3)) == "-0.33"
    assert stages.format_score(12) == "12"


# --- The cut in a tournament ----------------------------------------------------------------


def finished_round(tournament, organiser, tables, scores):
    """A round seated with `tables`, its games over with `scores` (by table, E S W N) and
    confirmed, and the round finished."""
    round, made = seated_round(tournament, organiser, tables)
    now = timezone.now()
    for table, table_scores in zip(made, scores, strict=True):
        for seat, score in zip(table.seats_in_order, table_scores, strict=True):
            Seat.objects.filter(pk=seat.pk).update(score=score)
        Table.objects.filter(pk=table.pk).update(ended_at=now, confirmed_at=now)
    Round.objects.filter(pk=round.pk).update(status=Round.Status.FINISHED)
    return round


@pytest.fixture
def world(db):
    """Sixteen players, a cut to eight after round 2 carrying half. Round 1: the players
    in key order at four tables, scores 40, 20, -20, -40; round 2 the same."""
    organiser = make_user("alice")
    tournament = make_tournament(
        organisers=[organiser], cut_after_round=2, cut_size=8, carry_over="1/2", planned_rounds=3
    )
    players = make_players(tournament, 16)
    tables = [players[i : i + 4] for i in range(0, 16, 4)]
    for _ in range(2):
        finished_round(tournament, organiser, tables, [[41, 21, -21, -41]] * 4)
    return tournament, organiser, players


def test_preview_lists_the_top_n_and_the_tie_at_the_line(world):
    tournament, _, players = world
    preview = stages.cut_preview(tournament)
    # Four players on 8 table points (the East of each table), four on 4: exactly eight.
    assert [row.standing.player.key for row in preview.qualified] == [
        "1", "5", "9", "13", "2", "6", "10", "14",
    ]  # fmt: skip
    # All four on 4 table points and 42 are level, all eight are in: no tie across the line.
    assert not preview.tied_at_line
    assert preview.qualified[0].carried_table_points == 4
    assert preview.qualified[0].carried_score == 41


def test_tie_across_the_line_is_shown_and_decided_by_start_number(world):
    tournament, _, _ = world
    tournament.cut_size = 4
    tournament.save()
    # The four East players are level on everything and the cut takes four: no tie across.
    assert not stages.cut_preview(tournament).tied_at_line
    # In round 2, players 1 and 2 swap their results: both on 6 table points, 62, best game
    # 41, games 41 and 21: level on every tie-break, behind 5, 9 and 13.
    Seat.objects.filter(round__number=2, player__key="1").update(score=21)
    Seat.objects.filter(round__number=2, player__key="2").update(score=41)
    preview = stages.cut_preview(tournament)
    assert [row.standing.player.key for row in preview.qualified] == ["5", "9", "13", "1"]
    assert {row.standing.player.key for row in preview.rows if row.tied} == {"1", "2"}
    assert preview.tied_at_line


def test_confirming_freezes_the_finalists_and_audits(world):
    tournament, organiser, _ = world
    cut = confirm_cut(tournament=tournament, actor=organiser)
    assert cut.size == 8 and cut.after_round == 2 and cut.carry_over == "1/2"
    assert [f.player.key for f in cut.finalists.select_related("player")][:2] == ["1", "5"]
    first = cut.finalists.get(position=1)
    assert first.table_points == 8 and first.score == 82
    entry = AuditEntry.objects.get(action=AuditEntry.Action.CUT_CONFIRMED)
    assert entry.after["finalists"][:4] == ["1", "5", "9", "13"]
    with pytest.raises(ValidationError) as error:
        confirm_cut(tournament=tournament, actor=organiser)
    assert error.value.code == "cut_confirmed"


def test_cut_refused_before_its_round_is_finished(world):
    tournament, organiser, _ = world
    Round.objects.filter(number=2).update(status=Round.Status.PLAYING)
    with pytest.raises(ValidationError) as error:
        confirm_cut(tournament=tournament, actor=organiser)
    assert error.value.code == "rounds_open"
    assert not Cut.objects.exists()


def test_cut_refused_without_a_final_stage(world):
    tournament, organiser, _ = world
    tournament.cut_after_round = None
    tournament.cut_size = None
    tournament.save()
    with pytest.raises(ValidationError) as error:
        confirm_cut(tournament=tournament, actor=organiser)
    assert error.value.code == "no_stage"


def test_withdrawn_player_is_passed_over(world):
    tournament, organiser, players = world
    players[0].withdrawn_from_round = 3
    players[0].save()
    cut = confirm_cut(tournament=tournament, actor=organiser)
    keys = [f.player.key for f in cut.finalists.select_related("player")]
    assert "1" not in keys and len(keys) == 8 and keys[-1] == "3"


def test_final_round_is_seated_by_rank_and_consolation_after(world):
    tournament, organiser, _ = world
    confirm_cut(tournament=tournament, actor=organiser)
    round = create_round(tournament=tournament, actor=organiser)
    seat_stage_round(round=round, actor=organiser)
    seating = {
        table.number: [seat.player.key for seat in table.seats_in_order]
        for table in round.tables.prefetch_related("seats__player")
    }
    assert seating[1] == ["1", "5", "9", "13"]
    assert seating[2] == ["2", "6", "10", "14"]
    assert sorted(seating[3] + seating[4], key=int) == [
        "3", "4", "7", "8", "11", "12", "15", "16",
    ]  # fmt: skip


def test_others_stop_without_consolation(world):
    tournament, organiser, _ = world
    tournament.consolation = False
    tournament.save()
    confirm_cut(tournament=tournament, actor=organiser)
    round = create_round(tournament=tournament, actor=organiser)
    seat_stage_round(round=round, actor=organiser)
    assert round.tables.count() == 2
    # Publishing does not ask for the players who stopped.
    set_round_status(round=round, status=Round.Status.SEATED, actor=organiser)


def test_standings_carry_half_and_rank_finalists_first(world):
    tournament, organiser, players = world
    confirm_cut(tournament=tournament, actor=organiser)
    round = create_round(tournament=tournament, actor=organiser)
    seat_stage_round(round=round, actor=organiser)
    Round.objects.filter(pk=round.pk).update(status=Round.Status.PLAYING)
    # Table 1 (keys 1 5 9 13): North wins, 13 takes 4 table points.
    table = round.tables.get(number=1)
    now = timezone.now()
    for seat, score in zip(table.seats_in_order, [-41, -21, 21, 41], strict=True):
        Seat.objects.filter(pk=seat.pk).update(score=score)
    # A consolation table: key 3 wins big.
    others = round.tables.get(number=3)
    for seat, score in zip(others.seats_in_order, [300, 0, 0, -300], strict=True):
        Seat.objects.filter(pk=seat.pk).update(score=score)
    Table.objects.filter(pk__in=[table.pk, others.pk]).update(ended_at=now, confirmed_at=now)
    final = standings(tournament, stage="final")
    assert len(final) == 8
    by_key = {row.player.key: row for row in final}
    # 13 carried half of 8 table points and 82: 4 and 41; won 4 and 41 more.
    assert by_key["13"].carried_table_points == 4 and by_key["13"].carried_score == 41
    assert by_key["13"].table_points == 8 and by_key["13"].score == 82
    assert final[0].player.key == "13" and final[0].rank == 1
    # 1 came last: 4 + 0 points, 41 - 41 = 0.
    assert by_key["1"].table_points == 4 and by_key["1"].score == 0
    overall = standings(tournament)
    assert [row.player.key for row in overall[:8]] == [row.player.key for row in final]
    assert [row.rank for row in overall[:9]] == [*range(1, 9), 9]
    assert all(row.stage == "final" for row in overall[:8])
    # The consolation winner ranks ninth whatever their points.
    assert overall[8].player.key == overall[8].player.key and overall[8].stage == "consolation"
    consolation = standings(tournament, stage="consolation")
    assert len(consolation) == 8 and consolation[0].rank == 1
    main = standings(tournament, stage="main")
    assert {row.player.key for row in main if row.rank == 1} == {"1", "5", "9", "13"}


def test_carried_score_may_be_a_fraction(world):
    tournament, organiser, _ = world
    tournament.carry_over = "1/4"
    tournament.save()
    confirm_cut(tournament=tournament, actor=organiser)
    row = next(row for row in standings(tournament, stage="final") if row.player.key == "1")
    assert row.carried_score == Fraction(82, 4)
    assert row.score == Fraction(41, 2)
    assert row.table_points == 2


def test_undo_cut_until_the_final_stage_starts(world):
    tournament, organiser, _ = world
    confirm_cut(tournament=tournament, actor=organiser)
    undo_cut(tournament=tournament, actor=organiser)
    assert not Cut.objects.exists()
    assert AuditEntry.objects.filter(action=AuditEntry.Action.CUT_UNDONE).count() == 1
    confirm_cut(tournament=tournament, actor=organiser)
    round = create_round(tournament=tournament, actor=organiser)
    seat_stage_round(round=round, actor=organiser)
    Round.objects.filter(pk=round.pk).update(status=Round.Status.PLAYING)
    with pytest.raises(ValidationError) as error:
        undo_cut(tournament=tournament, actor=organiser)
    assert error.value.code == "final_stage_started"


def test_without_a_stage_the_standings_are_unchanged(db):
    organiser = make_user("alice")
    tournament = make_tournament(organisers=[organiser])
    players = make_players(tournament, 8)
    finished_round(tournament, organiser, [players[:4], players[4:]], [[10, 5, -5, -10]] * 2)
    rows = standings(tournament)
    assert [row.stage for row in rows] == [""] * 8
    assert standings(tournament, stage="final") == []


def test_standings_command_json_carries_the_stage(world):
    import json
    from io import StringIO

    from django.core.management import call_command

    tournament, organiser, _ = world
    tournament.carry_over = "1/4"
    tournament.save()
    confirm_cut(tournament=tournament, actor=organiser)
    out = StringIO()
    call_command("standings", tournament.slug, "--json", stdout=out)
    rows = json.loads(out.getvalue())
    first = rows[0]
    assert first["stage"] == "final" and first["player"] == "1"
    assert first["carried_table_points"] == "2" and first["carried_score"] == "41/2"
    assert first["score"] == 20.5 and first["score_exact"] == "41/2"
    assert rows[8]["stage"] == "consolation" and rows[8]["carried_score"] is None
    out = StringIO()
    call_command("standings", tournament.slug, "--json", "--stage", "main", stdout=out)
    assert {row["stage"] for row in json.loads(out.getvalue())} == {"main"}
    out = StringIO()
    call_command("standings", tournament.slug, stdout=out)
    assert "Final stage — after the cut to 8" in out.getvalue()
    assert "20.50" in out.getvalue()


def test_planned_rounds_stay_beyond_the_cut(world):
    from tournament.services.seating_plan.settings import update_seating_settings

    tournament, organiser, _ = world
    with pytest.raises(ValidationError) as error:
        update_seating_settings(
            tournament=tournament,
            planned_rounds=2,
            separate_clubs="soft",
            separate_countries="soft",
            separate_teams="soft",
            by_standing=[],
            actor=organiser,
        )
    assert "planned_rounds" in error.value.message_dict


def test_settings_are_fixed_while_the_cut_is_confirmed(world):
    from tournament.services.tournaments import update_tournament

    tournament, organiser, _ = world
    confirm_cut(tournament=tournament, actor=organiser)
    with pytest.raises(ValidationError) as error:
        update_tournament(tournament=tournament, cut_size=4)
    assert error.value.error_dict["cut_size"][0].code == "cut_confirmed"
    update_tournament(tournament=tournament, cut_size=8, name="Same stage")  # unchanged: fine


def test_model_refuses_a_cut_that_is_not_a_multiple_of_four(db):
    from tournament.services.tournaments import create_tournament

    organiser = make_user("alice")
    with pytest.raises(ValidationError) as error:
        create_tournament(organiser=organiser, name="Odd", cut_after_round=2, cut_size=6)
    assert "cut_size" in error.value.message_dict
    with pytest.raises(ValidationError) as error:
        create_tournament(organiser=organiser, name="Odd", cut_size=8)
    assert "cut_after_round" in error.value.message_dict
    with pytest.raises(ValidationError):
        create_tournament(organiser=organiser, name="Odd", carry_over="3/2")


def test_spread_seating_of_the_final_tables(world):
    tournament, organiser, _ = world
    tournament.final_seating = "spread"
    tournament.save()
    confirm_cut(tournament=tournament, actor=organiser)
    round = create_round(tournament=tournament, actor=organiser)
    seat_stage_round(round=round, actor=organiser)
    first = round.tables.get(number=1)
    # The cut's order: 1 5 9 13 2 6 10 14; table 1 takes places 1, 4, 5 and 8.
    assert [seat.player.key for seat in first.seats_in_order] == ["1", "13", "2", "14"]


def test_a_finalist_who_withdrew_after_the_cut_is_named(world):
    tournament, organiser, players = world
    confirm_cut(tournament=tournament, actor=organiser)
    players[0].withdrawn_from_round = 3
    players[0].save()
    round = create_round(tournament=tournament, actor=organiser)
    with pytest.raises(ValidationError) as error:
        seat_stage_round(round=round, actor=organiser)
    assert error.value.code == "finalist_away"
    assert not round.tables.exists()


def test_the_database_refuses_a_cut_size_not_a_multiple_of_four(world):
    from django.db import IntegrityError, transaction

    from tournament.models import Tournament

    tournament, _, _ = world
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.filter(pk=tournament.pk).update(cut_size=6)
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.filter(pk=tournament.pk).update(cut_after_round=None)
