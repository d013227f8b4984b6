"""The wind letters of dense tables in the reader's language: E S W N in English, 东 南 西 北 in
Chinese. Only for text a reader sees; CSS classes, data attributes, form values and URLs keep
the stored letter."""

from __future__ import annotations

from django import template
from django.utils.translation import pgettext

register = template.Library()

LETTERS = {
    "E": lambda: pgettext("wind letter", "E"),
    "S": lambda: pgettext("wind letter", "S"),
    "W": lambda: pgettext("wind letter", "W"),
    "N": lambda: pgettext("wind letter", "N"),
}


@register.filter
def wind_letter(wind: object) -> object:
    """A seat or prevailing wind's letter for display; anything else is returned unchanged."""
    letter = LETTERS.get(str(wind)) if wind is not None else None
    return letter() if letter else wind
