"""What was recorded, in a sentence for the referee's message after an entry."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.models import FALSE_WIN_KINDS, Deal, Penalty


def penalty_title(penalty: Penalty) -> str:
    names = {
        "kind": penalty.kind_label(penalty.table.round.tournament.words),
        "name": penalty.seat.player.name,
        "number": penalty.deal_number,
    }
    if penalty.deal_number:
        if penalty.table.round.tournament.words.calls_deals_hands:
            return _("%(kind)s for %(name)s in hand %(number)s") % names
        return _("%(kind)s for %(name)s in deal %(number)s") % names
    return _("%(kind)s for %(name)s") % names


def describe_hand(hand: Deal) -> str:
    if hand.result == Deal.Result.DRAW:
        if any(hand.payments):
            return _("Deal %(number)s: drawn; the ready hands are paid.") % {"number": hand.number}
        if hand.table.round.tournament.words.calls_deals_hands:
            return _("Hand %(number)s: drawn hand, nobody pays.") % {"number": hand.number}
        return _("Deal %(number)s: drawn, nobody pays.") % {"number": hand.number}
    if hand.result == Deal.Result.FAULTY_OUT:
        assert hand.offender is not None  # every faulty out has its offender
        return _("Deal %(number)s: faulty out by %(name)s, who pays each other player.") % {
            "number": hand.number,
            "name": hand.offender.player.name,
        }
    assert hand.winner is not None  # every win has its winner
    if hand.value is not None:
        return _describe_points(hand)
    names = {
        "number": hand.number,
        "winner": hand.winner.player.name,
        "discarder": hand.discarder.player.name if hand.discarder else "",
        "fan": hand.fan,
        "flowers": ngettext(" + %(count)s flower", " + %(count)s flowers", hand.flowers)
        % {"count": hand.flowers}
        if hand.flowers
        else "",
    }
    if hand.discarder:
        return (
            _("Hand %(number)s: %(winner)s won on %(discarder)s’s discard, %(fan)s fan%(flowers)s.")
            % names
        )
    return _("Hand %(number)s: %(winner)s won by self-draw, %(fan)s fan%(flowers)s.") % names


def describe_penalty(penalty: Penalty) -> str:
    names = {
        "kind": penalty.kind_label(penalty.table.round.tournament.words),
        "name": penalty.seat.player.name,
        "number": penalty.deal_number,
        "each": max(penalty.payments(penalty.seat.index)),
        "points": penalty.points,
    }
    if penalty.kind in FALSE_WIN_KINDS:
        if penalty.table.round.tournament.words.calls_deals_hands:
            return (
                _(
                    "%(kind)s by %(name)s in hand %(number)s: pays %(each)s to each other "
                    "player. %(name)s cannot win that hand; the others still can."
                )
                % names
            )
        return (
            _(
                "%(kind)s by %(name)s in deal %(number)s: pays %(each)s to each other player. "
                "%(name)s cannot win that deal; the others still can."
            )
            % names
        )
    if penalty.distributed:
        return _("%(kind)s for %(name)s: %(points)s points, shared by the other three.") % names
    return _("%(kind)s for %(name)s: %(points)s points, given to nobody.") % names


def _describe_points(hand: Deal) -> str:
    """A win under a preset that counts points, with any further winners on the discard."""
    assert hand.winner is not None
    names = {
        "number": hand.number,
        "winner": hand.winner.player.name,
        "discarder": hand.discarder.player.name if hand.discarder else "",
        "value": hand.value,
    }
    if hand.discarder:
        text = _("Deal %(number)s: %(winner)s won on %(discarder)s’s discard, %(value)s points.")
    else:
        text = _("Deal %(number)s: %(winner)s won by self-draw, %(value)s points.")
    text = text % names
    for win in hand.extra_wins.all():
        text += " " + _("%(name)s also won, %(value)s points.") % {
            "name": win.winner.player.name,
            "value": win.value,
        }
    return text
