"""How players are named, numbered and placed: start numbers in natural order, EMA numbers,
countries as ISO 3166 codes, and a full name split into family and given names.

Plain functions over text, used by the model's validators, the services, the pages and the EMA
results file (`tournament.reads.ema`).

Names. A player's `name` is stored as the organiser gives it and shown as it is: in the order
natural for it ("Anna van der Berg", "王小明"). The family name and the given name can be given
apart (`family_name`, `given_name`); the EMA file uses them when they are. Otherwise
`split_name` finds them in the full name:

- "Family, Given" (a comma) splits at the comma.
- A name in Chinese, Japanese or Korean script is written family name first: with a space, the
  first word is the family name ("山田 太郎"); without, the first character is, or the first two
  when they are a known two-character family name (欧阳, 司马, 诸葛, 남궁...). Japanese family
  names of two characters written without a space cannot be told apart: give them explicitly.
- Otherwise the name reads "Given Family": a word written in capitals ("Anna BERG", "BERG
  Anna") is the family name; else the last word, with the lowercase particles just before it
  ("Anna van der Berg" -> "van der Berg", "Anna"). A single word is a family name.
"""

from __future__ import annotations

import re
import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from django_countries import countries

# --- Start numbers --------------------------------------------------------------------------

_DIGITS = re.compile(r"(\d+)")


def natural_key(key: str) -> tuple[tuple[tuple[int, int | str], ...], str]:
    """Sort key of a player's key: runs of digits compare as numbers ("2" before "10", "A-2"
    before "A-10"), the rest as text without case; numbers before letters."""
    parts = tuple(
        (0, int(part)) if part.isdigit() else (1, part.casefold())
        for part in _DIGITS.split(key)
        if part
    )
    return parts, key


# --- EMA numbers ----------------------------------------------------------------------------

EMA_NUMBER = re.compile(r"\d{8}")


def validate_ema_number(value: str) -> None:
    """An EMA number is eight digits (04010001: the member country, then the player)."""
    if not value or EMA_NUMBER.fullmatch(value):
        return
    if value.isdigit() and len(value) < 8:
        message = _(
            "An EMA number has eight digits; %(value)s has %(count)s. Was a leading zero lost "
            "in a spreadsheet? Write it as text, such as 04010001."
        )
    else:
        message = _("An EMA number is eight digits, such as 04010001, not %(value)s.")
    raise ValidationError(
        message, code="bad_ema_number", params={"value": value[:30], "count": len(value)}
    )


def clean_ema_number(value: str) -> str:
    """The number without spaces around it or inside it ("0401 0001")."""
    return "".join(value.split())


# --- Countries ------------------------------------------------------------------------------

# Names organisers write that are not ISO 3166 countries, with the country they belong to.
COUNTRY_ALIASES = {
    "uk": "GB",
    "great britain": "GB",
    "britain": "GB",
    "england": "GB",
    "scotland": "GB",
    "wales": "GB",
    "northern ireland": "GB",
    "usa": "US",
    "korea": "KR",
    "holland": "NL",
}


def country_code(text: str) -> str | None:
    """The ISO 3166-1 alpha-2 code of `text`: a code in any case (se, SE), an alpha-3 code
    (SWE), a country's name in English or Chinese (Sweden, 瑞典), or a common other name (UK).
    "" for empty text; None when `text` names no country."""
    text = " ".join(text.split())
    if not text:
        return ""
    if text.isascii() and text.isalpha() and len(text) in (2, 3):
        code = countries.alpha2(text.upper())
        if code:
            return code
    alias = COUNTRY_ALIASES.get(text.casefold())
    if alias:
        return alias
    for language in ("en", "zh-hans", "zh-hant"):
        code = countries.by_name(text, language=language)
        if code:
            return code
    return None


