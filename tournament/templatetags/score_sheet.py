"""The rows of a score sheet, written in Python: a line has four players of three cells each
and the story of its hand, and a game sixteen lines or more, which as template markup cost
most of the time of drawing a table's live fragment (polled by every player at the table, and
drawn again after each hand)."""

from __future__ import annotations

from collections.abc import Sequence

from django import template
from django.conf import settings
from django.utils.formats import localize
from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from scoring.engine.presets import MCR
from scoring.engine.rulebook import rulebook_for
from scoring.words import Words
from tournament.models import Deal, DealResult, Penalty, PenaltyKind, Seat
from tournament.reads.selectors import ScoreSheetLine
from tournament.templatetags.punctuation import close_paren, colon, comma, open_paren
from tournament.templatetags.winds import wind_letter

register = template.Library()


@register.simple_tag
def sheet_rows(
    lines: Sequence[ScoreSheetLine],
    seats: Sequence[Seat],
    initial: int | None = None,
    words: Words | None = None,
) -> SafeString:
    """Every line of a score sheet as a row of its table: the hand's number (or "Game" for the
    penalties on the whole game), the prevailing wind, each seat's cells (`_cells`) and what
    happened (`_story`); a row saying that nothing was entered when there are no lines. Laid
    out as the template's loop laid them out. `words` are the preset's (a deal, its value);
    without them, MCR's. A deal the dealer deals again is marked with its count, called as
    the preset calls it (`Words.repeat_title`)."""
    words = words or Words(rulebook_for(MCR))
    if not lines:
        empty = escape(
            gettext("No hands entered yet.")
            if words.calls_deals_hands
            else gettext("No deals entered yet.")
        )
        return mark_safe(f'\n        <tr><td colspan="15">{empty}</td></tr>\n      ')
    extra_title = escape(words.repeat_title)
    rows = []
    for line in lines:
        if line.number:
            opening = f'<tr class="hand" id="hand-{_integer(line.number)}">'
            label = _integer(line.number)
        else:
            opening = '<tr class="game-penalties">'
            label = escape(gettext("Game"))
        if line.extra_hands:
            label += f' <small title="{extra_title}">+{_integer(line.extra_hands)}</small>'
        rows.append(
            f"\n        {opening}\n"
            f'          <th scope="row" class="number hand">{label}</th>\n'
            f'          <td class="wind">{escape(wind_letter(line.prevailing_wind))}</td>\n'
            f"          {_cells(line, seats, initial)}\n"
            f'          <td class="story">{_story(line, words)}</td>\n'
            "        </tr>\n      "
        )
    return mark_safe("".join(rows))  # every part escaped above or by `_cells`, `_story`


def _cells(line: ScoreSheetLine, seats: Sequence[Seat], initial: int | None = None) -> SafeString:
    """Each seat's wind in the hand (marked won or discarded), what it gained or paid, and its
    running total (from `initial` points when the preset has them), seats in starting order.
    The markup is what tournament/_score_sheet.html had for each seat."""
    hand = line.hand
    winner = hand.winner_id if hand is not None else None
    discarder = hand.discarder_id if hand is not None else None
    cells = []
    # A line of penalties on the whole game has no seat winds.
    winds = line.seat_winds or ("",) * len(seats)
    for seat, wind, paid, total in zip(seats, winds, line.payments, line.running, strict=False):
        state = " won" if winner == seat.pk else " discarded" if discarder == seat.pk else ""
        sign = " plus" if paid > 0 else " minus" if paid < 0 else ""
        shown = f"+{_integer(paid)}" if paid > 0 else _integer(paid)
        cells.append(
            f'<td class="wind{state}">{escape(wind_letter(wind))}</td>'
            f'<td class="number{sign}">{shown}</td>'
            f'<td class="number running">{_integer(total + (initial or 0))}</td>'
        )
    return mark_safe("".join(cells))  # escaped above; the numbers are digits


