"""Malformed posts to every address of the site, as an organiser, a referee and nobody.

The addresses come from the URL configuration (every page of every app but Django's admin and
the API, which test_api_schema.py attacks); the fields come from the forms that the site's
pages show to that caller (each page of the URL configuration is read once, and its forms
noted). For an address with a form, hypothesis posts the form's fields with values taken from
the page or made up: empty, huge, negative, enormous numbers, NUL characters, other scripts,
markup, repeated fields, missing fields, a random file. An address without a form for the
caller gets posts of fields named as anywhere on the site.

Every answer must be other than a 5xx, and a refused post (4xx) writes nothing. Each post
starts from the same arena (it runs in a savepoint that is rolled back).
"""

from __future__ import annotations

import pytest
from attack_kit import counts, examples, tally
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from site_map import Form, fill, page_routes, parse

ROLES = ("organiser", "referee", "anonymous")
ROUTES = page_routes()
# What the arena's addresses are made of (tests/attack/conftest.py); `penalty` and `token`
# are the database's ids, filled in by `values`.
VALUES: dict[str, object] = {"slug": "spring-cup", "key": "1", "number": 1, "round": 1,
                             "table": 1, "hand": 1, "job": 1}  # fmt: skip

HOSTILE = [
    "",
    " ",
    "0",
    "-1",
    "1.5",
    "1e30",
    "99999999999999999999",
    "NaN",
    "²",
    "٣",
    "\x00",
    "a\x00b",
    "x" * 10_000,
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "../../etc/passwd",
    "a/b",
    "%00",
    "=1+1",
    "東南西北",
    "\u202e",
]
hostile_text = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=40),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
)


def values(arena) -> dict[str, object]:
    return {**VALUES, "penalty": arena.penalty.pk, "token": 1}


def log_in(client, arena, role: str) -> None:
    if role != "anonymous":
        client.force_login(getattr(arena, role))


_FORMS: dict[tuple[int, str], dict[str, list[Form]]] = {}


def forms_by_address(client, arena, role: str) -> dict[str, list[Form]]:
    """The post forms of every page `role` may read, by the address they post to. Read once
    per arena and caller."""
    known = (id(arena), role)
    if known not in _FORMS:
        found: dict[str, dict[tuple, Form]] = {}
        for _, route in ROUTES:
            url = fill(route, values(arena))
            response = client.get(url)
            if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
                continue
            forms, _links = parse(url, response.content.decode())
            for form in forms:
                if form.method == "post":
                    found.setdefault(form.action, {})[form.signature()] = form
        _FORMS[known] = {address: list(forms.values()) for address, forms in found.items()}
    return _FORMS[known]


def field_value(seen: list[str]) -> st.SearchStrategy:
    """One value of a field: one seen on the page, or made up; now and then several."""
    one = st.one_of(st.sampled_from(seen), hostile_text) if seen else hostile_text
    return st.one_of(one, one, one, st.lists(one, min_size=2, max_size=3))


def post_data(fields: dict[str, list[str]]) -> st.SearchStrategy[dict]:
    """A post of some of `fields` (and, rarely, a stray one), each with a value or a file."""
    parts = {}
    for name, seen in fields.items():
        if name == "file":
            upload = st.binary(max_size=300).map(
                lambda content: SimpleUploadedFile("players.csv", content, "text/csv")
            )
            parts[name] = st.one_of(st.none(), upload)
        else:
            parts[name] = st.one_of(st.none(), field_value(seen), field_value(seen))
    stray = st.dictionaries(st.sampled_from(["extra", "id", "pk", "tournament"]), hostile_text)
    return st.tuples(st.fixed_dictionaries(parts), stray).map(
        lambda both: {
            **{key: value for key, value in both[0].items() if value is not None},
            **both[1],
        }
    )


def all_field_names(forms: dict[str, list[Form]]) -> dict[str, list[str]]:
    names: dict[str, list[str]] = {}
    for each in forms.values():
        for form in each:
            for name, seen in form.fields.items():
                names.setdefault(name, []).extend(seen)
    return names


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name,route", ROUTES, ids=[name for name, _ in ROUTES])
def test_malformed_posts_never_fail_nor_half_save(client, arena, role, name, route):
    log_in(client, arena, role)
    client.raise_request_exception = False  # a 500 is counted and reported, with its input
    forms = forms_by_address(client, arena, role)
    url = fill(route, values(arena))
    shown = forms.get(url, [])
    if shown:
        strategy = st.sampled_from(shown).flatmap(lambda form: post_data(form.fields))
        count = examples(5)
    else:  # no form here for this caller: fields named as anywhere on the site
        strategy = st.sets(st.sampled_from(sorted(all_field_names(forms))), max_size=4).flatmap(
            lambda names: post_data({name: [] for name in names})
        )
        count = examples(1)

    @settings(
        max_examples=count,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    @given(data=strategy)
    def post(data):
        with transaction.atomic():
            before = counts()
            response = client.post(url, data)
            tally(f"forms {role}", response.status_code)
            assert response.status_code < 500, (url, data)
            if response.status_code >= 400:
                assert counts() == before, (url, data, response.status_code)
            transaction.set_rollback(True)

    post()
