"""What goes wrong reading an archive, said in the words of the document's reader.

A pydantic validation error says where by a path of keys and list positions,
`("rounds", 1, "tables", 2, "hands", 6, "fan")`; people say "round 2, table 3, hand 7", by the
numbers written in the document. `describe` turns the first error into one such sentence, and
`at` does the same for a service's refusal while the document is loaded.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError
from pydantic import ValidationError as SchemaError
from pydantic_core import ErrorDetails

from scoring.engine import PRESETS
from scoring.engine.presets import MCR
from scoring.engine.rulebook import HAND, rulebook_for
from tournament.archive.schema import FORMAT, VERSIONS
from tournament.archive.values import Problem

Location = Sequence[str | int]


class ArchiveError(ValidationError):
    """A document that cannot be imported; the message says where (round, table, hand) and why."""

    def __init__(self, message: str, code: str = "archive_invalid") -> None:
        super().__init__(message, code=code)


# --- Places ---------------------------------------------------------------------------------

# Lists whose items are places, and the word for one of them.
_PLACES = {
    "players": "player",
    "rounds": "round",
    "tables": "table",
    "hands": "hand",
    "penalties": "penalty",
    "extra_winners": "further winner",
    "referee_accounts": "referee account",
    "registrations": "registration",
}


def _deal_word(data: Any) -> str:
    """What the document's preset calls a deal: "hand" under MCR (and when the preset cannot
    be read), "deal" under the presets whose dealer repeats."""
    tournament = data.get("tournament") if isinstance(data, dict) else None
    key = tournament.get("preset", MCR.key) if isinstance(tournament, dict) else MCR.key
    if isinstance(key, str) and key in PRESETS and rulebook_for(PRESETS[key]).deal_noun != HAND:
        return "deal"
    return "hand"


def _name(key: str, index: int, item: Any, within: str | None, deal: str = "hand") -> str:
    """The words for item `index` of the list `key`, inside a place of the list `within`
    (`deal`: what the preset calls one of the "hands")."""
    item = item if isinstance(item, dict) else {}
    if key == "penalties":  # a game's or a hand's
        return f"{'' if within == 'hands' else 'game '}penalty {index + 1}"
    if key == "players":
        player_key = item.get("key")
        known = f" (key {shown(player_key)})" if isinstance(player_key, str) else ""
        return f"player {index + 1}{known}"
    if key == "referee_accounts":
        username = item.get("username")
        known = f" ({shown(username)})" if isinstance(username, str) else ""
        return f"referee account {index + 1}{known}"
    number = item.get("number")
    if type(number) is not int:  # missing or not a number: by its position
        number = index + 1
    return f"{deal if key == 'hands' else _PLACES[key]} {number}"


def _walk(location: Location, data: Any) -> tuple[list[str], list[str | int]]:
    """The places on the way to `location` ("round 1", "table 2"...) and the keys after them."""
    places: list[str] = []
    keys: list[str | int] = []
    within = None
    node = data
    steps = list(location)
    position = 0
    while position < len(steps):
        step = steps[position]
        following = steps[position + 1] if position + 1 < len(steps) else None
        if following is not None and isinstance(node, dict) and step not in node:
            position += 1  # the tag of a union member ("win", "draw"): no key of the data
            continue
        child = _child(node, step)
        if step in _PLACES and isinstance(following, int):
            node = _child(child, following)
            places.append(_name(str(step), following, node, within, _deal_word(data)))
            within, keys = str(step), []
            position += 2
            continue
        if step == "tournament" and not places and following is not None:
            places.append("tournament")
        else:
            keys.append(step)
        node = child
        position += 1
    return places, keys


def _child(node: Any, step: str | int) -> Any:
    if isinstance(node, dict) and isinstance(step, str):
        return node.get(step)
    if isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
        return node[step]
    return None


def place(location: Location, data: Any) -> str:
    """The words for a place in the document `data`: "round 1, table 2, hand 3"."""
    places, keys = _walk(location, data)
    return ", ".join([*places, *(str(key) for key in keys)]) or "archive"


# --- Sentences ------------------------------------------------------------------------------

_EXPECTED = {
    "string_type": "a string",
    "int_type": "a whole number",
    "bool_type": "true or false",
    "list_type": "a list",
    "dict_type": "an object",
    "model_type": "an object",
    "model_attributes_type": "an object",
}


def shown(value: Any, most: int = 40) -> str:
    """A value read from JSON as a message shows it: a string quoted and cut short when it is
    long, a number as it is unless it is huge, a list or an object by its kind."""
    if isinstance(value, str):
        if len(value) <= most:
            return repr(value)
        return f"{value[:most]!r}... ({len(value):,} characters)"
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int) and value.bit_length() > 64:
        return (
            f"a number of {len(str(value)) if value.bit_length() < 4000 else 'over 1,000'} digits"
        )
    if isinstance(value, int | float):
        return repr(value)
    return json_type(value)


def json_type(value: Any) -> str:
    """How a value read from JSON is called in a message: "a string ('ten')", "null"."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, str):
        return f"a string ({shown(value)})"
    if isinstance(value, int | float):
        return f"a number ({shown(value)})"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _unquoted(text: str) -> str:
    return text.replace("'", "")


