"""Path converters of the pages: `player_key` matches a player's key as `models` defines it."""

from __future__ import annotations

from django.urls import register_converter
from django.urls.converters import StringConverter

from tournament.models import PLAYER_KEY_PATTERN


class PlayerKeyConverter(StringConverter):
    regex = PLAYER_KEY_PATTERN


register_converter(PlayerKeyConverter, "player_key")
