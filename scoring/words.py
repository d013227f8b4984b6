"""The words of a preset, in the reader's language: what a deal is called (MCR: a hand, 盘; the
presets whose dealer repeats: a deal, 局), what a win's value counts (fan and flowers, or
points), and a win's value as a phrase. The engine's rulebook says which; this module, on the
Django side, says it in English or Chinese. Pages, prints and statistics take their words from
here and never name a preset.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.utils.formats import number_format
from django.utils.functional import cached_property
from django.utils.translation import gettext, ngettext, pgettext

from scoring.engine.rulebook import HAND, Rulebook


def listed(items: Iterable[object]) -> str:
    """Items as a list in the active language: "1, 2, 3"; on a Chinese page "1、2、3"."""
    return pgettext("punctuation between the items of a list", ", ").join(map(str, items))


def _number(value: int) -> str:
    """`value` as a template shows it: number_format's digits alone unless the site groups
    thousands, which costs many times as much as str() (the score sheet writes one a line)."""
    return number_format(value) if settings.USE_THOUSAND_SEPARATOR else str(value)


class Words:
    """The words of one preset (`Tournament.words`), read in the active language."""

    def __init__(self, rulebook: Rulebook):
        self.rulebook = rulebook

    @property
    def preset_name(self) -> str:
        """The name of the rule preset."""
        return gettext(self.rulebook.preset.name)

    @cached_property
    def calls_deals_hands(self) -> bool:
        """Whether a deal is called a hand (MCR)."""
        return self.rulebook.deal_noun == HAND

    @property
    def deal(self) -> str:
        """A column heading or label for one deal: "Hand" (MCR) or "Deal"."""
        if self.calls_deals_hands:
            return pgettext("one deal of MCR, as a heading", "Hand")
        return pgettext("one deal of JT or WA, as a heading", "Deal")

    def deal_named(self, number: int, *, capital: bool = True) -> str:
        """One deal by its number, as a label or the subject of a sentence ("Hand 3", "Deal
        3"; `capital` False: "hand 3" inside a sentence; 第 3 盘 / 第 3 局 in Chinese)."""
        names = {"number": number}
        if self.calls_deals_hands:
            if capital:
                return pgettext("one MCR deal by its number", "Hand %(number)s") % names
            return pgettext("one MCR deal by its number, in a sentence", "hand %(number)s") % names
        if capital:
            return pgettext("one JT or WA deal by its number", "Deal %(number)s") % names
        return pgettext("one JT or WA deal by its number, in a sentence", "deal %(number)s") % names

    @property
    def value_unit(self) -> str:
        """A column heading for a win's value: "Fan" (MCR) or "Points"."""
        if self.rulebook.counts_fan:
            return pgettext("the value of an MCR win, as a heading", "Fan")
        return pgettext("the value of a JT or WA win, as a heading", "Points")

    def value(self, value: int | None, flowers: int = 0) -> str:
        """A win's value: "12 fan + 2 flowers" (MCR) or "60 points"."""
        if value is None:
            return ""
        shown = _number(value)
        if not self.rulebook.counts_fan:
            return ngettext("%(value)s point", "%(value)s points", value) % {"value": shown}
        text = gettext("%(fan)s fan") % {"fan": shown}
        if flowers:
            text += " " + ngettext("+ %(counter)s flower", "+ %(counter)s flowers", flowers) % {
                "counter": _number(flowers)
            }
        return text

    @property
    def repeat_title(self) -> str:
        """What a deal the dealer deals again is called: the dealer's extra hand where the
        preset pays a bonus for it (JT), a continued deal where it pays none (WA, spec §9)."""
        if not self.rulebook.preset.deal.extra_hand_bonus:
            return gettext("Continued deal")
        return gettext("Dealer's extra hand")

    def drawn(self) -> str:
        """A drawn deal, as a story line says it."""
        if self.calls_deals_hands:
            return gettext("Drawn hand")
        return gettext("Drawn deal")
