"""The JSON API under /api/: one django-ninja API of each app's router (/api/score:
`scoring.api`, URL namespace "scoring_api"; /api/tournaments...: `tournament.api`,
"tournament_api") and its OpenAPI document at /api/openapi.json. No interactive docs page: it
would load its script from the internet, which a venue may not have.
"""

from __future__ import annotations

import json
from collections import defaultdict
from functools import wraps
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.urls import URLPattern, URLResolver, include, path, re_path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET
from ninja import NinjaAPI, parser
from ninja.errors import ValidationError, ValidationErrorContext
from ninja.openapi.schema import OpenAPISchema
from ninja.operation import Operation

import scoring.api
import tournament.api
from tournament.api.auth import SAFE_METHODS, Anyone
from tournament.api.errors import TRANSLATIONS, ApiError, answer

DESCRIPTION = """\
Scores Mahjong Competition Rules hands (POST /api/score): fans, totals and the arrangement each
fan was counted on.

The tournament API (paths under /api/tournaments) runs a tournament: players, rounds and
seating, the round clock and live board, hands entered by referees (safely resent with an
Idempotency-Key), penalties, the end of each game, the confirmation of its sheet and the
standings. Reads of a public tournament need no login; writes need an API token (bearerAuth) or
a logged-in session with its CSRF token (cookieAuth). Errors are JSON objects (ErrorAnswer)
with a stable code; a method a path does not serve is answered 405 with the Allow header.
Too many wrong tokens from one address are answered 429 with Retry-After for a few minutes.
"""
ROUTERS = [scoring.api.router, tournament.api.router]
# The namespace of each app's URL names, by the first part of its paths.
NAMESPACES = {"score": "scoring_api", "tournaments": "tournament_api"}
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


class Parser(parser.Parser):
    """A body that is not JSON is passed on as its bytes, for each schema to refuse in its own
    words (ninja's answers a bare 400)."""

    def parse_body(self, request: HttpRequest) -> Any:
        try:
            return json.loads(request.body)
        except (ValueError, RecursionError):
            return request.body


class Document(OpenAPISchema):
    """What ninja's document cannot say: 429's Retry-After header, and the security of a
    gate's ways in."""

    def responses(self, operation: Operation) -> dict[int, dict[str, Any]]:
        answers = super().responses(operation)
        if 429 in answers:  # too many wrong tokens: when to try again
            answers[429]["headers"] = {
                "Retry-After": {
                    "description": "Seconds until tokens from this address are read again.",
                    "schema": {"type": "integer", "minimum": 1},
                }
            }
        return answers

    def operation_security(self, operation: Operation) -> list[dict[str, Any]] | None:
        # Named by `scheme_name`; {} where anyone may call (a gate's reads).
        security: list[dict[str, Any]] = []
        for gate in operation.auth_callbacks:
            for auth in getattr(gate, "callers", [gate]):
                if hasattr(auth, "openapi_security_schema"):
                    name = getattr(auth, "scheme_name", type(auth).__name__)
                    security.append({name: []})
                    self.securitySchemes[name] = auth.openapi_security_schema
                elif isinstance(auth, Anyone) and set(operation.methods) <= SAFE_METHODS:
                    security.append({})
        return security or None


class Api(NinjaAPI):
    def get_content_type(self) -> str:
        return "application/json"  # without ninja's "; charset=utf-8", as it always was

    def get_openapi_schema(
        self, *, path_prefix: str | None = None, path_params: dict[str, Any] | None = None
    ) -> Document:
        if path_prefix is None:
            path_prefix = self.get_root_path(path_params or {})
        return Document(self, path_prefix)

    def get_openapi_operation_id(self, operation: Operation) -> str:
        """The handler's name in camelCase (submitHand), not ninja's module_name."""
        first, *rest = operation.view_func.__name__.split("_")
        return first + "".join(word.title() for word in rest)

    def validation_error_from_error_contexts(
        self, error_contexts: list[ValidationErrorContext]
    ) -> ValidationError:
        """ninja's, keeping the value sent: the error answers quote it."""
        return ValidationError(
            [
                {
                    **item,
                    "loc": (
                        context.model.__ninja_param_source__,
                        *context.model.__ninja_flatten_map_reverse__.get(item["loc"], item["loc"]),
                    ),
                }
                for context in error_contexts
                for item in context.pydantic_validation_error.errors(include_url=False)
            ]
        )


api = Api(
    title="MCR tournament manager and MCR hand scoring",
    version="1.0.0",
    description=DESCRIPTION,
    urls_namespace="api",
    docs_url=None,
    parser=Parser(),
)
for error in TRANSLATIONS:
    api.add_exception_handler(error, answer)
for router in ROUTERS:
    api.add_router("", router)


def _blank(request: HttpRequest) -> bool:
    try:
        return bool(request.body) and not request.body.strip()
    except RequestDataTooBig:  # answered by the API when the operation reads its body
        return False


def _served(view: Any) -> Any:
    """`view` answering HEAD as GET, and a method that it does not serve with a JSON 405:
    ninja does neither."""

    @csrf_exempt  # as ninja's operations are (a login's CSRF token is checked by its auth)
    @wraps(view)
    def serve(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        method = request.method
        if _blank(request):
            request._body = b""  # a body of blanks is no body (read as absent by django-ninja)
        if method == "HEAD":
            request.method = "GET"  # the server sends the headers only
        try:
            response = view(request, *args, **kwargs)
        finally:
            request.method = method
        if not isinstance(response, HttpResponseNotAllowed):
            return response
        allowed = [name for name in METHODS if name in response["Allow"].split(", ")]
        listed = ", ".join(allowed + ["HEAD"] * ("GET" in allowed))
        message = f"{method} is not allowed here; use {listed}."
        return ApiError(405, "method_not_allowed", message, headers={"Allow": listed}).response()

    return serve


@csrf_exempt
def _nothing_here(request: HttpRequest) -> HttpResponse:
    return ApiError(
        404,
        "not_found",
        f"There is nothing at {request.path}. API paths have no trailing slash; see "
        "/api/openapi.json.",
    ).response()


def urlpatterns() -> list[URLPattern | URLResolver]:
    """The API's URLs, for `path("api/", include(...))`: each app's under its own namespace
    (ninja puts all under one), the document's under "api"."""
    namespaces: dict[str, list[Any]] = defaultdict(list)
    for pattern in api.urls[0]:
        assert isinstance(pattern, URLPattern) and pattern.name is not None
        route = str(pattern.pattern)
        namespace = NAMESPACES.get(route.split("/")[0], "api")
        view = pattern.callback
        if pattern.name == "openapi-json":
            view = require_GET(view)
        namespaces[namespace].append(path(route, _served(view), name=pattern.name))
    # Anything else under tournaments/ (a typo, a trailing slash) gets a JSON 404 too.
    namespaces["tournament_api"].append(re_path(r"^tournaments/", _nothing_here, name="unknown"))
    return [path("", include((patterns, name))) for name, patterns in namespaces.items()]
