"""Test data for the public pages, built through the services, and a reader for HTML tables.

Imported by the other tests/web/test_public_*.py modules (this module holds no tests itself).

The "cup" is a tournament of nine players (the ninth a substitute) with three rounds:

Round 1 (finished), both games ended by time, their sheets confirmed by the organiser:
  Table 1: Ann (E), Ben (S), Cai (W), Dora (N)
    hand 1  Ann self-drawn, 8 fan            Ann +48, Ben -16, Cai -16, Dora -16
    hand 2  Ben on Cai's discard, 10 fan + 2 flowers (x = 12)
                                             Ben +36, Cai -20, Ann -8, Dora -8
    hand 3  drawn
    hand 4  Dora false win (below 8 fan)     Dora -30, each other +10
    game    Cai deduction of 10              Cai -10
    scores  Ann 50, Ben 30, Cai -36, Dora -54 -> table points 4, 2, 1, 0
  Table 2: Eve (E), Fay (S), Gus (W), Hal (N)
    hands 1-3  Eve, Fay, Gus each self-drawn, 8 fan
    scores  Eve 16, Fay 16, Gus 16, Hal -48 -> three tied first: 7/3 each, Hal 0
Dora withdraws from round 2 on; Ivy (substitute) fills her place.
Round 2 (playing):
  Table 1: Ann (E), Eve (S), Ivy (W), Ben (N); hand 1 Ivy on Ann's discard, 8 fan:
    Ivy +32, Ann -16, Eve -8, Ben -8 (game in progress)
  Table 2: Cai, Fay, Gus, Hal; nothing yet
Round 3 (draft): Ann, Ben, Cai, Eve at table 1; Fay, Gus, Hal, Ivy at table 2.
"""

from __future__ import annotations

from html.parser import HTMLParser

from factories import make_players, seated_round

from tournament.models import Round
from tournament.services import (
    DealInput,
    add_player,
    confirm_submitted_games,
    end_game,
    record_deal,
    record_false_win,
    record_penalty,
    set_round_status,
    update_player,
)

NAMES = [
    ("1", "Ann Archer", "NL", "Dragons"),
    ("2", "Ben Baker", "DE", "Bamboo"),
    ("3", "Cai Chen", "CN", ""),
    ("4", "Dora Diaz", "ES", "Dragons"),
    ("5", "Eve Evans", "GB", ""),
    ("6", "Fay Fox", "FR", "Winds"),
    ("7", "Gus Green", "IE", ""),
    ("8", "Hal Hill", "DK", "Winds"),
]


def build_cup(tournament, organiser):
    """The tournament of the module docstring; returns a dict of its players by first name."""
    players = {
        name.split()[0]: add_player(
            tournament=tournament, key=key, name=name, country=country, club=club
        )
        for key, name, country, club in NAMES
    }
    players["Ivy"] = add_player(tournament=tournament, key="9", name="Ivy Ito", substitute=True)
    p = players
    by = {"entered_by": organiser}

    first, (one, two) = seated_round(
        tournament,
        organiser,
        [[p["Ann"], p["Ben"], p["Cai"], p["Dora"]], [p["Eve"], p["Fay"], p["Gus"], p["Hal"]]],
    )
    record_deal(table=one, number=1, deal=DealInput(result="win", winner=p["Ann"], fan=8), **by)
    record_deal(
        table=one,
        number=2,
        deal=DealInput(result="win", winner=p["Ben"], discarder=p["Cai"], fan=10, flowers=2),
        **by,
    )
    record_deal(table=one, number=3, deal=DealInput(result="draw"), **by)
    record_false_win(table=one, number=4, offender=p["Dora"], invalid_hand=False, **by)
    record_penalty(
        table=one, player=p["Cai"], points=10, distributed=False, reason="late return", **by
    )
    end_game(table=one, ended_by_time=True, **by)
    for number, winner in enumerate(["Eve", "Fay", "Gus"], start=1):
        record_deal(
            table=two, number=number, deal=DealInput(result="win", winner=p[winner], fan=8), **by
        )
    end_game(table=two, ended_by_time=True, **by)
    confirm_submitted_games(round=first, confirmed_by=organiser)
    set_round_status(round=first, status=Round.Status.FINISHED, actor=organiser)

    update_player(player=p["Dora"], withdrawn_from_round=2)
    _, (one, _) = seated_round(
        tournament,
        organiser,
        [[p["Ann"], p["Eve"], p["Ivy"], p["Ben"]], [p["Cai"], p["Fay"], p["Gus"], p["Hal"]]],
    )
    record_deal(
        table=one,
        number=1,
        deal=DealInput(result="win", winner=p["Ivy"], discarder=p["Ann"], fan=8),
        **by,
    )

    seated_round(
        tournament,
        organiser,
        [[p["Ann"], p["Ben"], p["Cai"], p["Eve"]], [p["Fay"], p["Gus"], p["Hal"], p["Ivy"]]],
        status=Round.Status.DRAFT,
    )
    return players


def build_field(tournament, organiser, *, tables: int):
    """`tables` tables of four in round 1 (ended by time after three hands each, with a false
    win and a deduction, sheets confirmed) and round 2 (playing, one hand each); for counting
    queries."""
    players = make_players(tournament, 4 * tables, name="Player {:03}")
    by = {"entered_by": organiser}
    for number in (1, 2):
        order = players if number == 1 else players[::2] + players[1::2]
        round, seated = seated_round(
            tournament, organiser, [order[i : i + 4] for i in range(0, len(order), 4)]
        )
        for table in seated:
            seats = [seat.player for seat in table.seats.order_by("starting_wind")]
            record_deal(
                table=table, number=1, deal=DealInput(result="win", winner=seats[0], fan=8), **by
            )
            if number == 2:
                continue
            record_deal(
                table=table,
                number=2,
                deal=DealInput(result="win", winner=seats[1], discarder=seats[2], fan=9),
                **by,
            )
            record_false_win(table=table, number=3, offender=seats[3], invalid_hand=True, **by)
            record_deal(table=table, number=3, deal=DealInput(result="draw"), **by)
            record_penalty(
                table=table, player=seats[2], points=5, distributed=False, reason="slow", **by
            )
            end_game(table=table, ended_by_time=True, **by)
        if number == 1:
            confirm_submitted_games(round=round, confirmed_by=organiser)
            set_round_status(round=round, status=Round.Status.FINISHED, actor=organiser)
    return players


class _TableReader(HTMLParser):
    def __init__(self, css_class: str) -> None:
        super().__init__()
        self.css_class = css_class
        self.depth = 0  # nesting of <table> elements inside the one we read
        self.rows: list[list[str]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if tag == "table":
            if self.depth or self.css_class in classes:
                self.depth += 1
        elif self.depth == 1 and tag == "tr":
            self.rows.append([])
        elif self.depth == 1 and tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag):
        if tag == "table" and self.depth:
            self.depth -= 1
        elif self.depth == 1 and tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def table_rows(html: str, css_class: str) -> list[list[str]]:
    """The text of every cell, row by row (header rows too), of the tables with that class."""
    reader = _TableReader(css_class)
    reader.feed(html)
    return reader.rows


def body_rows(html: str, css_class: str) -> list[list[str]]:
    """Like `table_rows` without the header row."""
    return table_rows(html, css_class)[1:]
