"""JSON answers and the errors of the API: `{"error": code, "message": text}`, plus `fields`
(a message per wrong field) when the request named fields that are wrong."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.http import JsonResponse

# Service codes answered with 409 rather than 400: the request was right but came too late, or
# its idempotency key was already used for something else.
CONFLICT_CODES = frozenset({"conflict", "submission_key_reused"})
# Service codes answered with 403: the caller may not do this (who confirms a game sheet).
FORBIDDEN_CODES = frozenset({"not_allowed_to_confirm", "confirm_own_sheet"})


def answer(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> JsonResponse:
    return JsonResponse(
        body,
        status=status,
        safe=False,
        headers=headers,
        json_dumps_params={"ensure_ascii": False},
    )


class ApiError(Exception):
    """A request the API refuses; the view turns it into the JSON error answer."""

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
        return answer(body, self.status, self.headers)


def from_validation_error(error: ValidationError) -> ApiError:
    """A service's ValidationError as an API error: 409 for a conflict, 403 for a refused
    role, else 400.

    A single error keeps its code. Errors by field list each field's messages under `fields`;
    their code is the one code they share, or "invalid".
    """
    if hasattr(error, "error_dict"):
        fields = {
            name: " ".join(messages)
            for name, messages in error.message_dict.items()
            if name != NON_FIELD_ERRORS
        }
        general = error.message_dict.get(NON_FIELD_ERRORS, [])
        codes = {item.code for items in error.error_dict.values() for item in items}
        code = codes.pop() if len(codes) == 1 and None not in codes else "invalid"
        described = [f"{name}: {message}" for name, message in fields.items()]
        message = " ".join([*general, *described]) or "The request is not valid."
        return ApiError(_status(code), code or "invalid", message, fields=fields or None)
    codes = {item.code for item in error.error_list}
    code = codes.pop() if len(codes) == 1 and None not in codes else "invalid"
    return ApiError(_status(code), code, " ".join(error.messages))


def _status(code: str) -> int:
    if code in FORBIDDEN_CODES:
        return 403
    return 409 if code in CONFLICT_CODES else 400
