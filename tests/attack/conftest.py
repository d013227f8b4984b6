"""The attack suite: the application as a hostile caller sees it.

- `test_api_schema.py`: requests generated from the OpenAPI document (schemathesis), sent to
  the Django application in-process as an organiser, a referee and nobody;
- `test_form_posts.py`: malformed posts to every form of the site, found from the URL
  configuration;
- `test_query_params.py`: malformed query strings on every page;
- `test_xss_crawl.py`: a tournament whose every text field holds a script, and a crawl of
  every page reachable from the home page;
- `test_export_formulas.py`: formulas typed into names, clubs and countries, read back from
  every CSV and XLSX export.

They share `arena`: a public tournament in play, round 1 with two tables (players 1-4 at
table 1, refereed by bob; 5-8 at table 2), some hands and a penalty entered, and round 2 drafted.
Every attack asserts the two promises of the application: never a 5xx, and a refused request
writes nothing (`counts` before and after).

`ATTACK_EXAMPLES` scales the number of generated inputs (the bounded default keeps the suite
quick; `scripts/attack` runs them longer and prints their figures).
"""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from attack_kit import print_figures
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from factories import make_players, make_tournament, make_user, seated_round

from tournament.infra.tokens import issue_token
from tournament.services import DealInput, create_round, record_deal, record_penalty


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    print_figures(terminalreporter)


@pytest.fixture
def wsgi_requests_keep_the_test_transaction() -> Iterator[None]:
    """Requests sent to the WSGI application itself (not through Django's test client) would
    close the database connection at their start and end when it is not in autocommit, which
    it never is inside a test's transaction. The test client avoids this the same way."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def build_arena() -> SimpleNamespace:
    """The Spring Cup ("spring-cup") in play; see the module's docstring."""
    organiser = make_user("alice", password="correct-horse-42")
    referee = make_user("bob", password="referee-pass-42")
    tournament = make_tournament(organisers=[organiser])
    players = make_players(tournament, name="Player {}")
    round, tables = seated_round(tournament, organiser, [players[:4], players[4:]])
    tables[0].referees.add(referee)
    record_deal(
        table=tables[0],
        number=1,
        deal=DealInput(result="win", winner=players[0], fan=8),
        entered_by=organiser,
    )
    record_deal(table=tables[0], number=2, deal=DealInput(result="draw"), entered_by=referee)
    record_deal(table=tables[1], number=1, deal=DealInput(result="draw"), entered_by=organiser)
    penalty = record_penalty(table=tables[0], player=players[1], points=10, distributed=False,
                             reason="Slow play", entered_by=referee)  # fmt: skip
    draft = create_round(tournament=tournament, actor=organiser)
    stranger = make_user("mallory", password="mallory-pass-42")
    _, organiser_secret = issue_token(user=organiser, name="attack")
    _, referee_secret = issue_token(user=referee, name="attack")
    return SimpleNamespace(
        tournament=tournament,
        organiser=organiser,
        referee=referee,
        stranger=stranger,
        players=players,
        round=round,
        draft=draft,
        tables=tables,
        penalty=penalty,
        secrets={"organiser": organiser_secret, "referee": referee_secret, "anonymous": None},
    )


@pytest.fixture(scope="module")
def module_arena(django_db_setup, django_db_blocker) -> Iterator[SimpleNamespace]:
    """One arena for a whole module, made once and rolled back at its end: each test (with
    `arena`) runs inside it in a savepoint of its own, so every test starts from the same
    arena, but the arena is not built again for each of the hundreds of generated tests."""
    with django_db_blocker.unblock():
        with transaction.atomic():
            yield build_arena()
            transaction.set_rollback(True)


@pytest.fixture
def arena(module_arena, db) -> SimpleNamespace:
    return module_arena