def _sentence(error: ErrorDetails, name: str, items: str) -> str:
    """What is wrong with the value at key `name` (`items`: the positions within it, if any)."""
    kind, value, context = error["type"], error["input"], error.get("ctx", {})
    quoted = f'"{name}"{items}'
    if kind == "missing":
        return f"the key {quoted} is missing."
    if kind == "extra_forbidden":  # only the objects by seat refuse other keys (schema.BySeat)
        return f"the key {quoted} is not known here (the keys are E, S, W and N)."
    if kind in _EXPECTED:
        return f"{quoted} must be {_EXPECTED[kind]}, not {json_type(value)}."
    if kind == "choice":
        return f"{name}{items} must be one of {context['choices']}, not {shown(value)}."
    if kind == "greater_than_equal":
        return f"{name}{items} must be at least {context['ge']}, not {shown(value)}."
    if kind == "range":
        return f"{name}{items} must be {context['low']} to {context['high']}, not {shown(value)}."
    if kind == "date":
        return f'{quoted} must be a date such as "2025-05-01".'
    if kind == "date_time":
        return f'{quoted} must be a date and time such as "2025-05-01T14:30".'
    if kind == "too_long":
        most, found = context["max_length"], context["actual_length"]
        return f"{quoted} has at most {most} entries, not {found}."
    if kind == "union_tag_not_found":
        return f'the key "{_unquoted(context["discriminator"])}" is missing.'
    if kind == "union_tag_invalid":
        name, tags = _unquoted(context["discriminator"]), _unquoted(context["expected_tags"])
        return f"{name} must be one of {tags}, not {shown(context['tag'])}."
    if kind == "literal_error":
        return f"{quoted} must be {context['expected']}, not {json_type(value)}."
    return f"{quoted}: {error['msg']}"


def describe(error: SchemaError, data: Any) -> ArchiveError:
    """The first of a schema's complaints about the document `data`, as an ArchiveError."""
    first = error.errors()[0]
    location: tuple[str | int, ...] = tuple(first["loc"])
    problem = first.get("ctx", {}).get("error")
    if isinstance(problem, Problem):
        return ArchiveError(f"{place(location + problem.at, data)}: {problem}")
    if not location:
        return ArchiveError(f"The archive must be a JSON object, not {json_type(data)}.")
    if location == ("format",):
        return ArchiveError(
            f'This is not a tournament archive: "format" must be "{FORMAT}", '
            f"not {shown(data.get('format'))}."
        )
    if location == ("version",):
        *earlier, last = (str(version) for version in VERSIONS)
        readable = f"{', '.join(earlier)} and {last}" if earlier else last
        return ArchiveError(
            f"Archive version {shown(data.get('version'))} cannot be read; "
            f"this version reads versions {readable}."
        )
    places, keys = _walk(location, data)
    names = [i for i, key in enumerate(keys) if isinstance(key, str)]
    if not names:  # the place itself is of the wrong kind: "round 1, table 1, hand 2"
        where = ", ".join(places)
        if first["type"] in _EXPECTED:
            expected = _EXPECTED[first["type"]]
            return ArchiveError(f"{where} must be {expected}, not {json_type(first['input'])}.")
        return ArchiveError(f"{where}: {_sentence(first, '', '')}")
    # The last key names the value the sentence is about; positions after it are list items.
    named = names[-1]
    items = "".join(f" item {int(index) + 1}" for index in keys[named + 1 :])
    where = ", ".join([*places, *(str(key) for key in keys[:named])]) or "archive"
    return ArchiveError(f"{where}: {_sentence(first, str(keys[named]), items)}")


# --- Loading --------------------------------------------------------------------------------


@contextmanager
def at(where: str) -> Iterator[None]:
    """Turn a service's refusal into an ArchiveError that says where in the document it was."""
    try:
        yield
    except ArchiveError:
        raise
    except ValidationError as error:
        code = getattr(error, "code", None) or "invalid"
        raise ArchiveError(f"{where}: {_text(error)}", code=code) from error
    except IntegrityError as error:
        raise ArchiveError(f"{where}: the database refused it ({error}).") from error


def _text(error: ValidationError) -> str:
    if hasattr(error, "error_dict"):
        return "; ".join(
            message if name == "__all__" else f"{name}: {message}"
            for name, messages in error.message_dict.items()
            for message in messages
        )
    return " ".join(error.messages)
