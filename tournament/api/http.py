"""The API's plumbing: one view per URL dispatching on the method, and reading request bodies.

Every answer is JSON. Whatever goes wrong inside a write is rolled back and answered with an
error code: a refused method (405), a body that is not a JSON object or has wrong fields (400),
a rule the services refuse (400, or 409 for a conflict).
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable, Iterable
from typing import Any

from django.core.exceptions import RequestDataTooBig, ValidationError
from django.db import DataError, IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt

from tournament.api.auth import SAFE_METHODS, authenticate, require_login
from tournament.api.errors import ApiError, from_validation_error

Handler = Callable[..., HttpResponse]


def endpoint(**handlers: Handler) -> Callable[..., HttpResponse]:
    """The view of one URL: `handlers` by method name, such as GET=..., POST=....

    The view authenticates the caller, refuses other methods with 405, asks writes for a login
    (and a CSRF token with a session login), and runs each write in one transaction.
    """
    methods = tuple(handlers)
    allowed = ", ".join([*methods, "HEAD"] if "GET" in handlers else methods)

    @csrf_exempt  # CSRF is checked in require_login, for session logins only
    def view(request: HttpRequest, **kwargs: Any) -> HttpResponse:
        try:
            authenticate(request)
            method = "GET" if request.method == "HEAD" else request.method
            handler = handlers.get(method or "")
            if handler is None:
                raise ApiError(
                    405,
                    "method_not_allowed",
                    f"{request.method} is not allowed here; use {allowed}.",
                    headers={"Allow": allowed},
                )
            if method in SAFE_METHODS:
                return handler(request, **kwargs)
            require_login(request)
            return _write(handler, request, kwargs)
        except ApiError as error:
            return error.response()

    view.methods = methods  # type: ignore[attr-defined]
    return view


@csrf_exempt
def unknown_address(request: HttpRequest) -> HttpResponse:
    return ApiError(
        404,
        "not_found",
        f"There is nothing at {request.path}. API paths have no trailing slash; see "
        "/api/openapi.json.",
    ).response()


def _write(handler: Handler, request: HttpRequest, kwargs: dict[str, Any]) -> HttpResponse:
    try:
        with transaction.atomic():
            return handler(request, **kwargs)
    except ValidationError as error:
        raise from_validation_error(error) from error
    except IntegrityError as error:
        # The services check their rules first; this is a change made at the same moment.
        raise ApiError(
            409,
            "conflict",
            "This change clashes with another one made at the same time; nothing was saved. "
            "Reload and try again.",
        ) from error
    except DataError as error:
        raise ApiError(
            400, "invalid", "A value is out of range or too long; nothing was saved."
        ) from error


# --- Request bodies ------------------------------------------------------------------------

MISSING: Any = object()


def read_json(request: HttpRequest, *, empty: Any = MISSING) -> Any:
    """The decoded JSON body; an empty body gives `empty` when it is allowed, else 400."""
    try:
        raw = request.body
    except RequestDataTooBig as error:
        raise ApiError(400, "bad_request", "The request body is too large.") from error
    if not raw.strip() and empty is not MISSING:
        return empty
    try:
        return json.loads(raw)
    except (ValueError, RecursionError) as error:
        raise ApiError(
            400, "bad_request", "The request body is not valid JSON (UTF-8 text)."
        ) from error


class Fields:
    """Reads the fields of a JSON object, noting a message for each field that is wrong.

    Each reader returns the value, or MISSING when an optional field is absent (so a PATCH can
    leave it alone). Call `check()` when done: it answers 400 naming every wrong field.
    Unknown fields are refused too, so that a misspelt name is not ignored silently.
    """

    def __init__(self, body: Any, allowed: Iterable[str]) -> None:
        if not isinstance(body, dict):
            raise ApiError(400, "bad_request", "The request body must be a JSON object.")
        self.body = body
        self.errors: dict[str, str] = {}
        for name in body:
            if name not in allowed:
                self.errors[name] = "Unknown field."

    def __contains__(self, name: str) -> bool:
        return name in self.body

    def check(self) -> None:
        if self.errors:
            described = "; ".join(f"{name}: {message}" for name, message in self.errors.items())
            raise ApiError(
                400, "invalid", f"Some fields are wrong. {described}", fields=self.errors
            )

    def _get(self, name: str, required: bool, null: bool) -> Any:
        """The value to check, or MISSING when there is nothing to check."""
        if name not in self.body:
            if required:
                self.errors[name] = "This field is required."
            return MISSING
        value = self.body[name]
        if value is None and not null:
            self.errors[name] = "This field cannot be null."
            return MISSING
        return value

    def integer(
        self,
        name: str,
        *,
        required: bool = False,
        default: Any = MISSING,
        null: bool = False,
        minimum: int | None = None,
        maximum: int | None = None,
    ) -> Any:
        value = self._get(name, required, null)
        if value is MISSING:
            return default if name not in self.body else MISSING
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.errors[name] = f"Give a whole number, not {json.dumps(value)}."
            return MISSING
        if minimum is not None and value < minimum:
            self.errors[name] = f"Give a number of at least {minimum}."
            return MISSING
        if maximum is not None and value > maximum:
            self.errors[name] = f"Give a number of at most {maximum}."
            return MISSING
        return value

    def boolean(self, name: str, *, required: bool = False, default: Any = MISSING) -> Any:
        value = self._get(name, required, False)
        if value is MISSING:
            return default if name not in self.body else MISSING
        if not isinstance(value, bool):
            self.errors[name] = f"Give true or false, not {json.dumps(value)}."
            return MISSING
        return value

    def string(
        self,
        name: str,
        *,
        max_length: int,
        required: bool = False,
        default: Any = MISSING,
        null: bool = False,
    ) -> Any:
        value = self._get(name, required, null)
        if value is MISSING:
            return default if name not in self.body else MISSING
        if value is None:
            return None
        if not isinstance(value, str):
            self.errors[name] = f"Give text, not {json.dumps(value)}."
            return MISSING
        if "\x00" in value:
            self.errors[name] = "Text cannot contain NUL characters."
            return MISSING
        if len(value) > max_length:
            self.errors[name] = f"Give at most {max_length} characters."
            return MISSING
        return value

    def choice(
        self, name: str, choices: Iterable[str], *, required: bool = False, null: bool = False
    ) -> Any:
        choices = list(choices)
        value = self._get(name, required, null)
        if value is MISSING or value is None:
            return value
        if not isinstance(value, str) or value not in choices:
            self.errors[name] = f"Choose one of: {', '.join(choices)}."
            return MISSING
        return value

    def date(self, name: str) -> Any:
        value = self._get(name, False, True)
        if value is MISSING or value is None:
            return value
        try:
            return datetime.date.fromisoformat(value)
        except (TypeError, ValueError):
            self.errors[name] = f"Give a date as YYYY-MM-DD, not {json.dumps(value)}."
            return MISSING

    def list_of(
        self,
        name: str,
        kind: type,
        *,
        required: bool = False,
        max_items: int = 100,
        max_length: int = 200,
    ) -> Any:
        """A list of whole numbers (kind int), texts (str) or objects (dict)."""
        value = self._get(name, required, False)
        if value is MISSING:
            return value
        what = {int: "whole numbers", str: "texts", dict: "objects"}[kind]
        if (
            not isinstance(value, list)
            or len(value) > max_items
            or not all(isinstance(item, kind) and not isinstance(item, bool) for item in value)
            or (kind is str and any(len(item) > max_length or "\x00" in item for item in value))
        ):
            self.errors[name] = f"Give a list of at most {max_items} {what}."
            return MISSING
        return value

    def object(self, name: str) -> Any:
        value = self._get(name, False, True)
        if value is MISSING or value is None:
            return value
        if not isinstance(value, dict):
            self.errors[name] = "Give a JSON object."
            return MISSING
        return value


def present(**values: Any) -> dict[str, Any]:
    """The values that were given (not MISSING), for services that take only what changes."""
    return {name: value for name, value in values.items() if value is not MISSING}
