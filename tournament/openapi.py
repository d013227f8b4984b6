"""OpenAPI 3.1 description of the tournament JSON API (tournament/api_urls.py).

Written by hand like `scoring.openapi`, whose document at /api/openapi.json takes in this
`PART`: its paths, schemas, responses and security schemes. The JSON shapes are those of
`tournament.api.serialisers`; the tests check answers against them and check that every URL
and method of the API is described here and nothing else.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from tournament.models import Hand, Penalty, Round, Tournament

WINDS = ["E", "S", "W", "N"]


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"oneOf": [schema, {"type": "null"}]}


def _object(
    properties: dict[str, Any], *, required: list[str] | None = None, description: str = ""
) -> dict[str, Any]:
    """An object with exactly these properties (answers never carry undocumented fields)."""
    schema: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
    }
    if required is None:
        required = list(properties)
    if required:
        schema["required"] = required
    if description:
        schema["description"] = description
    return schema


def _by_seat(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return _object({wind: schema for wind in WINDS}, description=description)


_TEXT = {"type": "string"}
_INT = {"type": "integer"}
_BOOL = {"type": "boolean"}
_KEY = {"type": "string", "maxLength": 20, "description": "A player's key, such as a start number."}
_DATE = {"type": "string", "format": "date"}
_WHEN = {"type": "string", "format": "date-time"}
_HAND_NUMBER = {"type": "integer", "minimum": 1, "maximum": 16}
_TABLE_POINTS = {
    "type": "number",
    "description": "Table points: a whole number, or rounded to two decimals when shared.",
}
_TABLE_POINTS_EXACT = {
    "type": "string",
    "description": 'The exact table points as a fraction, such as "7/3" or "4".',
}
_USERNAMES = {"type": "array", "items": _TEXT}
_SHEET_STATUS = {
    "type": "string",
    "enum": ["open", "submitted", "confirmed"],
    "description": "The game sheet: open while the game is played, submitted when it has "
    "ended, confirmed once the organiser (or a second referee) has checked it.",
}
CLOCK_STATES = ("not_started", "running", "paused", "over")

# --- Schemas --------------------------------------------------------------------------------

_TOURNAMENT_SUMMARY = {
    "slug": {"type": "string", "description": "The tournament's address."},
    "name": _TEXT,
    "start_date": _nullable(_DATE),
    "end_date": _nullable(_DATE),
    "venue": _TEXT,
    "public": {"type": "boolean", "description": "Readable by everyone without a login."},
}
_TOURNAMENT_SETTINGS = {
    "preset": {"type": "string", "description": "Rule preset, such as mcr."},
    "profile": {"type": "string", "enum": Tournament.Profile.values},
    "seat_rotation": {"type": "string", "enum": Tournament.SeatRotation.values},
    "table_points": {
        "type": "array",
        "items": _INT,
        "minItems": 4,
        "maxItems": 4,
        "description": "Given by rank at a table, first place first.",
    },
    "tie_breaks": {
        "type": "array",
        "items": {"type": "string", "enum": Tournament.TieBreak.values},
        "description": "After table points and score, in this order.",
    },
    "confirmation": {
        "type": "string",
        "enum": Tournament.Confirmation.values,
        "description": "Who confirms a submitted game sheet before the game counts: the "
        "organiser, a second referee (or the organiser), or none (counts once submitted).",
    },
    "round_minutes": {
        "type": "integer",
        "minimum": 10,
        "maximum": 600,
        "description": "The time limit of a round, for the round clock.",
    },
}
_TOURNAMENT_INPUT = {
    "name": {"type": "string", "maxLength": 200},
    "slug": {"type": "string", "maxLength": 100, "pattern": "^[-a-zA-Z0-9_]+$"},
    "start_date": _nullable(_DATE),
    "end_date": _nullable(_DATE),
    "venue": {"type": "string", "maxLength": 200},
    **_TOURNAMENT_SETTINGS,
    "public": _BOOL,
}
_PLAYER_INPUT = {
    "key": _KEY,
    "name": {"type": "string", "maxLength": 200},
    "country": {"type": "string", "maxLength": 100},
    "club": {"type": "string", "maxLength": 200},
    "team": {"type": "string", "maxLength": 200},
    "ema_number": {"type": "string", "maxLength": 20},
    "substitute": {"type": "boolean", "description": "Substitutes are never ranked."},
    "withdrawn_from_round": {
        **_nullable({"type": "integer", "minimum": 1}),
        "description": "Plays no round from this one on; keeps earlier results.",
    },
}
_SITUATION = {
    "last_tile_of_kind": {"type": "boolean", "default": False},
    "kong_related": {
        "type": "boolean",
        "default": False,
        "description": "Self-drawn: Out with Replacement Tile; on a discard: Robbing the Kong.",
    },
    "last_wall_tile": {"type": "boolean", "default": False},
}
_HAND_INPUT = {
    "result": {"type": "string", "enum": Hand.Result.values},
    "winner": {**_nullable(_KEY), "description": "The winner's key; null for a drawn hand."},
    "discarder": {
        **_nullable(_KEY),
        "description": "Who discarded the winning tile; null or absent for a self-drawn win.",
    },
    "fan": {
        **_nullable({"type": "integer", "minimum": 0, "maximum": 1000}),
        "description": "Fan without flowers (at least 8 for a win). May be left out when tiles "
        "are given: the engine computes it; when both are given they must agree.",
    },
    "flowers": {"type": "integer", "minimum": 0, "maximum": 8, "default": 0},
    "tiles": {
        **_nullable(_ref("CaseRequest")),
        "description": "The winning hand in the case format. Seat wind, prevalent wind and "
        "self-drawn follow from the table and are filled in.",
    },
    "compact": {
        **_nullable({"type": "string", "maxLength": 200}),
        "description": "The winning hand in compact notation (see CompactRequest), instead of "
        "tiles; the situation flags may be given next to it.",
    },
    **_SITUATION,
}
_PENALTY_INPUT = {
    "player": _KEY,
    "points": {"type": "integer", "minimum": 1, "description": "What the player loses."},
    "distributed": {
        "type": "boolean",
        "default": False,
        "description": "Paid in equal thirds to the other three (a multiple of 3); otherwise a "
        "deduction of 5 to 60 given to nobody.",
    },
    "reason": {"type": "string", "minLength": 1, "maxLength": 300},
    "hand_number": {
        **_nullable(_HAND_NUMBER),
        "description": "The hand it belongs to; null for a penalty on the whole game.",
    },
}

_ERROR_CODES = """\
`error` is a stable code; `message` says what is wrong in plain words.

