"""Properties of whole games played through the services, for every preset: any sequence of
results the rules allow is recorded, every deal's payments sum to zero, the stored game scores
are the sums of the deals, a game's final points are the initial points plus those sums, and a
game whose length the preset fixes by wind rounds cannot be ended before its last wind round
except by time.

Each example plays one game at a fresh table inside a savepoint that is rolled back, so the
examples share the fixtures' tournament without seeing each other's deals."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engine import get_preset
from tests.factories import make_table
from tournament.models import Deal
from tournament.reads import selectors
from tournament.services import DealInput, end_game, record_deal

JT = "japanese-transitional"
WA = "wilmington-12-tile"

# One step of a game, in terms of seat indexes 0-3 (E, S, W, N at the start): what happened,
# who won and from whom, the value drawn from the preset's range, and the preset's facts.
step = st.fixed_dictionaries(
    {
        "result": st.sampled_from(["win", "win", "win", "draw", "faulty_out"]),
        "winner": st.integers(0, 3),
        "discarder": st.one_of(st.none(), st.integers(1, 3)),  # an offset from the winner
        "value": st.integers(0, 10_000),
        "also": st.sets(st.integers(0, 3), max_size=2),
        "riichi": st.sets(st.integers(0, 3), max_size=4),
        "ready": st.sets(st.integers(0, 3), max_size=4),
        "faulty": st.booleans(),
        "offender": st.integers(0, 3),
    }
)
games = st.lists(step, min_size=4, max_size=30)


def _value(rules, raw: int) -> int:
    """A legal value of the preset drawn from `raw`: fan from the minimum (MCR), or a multiple
    of the step from the least value to the limit."""
    if rules.counts_fan:
        return rules.minimum + raw % 20
    steps = (rules.limit - rules.least_value) // rules.value_step
    value = rules.least_value + (raw % (steps + 1)) * rules.value_step
    return max(value, rules.minimum)


def _facts(rules, players, step) -> dict:
    """The keyword arguments of `record_deal` for one step, kept within what the rules allow."""
    result = step["result"]
    if result == "faulty_out" and not rules.faulty_out.ends_deal:
        result = "draw"
    riichi = [players[i] for i in sorted(step["riichi"])] if rules.deal.riichi_stake else []
    if result == "faulty_out":
        return {"result": result, "offender": players[step["offender"]]}
    if result == "draw":
        facts: dict = {"result": "draw", "riichi": riichi}
        if rules.deal.ready_pool:
            ready = sorted(step["ready"])
            facts["ready"] = [players[i] for i in ready]
            unready = [p for p in riichi if players.index(p) not in ready]
            if step["faulty"] and unready:
                facts["faulty_riichi"] = unready[:1]
        return facts
    winner = step["winner"]
    discarder = None if step["discarder"] is None else (winner + step["discarder"]) % 4
    facts = {"result": "win", "winner": players[winner], "discarder": None, "riichi": riichi}
    value = _value(rules, step["value"])
    facts.update({"fan": value} if rules.counts_fan else {"value": value})
    if discarder is not None:
        facts["discarder"] = players[discarder]
        if rules.deal.several_winners:
            others = sorted(step["also"] - {winner, discarder})
            facts["extra_winners"] = [(players[i], value) for i in others]
    return facts


def _play(table, referee, players, sequence) -> list[Deal]:
    rules = table.round.tournament.rules
    for number, item in enumerate(sequence, start=1):
        try:
            record_deal(
                table=table,
                number=number,
                entered_by=referee,
                deal=DealInput(**_facts(rules, players, item)),
            )
        except ValidationError as error:
            assert error.code == "game_complete", error  # the only refusal of a legal deal
            # The last wind round is played: now the game ends without time being called.
            end_game(table=table, ended_by_time=False, entered_by=referee)
            break
        if rules.hands_per_game is None and number == 1:
            # A game of wind rounds is not over after its first deal: ending it is refused.
            try:
                with transaction.atomic():
                    end_game(table=table, ended_by_time=False, entered_by=referee)
            except ValidationError as error:
                assert error.code == "hands_missing"
            else:
                raise AssertionError("a game of wind rounds ended after one deal")
    return list(table.deals.order_by("number"))


def _check(table, hands: list[Deal]) -> None:
    rules = table.round.tournament.rules
    for hand in hands:
        assert sum(hand.payments) == 0, hand.number
    table.refresh_from_db()
    seats = table.seats_in_order
    sums = [sum(hand.payments[i] for hand in hands) for i in range(4)]
    assert [seat.score for seat in seats] == sums
    lines = selectors.score_sheet(table)
    if lines:
        final = [rules.initial_points + running for running in lines[-1].running]
        assert final == [rules.initial_points + total for total in sums]
        assert sum(final) == 4 * rules.initial_points


def _property(preset: str, wind_rounds: int | None):
    @settings(
        max_examples=25,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(sequence=games)
    def check(tournament, round, players, referee, organiser, sequence):
        with transaction.atomic():
            tournament.preset = preset
            tournament.seat_rotation = "none"
            tournament.rule_settings = {} if wind_rounds is None else {"wind_rounds": wind_rounds}
            tournament.save()
            table = make_table(round, players[:4], number=9, referees=[referee], actor=organiser)
            hands = _play(table, referee, players[:4], sequence)
            _check(table, hands)
            transaction.set_rollback(True)

    return check


def test_mcr_games_add_up(db, tournament, round, players, referee, organiser):
    assert get_preset("mcr").hands_per_game == 16
    _property("mcr", None)(tournament, round, players, referee, organiser)


def test_japanese_games_add_up_and_last_their_wind_rounds(
    db, tournament, round, players, referee, organiser
):
    _property(JT, 1)(tournament, round, players, referee, organiser)


def test_wilmington_games_add_up(db, tournament, round, players, referee, organiser):
    _property(WA, 1)(tournament, round, players, referee, organiser)