def _integer(value: int | None) -> str:
    """`value` as a template shows {{ value }}: localize() gives the digits alone unless the
    site groups thousands, and costs tens of times as much as str()."""
    return str(localize(value)) if settings.USE_THOUSAND_SEPARATOR else str(value)


def _story(line: ScoreSheetLine, words: Words) -> SafeString:
    """What happened in the line's hand, then its penalties: the last cell of a score sheet's
    line."""
    hand = line.hand
    parts = []
    if hand is not None:
        parts.append(_hand_story(hand, words))
    elif line.number:
        parts.append(format_html('<span class="meta">{}</span>', gettext("No result entered")))
    for penalty in line.penalties:
        parts.append(
            format_html(' <span class="penalty">{}</span>', _penalty_story(penalty, words))
        )
    return mark_safe("".join(parts))  # each part is escaped above


def _hand_story(hand: Deal, words: Words) -> SafeString:
    if hand.result == DealResult.WIN:
        assert hand.winner is not None  # a win has a winner (the database holds it)
        if hand.discarder is not None:
            how = gettext("wins on %(name)s’s discard") % {"name": hand.discarder.player.name}
        else:
            how = gettext("wins self-drawn")
        if hand.value is not None:
            # A win counted in points (JT, WA), with further winners on the same discard.
            value = words.value(hand.value)
            for win in hand.extra_wins.all():
                value += "; " + gettext("%(name)s also wins, %(value)s") % {
                    "name": win.winner.player.name,
                    "value": words.value(win.value),
                }
        else:
            value = words.value(hand.fan, hand.flowers)
        return format_html(
            "<strong>{}</strong> {}{}{}", hand.winner.player.name, how, comma(), value
        )
    if hand.result == DealResult.FAULTY_OUT:
        assert hand.offender is not None
        return escape(gettext("Faulty out by %(name)s") % {"name": hand.offender.player.name})
    return escape(words.drawn())


@register.simple_tag
def deal_winners(hand: Deal, words: Words) -> SafeString:
    """The winners of a deal with each one's value, for a printed sheet: "<b>Ann</b> 12 fan
    + 2 flowers" or "<b>Ann</b> 45 points, <b>Ben</b> 20 points" (several winners on one
    discard)."""
    assert hand.winner is not None
    if hand.value is None:
        wins = [(hand.winner.player.name, words.value(hand.fan, hand.flowers))]
    else:
        wins = [(hand.winner.player.name, words.value(hand.value))]
        if words.rulebook.several_winners:
            wins += [
                (win.winner.player.name, words.value(win.value)) for win in hand.extra_wins.all()
            ]
    return format_html_join(comma(), "<strong>{}</strong> {}", wins)


@register.filter
def deal_named(number: int, words: Words | None = None) -> str:
    """A deal by its number inside a sentence, as the preset names it ("hand 3", "deal 3")."""
    return (words or Words(rulebook_for(MCR))).deal_named(number, capital=False)


@register.filter
def penalty_kind(penalty: Penalty, words: Words | None = None) -> str:
    """The penalty's kind as the preset says it (a faulty out, not a false win, under JT
    and WA)."""
    return penalty.kind_label(words or None)


@register.filter
def penalty_reason(penalty: Penalty, words: Words | None = None) -> str:
    """The penalty's reason, a false win's written with its kind as the preset says it."""
    return penalty.reason_in(words or None)


def _penalty_story(penalty: Penalty, words: Words) -> str:
    story = (
        f"{penalty.kind_label(words)}{colon()}{penalty.seat.player.name} "
        f"-{_integer(penalty.points)}"
    )
    if penalty.distributed:
        share = round(penalty.points / 3)  # as the template's {% widthratio points 3 1 %} did
        story += comma() + gettext("%(share)s to each other player") % {"share": share}
    if penalty.kind in (PenaltyKind.DEDUCTION, PenaltyKind.DISTRIBUTED):
        story += open_paren() + penalty.reason_in(words) + close_paren()
    return story