* 400 `bad_request` (not JSON, not an object), `invalid` (wrong fields: see `fields`), or the
  rule a service refused: for hands `out_of_order`, `game_complete`, `game_ended`,
  `round_not_playing`, `not_seated`, `winner_required`, `fan_required`, `below_minimum`,
  `bad_result`, `bad_flowers`, `draw_has_no_winner`, `discarder_is_winner`,
  `offender_cannot_win`, `invalid_tiles`, `fan_mismatch`, `scoring_unavailable`, `no_hands`;
  for false wins and penalties `bad_hand_number`, `offender_won`, `reason_required`,
  `not_divisible`, `deduction_out_of_range`; for hands, false wins and penalties sent with an
  Idempotency-Key header `bad_submission_key` (the key is not a UUID); after a game sheet is
  confirmed, for anyone but an organiser, `sheet_confirmed`; for the end of a game
  `already_ended`, `hands_missing`; for confirming a game sheet `not_submitted`,
  `already_confirmed`; for the round clock `round_not_playing`, `clock_started`,
  `clock_not_started`, `clock_paused`, `clock_running`, `bad_minutes`, `bad_extension`; for
  rounds `bad_status`, `bad_transition`, `not_seated`, `players_unseated`,
  `earlier_round_open`, `has_results`, `games_open`, `sheets_unconfirmed` (finishing a round
  whose game sheets are not all confirmed), `later_round_started`, `seating_frozen`,
  `field_not_multiple_of_four`, `no_players`, `four_players`, `wrong_tournament`,
  `withdrawn`, `already_seated`, `unknown_user`; for players `taken`; for settings
  `rules_locked`, `unique`, `unknown_preset`, `bad_table_points`, `bad_tie_breaks`.
* 401 `invalid_token` (a bad token, on any request) or `login_required` (a write without one).
* 403 `forbidden` (the caller lacks the role) or `csrf_failed` (a session write without the
  CSRF token); for confirming a game sheet `not_allowed_to_confirm` (the tournament has the
  organiser confirm) or `confirm_own_sheet` (a second referee must confirm, not the one who
  submitted the sheet).
* 404 `not_found`, also for a tournament the caller may not read.
* 405 `method_not_allowed`.
* 409 `conflict` (the hand was entered by someone else first, or another change was made at
  the same moment), `not_last_hand`, or `submission_key_reused` (the Idempotency-Key was
  already used at another table or for another kind of record).
