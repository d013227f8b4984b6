"""Date, time and number inputs hold values the browser accepts, in every language.

A browser's `<input type="date">` takes only 2025-05-01 and `type="number"` only 1234 or -1.5:
given anything else (2025/05/01, 1,234) it shows an empty field and submits nothing, so saving
the form erases the value. Every page of a tournament (found as the sweeps find them) is opened
in each language as the organiser and as the referee, and each such input is read.
"""

from __future__ import annotations

import datetime
import re
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.urls import reverse
from test_permission_sweep import fill, swept_routes, world  # noqa: F401  (world is a fixture)

from tournament.models import Tournament

pytestmark = pytest.mark.django_db

# What a browser accepts in each input type's value (and in min and max).
ACCEPTED = {
    "date": re.compile(r"\d{4}-\d{2}-\d{2}"),
    "time": re.compile(r"\d{2}:\d{2}(:\d{2}(\.\d+)?)?"),
    "datetime-local": re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?"),
    "number": re.compile(r"-?\d+(\.\d+)?"),
    "range": re.compile(r"-?\d+(\.\d+)?"),
}


class InputReader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.inputs: list[dict[str, str | None]] = []

    def handle_starttag(self, tag, attrs):
        if tag == "input" and (dict(attrs).get("type") or "text") in ACCEPTED:
            self.inputs.append(dict(attrs))


def refused_values(html: str) -> list[str]:
    reader = InputReader()
    reader.feed(html)
    found = []
    for attributes in reader.inputs:
        pattern = ACCEPTED[attributes["type"] or "text"]
        for name in ("value", "min", "max", "step"):
            value = attributes.get(name)
            if value and not (name == "step" and value == "any") and not pattern.fullmatch(value):
                found.append(f"<input type={attributes['type']} name={attributes.get('name')}> "
                             f"{name}={value!r}")  # fmt: skip
    return found


def test_the_reader_finds_a_refused_value():
    page = (
        '<input type="date" name="a" value="2025/05/01">'
        '<input type="number" name="b" value="1,234" min="-1.5">'
        '<input type="date" name="c" value="2025-05-01"><input type="text" value="2025/05/01">'
    )
    assert refused_values(page) == [
        "<input type=date name=a> value='2025/05/01'",
        "<input type=number name=b> value='1,234'",
    ]


@pytest.fixture
def dated(world):  # noqa: F811
    Tournament.objects.filter(pk=world["tournament"].pk).update(
        start_date=datetime.date(2025, 10, 4), end_date=datetime.date(2025, 10, 5)
    )
    return world


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_every_input_of_every_page_holds_an_accepted_value(client, dated, organiser, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    report = []
    inputs = 0
    for role, user in (("organiser", organiser), ("referee", dated["referee"])):
        client.force_login(user)
        for namespace, name, route in swept_routes():
            url = fill(route, {**dated["values"], "table": 1})
            response = client.get(url)
            if response.status_code != 200 or "text/html" not in response["Content-Type"]:
                continue
            html = response.content.decode()
            inputs += html.count('type="date"') + html.count('type="number"')
            report += [f"{role} {url} ({namespace}:{name}): {problem}"
                       for problem in refused_values(html)]  # fmt: skip
    assert inputs >= 10, f"only {inputs} date and number inputs were found"
    assert report == [], "\n".join(report)


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_the_settings_show_the_dates_as_a_date_input_takes_them(client, dated, organiser, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    client.force_login(organiser)
    page = client.get(reverse("organiser:settings", kwargs={"slug": dated["tournament"].slug}))
    html = page.content.decode()
    assert 'name="start_date" value="2025-10-04"' in html
    assert 'name="end_date" value="2025-10-05"' in html
