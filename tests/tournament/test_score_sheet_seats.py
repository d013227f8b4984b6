"""A score sheet made from a table whose seats are loaded already (the public table page, the
referee screen) is the one made from the database, without reading the seats again."""

from __future__ import annotations

from django.db.models import Prefetch

from tournament.models import Seat, Table
from tournament.reads.selectors import score_sheet
from tournament.services import DealInput, record_deal, record_penalty


def seen(lines) -> list[tuple]:
    return [
        (
            line.number,
            line.payments,
            line.running,
            line.hand and line.hand.winner and line.hand.winner.player.name,
            line.hand and line.hand.discarder and line.hand.discarder.player.name,
            line.hand and line.hand.offender and line.hand.offender.player.name,
            tuple((penalty.seat.player.name, penalty.points) for penalty in line.penalties),
        )
        for line in lines
    ]


def test_the_sheet_of_a_table_with_its_seats_loaded_reads_no_seat(
    board, organiser, django_assert_num_queries
):
    table, players = board["tables"][0], board["players"]
    record_deal(
        table=table,
        number=1,
        deal=DealInput(result="win", winner=players[0], discarder=players[1], fan=8),
        entered_by=organiser,
    )
    record_deal(
        table=table,
        number=2,
        deal=DealInput(result="win", winner=players[2], fan=10),
        entered_by=organiser,
    )
    record_deal(table=table, number=3, deal=DealInput(result="draw"), entered_by=organiser)
    record_penalty(table=table, player=players[3], points=10, distributed=False, reason="Late",
                   deal_number=3, entered_by=organiser)  # fmt: skip
    record_penalty(table=table, player=players[1], points=30, distributed=True, reason="Rude",
                   entered_by=organiser)  # fmt: skip
    plain = seen(score_sheet(Table.objects.select_related("round__tournament").get(pk=table.pk)))

    loaded = (
        Table.objects.select_related("round__tournament")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
        .get(pk=table.pk)
    )
    with django_assert_num_queries(2):  # the hands, the penalties; no seat, no player
        lines = score_sheet(loaded)
        shown = seen(lines)

    assert shown == plain
    # The very seats loaded, not copies read through joins.
    given = {seat.pk: seat for seat in loaded.seats.all()}
    assert lines[0].hand.winner is given[lines[0].hand.winner_id]
    assert lines[0].hand.discarder is given[lines[0].hand.discarder_id]
    assert lines[2].penalties[0].seat is given[lines[2].penalties[0].seat_id]
    assert [line.number for line in lines] == [1, 2, 3, None]
    assert shown[0][3:5] == (players[0].name, players[1].name)
    assert shown[2][6] == ((players[3].name, 10),)
