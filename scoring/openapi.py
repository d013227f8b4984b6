"""OpenAPI 3.1 description of the scoring JSON API, served at /api/openapi.json.

Written by hand: the API is two endpoints, and a generator would cost more than it saves.
Tile codes, profiles and error codes come from the engine so the schema cannot drift from it.

The document served (`served_schema`) is this SCHEMA plus the parts that other installed apps
describe in their own `openapi` module (the tournament API), found the way the admin finds
`admin` modules, so that this app never imports the others.
"""

from __future__ import annotations

import copy
import functools
from importlib import import_module
from typing import Any

from django.apps import apps
from django.utils.module_loading import module_has_submodule

from scoring.engine import DEFAULT_PROFILE, PROFILES, TILE_CODES
from scoring.engine import errors as engine_errors

# Verdicts answered with 200: the hand was read and scored. BELOW_8_FAN is a scored
# verdict (a false win), so its body carries the total and the fans like any other hand.
SCORED_ERRORS = ("BELOW_8_FAN",)

# Verdicts answered with 400: the request could not be scored as a winning hand.
REJECTED_ERRORS = tuple(sorted(engine_errors.STRUCTURAL))

_WINDS = ["E", "S", "W", "N"]


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _flag(description: str) -> dict[str, Any]:
    return {"type": "boolean", "default": False, "description": description}


_SITUATION_PROPERTIES: dict[str, Any] = {
    "self_drawn": _flag("The winning tile was drawn from the wall (not a discard)."),
    "seat_wind": {**_ref("Wind"), "default": "E", "description": "The winner's seat wind."},
    "prevalent_wind": {**_ref("Wind"), "default": "E", "description": "The prevalent wind."},
    "flowers": {
        "type": "integer",
        "minimum": 0,
        "maximum": 8,
        "default": 0,
        "description": "Number of flower tiles; 1 point each, not counted for the minimum.",
    },
    "last_tile_of_kind": _flag("The winning tile is the last of its kind (Last Tile)."),
    "kong_related": _flag("Self-drawn: Out with Replacement Tile. On a discard: Robbing the Kong."),
    "last_wall_tile": _flag("Self-drawn: Last Tile Draw. On a discard: Last Tile Claim."),
    "profile": {
        "type": "string",
        "enum": list(PROFILES),
        "default": DEFAULT_PROFILE,
        "description": "Rule profile: fan values that differ between rulebooks.",
    },
}

_SCORE_DESCRIPTION = """\
Scores one MCR hand. The body is either the case format (standing tiles, declared sets and
the winning tile as separate fields) or a compact notation string with the same situation
fields. Unknown fields are ignored.

Status codes:

* 200: the hand was scored. `error` is null for a valid win, or `BELOW_8_FAN` for a winning
  shape worth less than 8 fan without flowers (a false win); both carry the total and fans.
* 400: the body could not be scored: not JSON, wrong types, unknown profile, a malformed hand
  or a hand that is not a winning shape. The body is `{"error": code, "message": text}`.
* 405: any method but POST.

The endpoint only computes; it needs no login and no CSRF token.
"""

