"""The archive import against mutated documents: the demo tournament's archive
(tests/data/demo-open-archive.json), cut short, changed in many ways at random places: values
of the wrong kind, huge or negative numbers, long strings, characters the database cannot
store, keys dropped or added, list items repeated, values nested deep. Each import either
succeeds or is refused with an ArchiveError, and a refused one writes nothing. Cut to its first
round, each game ended by time after four hands, the archive keeps each import short while
holding every part of the format but an unfinished round.

The mutations come from a seeded generator, so a failure repeats; ARCHIVE_MUTATIONS sets how
many (ARCHIVE_MUTATION_SEED the seed) for a longer run by hand."""

from __future__ import annotations

import copy
import json
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction

from tournament.archive import ArchiveError, import_tournament
from tournament.models import (
    AuditEntry,
    Deal,
    ExtraWin,
    Penalty,
    Player,
    Round,
    Seat,
    Table,
    Tournament,
)

DEMO_ARCHIVE = Path(__file__).resolve().parents[1] / "data" / "demo-open-archive.json"
MUTATIONS = int(os.environ.get("ARCHIVE_MUTATIONS", "60"))
SEED = int(os.environ.get("ARCHIVE_MUTATION_SEED", "18"))

Place = tuple[str | int, ...]


def deep(levels: int) -> list[Any]:
    nested: list[Any] = []
    for _ in range(levels):
        nested = [nested]
    return nested


# Values put in place of another, each with words for it.
REPLACEMENTS: list[tuple[str, Callable[[Any], Any]]] = [
    ("10**6", lambda _: 10**6),
    ("2**63", lambda _: 2**63),
    ("-2**63", lambda _: -(2**63)),
    ("-1", lambda _: -1),
    ("0", lambda _: 0),
    ("70000", lambda _: 70_000),
    ("10**1000", lambda _: 10**1000),
    ("1.5", lambda _: 1.5),
    ("true", lambda _: True),
    ("null", lambda _: None),
    ('""', lambda _: ""),
    ('"8"', lambda _: "8"),
    ("10,000 characters", lambda _: "x" * 10_000),
    ("NUL", lambda _: "\x00"),
    ("a lone surrogate", lambda _: "Bo\ud800"),
    ("[]", lambda _: []),
    ("{}", lambda _: {}),
    ("a list nested 10,000 deep", lambda _: deep(10_000)),
    ("the value twice in a list", lambda old: [old, old]),
    ("the value in an object", lambda old: {"value": old}),
    ("the value doubled", lambda old: old * 2 if isinstance(old, int | str | list) else old),
]


def paths(document: Any) -> list[Place]:
    """Every place in the document: each key of an object and each item of a list."""
    found: list[Place] = []
    pending: list[tuple[Place, Any]] = [((), document)]
    while pending:
        path, node = pending.pop()
        if isinstance(node, dict):
            children = list(node.items())
        elif isinstance(node, list):
            children = list(enumerate(node))
        else:
            continue
        for step, child in children:
            found.append((*path, step))
            pending.append(((*path, step), child))
    return sorted(found, key=repr)


def parent(document: Any, path: Place) -> Any:
    node = document
    for step in path[:-1]:
        node = node[step]
    return node


def mutate(document: Any, rng: random.Random) -> tuple[Any, list[str]]:
    """A copy of `document` with one to three mutations, and words for them."""
    mutated = copy.deepcopy(document)
    said: list[str] = []
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        places = paths(mutated)
        path = rng.choice(places)
        container, step = parent(mutated, path), path[-1]
        kind = rng.random()
        if kind < 0.65:
            name, replace = rng.choice(REPLACEMENTS)
            container[step] = replace(container[step])
            said.append(f"{path} = {name}")
        elif kind < 0.8:
            del container[step]
            said.append(f"drop {path}")
        elif kind < 0.9 and isinstance(container, list):
            container.insert(step, copy.deepcopy(container[step]))
            said.append(f"repeat {path}")
        elif isinstance(container, dict):
            key = rng.choice(["extra", "number", "key", "hands", "tiles"])
            name, replace = rng.choice(REPLACEMENTS)
            container[key] = replace(None)
            said.append(f"{(*path[:-1], key)} = {name}")
        else:
            name, replace = rng.choice(REPLACEMENTS)
            container.append(replace(None))
            said.append(f"append {name} to {path[:-1]}")
    return mutated, said


def counts() -> dict[str, int]:
    models = (Tournament, Player, Round, Table, Seat, Deal, ExtraWin, Penalty, AuditEntry)
    return {model.__name__: model.objects.count() for model in (*models, get_user_model())}


@pytest.fixture
def demo_archive(db) -> dict[str, Any]:
    """The demo tournament's archive cut to its first round (finished), each game ended by time
    after four hands, with the demo's users (so its usernames are known)."""
    archive = json.loads(DEMO_ARCHIVE.read_text(encoding="utf-8"))
    archive["rounds"] = archive["rounds"][:1]
    for table in archive["rounds"][0]["tables"]:
        table["hands"] = table["hands"][:4]
        table["ended_by_time"] = True
    model = get_user_model()
    for username in archive["tournament"]["organisers"] + ["referee"]:
        model.objects.get_or_create(username=username)
    return archive


def test_the_demo_archive_imports_as_it_is(organiser):
    archive = json.loads(DEMO_ARCHIVE.read_text(encoding="utf-8"))
    tournament = import_tournament(archive, actor=organiser)
    assert Deal.objects.filter(table__round__tournament=tournament).count() == sum(
        len(table["hands"]) for round in archive["rounds"] for table in round["tables"]
    )


def test_mutated_archives_are_imported_or_refused_with_nothing_written(demo_archive):
    actor = get_user_model().objects.get(username=demo_archive["tournament"]["organisers"][0])
    rng = random.Random(SEED)
    outcomes = {"imported": 0, "refused": 0}
    for _ in range(MUTATIONS):
        mutated, said = mutate(demo_archive, rng)
        before = counts()
        with transaction.atomic():
            try:
                import_tournament(mutated, actor=actor)
            except ArchiveError as error:
                assert error.messages and all(error.messages), said
                assert counts() == before, said
                outcomes["refused"] += 1
            else:
                outcomes["imported"] += 1
            transaction.set_rollback(True)
    # Most mutations break the document; some (a key dropped that has a default, a value that
    # is also right) leave one that imports.
    assert outcomes["refused"] > MUTATIONS // 2, outcomes
    assert outcomes["imported"] > 0, outcomes
