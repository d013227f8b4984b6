"""The API's error answer, `{"error": code, "message": text}` plus `fields` (a message per
wrong field), which ninja's `HttpError` cannot carry: `ApiError`, and the exception handler
(`answer`, installed in `config.api`) that gives what the schemas, the services and the
database refuse the same shape.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, RequestDataTooBig, ValidationError
from django.db import DataError, IntegrityError
from django.http import HttpRequest, JsonResponse
from ninja import Schema
from ninja.errors import AuthenticationError
from ninja.errors import ValidationError as ParametersError
from pydantic import Field

# Service codes answered with 409 rather than 400: the request was right but came too late (the
# hand is entered, or is no longer the last one).
CONFLICT_CODES = frozenset(
    {
        "conflict",
        "not_last_hand",
        "player_has_results",
        "player_seated",
        "field_full",
        "registration_status",
        "registration_seated",
        "desk_closed",
        "check_in_closed",
        # The final stage (services/stages.py).
        "no_stage",
        "cut_confirmed",
        "rounds_open",
        "final_stage_started",
        "too_few_players",
        "no_cut",
        # The prize-giving (services/prize_giving.py).
        "nothing_hidden",
        "already_revealed",
        "not_revealed",
    }
)
# Service codes answered with 422: the request is well formed but cannot be taken as it is
# (its idempotency key was already used for another body).
UNPROCESSABLE_CODES = frozenset({"submission_key_reused"})
# Service codes answered with 403: the caller may not do this (who confirms a game sheet).
FORBIDDEN_CODES = frozenset({"not_allowed_to_confirm", "confirm_own_sheet"})
CHALLENGE = 'Bearer realm="api"'
NOT_JSON = "The request body is not valid JSON (UTF-8 text)."


class ApiError(Exception):
    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        fields: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.fields = fields
        self.headers = headers

    def response(self) -> JsonResponse:
        body: dict[str, Any] = {"error": self.code, "message": self.message}
        if self.fields:
            body["fields"] = self.fields
        return JsonResponse(
            body,
            status=self.status,
            headers=self.headers,
            json_dumps_params={"ensure_ascii": False},
        )


def invalid(fields: dict[str, str]) -> ApiError:
    described = "; ".join(f"{name}: {message}" for name, message in fields.items())
    return ApiError(400, "invalid", f"Some fields are wrong. {described}", fields=fields)


def invalid_field(name: str, message: str) -> ApiError:
    return ApiError(400, "invalid", message, fields={name: message})


class ErrorAnswer(Schema):
    """`error` is a stable code; `message` says what is wrong in plain words.

    * 400 `bad_request` (not JSON, not an object), `invalid` (wrong fields: see `fields`), or the
      rule a service refused: for hands `out_of_order`, `game_complete`, `game_ended`,
      `round_not_playing`, `not_seated`, `winner_required`, `fan_required`, `below_minimum`,
      `bad_result`, `bad_flowers`, `draw_has_no_winner`, `discarder_is_winner`,
      `offender_cannot_win`, `invalid_tiles`, `fan_mismatch`, `scoring_unavailable`, `no_hands`,
      and under presets that count points `value_required`, `bad_value` (outside the preset's
      range or step), `value_disagrees_with_tiles` (JT: a value sent with tiles that score
      another final score), `one_winner`, `winner_twice`, `offender_required`, `not_in_preset` (a
      fact the preset does not have, such as riichi), `named_twice`, `bad_riichi`, `bad_deal`,
      `deals_after_end` (a correction would end the game before later deals); these name
      the field they are about under `fields` (`value`, `also`, `riichi`, `faulty_claims`,
      `ready`, `faulty_riichi`, `offender`) where it is one of them, and `draw_only` (`ready` or
      `faulty_riichi` sent with a win or a faulty out);
      for false wins and penalties `bad_hand_number`, `offender_won`, `reason_required`,
      `not_divisible`, `deduction_out_of_range` (outside the preset's penalty scale: MCR and WA
      5 to 60, JT 5 to 1,500 in multiples of 5), `faulty_out_ends_deal` (a false win where a
      faulty out is a deal's result, JT: send the deal with result `faulty_out` instead);
      for hands, false wins and penalties sent with an Idempotency-Key header
      `bad_submission_key` (the key is not a UUID); after a game sheet is confirmed, for
      anyone but an organiser, `sheet_confirmed`; for the end of a game
      `already_ended`, `hands_missing`; for confirming a game sheet `not_submitted`,
      `already_confirmed`; for the round clock `round_not_playing`, `clock_started`,
      `clock_not_started`, `clock_paused`, `clock_running`, `bad_minutes`, `bad_extension`; for
      a table's own time `bad_table_time` (its extra minutes would leave -60 to 120, or 0 were
      given), `round_not_open` (a draft or finished round), `game_ended`, `reason_too_long`; for
      rounds `bad_status`, `bad_transition`, `not_seated`, `players_unseated`,
      `earlier_round_open`, `has_results`, `games_open`, `sheets_unconfirmed` (finishing a round
      whose game sheets are not all confirmed), `later_round_started`, `seating_frozen`,
      `field_not_multiple_of_four`, `no_players`, `four_players`, `wrong_tournament`,
      `withdrawn`, `joins_later` (a late arrival seated before the round they join),
      `already_seated`, `unknown_user`, `not_a_referee` (a user who may not referee the
      tournament's tables: see the referees PUT); for players `taken`, `bad_key` (a key
      outside its alphabet), `bad_character` (a NUL or a lone surrogate in a text),
      `bad_ema_number` (not eight digits), `bad_country` (not an ISO 3166 country); for
      settings `rules_locked`, `unique`, `unknown_preset`,
      `bad_rule_setting` (a setting the preset does not offer, or a value it does not allow),
      `bad_table_points`, `bad_tie_breaks`, `rehearsal_private` (a dress rehearsal's copy made
      public); for check-in `withdrawn` (a withdrawn player is
      not checked in); for a player's private link `no_link` (revoking the link of a player
      who has none); for registrations `duplicate_ema_number`,
      `duplicate_name` (a player or an active registration has the EMA number, or the name and
      country, already), `bad_registration_times` (it would close before it opens); seating
      a round of a final stage `finalist_away` (a finalist does not play the round),
      `not_final_stage`.
    * 401 `invalid_token` (a bad token, on any request) or `login_required` (a write without
      one).
    * 403 `forbidden` (the caller lacks the role) or `csrf_failed` (a session write without the
      CSRF token); for confirming a game sheet `not_allowed_to_confirm` (the tournament has the
      organiser confirm) or `confirm_own_sheet` (a second referee must confirm, not the one who
      submitted the sheet).
    * 404 `not_found`, also for a tournament the caller may not read.
    * 405 `method_not_allowed`; the Allow header lists the methods that are.
    * 409 `conflict` (the hand was entered by someone else first, or another change was made
      at the same moment) or `not_last_hand`; removing a player `player_has_results` (they
      have played: withdraw them instead) or `player_seated` (seated in a round not played);
      checking a player in or out `desk_closed` (the check-in desk is closed: open it first);
      allowing self check-in `check_in_closed` (check-in has been closed); starting play in a
      round `tables_without_referees` (tables that no active referee can enter: send
      `"confirm": true` to start anyway);
      for registrations `field_full` (no free place: raise the cap first),
      `registration_status` (not in a state that allows it) or `registration_seated` (its
      player has a seat); for the cut to a final stage `no_stage` (the tournament has none),
      `cut_confirmed` (confirmed already; its settings are fixed), `rounds_open` (the cut's
      round or an earlier one is not finished), `final_stage_started`, `too_few_players`,
      `no_cut`; for the prize-giving `nothing_hidden` (no round is hidden), `already_revealed`,
      `not_revealed`.
    * 422 `submission_key_reused`: the Idempotency-Key was already used by the same caller at
      the same table with another body, or for another kind of record; nothing was recorded.
    * 429 `too_many_wrong_tokens`: too many requests with a wrong token came from the
      caller's address; every token from it is refused for the seconds in the Retry-After
      header.
    """

    error: str = Field(description="A stable code (see above).")
    message: str = Field(description="Plain-language reason.")
    # Left out when no field is wrong (never null): None only marks it unset.
    fields: dict[str, str] = Field(
        None,  # type: ignore[arg-type]
        description="For wrong fields: a message per field name.",
    )


def refusals(*statuses: int) -> dict[int, type[ErrorAnswer]]:
    """The error answers an operation documents; 429 with 401 (too many wrong tokens)."""
    if 401 in statuses:
        statuses = (*statuses, 429)
    return dict.fromkeys(statuses, ErrorAnswer)


# --- What the schemas refuse ---------------------------------------------------------------

# pydantic's errors in people's words, by their type; {input} is the value sent, as JSON.
MESSAGES = {
    "int_type": "Give a whole number, not {input}.",
    "greater_than_equal": "Give a number of at least {ge}.",
    "less_than_equal": "Give a number of at most {le}.",
    "bool_type": "Give true or false, not {input}.",
    "string_type": "Give text, not {input}.",
    "string_too_long": "Give at most {max_length} characters.",
    "literal_error": "Choose one of: {choices}.",
    "date_type": "Give a date as YYYY-MM-DD, not {input}.",
    "dict_type": "Give a JSON object.",
    "int_parsing": "Give a whole number.",
}


def field_message(error: Mapping[str, Any]) -> str:
    kind = error["type"]
    if kind == "missing":
        return "This field is required."
    if kind == "extra_forbidden":
        return "Unknown field."
    if error.get("input") is None:
        return "This field cannot be null."
    if kind not in MESSAGES:
        return error["msg"]
    context = dict(error.get("ctx") or {})
    if kind == "literal_error":
        context["choices"] = ", ".join(re.findall(r"'([^']*)'", context["expected"]))
    return MESSAGES[kind].format(input=json.dumps(error["input"]), **context)


# --- Exception handlers ----------------------------------------------------------------------


def from_validation_error(error: ValidationError) -> ApiError:
    """A service's ValidationError: its code (the one its errors share, else "invalid") and
    their messages, by field under `fields`."""
    if hasattr(error, "error_dict"):
        fields = {
            name: " ".join(messages)
            for name, messages in error.message_dict.items()
            if name != NON_FIELD_ERRORS
        }
        general = error.message_dict.get(NON_FIELD_ERRORS, [])
        code = _shared_code({item.code for items in error.error_dict.values() for item in items})
        described = [f"{name}: {message}" for name, message in fields.items()]
        message = " ".join([*general, *described]) or "The request is not valid."
        return ApiError(_status(code), code or "invalid", message, fields=fields or None)
    code = _shared_code({item.code for item in error.error_list})
    return ApiError(_status(code), code, " ".join(error.messages))


def _shared_code(codes: set[str | None]) -> str:
    (code,) = codes if len(codes) == 1 else {None}
    return "invalid" if code is None else code


def _status(code: str) -> int:
    statuses = {403: FORBIDDEN_CODES, 422: UNPROCESSABLE_CODES, 409: CONFLICT_CODES}
    return next((status for status, codes in statuses.items() if code in codes), 400)


def _parameters(error: ParametersError) -> ApiError:
    """What the schemas refuse, located by ninja as ("body", parameter, field, ...) or
    ("query", name). A body that is missing or not JSON (its bytes: `config.api.Parser`) is
    not JSON; a "refusal" error carries its own code and message (scoring.api)."""
    fields: dict[str, str] = {}
    for item in error.errors:
        if item["type"] == "refusal":
            return ApiError(400, item["ctx"]["code"], item["ctx"]["message"])
        source, *rest = item["loc"]
        if source == "body":
            rest = rest[1:]  # the parameter's name
            if not rest and (item["type"] == "missing" or isinstance(item.get("input"), bytes)):
                return ApiError(400, "bad_request", NOT_JSON)
            if not rest:  # the body itself
                return ApiError(400, "bad_request", "The request body must be a JSON object.")
        fields.setdefault(str(rest[0] if rest else source), field_message(item))
    return invalid(fields)


TRANSLATIONS: dict[type[Exception], Any] = {
    ApiError: lambda error: error,
    ValidationError: from_validation_error,
    ParametersError: _parameters,
    # The services check their rules first; this is a change made at the same moment.
    IntegrityError: lambda error: ApiError(
        409,
        "conflict",
        "This change clashes with another one made at the same time; nothing was saved. "
        "Reload and try again.",
    ),
    DataError: lambda error: ApiError(
        400, "invalid", "A value is out of range or too long; nothing was saved."
    ),
    # No way in let the caller through: only writes ask for a login.
    AuthenticationError: lambda error: ApiError(
        401,
        "login_required",
        "Log in first: send 'Authorization: Bearer <secret>' with an API token, or use a "
        "logged-in session.",
        headers={"WWW-Authenticate": CHALLENGE},
    ),
    RequestDataTooBig: lambda error: ApiError(400, "bad_request", "The request body is too large."),
}


def answer(request: HttpRequest, error: Any) -> JsonResponse:
    """The API's exception handler for each kind in TRANSLATIONS (or a subclass)."""
    translate = next(TRANSLATIONS[kind] for kind in type(error).__mro__ if kind in TRANSLATIONS)
    return translate(error).response()
