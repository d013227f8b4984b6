"""A small two-round tournament for the statistics tests, every figure worked out by hand.

Shared by tests/tournament/test_statistics.py and tests/web/test_stats_pages.py (this folder is
on the test path, so both import it by name).
"""

from __future__ import annotations

from factories import make_players, seated_round

from tournament.services import (
    DealInput,
    confirm_submitted_games,
    create_round,
    end_game,
    record_deal,
    record_false_win,
    set_round_status,
)

# Full Flush 24 + Concealed Hand 2 + Pung of Terminals or Honors 1 = 27 fan, and 1 flower,
# won on a discard by the player in the East seat in hand 1.
PURE_DOTS = {
    "concealed": ["2p", "2p", "4p", "5p", "6p", "6p", "7p", "8p", "8p", "8p", "9p", "9p", "9p"],
    "melds": [],
    "win_tile": "2p",
    "flowers": 1,
}


def build_stats_cup(tournament, organiser, *, draft_round: bool = True):
    """Eight players P1..P8, two rounds of two tables, and round 3 a draft.

    Every game sheet is confirmed by the organiser; round 2 stays in play.

    Round 1, table 1 (P1 E, P2 S, P3 W, P4 N), ended by time:
      hand 1: P1 wins on P2's discard, tiles PURE_DOTS (27 + 1 flower = 28): P2 −36, P3 −8,
              P4 −8, P1 +52
      hand 2: drawn
      hand 3: P3 self-drawn, 8 fan: P3 +48, the others −16
      false win by P4 in hand 4: P4 −30, the others +10
      scores P1 46, P2 −42, P3 50, P4 −54; table points P3 4, P1 2, P2 1, P4 0
    Round 1, table 2 (P5 E, P6 S, P7 W, P8 N), ended by time:
      hand 1: P5 wins on P6's discard, tiles PURE_DOTS: P5 +52, P6 −36, P7 −8, P8 −8
      hand 2: P6 wins on P5's discard, 10 fan: P6 +34, P5 −18, P7 −8, P8 −8
      scores P5 34, P6 −2, P7 −16, P8 −16; table points P5 4, P6 2, P7 and P8 1/2 each
    Round 2, table 1 (P1 E, P5 S, P2 W, P6 N), ended by time:
      hand 1: P2 self-drawn, 12 fan + 2 flowers (14): P2 +66, the others −22;
      table points P2 4, P1, P5 and P6 1 each
    Round 2, table 2 (P3 E, P7 S, P4 W, P8 N), ended by time: hands 1 and 2 drawn; all level
      on 0: 7/4 table points each.
    """
    p = make_players(tournament, name="P{}")
    one, (t1, t2) = seated_round(tournament, organiser, [p[0:4], p[4:8]])

    def win(table, number, winner, discarder=None, **fields):
        record_deal(
            table=table,
            number=number,
            deal=DealInput(result="win", winner=winner, discarder=discarder, **fields),
            entered_by=organiser,
        )

    def draw(table, number):
        record_deal(table=table, number=number, deal=DealInput(result="draw"), entered_by=organiser)

    win(t1, 1, p[0], p[1], tiles=PURE_DOTS)
    draw(t1, 2)
    win(t1, 3, p[2], fan=8)
    record_false_win(table=t1, number=4, offender=p[3], invalid_hand=False, entered_by=organiser)
    win(t2, 1, p[4], p[5], tiles=PURE_DOTS)
    win(t2, 2, p[5], p[4], fan=10)
    for table in (t1, t2):
        end_game(table=table, ended_by_time=True, entered_by=organiser)
    confirm_submitted_games(round=one, confirmed_by=organiser)
    set_round_status(round=one, status="finished", actor=organiser)

    two, (u1, u2) = seated_round(
        tournament, organiser, [[p[0], p[4], p[1], p[5]], [p[2], p[6], p[3], p[7]]]
    )
    win(u1, 1, p[1], fan=12, flowers=2)
    draw(u2, 1)
    draw(u2, 2)
    for table in (u1, u2):
        end_game(table=table, ended_by_time=True, entered_by=organiser)
    confirm_submitted_games(round=two, confirmed_by=organiser)
    if draft_round:
        create_round(tournament=tournament, actor=organiser)  # round 3, a draft
    return {"players": p, "tables": [t1, t2, u1, u2]}
