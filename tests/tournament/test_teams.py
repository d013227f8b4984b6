"""Team standings (`tournament.reads.teams`): best k members' table points, then their scores."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from preset_world import PRESETS, build

from tournament.models import Player, Tournament
from tournament.reads.selectors import Standing, ranked, standings
from tournament.reads.teams import has_teams, team_identity, team_slugs, team_standings
from tournament.services import update_player
from tournament.services.tournaments import update_tournament


def _rows(*players: tuple[str, str, Fraction | int, int], substitutes: int = 0) -> list[Standing]:
    """Individual standings of (name, team, table points, score), ranked; the last
    `substitutes` of them are substitutes."""
    rows = []
    for index, (name, team, points, score) in enumerate(players, start=1):
        player = Player(
            pk=index,
            key=str(index),
            name=name,
            team=team,
            substitute=index > len(players) - substitutes,
        )
        rows.append(Standing(None, player, Fraction(points), score, (score,)))
    return ranked(rows, [])


def _teams(rows: list[Standing], best_of: int | None = None):
    return team_standings(Tournament(team_best_of=best_of), rows)


def test_a_team_counts_the_table_points_and_scores_of_its_best_k_players():
    rows = _rows(
        ("A1", "Oak", 10, 100),
        ("A2", "Oak", 8, 50),
        ("A3", "Oak", 1, 300),
        ("B1", "Elm", 9, 0),
        ("B2", "Elm", 9, -20),
        ("B3", "Elm", 0, -90),
    )
    oak, elm = _teams(rows, best_of=2)
    assert (oak.name, oak.table_points, oak.score, oak.rank) == ("Oak", 18, 150, 1)
    assert (elm.name, elm.table_points, elm.score, elm.rank) == ("Elm", 18, -20, 2)
    assert [m.standing.player.name for m in oak.members] == ["A1", "A2", "A3"]
    assert [m.counted for m in oak.members] == [True, True, False]


def test_without_k_every_member_counts():
    rows = _rows(("A1", "Oak", 10, 100), ("A2", "Oak", 8, 50), ("A3", "Oak", 1, 300),
                 ("B1", "Elm", 9, 0))  # fmt: skip
    oak, elm = _teams(rows, best_of=None)
    assert (oak.table_points, oak.score, oak.complete) == (19, 450, True)
    assert all(member.counted for member in oak.members)
    assert (elm.table_points, elm.complete) == (9, True)


def test_best_is_by_the_individual_order_score_breaking_level_table_points():
    rows = _rows(("A1", "Oak", 5, 10), ("A2", "Oak", 5, 40), ("A3", "Oak", 5, 20),
                 ("B1", "Elm", 0, 0))  # fmt: skip
    oak = _teams(rows, best_of=2)[0]
    assert [m.standing.player.name for m in oak.counted] == ["A2", "A3"]
    assert oak.score == 60


def test_substitutes_never_count_and_come_last():
    rows = _rows(("A1", "Oak", 2, 0), ("B1", "Elm", 3, 0), ("S", "Oak", 99, 999), substitutes=1)
    oak = next(team for team in _teams(rows, best_of=None) if team.name == "Oak")
    assert oak.table_points == 2
    assert [(m.standing.player.name, m.counted) for m in oak.members] == [("A1", True),
                                                                          ("S", False)]  # fmt: skip


def test_a_team_short_of_k_players_is_incomplete_and_ranked_after_complete_ones():
    rows = _rows(
        ("A1", "Oak", 20, 0), ("A2", "Oak", 20, 0),
        ("B1", "Elm", 1, 0), ("B2", "Elm", 1, 0), ("B3", "Elm", 1, 0),
        ("C1", "Ash", 0, 0), ("C2", "Ash", 0, 0), ("C3", "Ash", 0, 0),
        ("D1", "Yew", 0, 0), ("D2", "Yew", 0, 0), ("S", "Yew", 0, 0),
        substitutes=1,
    )  # fmt: skip
    teams = _teams(rows, best_of=3)
    assert [(t.name, t.rank, t.complete) for t in teams] == [
        ("Elm", 1, True),
        ("Ash", 2, True),
        ("Oak", 3, False),
        ("Yew", 4, False),  # a substitute does not make a team complete
    ]
    assert teams[2].table_points == 40  # what it has, counted all the same


def test_teams_level_on_table_points_and_score_share_a_rank():
    rows = _rows(("A1", "Oak", 3, 10), ("B1", "Elm", 3, 10), ("C1", "Ash", 1, 0))
    assert [(t.name, t.rank) for t in _teams(rows)] == [("Elm", 1), ("Oak", 1), ("Ash", 3)]


def test_table_points_stay_exact_fractions():
    rows = _rows(("A1", "Oak", Fraction(7, 3), 0), ("A2", "Oak", Fraction(7, 4), 0),
                 ("B1", "Elm", 1, 0))  # fmt: skip
    assert _teams(rows)[0].table_points == Fraction(49, 12)


def test_spellings_of_one_team_are_one_team_named_as_its_first_player_writes_it():
    rows = _rows(("A1", "Oak  MC", 1, 0), ("A2", "oak mc", 1, 0), ("A3", " ", 5, 0),
                 ("B1", "Elm", 0, 0))  # fmt: skip
    teams = _teams(rows)
    assert [(t.name, len(t.members)) for t in teams] == [("Oak  MC", 2), ("Elm", 1)]


def test_team_addresses_are_readable_unique_and_have_no_slash():
    slugs = team_slugs(
        team_identity(name) for name in ["Oak MC", "oak/mc", "東京 チーム", "!!!", "Oak-MC"]
    )
    assert slugs["東京 チーム"] == "東京-チーム"
    assert slugs["!!!"] == "team"
    assert len(set(slugs.values())) == len(slugs)
    assert not any("/" in slug for slug in slugs.values())
    assert {slugs["oak mc"], slugs["oak-mc"], slugs["oak/mc"]} == {"oak-mc", "oak-mc-2", "oakmc"}


# --- Properties over any field --------------------------------------------------------------

PLAYER = st.tuples(
    st.sampled_from(["", "Oak", "Elm", "Ash", "Yew"]),
    st.integers(0, 48).map(lambda twelfths: Fraction(twelfths, 12)),
    st.integers(-100, 100),
    st.booleans(),
)


@settings(max_examples=200, deadline=None)
@given(field=st.lists(PLAYER, max_size=24), best_of=st.none() | st.integers(1, 5))
def test_team_standings_properties(field, best_of):
    players = [
        Player(pk=index, key=str(index), name=f"P{index}", team=team, substitute=substitute)
        for index, (team, _, _, substitute) in enumerate(field, start=1)
    ]
    rows = ranked(
        [
            Standing(None, player, points, score, (score,))
            for player, (_, points, score, _) in zip(players, field, strict=True)
        ],
        [],
    )
    teams = _teams(rows, best_of)
    for team in teams:
        competing = [m.standing for m in team.members if not m.standing.player.substitute]
        # Members in the individual order; the best k who are not substitutes count.
        best = competing if best_of is None else competing[:best_of]
        assert [m.standing for m in team.counted] == best
        assert team.table_points == sum((row.table_points for row in best), Fraction(0))
        assert team.score == sum(row.score for row in best)
        assert team.complete == (len(competing) >= (best_of or 1))
        for row in competing[len(best) :]:
            assert (row.table_points, row.score) <= (best[-1].table_points, best[-1].score)
    # Complete teams first; ranks rise; level teams (in one group) share a rank.
    assert [t.complete for t in teams] == sorted((t.complete for t in teams), reverse=True)
    for position, team in enumerate(teams):
        ahead = [
            other
            for other in teams[:position]
            if other.complete != team.complete
            or (other.table_points, other.score) != (team.table_points, team.score)
        ]
        assert team.rank == len(ahead) + 1


# --- A tournament's games, under each preset ------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("key", PRESETS)
def test_team_standings_of_played_games_in_each_preset(key):
    world = build(key)
    a, b, c, d, e, f, g, h = world.players
    for player, team in [(a, "Oak"), (b, "Oak"), (c, "Oak"), (d, "Elm"), (e, "Elm"),
                         (h, "Elm"), (f, "橡树"), (world.substitute, "Oak")]:  # fmt: skip
        update_player(player=player, team=team)
    update_tournament(tournament=world.tournament, team_best_of=2)
    tournament = Tournament.objects.get(pk=world.tournament.pk)
    individual = {row.player.pk: row for row in standings(tournament)}
    teams = {team.name: team for team in team_standings(tournament)}
    assert set(teams) == {"Oak", "Elm", "橡树"}
    oak = teams["Oak"]
    best = sorted((individual[p.pk] for p in (a, b, c)), key=lambda row: row.rank or 0)[:2]
    assert oak.table_points == sum(row.table_points for row in best)
    assert oak.score == sum(row.score for row in best)
    assert oak.members[-1].standing.player == world.substitute
    assert not oak.members[-1].counted
    # The withdrawn player keeps the games they played.
    elm = teams["Elm"]
    assert h.pk in {m.standing.player.pk for m in elm.members}
    assert h.withdrawn_from_round == 2 or Player.objects.get(pk=h.pk).withdrawn_from_round == 2
    assert individual[h.pk].game_scores  # round 1's game
    elm_best = sorted((individual[p.pk] for p in (d, e, h)), key=lambda row: row.rank or 0)[:2]
    assert elm.table_points == sum(row.table_points for row in elm_best)
    assert elm.score == sum(row.score for row in elm_best)
    assert teams["橡树"].complete is False
    assert teams["橡树"].rank == 3
    assert {teams["Oak"].rank, teams["Elm"].rank} <= {1, 2}


@pytest.mark.django_db
def test_given_rows_are_used_rather_than_read(tournament, players):
    for player, team in zip(players[:4], ["Oak", "Oak", "Elm", "Elm"], strict=True):
        update_player(player=player, team=team)
    rows = [
        Standing(None, row.player, Fraction(index), 0, ())
        for index, row in enumerate(standings(tournament))
    ]
    teams = team_standings(tournament, ranked(rows, []))
    assert [(team.name, team.table_points) for team in teams] == [("Elm", 5), ("Oak", 1)]


@pytest.mark.django_db
def test_has_teams_needs_two_teams(tournament, players):
    assert not has_teams(tournament)
    update_player(player=players[0], team="Oak")
    update_player(player=players[1], team=" oak ")
    assert not has_teams(tournament)
    update_player(player=players[2], team="Elm")
    assert has_teams(tournament)