SCHEMA: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {
        "title": "MCR hand scoring",
        "version": "1.0.0",
        "description": "Scores Mahjong Competition Rules hands: fans, totals and the "
        "arrangement each fan was counted on.",
    },
    "paths": {
        "/api/score": {
            "post": {
                "operationId": "scoreHand",
                "summary": "Score one hand",
                "description": _SCORE_DESCRIPTION,
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": _ref("ScoreRequest")}},
                },
                "responses": {
                    "200": {
                        "description": "The hand was scored (valid win or false win).",
                        "content": {"application/json": {"schema": _ref("ScoreResult")}},
                    },
                    "400": {
                        "description": "The request could not be scored.",
                        "content": {"application/json": {"schema": _ref("Error")}},
                    },
                    "405": {
                        "description": "Only POST is allowed.",
                        "content": {"application/json": {"schema": _ref("Error")}},
                    },
                },
            }
        },
        "/api/openapi.json": {
            "get": {
                "operationId": "openapiSchema",
                "summary": "This document",
                "responses": {
                    "200": {
                        "description": "The OpenAPI 3.1 schema of this API.",
                        "content": {"application/json": {"schema": {"type": "object"}}},
                    }
                },
            }
        },
    },
    "components": {
        "schemas": {
            "Tile": {
                "type": "string",
                "enum": list(TILE_CODES),
                "description": "1m-9m characters, 1p-9p dots, 1s-9s bamboo, E S W N winds, "
                "C red, F green, P white dragon.",
            },
            "Wind": {"type": "string", "enum": _WINDS},
            "Meld": {
                "type": "object",
                "description": "A declared set. A kong with concealed true is a concealed kong.",
                "required": ["type", "tiles"],
                "properties": {
                    "type": {"type": "string", "enum": ["chow", "pung", "kong"]},
                    "tiles": {"type": "array", "items": _ref("Tile"), "minItems": 3},
                    "concealed": {"type": "boolean", "default": False},
                    "claimed": {**_ref("Tile"), "description": "Chows: the claimed tile."},
                    "from": {"type": "string", "enum": ["left", "across", "right"]},
                },
            },
            "CaseRequest": {
                "type": "object",
                "description": "The case format: standing tiles without the winning tile.",
                "required": ["concealed", "win_tile"],
                "properties": {
                    "concealed": {"type": "array", "items": _ref("Tile")},
                    "melds": {"type": "array", "items": _ref("Meld"), "default": []},
                    "win_tile": _ref("Tile"),
                    **_SITUATION_PROPERTIES,
                },
            },
            "CompactRequest": {
                "type": "object",
                "description": "Compact notation, e.g. `2345p 78s EE [PPP] [789m] 6s`: digit "
                "runs with a suit letter, honours as letters, declared sets in [brackets], "
                "concealed kongs in (parentheses); the last tile written is the winning tile.",
                "required": ["compact"],
                "properties": {"compact": {"type": "string"}, **_SITUATION_PROPERTIES},
            },
            "ScoreRequest": {"oneOf": [_ref("CompactRequest"), _ref("CaseRequest")]},
            "Fan": {
                "type": "object",
                "required": ["key", "en", "zh", "points", "count", "sets"],
                "properties": {
                    "key": {"type": "string"},
                    "en": {"type": "string"},
                    "zh": {"type": "string"},
                    "points": {"type": "integer"},
                    "count": {"type": "integer", "minimum": 1},
                    "sets": {
                        "type": "array",
                        "items": {"type": "integer", "minimum": 0},
                        "description": "Indexes into `arrangement` of the sets this fan used.",
                    },
                },
            },
            "ArrangementSet": {
                "type": "object",
                "required": ["kind", "tiles", "declared", "concealed"],
                "properties": {
                    "kind": {
                        "type": "string",
                        "enum": ["chow", "pung", "kong", "pair", "knitted", "honors", "tiles"],
                    },
                    "tiles": {"type": "array", "items": _ref("Tile")},
                    "declared": {"type": "boolean"},
                    "concealed": {"type": "boolean"},
                },
            },
            "ScoreResult": {
                "type": "object",
                "required": [
                    "error",
                    "message",
                    "profile",
                    "total",
                    "total_excl_flowers",
                    "minimum",
                    "meets_minimum",
                    "fans",
                    "arrangement",
                ],
                "properties": {
                    "error": {"enum": [None, *SCORED_ERRORS]},
                    "message": {"type": "string"},
                    "profile": {"type": "string", "enum": list(PROFILES)},
                    "total": {"type": "integer"},
                    "total_excl_flowers": {"type": "integer"},
                    "minimum": {"type": "integer"},
                    "meets_minimum": {"type": "boolean"},
                    "fans": {"type": "array", "items": _ref("Fan")},
                    "arrangement": {"type": "array", "items": _ref("ArrangementSet")},
                },
            },
            "Error": {
                "type": "object",
                "required": ["error", "message"],
                "properties": {
                    "error": {
                        "type": "string",
                        "enum": [*REJECTED_ERRORS, "METHOD_NOT_ALLOWED"],
                    },
                    "message": {"type": "string", "description": "Plain-language reason."},
                },
            },
        }
    },
}


def merge_part(document: dict[str, Any], part: dict[str, Any]) -> None:
    """Add an app's `PART` to `document`: its paths, components, tags and description.

    A part has "paths", "components" (by section: schemas, responses, securitySchemes...),
    and optionally "tags", "title" and "description" (appended to the document's). A name
    that is taken already is an error, so that one app cannot silently replace another's.
    """
    for name, item in part.get("paths", {}).items():
        if name in document["paths"]:
            raise ValueError(f"OpenAPI path {name} is described twice")
        document["paths"][name] = item
    for section, entries in part.get("components", {}).items():
        known = document["components"].setdefault(section, {})
        for name, entry in entries.items():
            if name in known:
                raise ValueError(f"OpenAPI component {section}/{name} is described twice")
            known[name] = entry
    if part.get("tags"):
        document.setdefault("tags", []).extend(part["tags"])
    if part.get("title"):
        document["info"]["title"] = f"{part['title']} and {document['info']['title']}"
    document["info"]["description"] += part.get("description", "")


@functools.cache
def served_schema() -> dict[str, Any]:
    """The document served at /api/openapi.json: SCHEMA and the `PART` of every installed
    app with an `openapi` module."""
    document = copy.deepcopy(SCHEMA)
    for app in apps.get_app_configs():
        if app.name == __package__ or not module_has_submodule(app.module, "openapi"):
            continue
        part = getattr(import_module(f"{app.name}.openapi"), "PART", None)
        if part is not None:
            merge_part(document, copy.deepcopy(part))
    return document
