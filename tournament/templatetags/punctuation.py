"""Punctuation between translated pieces, in the page's language: a Chinese page joins them with
full-width marks (，。：；（）), an English one with , . : ; ( ).

    {% load punctuation %}{% translate "Round 2" %}{% comma %}{% translate "..." %}{% stop %}

Between two sentences `{% gap %}` (a space, none in Chinese); a list `{{ numbers|listed }}`.
"""

from __future__ import annotations

from django import template
from django.utils.translation import pgettext

from tournament.domain import text

register = template.Library()


@register.simple_tag
def comma() -> str:
    return pgettext("punctuation between two parts of a sentence", ", ")


@register.simple_tag
def stop() -> str:
    return pgettext("punctuation at the end of a sentence", ".")


@register.simple_tag
def colon() -> str:
    return pgettext("punctuation before what is named or listed", ": ")


@register.simple_tag
def semicolon() -> str:
    return pgettext("punctuation between two clauses", "; ")


@register.simple_tag
def open_paren() -> str:
    return pgettext("punctuation opening an aside", " (")


@register.simple_tag
def close_paren() -> str:
    return pgettext("punctuation closing an aside", ")")


@register.simple_tag
def gap() -> str:
    return text.gap()


@register.filter
def listed(items: object) -> str:
    return text.listed(items) if isinstance(items, list | tuple) else str(items)
