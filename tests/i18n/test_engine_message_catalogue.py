"""The engine's messages in the reader's language: a catalogue entry for every message key.

The engine keeps one English template per key (`scoring.engine.MESSAGES`); the presentation
layer keeps the same template marked for translation (`scoring.engine_messages.CATALOGUE`).
A new engine message without a catalogue entry, or with other parameters, fails here.
"""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from scoring.engine import MESSAGES, HandError, parse_compact, score_case, score_hand
from scoring.engine_messages import CATALOGUE, engine_message

PARAMETER = re.compile(r"%\((\w+)\)([a-z])")


def parameters(template: str) -> set[tuple[str, str]]:
    """The (name, conversion) of each %(name)s-style parameter."""
    return set(PARAMETER.findall(template))


def test_every_engine_message_key_has_a_catalogue_entry():
    assert set(CATALOGUE) == set(MESSAGES)


@pytest.mark.parametrize("key", sorted(MESSAGES))
def test_catalogue_entry_has_the_engine_templates_parameters(key):
    with translation.override("zh-hans"):
        chinese = str(CATALOGUE[key])
    with translation.override("en"):
        english = str(CATALOGUE[key])
    assert parameters(english) == parameters(MESSAGES[key])
    assert parameters(chinese) == parameters(MESSAGES[key])


@pytest.mark.parametrize("key", sorted(MESSAGES))
def test_catalogue_reads_as_the_engine_in_english(key):
    with translation.override("en"):
        assert str(CATALOGUE[key]) == MESSAGES[key]


@pytest.mark.parametrize("key", sorted(MESSAGES))
def test_every_engine_message_has_a_chinese_translation(key):
    with translation.override("zh-hans"):
        assert str(CATALOGUE[key]) != MESSAGES[key]


def test_an_error_is_written_in_the_active_language():
    with pytest.raises(HandError) as caught:
        parse_compact("123m [ESW] 5s")
    with translation.override("zh-hans"):
        assert engine_message(caught.value) == "第 1 组：字牌不能组成顺子（E S W）。"
    with translation.override("en"):
        assert engine_message(caught.value) == caught.value.message


def test_a_false_win_is_written_in_the_active_language():
    result = score_hand(parse_compact("123m 345p 678s 234m 5s 5s"))
    with translation.override("zh-hans"):
        assert engine_message(result) == "错和：这手牌不计花牌只有 4 番，和牌至少需要 8 番。"


def test_a_bad_value_is_shown_as_written():
    result = score_case({"concealed": ["1m"], "melds": [], "win_tile": "5s", "seat_wind": "Q"})
    with translation.override("zh-hans"):
        assert engine_message(result) == "seat_wind 必须是 E、S、W、N 之一，而不是 'Q'。"


def test_a_win_has_no_message():
    result = score_hand(parse_compact("123m 456m 789m 123p 5s 5s"))
    with translation.override("zh-hans"):
        assert engine_message(result) == ""


def test_a_key_missing_from_the_catalogue_falls_back_to_the_engines_english(monkeypatch):
    monkeypatch.delitem(CATALOGUE, "tile_zero")
    with pytest.raises(HandError) as caught:
        parse_compact("0m")
    with translation.override("zh-hans"):
        assert engine_message(caught.value) == "There is no tile numbered 0."
