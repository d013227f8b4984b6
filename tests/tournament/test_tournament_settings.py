"""Tournament settings: rule preset, table points and tie-breaks are checked."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from scoring.engine.ranking import TIE_BREAKS
from tournament.models import Tournament
from tournament.reads.selectors import audit_trail
from tournament.services import end_game
from tournament.services.tournaments import create_tournament

pytestmark = pytest.mark.django_db


def test_defaults_follow_the_green_book(tournament):
    assert (tournament.preset, tournament.seat_rotation) == ("mcr", "wmo")
    assert tournament.table_points == [4, 2, 1, 0]
    assert tournament.tie_breaks == ["best_game", "game_scores"]


def test_unknown_rule_preset_is_refused(tournament):
    tournament.preset = "riichi"
    with pytest.raises(ValidationError) as error:
        tournament.full_clean()
    assert "preset" in error.value.error_dict


@pytest.mark.parametrize("points", [[4, 2, 1], [0, 1, 2, 4], ["4", 2, 1, 0]])
def test_malformed_table_points_are_refused(tournament, points):
    tournament.table_points = points
    with pytest.raises(ValidationError) as error:
        tournament.full_clean()
    assert "table_points" in error.value.error_dict


def test_unknown_tie_break_is_refused(tournament):
    tournament.tie_breaks = ["coin_toss"]
    with pytest.raises(ValidationError) as error:
        tournament.full_clean()
    assert "tie_breaks" in error.value.error_dict


def test_every_tie_break_a_tournament_offers_is_one_the_ranking_knows():
    assert set(Tournament.TieBreak.values) == set(TIE_BREAKS)


def test_organiser_reads_the_audit_trail(tournament, table, referee):
    end_game(table=table, ended_by_time=True, entered_by=referee)
    assert [(e.action, e.actor.username) for e in audit_trail(tournament)] == [
        ("game_ended", "bob")
    ]


def test_a_slug_taken_by_a_page_is_refused_by_the_service(organiser):
    with pytest.raises(ValidationError) as error:
        create_tournament(organiser=organiser, name="Clash", slug="new")

    assert error.value.error_dict["slug"][0].code == "reserved_slug"


@pytest.mark.parametrize(
    ("preset", "rotation"), [("mcr", "wmo"), ("japanese-transitional", "none")]
)
def test_a_new_tournament_takes_its_presets_seat_rotation_unless_given(organiser, preset, rotation):
    made = create_tournament(organiser=organiser, name="A", slug="a", preset=preset)
    given = create_tournament(
        organiser=organiser, name="B", slug="b", preset=preset, seat_rotation="half"
    )

    assert (made.seat_rotation, given.seat_rotation) == (rotation, "half")
