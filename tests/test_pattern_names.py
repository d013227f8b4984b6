"""Japanese Transitional pattern names are translatable: one entry per engine pattern, reading
as the engine's English name."""

from __future__ import annotations

from django.utils import translation

from scoring.engine.jt import PATTERNS
from scoring.pattern_names import JT_PATTERN_NAMES, jt_pattern_name


def test_every_pattern_has_a_translatable_name():
    assert list(JT_PATTERN_NAMES) == [pattern.key for pattern in PATTERNS]


def test_the_names_read_as_the_engines_in_english():
    with translation.override("en"):
        assert {p.key: jt_pattern_name(p.key) for p in PATTERNS} == {p.key: p.en for p in PATTERNS}


def test_an_unknown_key_is_shown_as_it_is():
    assert jt_pattern_name("no_such_pattern") == "no_such_pattern"
