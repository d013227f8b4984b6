"""Every HTML page of a tournament, read for the basics a screen reader and a phone need.

The pages are found the way the permission sweep finds them (every URL pattern of the
tournament's namespaces) and opened as the organiser, who may see them all. Each page must:

- declare its language (`<html lang>`) and have a non-empty `<title>` and one `<h1>`;
- fit a phone (`<meta name="viewport" content="width=device-width...">`);
- name every form control: a `<label for>`, a wrapping `<label>`, `aria-label` or
  `aria-labelledby` (hidden inputs and buttons excepted; buttons need text or a label);
- give every image a text alternative (`alt`, possibly empty for decoration) and every
  inline SVG chart a title or label;
- keep ids unique, so that labels point at one control.
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from test_permission_sweep import fill, swept_routes, world  # noqa: F401  (world is a fixture)

pytestmark = pytest.mark.django_db

CONTROLS = {"input", "select", "textarea"}
UNLABELLED_INPUT_TYPES = {"hidden", "submit", "button", "reset", "image"}


class PageReader(HTMLParser):
    """Collects what the checks need in one pass over the page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lang = None
        self.title = ""
        self.in_title = False
        self.h1 = 0
        self.viewport = False
        self.label_for: set[str] = set()
        self.label_depth = 0
        self.controls: list[tuple[str, dict[str, str | None], bool]] = []
        self.ids: list[str] = []
        self.images: list[dict[str, str | None]] = []
        self.svgs: list[dict[str, str | None]] = []
        self.svg_titled: list[bool] = []
        self.buttons: list[dict] = []
        self.open_button: dict | None = None
        self.svg_depth = 0

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if attributes.get("id"):
            self.ids.append(attributes["id"])
        if tag == "html":
            self.lang = attributes.get("lang")
        elif tag == "title" and self.svg_depth:
            self.svg_titled[-1] = True
        elif tag == "title":
            self.in_title = True
        elif tag == "h1":
            self.h1 += 1
        elif tag == "meta" and attributes.get("name") == "viewport":
            self.viewport = "width=device-width" in (attributes.get("content") or "")
        elif tag == "label":
            self.label_depth += 1
            if attributes.get("for"):
                self.label_for.add(attributes["for"])
        elif tag in CONTROLS:
            self.controls.append((tag, attributes, self.label_depth > 0))
        elif tag == "img":
            self.images.append(attributes)
        elif tag == "svg":
            self.svg_depth += 1
            self.svgs.append(attributes)
            self.svg_titled.append(
                bool(attributes.get("aria-label") or attributes.get("aria-labelledby"))
                or attributes.get("aria-hidden") == "true"
            )
        elif tag == "button":
            self.open_button = {"attrs": attributes, "text": ""}
            self.buttons.append(self.open_button)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag == "button":
            self.open_button = None

    def handle_endtag(self, tag):
        if tag == "svg":
            self.svg_depth = max(0, self.svg_depth - 1)
        elif tag == "title":
            self.in_title = False
        elif tag == "label":
            self.label_depth = max(0, self.label_depth - 1)
        elif tag == "button":
            self.open_button = None

    def handle_data(self, data):
        if self.in_title:
            self.title += data
        if self.open_button is not None:
            self.open_button["text"] += data


def problems_of(html: str) -> list[str]:
    reader = PageReader()
    reader.feed(html)
    found = []
    if not reader.lang:
        found.append("no <html lang>")
    if not reader.title.strip():
        found.append("no <title>")
    if reader.h1 != 1:
        found.append(f"{reader.h1} <h1> elements")
    if not reader.viewport:
        found.append("no viewport meta for phones")
    for tag, attributes, wrapped in reader.controls:
        if tag == "input" and (attributes.get("type") or "text") in UNLABELLED_INPUT_TYPES:
            continue
        named = (
            wrapped
            or attributes.get("id") in reader.label_for
            or attributes.get("aria-label")
            or attributes.get("aria-labelledby")
        )
        if not named:
            found.append(f"unlabelled <{tag} name={attributes.get('name')!r}>")
    for image in reader.images:
        if image.get("alt") is None:
            found.append(f"<img src={image.get('src')!r}> without alt")
    for attributes, titled in zip(reader.svgs, reader.svg_titled, strict=True):
        if not titled and attributes.get("role") == "img":
            found.append("an SVG image without a title or label")
    for button in reader.buttons:
        if not (button["text"].strip() or button["attrs"].get("aria-label")):
            found.append("a button without text")
    duplicates = sorted({name for name in reader.ids if reader.ids.count(name) > 1})
    if duplicates:
        found.append(f"duplicate ids {duplicates}")
    return found


def test_the_reader_finds_what_it_looks_for():
    """Guards the checks: a page with every fault is reported for each of them."""
    bad = (
        "<html><head></head><body><h1>A</h1><h1>B</h1>"
        '<input name="fan"><img src="x.png"><button></button>'
        '<p id="a"></p><p id="a"></p></body></html>'
    )
    found = problems_of(bad)
    assert "no <html lang>" in found
    assert "no <title>" in found
    assert "2 <h1> elements" in found
    assert "no viewport meta for phones" in found
    assert "unlabelled <input name='fan'>" in found
    assert "<img src='x.png'> without alt" in found
    assert "a button without text" in found
    assert "duplicate ids ['a']" in found
    good = (
        '<html lang="en"><head><title>T</title>'
        '<meta name="viewport" content="width=device-width, initial-scale=1"></head>'
        '<body><h1>A</h1><label for="f">Fan</label><input id="f" name="fan">'
        '<label>Flowers <input name="flowers"></label><img src="x.png" alt="">'
        '<button aria-label="Close"></button><button>Record</button></body></html>'
    )
    assert problems_of(good) == []


def test_every_page_of_the_tournament_is_readable(client, world, organiser):  # noqa: F811
    client.force_login(organiser)
    report = []
    checked = 0
    for namespace, name, route in swept_routes():
        url = fill(route, world["values"])
        response = client.get(url)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        if b"<html" not in response.content:
            continue  # a fragment that live updates put into a page
        checked += 1
        for problem in problems_of(response.content.decode()):
            report.append(f"{url} ({namespace}:{name}): {problem}")
    assert checked >= 30, f"only {checked} pages were checked"
    assert report == [], "\n".join(report)


def test_the_referee_pages_are_readable(client, world):  # noqa: F811
    client.force_login(world["referee"])
    report = []
    checked = 0
    for namespace, name, route in swept_routes():
        if namespace != "referee":
            continue
        url = fill(route, {**world["values"], "table": 1})
        response = client.get(url)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        if b"<html" not in response.content:
            continue  # a fragment that live updates put into a page
        checked += 1
        for problem in problems_of(response.content.decode()):
            report.append(f"{url} ({namespace}:{name}): {problem}")
    assert checked >= 2
    assert report == [], "\n".join(report)
