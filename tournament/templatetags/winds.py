"""The wind letters of dense tables in the reader's language: E S W N in English, 东 南 西 北 in
Chinese. Only for text a reader sees; CSS classes, data attributes, form values and URLs keep
the stored letter."""

from __future__ import annotations

import functools

from django import template
from django.utils import translation
from django.utils.translation import pgettext

register = template.Library()

LETTERS = {
    "E": lambda: pgettext("wind letter", "E"),
    "S": lambda: pgettext("wind letter", "S"),
    "W": lambda: pgettext("wind letter", "W"),
    "N": lambda: pgettext("wind letter", "N"),
}


@functools.cache
def _letters(language: str | None) -> dict[str, str]:
    """The four letters in `language`, looked up once: a score sheet shows five a line, and a
    translation lookup costs tens of times a dictionary's."""
    with translation.override(language):
        return {wind: letter() for wind, letter in LETTERS.items()}


@register.filter
def wind_letter(wind: object) -> object:
    """A seat or prevailing wind's letter for display; anything else is returned unchanged."""
    if wind is None:
        return wind
    return _letters(translation.get_language()).get(str(wind), wind)
