"""The cells of a score sheet's line, written in Python: a line has four players of three
cells each, and a game sixteen lines or more, which as an included template cost most of the
time of drawing a table's live fragment (polled by every player at the table)."""

from __future__ import annotations

from collections.abc import Sequence

from django import template
from django.utils.formats import localize
from django.utils.html import format_html_join
from django.utils.safestring import SafeString

from tournament.models import Seat
from tournament.selectors import ScoreSheetLine
from tournament.templatetags.winds import wind_letter

register = template.Library()


@register.simple_tag
def sheet_cells(
    line: ScoreSheetLine, seats: Sequence[Seat], initial: int | None = None
) -> SafeString:
    """Each seat's wind in the hand (marked won or discarded), what it gained or paid, and its
    running total (from `initial` points when the preset has them), seats in starting order.
    The markup is what tournament/_score_sheet.html had for each seat."""
    hand = line.hand
    cells = []
    # A line of penalties on the whole game has no seat winds.
    winds = line.seat_winds or ("",) * len(seats)
    for seat, wind, paid, total in zip(seats, winds, line.payments, line.running, strict=False):
        state = ""
        if hand is not None:
            if hand.winner_id == seat.pk:
                state = " won"
            elif hand.discarder_id and hand.discarder_id == seat.pk:
                state = " discarded"
        sign = " plus" if paid > 0 else " minus" if paid < 0 else ""
        shown = f"+{localize(paid)}" if paid > 0 else localize(paid)
        cells.append((state, wind_letter(wind), sign, shown, localize(total + (initial or 0))))
    return format_html_join(
        "",
        '<td class="wind{}">{}</td><td class="number{}">{}</td><td class="number running">{}</td>',
        cells,
    )
