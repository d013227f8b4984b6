"""A plain visit to an address that only takes a submitted form: never a bare browser error.

The views that only take a POST answer anything else with Django's empty 405, which a browser
shows as its own error page. That happens when somebody reopens the address a refused form
was drawn at (Enter in the address bar, Back then Forward, a bookmark). For the web pages, not
the JSON API under /api/ (its 405 answers stay as they are) and not a request from htmx, a GET
or HEAD answered with that empty 405 becomes:

- a 303 redirect to the nearest page above the address (the page the form lives on), when
  the user may open that page;
- that page's own refusal otherwise (the login redirect, 403 or 404), so the redirect never
  tells somebody without access that a private page exists;
- when no page above answers a visit, a page in the site's layout, status 405, saying that
  the address only takes a submitted form, with a link back.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from django.core.handlers.exception import response_for_exception
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect
from django.shortcuts import render
from django.urls import Resolver404, resolve

VISITS = ("GET", "HEAD")
API_PREFIX = "/api/"


class HttpResponseSeeOther(HttpResponseRedirect):
    status_code = 303


def is_bare_refusal(request: HttpRequest, response: HttpResponse) -> bool:
    return (
        request.method in VISITS
        and isinstance(response, HttpResponseNotAllowed)
        and not response.content
        and not request.path_info.startswith(API_PREFIX)
        # htmx asking a form-only address is the page's own mistake, not somebody's visit:
        # a redirect would swap a whole page into a part of it.
        and "HX-Request" not in request.headers
    )


def ancestors(path: str) -> list[str]:
    """The addresses above `path`, nearest first: /a/b/c/ -> /a/b/, /a/ (the home page is no
    page a form lives on)."""
    parts = [part for part in path.split("/") if part]
    return [
        "/" + "".join(f"{part}/" for part in parts[:end]) for end in range(len(parts) - 1, 0, -1)
    ]


def visit(request: HttpRequest, path_info: str) -> HttpResponse | None:
    """The answer of the page at `path_info` to the same user's GET, or None if none is there."""
    try:
        match = resolve(path_info)
    except Resolver404:
        return None
    inner = copy.copy(request)
    inner.method = "GET"
    inner.path = request.path[: len(request.path) - len(request.path_info)] + path_info
    inner.path_info = path_info
    inner.resolver_match = match
    try:
        return match.func(inner, *match.args, **match.kwargs)
    except Exception as error:  # noqa: BLE001 - Http404, PermissionDenied: the page's refusal
        return response_for_exception(inner, error)


def keep_messages(request: HttpRequest) -> None:
    """Drawing the page above read the flash messages; leave them for the page shown next."""
    storage = getattr(request, "_messages", None)
    if storage is not None:
        storage.used = False


def answer_visit(request: HttpRequest) -> HttpResponse:
    for path_info in ancestors(request.path_info):
        response = visit(request, path_info)
        keep_messages(request)
        if response is None or response.status_code == 405:
            continue
        if response.status_code == 200:
            prefix = request.path[: len(request.path) - len(request.path_info)]
            return HttpResponseSeeOther(prefix + path_info)
        return response  # the page's own refusal: login redirect, 403, 404
    response = render(request, "405.html", status=405)
    response["Allow"] = "POST"
    return response


class FormOnlyMiddleware:
    """Turns the empty 405 of a visit to a POST-only web address into a redirect or a page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if is_bare_refusal(request, response):
            return answer_visit(request)
        return response
