"""Every WA pattern has a translatable name, and in English it reads as the engine's."""

from __future__ import annotations

import pytest
from django.utils import translation

from scoring.engine.wa import BY_KEY
from scoring.pattern_names import WA_PATTERN_NAMES as NAMES
from scoring.pattern_names import wa_pattern_name as pattern_name


def test_every_pattern_has_a_translatable_name():
    assert set(NAMES) == set(BY_KEY)


@pytest.mark.parametrize("key", sorted(BY_KEY))
def test_the_english_name_is_the_engines(key):
    with translation.override("en"):
        assert pattern_name(key) == BY_KEY[key].en