"""

SCHEMAS: dict[str, Any] = {
    "ApiError": _object(
        {
            "error": {"type": "string", "description": "A stable code (see below)."},
            "message": {"type": "string", "description": "Plain-language reason."},
            "fields": {
                "type": "object",
                "additionalProperties": {"type": "string"},
                "description": "For wrong fields: a message per field name.",
            },
        },
        required=["error", "message"],
        description=_ERROR_CODES,
    ),
    "TournamentSummary": _object(_TOURNAMENT_SUMMARY),
    "TournamentList": _object(
        {"tournaments": {"type": "array", "items": _ref("TournamentSummary")}}
    ),
    "Tournament": _object(
        {
            **_TOURNAMENT_SUMMARY,
            **_TOURNAMENT_SETTINGS,
            "players": {"type": "integer", "description": "How many players are entered."},
            "rounds": {"type": "array", "items": _ref("RoundSummary")},
        }
    ),
    "TournamentCreate": _object(_TOURNAMENT_INPUT, required=["name", "slug"]),
    "TournamentChange": _object(
        _TOURNAMENT_INPUT,
        required=[],
        description="Only the fields given change. The slug cannot change; the preset, "
        "profile and seat rotation cannot change once a hand is recorded.",
    ),
    "Player": _object(_PLAYER_INPUT),
    "PlayerList": _object({"players": {"type": "array", "items": _ref("Player")}}),
    "PlayerCreate": _object(_PLAYER_INPUT, required=["key", "name"]),
    "PlayerChange": _object(_PLAYER_INPUT, required=[]),
    "RoundSummary": _object(
        {
            "number": {"type": "integer", "minimum": 1},
            "status": {"type": "string", "enum": Round.Status.values},
            "tables": {"type": "integer", "description": "How many tables are seated."},
        }
    ),
    "RoundList": _object({"rounds": {"type": "array", "items": _ref("RoundSummary")}}),
    "Seat": _object(
        {
            "player": _KEY,
            "name": _TEXT,
            "score": {"type": "integer", "description": "Game score so far, penalties included."},
        }
    ),
    "Seats": _by_seat(_ref("Seat"), "The players by the seat they started the game at."),
    "TableSummary": _object(
        {
            "number": {"type": "integer", "minimum": 1},
            "seats": _ref("Seats"),
            "hands": {"type": "integer", "description": "How many hands are entered."},
            "ended": _BOOL,
            "ended_by_time": {"type": "boolean", "description": "Ended before hand 16."},
            "sheet": _SHEET_STATUS,
            "referees": {**_USERNAMES, "description": "Shown to organisers and referees."},
        },
        required=["number", "seats", "hands", "ended", "ended_by_time", "sheet"],
    ),
    "Round": _object(
        {
            "number": {"type": "integer", "minimum": 1},
            "status": {"type": "string", "enum": Round.Status.values},
            "tables": {"type": "array", "items": _ref("TableSummary")},
        }
    ),
    "Points": _by_seat(_INT, "Points by starting seat: gained (+) or paid (-)."),
    "SeatWinds": _by_seat(
        {"type": "string", "enum": WINDS},
        "The seat wind in this hand of each player, by the seat they started at.",
    ),
    "Hand": _object(
        {
            "number": _HAND_NUMBER,
            "result": {"type": "string", "enum": Hand.Result.values},
            "winner": _nullable(_KEY),
            "discarder": _nullable(_KEY),
            "self_drawn": _BOOL,
            "fan": _nullable(_INT),
            "flowers": _INT,
            "tiles": {
                **_nullable({"type": "object"}),
                "description": "The winning hand in the case format, when it was entered.",
            },
            "payments": _ref("Points"),
            "entered_at": _WHEN,
            "entered_by": {"type": "string", "description": "Shown to organisers and referees."},
        },
        required=[
            "number",
            "result",
            "winner",
            "discarder",
            "self_drawn",
            "fan",
            "flowers",
            "tiles",
            "payments",
            "entered_at",
        ],
    ),
    "Penalty": _object(
        {
            "id": _INT,
            "player": _KEY,
            "kind": {"type": "string", "enum": Penalty.Kind.values},
            "points": {"type": "integer", "description": "What the player loses."},
            "distributed": _BOOL,
            "reason": _TEXT,
            "hand_number": _nullable(_HAND_NUMBER),
            "entered_at": _WHEN,
            "entered_by": {"type": "string", "description": "Shown to organisers and referees."},
        },
        required=[
            "id",
            "player",
            "kind",
            "points",
            "distributed",
            "reason",
            "hand_number",
            "entered_at",
        ],
    ),
    "ScoreSheetLine": _object(
        {
            "number": {
                **_nullable(_HAND_NUMBER),
                "description": "The hand; null for the line of penalties on the whole game.",
            },
            "prevailing_wind": _nullable({"type": "string", "enum": WINDS}),
            "seat_winds": _nullable(_ref("SeatWinds")),
            "hand": {
                **_nullable(_ref("Hand")),
                "description": "Null on a line of penalties only (a false win in the hand in "
                "play, or game penalties).",
            },
            "penalties": {"type": "array", "items": _ref("Penalty")},
            "payments": {**_ref("Points"), "description": "The hand and its penalties."},
            "running": {**_ref("Points"), "description": "Game scores after this line."},
        }
    ),
    "NextHand": _object(
        {
            "number": _HAND_NUMBER,
            "prevailing_wind": {"type": "string", "enum": WINDS},
            "seat_winds": _ref("SeatWinds"),
        }
    ),
    "TableResult": _object(
        {
            "player": _KEY,
            "seat": {"type": "string", "enum": WINDS, "description": "The starting seat."},
            "score": _INT,
            "place": {"type": "integer", "minimum": 1, "maximum": 4},
            "table_points": _TABLE_POINTS,
            "table_points_exact": _TABLE_POINTS_EXACT,
        }
    ),
    "Table": _object(
        {
            "round": {"type": "integer", "minimum": 1},
            "number": {"type": "integer", "minimum": 1},
            "seats": _ref("Seats"),
            "hands": _INT,
            "ended": _BOOL,
            "ended_by_time": _BOOL,
            "sheet": _SHEET_STATUS,
            "referees": {**_USERNAMES, "description": "Shown to organisers and referees."},
            "game_sheet": _ref("GameSheet"),
            "lines": {"type": "array", "items": _ref("ScoreSheetLine")},
            "next_hand": {
                **_nullable(_ref("NextHand")),
                "description": "The hand to enter next; null when the game has ended.",
            },
            "results": {
                "type": "array",
                "items": _ref("TableResult"),
                "description": "Places and table points on the scores so far, best first.",
            },
        },
        required=[
            "round",
            "number",
            "seats",
            "hands",
            "ended",
            "ended_by_time",
            "sheet",
            "game_sheet",
            "lines",
            "next_hand",
            "results",
        ],
    ),
    "GameSheet": _object(
        {
            "status": _SHEET_STATUS,
            "submitted_at": {
                **_nullable(_WHEN),
                "description": "When the game ended and its sheet was submitted.",
            },
            "confirmed_at": _nullable(_WHEN),
            "submitted_by": {
                **_nullable(_TEXT),
                "description": "Username; shown to organisers and referees.",
            },
            "confirmed_by": {
                **_nullable(_TEXT),
                "description": "Username; shown to organisers and referees.",
            },
        },
        required=["status", "submitted_at", "confirmed_at"],
        description="The game sheet: submitted when the game ends, then confirmed by the "
        "organiser (or a second referee, as the tournament says). The standings count "
        "confirmed games.",
    ),
    "TableAnswer": _object({"table": _ref("Table")}),
    "HandAnswer": _object({"hand": _ref("Hand"), "table": _ref("Table")}),
    "PenaltyAnswer": _object({"penalty": _ref("Penalty"), "table": _ref("Table")}),
    "HandSubmission": _object(
        {"number": _HAND_NUMBER, **_HAND_INPUT},
        required=["number", "result"],
        description="Quick entry: winner, discarder (null when self-drawn), fan and flowers. "
        "Full entry: the tiles (or compact) as well; the engine scores them for the winner's "
        "seat wind and the prevailing wind of the hand. A hand under 8 fan is refused "
        "(below_minimum): record it as a false win.",
    ),
    "HandCorrection": _object(
        {"number": _HAND_NUMBER, **_HAND_INPUT},
        required=["result"],
        description="The whole hand as it should be; `number`, if given, must be the one in "
        "the address. The scores after it are recomputed.",
    ),
    "FalseWinRequest": _object(
        {
            "number": {**_HAND_NUMBER, "description": "The hand in play or one entered."},
            "player": _KEY,
            "invalid_hand": {
                "type": "boolean",
                "default": False,
                "description": "Wrong tiles or count: 20 to each other player instead of 10.",
            },
        },
        required=["number", "player"],
    ),
    "PenaltyRequest": _object(_PENALTY_INPUT, required=["player", "points", "reason"]),
    "PenaltyChange": _object(
        _PENALTY_INPUT, required=[], description="Only the fields given change."
    ),
    "EndRequest": _object(
        {
            "ended_by_time": {
                "type": "boolean",
                "default": False,
                "description": "Time was called: end before all 16 hands are entered.",
            }
        },
        required=[],
    ),
    "Empty": _object({}, required=[], description="No fields."),
    "RoundStatusRequest": _object({"status": {"type": "string", "enum": Round.Status.values}}),
    "RandomSeating": _object(
        {
            "random": {"const": True},
            "seed": {**_nullable(_INT), "description": "Repeats the same draw."},
        },
        required=["random"],
        description="Seat every player at random, avoiding repeat opponents greedily.",
    ),
    "TableSeating": _object(
        {
            "tables": {
                "type": "array",
                "items": _by_seat(_KEY, "The players starting at E, S, W and N."),
                "description": "Table 1 first.",
            }
        },
        description="Seat the round as given.",
    ),
    "SeatingRequest": {"oneOf": [_ref("RandomSeating"), _ref("TableSeating")]},
    "Referees": _object({"referees": {**_USERNAMES, "description": "Usernames."}}),
    "Standing": _object(
        {
            "rank": {
                **_nullable({"type": "integer", "minimum": 1}),
                "description": "Shared by players level on everything; null for substitutes.",
            },
            "player": _KEY,
            "name": _TEXT,
            "table_points": _TABLE_POINTS,
            "table_points_exact": _TABLE_POINTS_EXACT,
            "score": _INT,
            "substitute": _BOOL,
            "provisional_games": {
                "type": "integer",
                "minimum": 0,
                "description": "Games counted whose sheets are not confirmed yet (0 unless "
                "provisional).",
            },
        }
    ),
    "Standings": _object(
        {
            "provisional": {
                "type": "boolean",
                "description": "Whether submitted, unconfirmed game sheets count too.",
            },
            "standings": {
                "type": "array",
                "items": _ref("Standing"),
                "description": "Ranked players in order, then substitutes.",
            },
        }
    ),
}

SCHEMAS.update(
    {
        "Clock": _object(
            {
                "round": {"type": "integer", "minimum": 1},
                "state": {"type": "string", "enum": list(CLOCK_STATES)},
                "minutes": {"type": "integer", "description": "The round's time limit."},
                "extra_minutes": {
                    "type": "integer",
                    "description": "Added (or, when negative, taken off) since the start.",
                },
                "total_seconds": _INT,
                "elapsed_seconds": {"type": "integer", "description": "Not counting pauses."},
                "remaining_seconds": {"type": "integer", "minimum": 0},
                "display": {"type": "string", "description": 'The time left, as "1:05:09".'},
                "started_at": _nullable(_WHEN),
                "paused_at": {**_nullable(_WHEN), "description": "Set while paused."},
                "expected_hands": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 16,
                    "description": "Hands an even pace of 16 over the round has played by now.",
                },
            },
            description="The round clock. A table is behind when it has played more than "
            "2 hands fewer than expected_hands.",
        ),
        "ClockRequest": _object(
            {
                "action": {"type": "string", "enum": ["start", "pause", "resume", "extend"]},
                "minutes": {
                    "type": "integer",
                    "minimum": -600,
                    "maximum": 600,
                    "description": "For start: the time limit (10 to 600; default the "
                    "tournament's round_minutes). For extend (required): minutes to add, or "
                    "to take off when negative.",
                },
            },
            required=["action"],
        ),
        "BoardTable": _object(
            {
                **SCHEMAS["TableSummary"]["properties"],
                "behind": {
                    "type": "boolean",
                    "description": "Falling behind the clock: more than 2 hands fewer than an "
                    "even pace needs, game not ended.",
                },
            },
            required=[*SCHEMAS["TableSummary"]["required"], "behind"],
        ),
        "Board": _object(
            {
                "round": {"type": "integer", "minimum": 1},
                "status": {"type": "string", "enum": Round.Status.values},
                "clock": _ref("Clock"),
                "sheets": _object(
                    {"open": _INT, "submitted": _INT, "confirmed": _INT},
                    description="How many tables' sheets are in each state.",
                ),
                "behind": {"type": "integer", "description": "How many tables are behind."},
                "tables": {"type": "array", "items": _ref("BoardTable")},
            }
        ),
    }
)

# --- Operations -----------------------------------------------------------------------------

_ERROR_RESPONSES = {
    "400": "The body is not JSON, has wrong fields, or breaks a rule; nothing was saved.",
    "401": "The token is not valid, or a write was sent without a login.",
    "403": "The caller lacks the role (also to confirm this game sheet), or a session write "
    "lacks the CSRF token.",
    "404": "No such tournament, round, table, hand, player or penalty, or one the caller may "
    "not read.",
    "405": "This method is not allowed here; the Allow header lists those that are.",
    "409": "The change came too late: the hand was already entered, or another change was "
    "made at the same moment; or the Idempotency-Key was used for something else; nothing was "
    "saved.",
}
RESPONSES = {
    status: {
        "description": description,
        "content": {"application/json": {"schema": _ref("ApiError")}},
    }
    for status, description in _ERROR_RESPONSES.items()
}

SECURITY_SCHEMES = {
    "bearerAuth": {
        "type": "http",
        "scheme": "bearer",
        "description": "An API token: 'Authorization: Bearer <secret>'. Needs no CSRF token.",
    },
    "cookieAuth": {
        "type": "apiKey",
        "in": "cookie",
        "name": settings.SESSION_COOKIE_NAME,
        "description": "A logged-in browser session. Writes also need the CSRF token in the "
        f"X-CSRFToken header (from the {settings.CSRF_COOKIE_NAME} cookie).",
    },
}
_ANYONE = [{}, {"bearerAuth": []}, {"cookieAuth": []}]
_LOGGED_IN = [{"bearerAuth": []}, {"cookieAuth": []}]

ROLES = {
    "read": "Anyone who may read the tournament: everyone for a public one, else its "
    "organisers and referees.",
    "organiser": "An organiser of the tournament.",
    "referee": "A referee of this table or an organiser of the tournament.",
    "creator": "A user with the permission tournament.add_tournament; they become its organiser.",
    "confirmer": "An organiser of the tournament; where the tournament's confirmation is "
    '"referee", also any referee of the tournament other than the one who submitted the sheet.',
    "list": "Anyone.",
}


def _operation(
    operation_id: str,
    summary: str,
    *,
    role: str,
    ok: str,
    status: int = 200,
    ok_description: str = "Done.",
    body: str | None = None,
    body_required: bool = True,
    description: str = "",
) -> dict[str, Any]:
    reads = role in ("read", "list")
    errors = ["401", "405"] if role == "list" else ["401", "404", "405"]
    if not reads:
        errors = ["400", "401", "403", "405", "409"]
        if role != "creator":
            errors.insert(3, "404")
    operation: dict[str, Any] = {
        "operationId": operation_id,
        "summary": summary,
        "description": f"{description}\n\nWho: {ROLES[role]}".strip(),
        "tags": ["tournaments"],
        "security": _ANYONE if reads else _LOGGED_IN,
        "responses": {
            str(status): {
                "description": ok_description,
                "content": {"application/json": {"schema": _ref(ok)}},
            },
            **{code: {"$ref": f"#/components/responses/{code}"} for code in errors},
        },
    }
    if body:
        operation["requestBody"] = {
            "required": body_required,
            "content": {"application/json": {"schema": _ref(body)}},
        }
    return operation


def _parameter(name: str, schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {
        "name": name,
        "in": "path",
        "required": True,
        "schema": schema,
        "description": description,
    }


_SLUG = _parameter("slug", {"type": "string"}, "The tournament's slug.")
_ROUND = _parameter("number", {"type": "integer", "minimum": 1}, "The round number.")
_TABLE = _parameter("table", {"type": "integer", "minimum": 1}, "The table number.")
_T = "/api/tournaments/{slug}"
_R = f"{_T}/rounds/{{number}}"
_TB = f"{_R}/tables/{{table}}"
_AT_TABLE = [_SLUG, _ROUND, _TABLE]

PATHS: dict[str, Any] = {
    "/api/tournaments": {
        "get": _operation(
            "listTournaments",
            "Tournaments the caller may read",
            role="list",
            ok="TournamentList",
            ok_description="Public tournaments and those the caller organises or referees.",
        ),
        "post": _operation(
            "createTournament",
            "Create a tournament",
            role="creator",
            ok="Tournament",
            status=201,
            ok_description="Created; Location is its address.",
            body="TournamentCreate",
        ),
    },
    _T: {
        "parameters": [_SLUG],
        "get": _operation(
            "getTournament",
            "A tournament's settings and rounds",
            role="read",
            ok="Tournament",
            ok_description="The tournament; draft rounds are listed for organisers only.",
        ),
        "patch": _operation(
            "changeTournament",
            "Change a tournament's settings",
            role="organiser",
            ok="Tournament",
            body="TournamentChange",
        ),
    },
    f"{_T}/players": {
        "parameters": [_SLUG],
        "get": _operation(
            "listPlayers", "The players", role="read", ok="PlayerList", ok_description="By key."
        ),
        "post": _operation(
            "addPlayer",
            "Add a player",
            role="organiser",
            ok="Player",
            status=201,
            ok_description="Added; Location is the player's address.",
            body="PlayerCreate",
        ),
    },
    f"{_T}/players/{{key}}": {
        "parameters": [_SLUG, _parameter("key", {"type": "string"}, "The player's key.")],
        "patch": _operation(
            "changePlayer",
            "Change a player (also to withdraw them from a round on)",
            role="organiser",
            ok="Player",
            body="PlayerChange",
        ),
    },
    f"{_T}/standings": {
        "parameters": [_SLUG],
        "get": _operation(
            "getStandings",
            "The standings",
            role="read",
            ok="Standings",
            description="Over the games whose sheets are confirmed (with ?provisional=1 also "
            "those submitted but not confirmed yet): table points, then score, then the "
            "tournament's tie-breaks; the shape of `manage.py standings --json`.",
        ),
    },
    f"{_T}/rounds": {
        "parameters": [_SLUG],
        "get": _operation(
            "listRounds",
            "The rounds",
            role="read",
            ok="RoundList",
            ok_description="Draft rounds are listed for organisers only.",
        ),
        "post": _operation(
            "createRound",
            "Create the next round",
            role="organiser",
            ok="Round",
            status=201,
            ok_description="The new draft round, without tables; Location is its address.",
            body="Empty",
            body_required=False,
            description="The body is empty or {}.",
        ),
    },
    _R: {
        "parameters": [_SLUG, _ROUND],
        "get": _operation(
            "getRound",
            "A round: status and tables with seats and scores",
            role="read",
            ok="Round",
            description="A draft round is shown to organisers only (404 for others).",
        ),
    },
    f"{_R}/seating": {
        "parameters": [_SLUG, _ROUND],
        "post": _operation(
            "seatRound",
            "Seat a round at random or as given",
            role="organiser",
            ok="Round",
            body="SeatingRequest",
            description="Replaces the round's tables (and their referees); the round must be a "
            "draft or seated.",
        ),
    },
    f"{_R}/status": {
        "parameters": [_SLUG, _ROUND],
        "post": _operation(
            "setRoundStatus",
            "Publish, open, finish or step back a round",
            role="organiser",
            ok="Round",
            body="RoundStatusRequest",
            description="draft -> seated -> playing -> finished, and back one step where the "
            "results allow it.",
        ),
    },
    _TB: {
        "parameters": _AT_TABLE,
        "get": _operation(
            "getTable",
            "A table's score sheet",
            role="read",
            ok="Table",
            description="Seats, every hand with the winds, payments and running scores, the "
            "next hand's winds, and the places so far.",
        ),
    },
    f"{_TB}/referees": {
        "parameters": _AT_TABLE,
        "put": _operation(
            "setReferees",
            "Assign the table's referees",
            role="organiser",
            ok="Referees",
            body="Referees",
            description="Replaces the referees with these users (usernames of active users).",
        ),
    },
    f"{_TB}/hands": {
        "parameters": _AT_TABLE,
        "post": _operation(
            "submitHand",
            "Submit the next hand",
            role="referee",
            ok="HandAnswer",
            status=201,
            ok_description="Saved: the hand and the table after it.",
            body="HandSubmission",
            description="Hands are entered in order while the round is in play. When two "
            "referees submit the same hand, one is saved and the other gets 409 conflict.",
        ),
    },
    f"{_TB}/hands/{{hand}}": {
        "parameters": [*_AT_TABLE, _parameter("hand", _HAND_NUMBER, "The hand number.")],
        "put": _operation(
            "correctHand",
            "Correct an entered hand",
            role="organiser",
            ok="HandAnswer",
            body="HandCorrection",
            description="Recomputes the scores after it in one transaction and keeps the "
            "change in the audit trail.",
        ),
        "delete": _operation(
            "removeLastHand",
            "Take back the last hand entered",
            role="referee",
            ok="TableAnswer",
            description="The number must be the last hand's (else 409 not_last_hand); the game "
            "must not have ended. False wins recorded for it stay.",
        ),
    },
    f"{_TB}/false-wins": {
        "parameters": _AT_TABLE,
        "post": _operation(
            "recordFalseWin",
            "Record a false win",
            role="referee",
            ok="PenaltyAnswer",
            status=201,
            ok_description="Recorded; Location is the penalty's address.",
            body="FalseWinRequest",
            description="The offender pays 10 to each other player (20 for an invalid hand) "
            "and cannot win that hand; someone else still can.",
        ),
    },
    f"{_TB}/penalties": {
        "parameters": _AT_TABLE,
        "post": _operation(
            "recordPenalty",
            "Record a penalty or deduction",
            role="referee",
            ok="PenaltyAnswer",
            status=201,
            ok_description="Recorded; Location is the penalty's address.",
            body="PenaltyRequest",
        ),
    },
    f"{_TB}/penalties/{{penalty}}": {
        "parameters": [*_AT_TABLE, _parameter("penalty", _INT, "The penalty's id.")],
        "patch": _operation(
            "correctPenalty",
            "Correct a penalty",
            role="organiser",
            ok="PenaltyAnswer",
            body="PenaltyChange",
        ),
        "delete": _operation(
            "removePenalty",
            "Remove a penalty recorded by mistake",
            role="organiser",
            ok="TableAnswer",
        ),
    },
    f"{_R}/clock": {
        "parameters": [_SLUG, _ROUND],
        "get": _operation(
            "getRoundClock",
            "The round clock: its state and the time left",
            role="read",
            ok="Clock",
        ),
        "post": _operation(
            "changeRoundClock",
            "Start, pause, resume or extend the round clock",
            role="organiser",
            ok="Clock",
            body="ClockRequest",
            description="The clock starts only while the round is in play; every change is "
            "kept in the audit trail.",
        ),
    },
    f"{_R}/board": {
        "parameters": [_SLUG, _ROUND],
        "get": _operation(
            "getRoundBoard",
            "The live board of a round",
            role="read",
            ok="Board",
            description="The clock and every table with its hands played, scores, game sheet "
            "status and whether it is falling behind the clock.",
        ),
    },
    f"{_TB}/confirm": {
        "parameters": _AT_TABLE,
        "post": _operation(
            "confirmGameSheet",
            "Confirm the table's submitted game sheet",
            role="confirmer",
            ok="TableAnswer",
            body="Empty",
            body_required=False,
            description="From then on the game counts in the standings, and only an organiser "
            "changes its results. The body is empty or {}.",
        ),
    },
    f"{_TB}/end": {
        "parameters": _AT_TABLE,
        "post": _operation(
            "endGame",
            "End the game at the table",
            role="referee",
            ok="TableAnswer",
            body="EndRequest",
            body_required=False,
            description="After 16 hands, or earlier with ended_by_time when time is called. "
            "The body may be empty.",
        ),
    },
}

_IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "schema": {"type": "string", "format": "uuid"},
    "description": "A UUID the client makes for this submission. Sent again (after a lost "
    "answer), it is recognised: the answer is 200 with the record first made, and nothing new "
    "is recorded. A key that is not a UUID: 400 bad_submission_key; a key already used at "
    "another table or for another kind of record: 409 submission_key_reused.",
}
_REPLAYED = {
    "Idempotent-Replayed": {
        "description": "true: this submission was recorded before; nothing new was recorded.",
        "schema": {"type": "string", "enum": ["true"]},
    }
}
for _path, _answer in (
    (f"{_TB}/hands", "HandAnswer"),
    (f"{_TB}/false-wins", "PenaltyAnswer"),
    (f"{_TB}/penalties", "PenaltyAnswer"),
):
    _post = PATHS[_path]["post"]
    _post["parameters"] = [_IDEMPOTENCY_KEY]
    _post["responses"]["200"] = {
        "description": "A resubmission with the Idempotency-Key of a recorded submission: the "
        "record first made, unchanged.",
        "headers": _REPLAYED,
        "content": {"application/json": {"schema": _ref(_answer)}},
    }
_standings = PATHS[f"{_T}/standings"]["get"]
_standings["parameters"] = [
    {
        "name": "provisional",
        "in": "query",
        "required": False,
        "schema": {"type": "string", "enum": ["1", "0", "true", "false", "yes", "no"]},
        "description": "1: also count the games whose sheets are submitted but not confirmed "
        "yet; each row says how many of its games are such (provisional_games).",
    }
]
_standings["responses"]["400"] = {"$ref": "#/components/responses/400"}

PART: dict[str, Any] = {
    "title": "MCR tournament manager",
    "description": "\n\nThe tournament API (paths under /api/tournaments) runs a "
    "tournament: players, rounds and seating, the round clock and live board, hands entered by "
    "referees (safely resent with an Idempotency-Key), penalties, the end of each game, the "
    "confirmation of its sheet and the standings. Reads of a public tournament need no "
    "login; writes need an API token (bearerAuth) or a logged-in session with its CSRF token "
    "(cookieAuth). "
    "Errors are JSON objects (ApiError) with a stable code.",
    "tags": [{"name": "tournaments", "description": "Running a tournament."}],
    "paths": PATHS,
    "components": {
        "schemas": SCHEMAS,
        "responses": RESPONSES,
        "securitySchemes": SECURITY_SCHEMES,
    },
}
