"""JSON API: POST /api/score scores one hand; GET /api/openapi.json describes it.

The API only computes, so it needs no login and is exempt from CSRF. Status codes are
described in `scoring.openapi`: 200 for a scored hand (including a false win), 400 for a
request that cannot be scored, 405 for anything but POST.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET

from scoring import engine
from scoring.engine_messages import engine_message
from scoring.openapi import SCORED_ERRORS, served_schema

# Situation fields accepted next to "compact"; the engine checks their values.
SITUATION_FIELDS = (
    "self_drawn",
    "seat_wind",
    "prevalent_wind",
    "flowers",
    "last_tile_of_kind",
    "kong_related",
    "last_wall_tile",
)


class RejectedRequest(Exception):
    """A request body that cannot be scored; carries the error code and message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def error_body(code: str, message: str) -> dict[str, str]:
    return {"error": code, "message": message}


def score_payload(payload: Any) -> tuple[int, dict[str, Any]]:
    """Score a decoded request body; return the HTTP status and the JSON body.

    Used by the API view and by the calculator page's no-JavaScript fallback, so both
    answer the same way. The engine's messages are in the active language (the request's
    Accept-Language or the site's language cookie); the codes stay the stable part.
    """
    try:
        result = _score(payload)
    except RejectedRequest as exc:
        return 400, error_body(exc.code, exc.message)
    body = result.to_dict()
    body["message"] = engine_message(result)
    if body["error"] is None or body["error"] in SCORED_ERRORS:
        return 200, body
    return 400, error_body(body["error"], body["message"])


def _score(payload: Any) -> engine.ScoreResult:
    if not isinstance(payload, dict):
        raise RejectedRequest("BAD_INPUT", "The request body must be a JSON object.")
    profile = payload.get("profile")
    if profile is None:
        profile = engine.DEFAULT_PROFILE
    if not isinstance(profile, str) or profile not in engine.PROFILES:
        choices = ", ".join(engine.PROFILES)
        raise RejectedRequest("BAD_INPUT", f"Unknown profile; choose one of: {choices}.")
    if "compact" not in payload:
        return engine.score_case(payload, profile=profile)
    situation = {name: payload[name] for name in SITUATION_FIELDS if name in payload}
    try:
        hand = engine.parse_compact(payload["compact"], **situation)
    except engine.HandError as exc:
        raise RejectedRequest(exc.code, engine_message(exc)) from exc
    return engine.score_hand(hand, profile=profile)


def _json(body: dict[str, Any], status: int) -> JsonResponse:
    return JsonResponse(body, status=status, json_dumps_params={"ensure_ascii": False})


@csrf_exempt
def score(request: HttpRequest) -> JsonResponse:
    if request.method != "POST":
        response = _json(error_body("METHOD_NOT_ALLOWED", "Send the hand with POST."), 405)
        response["Allow"] = "POST"
        return response
    try:
        payload = json.loads(request.body)
    except (ValueError, RecursionError):
        return _json(error_body("BAD_INPUT", "The request body is not valid JSON."), 400)
    status, body = score_payload(payload)
    return _json(body, status)


@csrf_exempt  # so a POST gets a plain 405, not a CSRF failure page
@require_GET
def openapi_schema(request: HttpRequest) -> JsonResponse:
    return _json(served_schema(), 200)
