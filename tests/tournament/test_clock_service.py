"""The one way in to the round clock (`change_clock`): its vocabulary, and the rule of which
actions take minutes, as both the board and the API meet it."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tournament.api.schemas import CLOCK_ACTIONS, CLOCK_STATES
from tournament.reads.clock import ClockAction, ClockState, clock_of
from tournament.services import change_clock

pytestmark = pytest.mark.django_db


def refusal(**given):
    with pytest.raises(ValidationError) as caught:
        change_clock(**given)
    return {name: [item.code for item in items] for name, items in caught.value.error_dict.items()}


def test_each_action_changes_the_clock(round, organiser):
    round = change_clock(round=round, action=ClockAction.START, actor=organiser, minutes=90)
    assert clock_of(round).state == ClockState.RUNNING
    round = change_clock(round=round, action="pause", actor=organiser)
    assert clock_of(round).paused
    round = change_clock(round=round, action=ClockAction.RESUME, actor=organiser)
    assert clock_of(round).running
    round = change_clock(round=round, action=ClockAction.EXTEND, actor=organiser, minutes=-5)
    assert clock_of(round).total_seconds == 85 * 60


def test_an_extension_needs_minutes(round, organiser):
    change_clock(round=round, action=ClockAction.START, actor=organiser)

    assert refusal(round=round, action="extend", actor=organiser) == {
        "minutes": ["minutes_required"]
    }


@pytest.mark.parametrize("action", [ClockAction.PAUSE, ClockAction.RESUME])
def test_a_pause_or_a_resume_takes_no_minutes(round, organiser, action):
    assert refusal(round=round, action=action, actor=organiser, minutes=5) == {
        "minutes": ["minutes_not_taken"]
    }


def test_an_unknown_action_is_refused_by_name(round, organiser):
    assert refusal(round=round, action="stop", actor=organiser) == {"action": ["bad_clock_action"]}


def test_the_api_speaks_the_same_vocabulary():
    assert CLOCK_STATES == ("not_started", "running", "paused", "over", "finished")
    assert CLOCK_ACTIONS == ("start", "pause", "resume", "extend")
    assert [action for action in ClockAction if action.takes_minutes] == ["start", "extend"]
