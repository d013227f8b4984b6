"""The site as an attacker maps it: its pages from the URL configuration, the forms on them and
the links between them."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

from django.urls import URLPattern, URLResolver, get_resolver

# Django's admin is Django's own; the API is attacked through its document.
SKIPPED_NAMESPACES = {"admin", "api", "tournament_api", "scoring_api"}


def page_routes() -> list[tuple[str, str]]:
    """(namespace:name, route with converters) for every URL of the site's own pages."""
    routes = []

    def walk(patterns, prefix: str, namespace: str | None) -> None:
        for entry in patterns:
            route = str(entry.pattern)
            if isinstance(entry, URLResolver):
                inner = entry.namespace or namespace
                if inner not in SKIPPED_NAMESPACES:
                    walk(entry.url_patterns, prefix + route, inner)
            elif isinstance(entry, URLPattern):
                routes.append((f"{namespace or ''}:{entry.name or ''}", prefix + route))

    walk(get_resolver().url_patterns, "/", None)
    return routes


def fill(route: str, values: dict[str, object]) -> str:
    """`route` with each converter replaced by the value named by part of its name."""

    def value(match: re.Match) -> str:
        name = match.group(2)
        for key, filled in values.items():
            if key == name:
                return str(filled)
        return "1"

    return re.sub(r"<(?:(\w+):)?(\w+)>", value, route).replace("^", "").replace("$", "")


@dataclass
class Form:
    """A form of a page: where it posts, and each field's values seen on the page (a text
    input's value, a select's options, a checkbox's value)."""

    action: str
    method: str
    fields: dict[str, list[str]] = field(default_factory=dict)

    def signature(self) -> tuple[str, str, tuple[str, ...]]:
        return (self.method, self.action, tuple(sorted(self.fields)))


class _Parser(HTMLParser):
    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page = page
        self.forms: list[Form] = []
        self.links: list[str] = []
        self.form: Form | None = None
        self.select: str | None = None
        self.textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {name: value or "" for name, value in attrs}
        if tag == "a" and attributes.get("href"):
            self.links.append(urljoin(self.page, attributes["href"]))
        elif tag == "form":
            action = urljoin(self.page, attributes.get("action") or self.page)
            self.form = Form(action=action, method=(attributes.get("method") or "get").lower())
            self.forms.append(self.form)
        elif self.form is None:
            return
        elif tag in ("input", "button") and attributes.get("name"):
            kind = attributes.get("type", "text" if tag == "input" else "submit")
            if kind == "checkbox":
                values = [attributes.get("value") or "on"]
            else:
                values = [attributes.get("value", "")]
            self.form.fields.setdefault(attributes["name"], []).extend(values)
        elif tag == "select" and attributes.get("name"):
            self.select = attributes["name"]
            self.form.fields.setdefault(self.select, [])
        elif tag == "option" and self.select is not None:
            self.form.fields[self.select].append(attributes.get("value", ""))
        elif tag == "textarea" and attributes.get("name"):
            self.textarea = attributes["name"]
            self.form.fields.setdefault(self.textarea, [""])

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.form = None
        elif tag == "select":
            self.select = None
        elif tag == "textarea":
            self.textarea = None


def parse(page: str, html: str) -> tuple[list[Form], list[str]]:
    """The forms and the links of the page at `page` (a path), as absolute paths."""
    parser = _Parser(page)
    parser.feed(html)
    links = []
    for link in parser.links:
        parts = urlsplit(link)
        if parts.scheme in ("", "http") and parts.netloc in ("", "testserver"):
            links.append(parts.path + (f"?{parts.query}" if parts.query else ""))
    for form in parser.forms:
        form.action = urlsplit(form.action).path
    return parser.forms, links