def validate_country(value: str) -> None:
    if value and (len(value) != 2 or countries.alpha2(value) != value):
        raise ValidationError(
            _(
                "%(value)s is not a country code: choose the country from the list, or give "
                "its ISO 3166 code, such as SE or CN."
            ),
            code="bad_country",
            params={"value": value[:40]},
        )


def country_name(code: str) -> str:
    """The country's name in the current language; other text as it is."""
    return str(countries.name(code)) if code and len(code) == 2 else code


def country_choices() -> list[tuple[str, str]]:
    """(code, name) of every country, by name in the current language."""
    return [(code, str(name)) for code, name in countries]


# --- Names ----------------------------------------------------------------------------------

# Lowercase words that belong to the family name that follows them.
PARTICLES = frozenset("da dal de del della der des di du la le te ten ter van von zu".split())

# Two-character family names (Chinese in simplified and traditional script, Korean).
COMPOUND_FAMILY_NAMES = frozenset(
    """
    欧阳 歐陽 司马 司馬 诸葛 諸葛 上官 东方 東方 皇甫 尉迟 尉遲 公孙 公孫 慕容 长孙 長孫 宇文
    司徒 司空 夏侯 轩辕 軒轅 令狐 端木 独孤 獨孤 南宫 南宮 西门 西門 澹台 澹臺 公冶 宗政 濮阳
    濮陽 太史 申屠 钟离 鍾離 闻人 聞人 赫连 赫連 呼延 百里 东郭 東郭 拓跋 万俟 闾丘 閭丘 仲孙
    仲孫 第五 梁丘 左丘 公羊 谷梁 穀梁 乐正 樂正 单于 單于 羊舌 微生 漆雕 壤驷 壤駟 巫马 巫馬
    남궁 황보 제갈 선우 독고 사공 서문
    """.split()
)


def is_east_asian(text: str) -> bool:
    """Whether `text` is written in Chinese characters, kana or hangul."""
    return any(_east_asian_letter(char) for char in text)


def _east_asian_letter(char: str) -> bool:
    name = unicodedata.name(char, "")
    return name.startswith(("CJK UNIFIED IDEOGRAPH", "HIRAGANA", "KATAKANA", "HANGUL"))


def full_name(family: str, given: str) -> str:
    """The name in its natural order: family name first in East Asian script (王小明),
    else given name first (Anna Berg)."""
    family, given = " ".join(family.split()), " ".join(given.split())
    if not given:
        return family
    if is_east_asian(family + given):
        return family + given
    return f"{given} {family}"


def split_name(name: str) -> tuple[str, str]:
    """(family name, given name) of a full name, by the rules in this module's docstring."""
    name = " ".join(name.split())
    for comma in (",", "，"):
        if comma in name:
            family, given = name.split(comma, 1)
            return family.strip(), given.strip()
    if is_east_asian(name):
        if " " in name:
            family, given = name.split(" ", 1)
            return family, given
        if len(name) <= 1:
            return name, ""
        length = 2 if len(name) > 2 and name[:2] in COMPOUND_FAMILY_NAMES else 1
        return name[:length], name[length:]
    words = name.split(" ")
    if len(words) == 1:
        return name, ""
    capitals = [i for i, word in enumerate(words) if _in_capitals(word)]
    if capitals and len(capitals) < len(words) and _one_run(capitals):
        family = " ".join(words[i] for i in capitals)
        given = " ".join(word for i, word in enumerate(words) if i not in capitals)
        return family, given
    start = len(words) - 1
    while start > 0 and words[start - 1] in PARTICLES:
        start -= 1
    return " ".join(words[start:]), " ".join(words[:start])


def _in_capitals(word: str) -> bool:
    letters = [char for char in word if char.isalpha()]
    return len(letters) > 1 and all(char.isupper() for char in letters)


def _one_run(indexes: list[int]) -> bool:
    """Whether the words at `indexes` follow each other."""
    return indexes == list(range(indexes[0], indexes[-1] + 1))
