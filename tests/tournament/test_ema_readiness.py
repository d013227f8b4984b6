"""EMA readiness (`tournament.reads.ema_readiness`): every kind of problem under the three presets
on the long games of `preset_world`, the base rank with level players and a single player,
and the factors of the MERS weight estimate."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from fractions import Fraction

import pytest
from django.db.models import F
from preset_world import PRESETS, build

from scoring.engine.presets import PRESETS as RULE_PRESETS
from scoring.engine.rulebook import rulebook_for
from tournament.models import Player, Round, Seat, Table, Tournament
from tournament.reads.ema import base_rank, ema_rows
from tournament.reads.ema_readiness import (
    Kind,
    country_band,
    day_band,
    days_of,
    player_band,
    readiness,
    weight,
)
from tournament.reads.selectors import Standing
from tournament.services import add_player, confirm_game, end_game, set_round_status

pytestmark = pytest.mark.django_db


@pytest.fixture(params=PRESETS)
def world(request):
    return build(request.param)


def of_kind(tournament: Tournament, kind: str) -> list:
    return [problem for problem in readiness(tournament).problems if problem.kind == kind]


def _finish_round_two(world) -> None:
    for table in Table.objects.filter(round__tournament=world.tournament, round__number=2):
        end_game(table=table, ended_by_time=True, entered_by=world.referee)
        confirm_game(table=table, confirmed_by=world.organiser)


# --- The tournament --------------------------------------------------------------------------


def test_a_tournament_without_dates_is_blocked_until_it_has_them(world):
    (problem,) = of_kind(world.tournament, Kind.NO_DATES)
    assert problem.blocking
    assert problem.link("spring-cup") == "/manage/spring-cup/settings/"

    world.tournament.start_date = date(2026, 5, 2)
    world.tournament.save()
    assert of_kind(world.tournament, Kind.NO_DATES) == []


def test_rounds_not_played_against_the_planned_number_block(world):
    world.tournament.planned_rounds = 3
    world.tournament.save()

    (problem,) = of_kind(world.tournament, Kind.ROUNDS_MISSING)
    assert problem.blocking
    assert problem.params == {"played": 1, "planned": 3}  # round 2 is still in play
    assert "1 of the 3 planned rounds are played" in problem.message

    world.tournament.planned_rounds = 2
    world.tournament.save()
    _finish_round_two(world)
    assert of_kind(world.tournament, Kind.ROUNDS_MISSING) == []


def test_without_planned_rounds_it_is_only_a_warning(world):
    (problem,) = of_kind(world.tournament, Kind.NO_PLANNED_ROUNDS)
    assert not problem.blocking
    assert of_kind(world.tournament, Kind.ROUNDS_MISSING) == []


# --- Games -----------------------------------------------------------------------------------


def test_a_game_in_play_blocks_with_a_link_to_its_table(world):
    problems = of_kind(world.tournament, Kind.GAME_IN_PLAY)
    assert [(problem.round, problem.table) for problem in problems] == [(2, 1), (2, 2)]
    assert all(problem.blocking for problem in problems)
    assert problems[0].link("spring-cup") == "/manage/spring-cup/rounds/2/tables/1/"
    assert "Round 2, table 1: the game has not ended" in problems[0].message


def test_a_draft_round_is_not_a_game_in_play(world):
    Round.objects.filter(tournament=world.tournament, number=2).update(status=Round.Status.DRAFT)
    assert of_kind(world.tournament, Kind.GAME_IN_PLAY) == []


def test_a_game_waiting_for_confirmation_blocks_until_confirmed(world):
    end_game(table=world.playing, ended_by_time=True, entered_by=world.referee)

    (problem,) = of_kind(world.tournament, Kind.GAME_UNCONFIRMED)
    assert problem.blocking and (problem.round, problem.table) == (2, 1)
    assert [p.table for p in of_kind(world.tournament, Kind.GAME_IN_PLAY)] == [2]

    confirm_game(table=world.playing, confirmed_by=world.organiser)
    assert of_kind(world.tournament, Kind.GAME_UNCONFIRMED) == []


def test_the_long_game_adds_up_to_the_presets_total_less_its_deduction(world):
    """Under every preset the long game holds a deduction of 10 (given to nobody), a faulty
    out or false win, and (JT) riichi and ready players: its scores add up to four times the
    initial points less 10, which is what the rule set expects."""
    initial = world.tournament.rules.initial_points
    scores = list(world.long_game.seats.values_list("score", flat=True))
    assert 4 * initial + sum(scores) == 4 * initial - 10
    assert of_kind(world.tournament, Kind.SCORES_UNBALANCED) == []


def test_a_score_that_does_not_add_up_blocks(world):
    Seat.objects.filter(table=world.long_game, starting_wind="S").update(score=F("score") + 30)

    (problem,) = of_kind(world.tournament, Kind.SCORES_UNBALANCED)
    initial = world.tournament.rules.initial_points
    assert problem.blocking and (problem.round, problem.table) == (1, 1)
    assert problem.params["expected"] == 4 * initial - 10
    assert problem.params["total"] == 4 * initial - 10 + 30
    assert problem.params["deductions"] == 10
    assert f"4 × {initial} starting points" in problem.message
    assert problem.link("spring-cup") == "/manage/spring-cup/rounds/1/tables/1/"


@pytest.mark.parametrize("key", RULE_PRESETS)
def test_the_game_total_is_four_times_the_initial_points_less_deductions(key):
    preset = RULE_PRESETS[key]
    book = rulebook_for(preset)
    assert book.game_total(0) == 4 * preset.initial_points
    assert book.game_total(25) == 4 * preset.initial_points - 25
    assert {"mcr": 0, "japanese-transitional": 32000, "wilmington-12-tile": 2000}[key] == (
        book.game_total(0)
    )


# --- Players ---------------------------------------------------------------------------------


def test_a_player_without_an_ema_number_is_a_warning_and_a_malformed_one_blocks(world):
    ann, ben = world.players[:2]
    missing = {problem.player for problem in of_kind(world.tournament, Kind.EMA_NUMBER_MISSING)}
    assert missing == {player.key for player in world.players}  # the substitute is not ranked
    assert not of_kind(world.tournament, Kind.EMA_NUMBER_MISSING)[0].blocking

    Player.objects.filter(pk=ann.pk).update(ema_number="04010001")
    Player.objects.filter(pk=ben.pk).update(ema_number="4010001")  # a leading zero lost
    (bad,) = of_kind(world.tournament, Kind.EMA_NUMBER_BAD)
    assert bad.blocking and bad.player == ben.key
    assert "eight digits" in bad.message and "Ben Baker" in bad.message
    assert bad.link("spring-cup") == f"/manage/spring-cup/players/{ben.key}/"
    missing = {problem.player for problem in of_kind(world.tournament, Kind.EMA_NUMBER_MISSING)}
    assert ann.key not in missing and ben.key not in missing


def test_a_player_without_a_country_is_a_warning_and_an_invalid_code_blocks(world):
    ann, ben = world.players[:2]
    assert len(of_kind(world.tournament, Kind.COUNTRY_MISSING)) == 8

    Player.objects.filter(pk=ann.pk).update(country="SE")
    Player.objects.filter(pk=ben.pk).update(country="Sweden")
    (bad,) = of_kind(world.tournament, Kind.COUNTRY_BAD)
    assert bad.blocking and bad.player == ben.key
    assert "not a country code" in bad.message
    assert len(of_kind(world.tournament, Kind.COUNTRY_MISSING)) == 6
    assert readiness(world.tournament).weight.countries == 1  # only the valid code counts


def test_a_ranked_player_without_a_game_is_a_warning(world):
    late = add_player(tournament=world.tournament, key="20", name="Lou Late")
    (problem,) = of_kind(world.tournament, Kind.NO_GAMES)
    assert not problem.blocking and problem.player == late.key


def test_more_than_three_substitutes_is_a_warning_that_names_the_limit(world):
    for key in ("21", "22"):
        add_player(tournament=world.tournament, key=key, name=f"Sub {key}", substitute=True)
    assert of_kind(world.tournament, Kind.SUBSTITUTES) == []  # three

    add_player(tournament=world.tournament, key="23", name="Sub 23", substitute=True)
    (problem,) = of_kind(world.tournament, Kind.SUBSTITUTES)
    assert not problem.blocking
    assert problem.params == {"count": 4, "limit": 3}
    assert "could not be confirmed" in problem.message


def test_fewer_than_sixteen_ranked_players_is_a_warning(world):
    (problem,) = of_kind(world.tournament, Kind.FEW_PLAYERS)
    assert not problem.blocking and problem.params == {"count": 8, "least": 16}

    for key in range(30, 38):
        add_player(tournament=world.tournament, key=str(key), name=f"More {key}")
    assert of_kind(world.tournament, Kind.FEW_PLAYERS) == []


def test_only_an_mcr_tournament_goes_to_an_ema_ranking(world):
    problems = of_kind(world.tournament, Kind.RULE_SET_NOT_RANKED)
    if world.tournament.rulebook.ema_ranking == "MCR":
        assert problems == []
    else:
        (problem,) = problems
        assert not problem.blocking
        assert world.tournament.words.preset_name in problem.message


def test_a_finished_tournament_with_its_data_given_is_ready(world):
    _finish_round_two(world)
    set_round_status(
        round=Round.objects.get(tournament=world.tournament, number=2),
        status=Round.Status.FINISHED,
        actor=world.organiser,
    )
    tournament = world.tournament
    tournament.start_date, tournament.end_date = date(2026, 5, 2), date(2026, 5, 3)
    tournament.planned_rounds = 2
    tournament.save()
    for index, player in enumerate(world.players, start=1):
        Player.objects.filter(pk=player.pk).update(ema_number=f"040100{index:02}", country="SE")

    found = readiness(tournament)
    assert found.ready and found.blocking == []
    kinds = {problem.kind for problem in found.warnings}
    assert kinds <= {Kind.FEW_PLAYERS, Kind.RULE_SET_NOT_RANKED}
    assert found.weight.days == 2 and found.weight.players == 8
    assert found.weight.estimate == Decimal(2)


def test_readiness_asks_a_fixed_number_of_queries(world, django_assert_num_queries):
    world.tournament.refresh_from_db()
    with django_assert_num_queries(4):
        readiness(world.tournament)


# --- Base rank -------------------------------------------------------------------------------


def _standing(rank: int | None, key: str) -> Standing:
    player = Player(key=key, name=f"Player {key}", substitute=rank is None)
    return Standing(rank, player, Fraction(0), 0, ())


def test_level_players_share_their_place_and_its_base_rank():
    rows = ema_rows([_standing(1, "a"), _standing(2, "b"), _standing(2, "c"), _standing(4, "d")])
    assert [(row.place, row.base_rank) for row in rows] == [
        (1, 1000),
        (2, 667),
        (2, 667),
        (4, 0),
    ]


def test_substitutes_do_not_count_in_n():
    rows = ema_rows([_standing(1, "a"), _standing(2, "b"), _standing(3, "c"), _standing(None, "s")])
    assert [row.base_rank for row in rows] == [1000, 500, 0]


def test_a_single_ranked_player_gets_1000_without_dividing_by_zero():
    assert base_rank(1, 1) == 1000
    assert [row.base_rank for row in ema_rows([_standing(1, "a"), _standing(None, "s")])] == [1000]
    assert ema_rows([]) == []


def test_the_base_rank_rounds_halves_up():
    assert base_rank(2, 3) == 500
    assert base_rank(3, 9) == 750
    assert base_rank(2, 9) == 875
    assert base_rank(4, 7) == 500
    assert base_rank(2, 7) == 833  # 833.33


# --- The weight ------------------------------------------------------------------------------


def test_days_count_both_ends_and_one_without_an_end_date():
    tournament = Tournament(start_date=date(2026, 5, 2), end_date=date(2026, 5, 4))
    assert days_of(tournament) == 3
    assert days_of(Tournament(start_date=date(2026, 5, 2))) == 1
    assert days_of(Tournament()) is None


@pytest.mark.parametrize(("days", "adds"), [(1, 1), (2, 2), (3, 3), (5, 3)])
def test_the_days_band(days, adds):
    assert day_band(days) == adds


@pytest.mark.parametrize(
    ("players", "adds"), [(16, "0"), (40, "0"), (41, "0.5"), (80, "0.5"), (81, "1")]
)
def test_the_players_band(players, adds):
    assert player_band(players) == Decimal(adds)


@pytest.mark.parametrize(
    ("countries", "adds"), [(0, "0"), (5, "0"), (6, "0.5"), (9, "0.5"), (10, "1"), (30, "1")]
)
def test_the_countries_band(countries, adds):
    assert country_band(countries) == Decimal(adds)


def test_the_estimate_sums_the_bands_with_and_without_qualification():
    found = weight(days=2, players=92, countries=7)
    assert found.estimate == Decimal("3.5")
    assert found.estimate_if_qualifying == Decimal("4.5")
    assert [band.name for band in found.bands] == ["days", "players", "countries", "qualification"]
    assert [band.adds for band in found.bands] == [2, 1, Decimal("0.5"), 1]


def test_no_estimate_without_dates():
    found = weight(days=None, players=100, countries=12)
    assert found.estimate is None and found.estimate_if_qualifying is None
    assert found.bands[0].adds is None
