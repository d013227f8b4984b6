"""The rules engine's messages in the reader's language.

The engine (`scoring.engine`) is plain Python without Django and writes its messages in English.
Pages translate them here, at the presentation layer: each known message shape is a pattern with
named parts and a translatable sentence with the same %(name)s parts. A message that matches no
pattern is shown as the engine wrote it.
"""

from __future__ import annotations

import re

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

_PATTERNS: list[tuple[re.Pattern[str], Promise]] = [
    (
        re.compile(r"The hand is empty\. Write tiles such as '(?P<example>[^']*)'\."),
        _("The hand is empty. Write tiles such as '%(example)s'."),
    ),
    (
        re.compile(
            r"A winning hand has 14 tiles \(each kong adds one more\); "
            r"this one has (?P<total>\d+): (?P<standing>\d+) standing, "
            r"(?P<melds>\d+) declared set\(s\) and the winning tile\."
        ),
        _(
            "A winning hand has 14 tiles (each kong adds one more); this one has %(total)s: "
            "%(standing)s standing, %(melds)s declared set(s) and the winning tile."
        ),
    ),
    (
        re.compile(r"The digits (?P<digits>\d+) need a suit letter \(m, p or s\) after them\."),
        _("The digits %(digits)s need a suit letter (m, p or s) after them."),
    ),
    (re.compile(r"There is no tile numbered 0\."), _("There is no tile numbered 0.")),
    (
        re.compile(r"'(?P<char>.)' at position (?P<position>\d+) follows no digits\."),
        _("'%(char)s' at position %(position)s follows no digits."),
    ),
    (
        re.compile(
            r"'(?P<char>.)' at position (?P<position>\d+) is not a tile\. "
            r"Honours are E S W N C F P\."
        ),
        _("'%(char)s' at position %(position)s is not a tile. Honours are E S W N C F P."),
    ),
    (
        re.compile(r"A set cannot open inside another set\."),
        _("A set cannot open inside another set."),
    ),
    (
        re.compile(r"The set opened at position (?P<position>\d+) is never closed\."),
        _("The set opened at position %(position)s is never closed."),
    ),
    (
        re.compile(r"No winning tile: the last loose tile is the winning tile\."),
        _("No winning tile: the last loose tile is the winning tile."),
    ),
    (
        re.compile(
            r"set (?P<number>\d+): (?P<tiles>.+) is not a run of three consecutive tiles of one "
            r"suit\."
        ),
        _("set %(number)s: %(tiles)s is not a run of three consecutive tiles of one suit."),
    ),
    (
        re.compile(r"set (?P<number>\d+): a chow cannot be made of honours \((?P<tiles>.+)\)\."),
        _("set %(number)s: a chow cannot be made of honours (%(tiles)s)."),
    ),
    (
        re.compile(
            r"set (?P<number>\d+): a (?P<kind>pung|kong) is (?P<size>\d) identical tiles, "
            r"not (?P<tiles>.+)\."
        ),
        _("set %(number)s: a %(kind)s is %(size)s identical tiles, not %(tiles)s."),
    ),
    (
        re.compile(
            r"The hand has (?P<count>\d+) copies of (?P<tile>\S+); there are only four of each "
            r"tile\."
        ),
        _("The hand has %(count)s copies of %(tile)s; there are only four of each tile."),
    ),
    (
        re.compile(
            r"These tiles do not make a winning hand: they cannot be split into four sets and a "
            r"pair, nor into a special hand such as Seven Pairs or Thirteen Orphans\."
        ),
        _(
            "These tiles do not make a winning hand: they cannot be split into four sets and a "
            "pair, nor into a special hand such as Seven Pairs or Thirteen Orphans."
        ),
    ),
    (
        re.compile(
            r"False win: the hand is worth (?P<fan>\d+) fan without flowers, and a win needs at "
            r"least (?P<minimum>\d+)\."
        ),
        _(
            "False win: the hand is worth %(fan)s fan without flowers, and a win needs at "
            "least %(minimum)s."
        ),
    ),
    (
        re.compile(
            r"Robbing the Kong is won on a tile another player adds to a kong, so it cannot be "
            r"self-drawn\."
        ),
        _(
            "Robbing the Kong is won on a tile another player adds to a kong, so it cannot be "
            "self-drawn."
        ),
    ),
    (
        re.compile(
            r"Out with Replacement Tile is won on the tile drawn after a kong, so it is always "
            r"self-drawn\."
        ),
        _(
            "Out with Replacement Tile is won on the tile drawn after a kong, so it is always "
            "self-drawn."
        ),
    ),
    (
        re.compile(r"Out with Replacement Tile needs a declared kong, and this hand has none\."),
        _("Out with Replacement Tile needs a declared kong, and this hand has none."),
    ),
    (
        re.compile(
            r"Robbing the Kong: the other three (?P<tile>\S+) are in the kong being made, yet "
            r"this hand holds another one\."
        ),
        _(
            "Robbing the Kong: the other three %(tile)s are in the kong being made, yet this "
            "hand holds another one."
        ),
    ),
    (
        re.compile(
            r"Last of its Kind needs the other three (?P<tile>\S+) in view, but this hand holds "
            r"another one among its standing tiles\."
        ),
        _(
            "Last of its Kind needs the other three %(tile)s in view, but this hand holds "
            "another one among its standing tiles."
        ),
    ),
]


def translate_message(message: str) -> str:
    """`message` from the engine in the active language (unchanged when no pattern fits)."""
    if not message:
        return message
    for pattern, sentence in _PATTERNS:
        match = pattern.fullmatch(message)
        if match:
            return str(sentence) % match.groupdict()
    return message


def known_patterns() -> int:
    return len(_PATTERNS)
