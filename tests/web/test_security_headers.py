"""Every answer carries the Content-Security-Policy and the Permissions-Policy, and no
template holds what the policy would refuse."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.django_db

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def directives(header: str) -> dict[str, list[str]]:
    parsed = {}
    for part in header.split(";"):
        name, *values = part.split()
        parsed[name] = values
    return parsed


@pytest.mark.parametrize(
    "path", ["/", "/accounts/login/", "/scoring/calculator/", "/api/tournaments"]
)
def test_answers_carry_a_strict_content_security_policy(client, path):
    response = client.get(path)

    policy = directives(response["Content-Security-Policy"])
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert "'unsafe-inline'" not in response["Content-Security-Policy"]
    assert "'unsafe-eval'" not in response["Content-Security-Policy"]


def test_answers_carry_a_permissions_policy(client):
    response = client.get("/")

    features = dict(item.split("=") for item in response["Permissions-Policy"].split(", "))
    assert features["camera"] == features["microphone"] == features["geolocation"] == "()"
    assert features["fullscreen"] == "(self)"  # the projector's full-screen button


def test_no_template_has_an_inline_script_style_or_event_handler():
    found = []
    for template in TEMPLATES.rglob("*.html"):
        text = re.sub(r"{#.*?#}", "", template.read_text(), flags=re.S)
        for pattern in (r"<script(?![^>]*\bsrc=)[^>]*>", r"<style\b", r"\sstyle=", r"\son\w+="):
            for match in re.finditer(pattern, text):
                found.append(f"{template.relative_to(TEMPLATES)}: {match.group(0).strip()}")
    assert found == []
