"""`{% load fan_names %}`: the filters `fan_name` and `fan_second_name` (scoring.fan_names)."""

from __future__ import annotations

from typing import Any

from django import template

from scoring import fan_names

register = template.Library()


@register.filter
def fan_name(fan: Any) -> str:
    return fan_names.fan_name(fan)


@register.filter
def fan_second_name(fan: Any) -> str:
    return fan_names.fan_second_name(fan)
