"""A plain visit to an address that only takes a submitted form: never a bare browser error.

The views that only take a POST answer anything else with Django's empty 405, which a browser
shows as its own error page. That happens when somebody reopens the address a refused form
was drawn at (Enter in the address bar, Back then Forward, a bookmark). For the web pages, not
the JSON API under /api/ (its 405 answers stay as they are) and not a request from htmx, a GET
or HEAD answered with that empty 405 becomes:

- a 303 redirect to the nearest address above it that the site knows (the page the form lives
  on). Nothing is drawn to decide: the page is drawn when the browser gets there, with its own
  access check (the login redirect, 403 or 404 for whoever may not see it), and the redirect
  tells nobody anything, since it is made from the address they typed. A page above that only
  takes a form too is left the same way, one step further up;
- when no address above is known, a page in the site's layout, status 405, saying that the
  address only takes a submitted form, with a link back.
"""

from __future__ import annotations

from collections.abc import Callable

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


def nearest_page(path_info: str) -> str | None:
    """The nearest address above `path_info` that resolves, or None."""
    for candidate in ancestors(path_info):
        try:
            resolve(candidate)
        except Resolver404:
            continue
        return candidate
    return None


def answer_visit(request: HttpRequest) -> HttpResponse:
    page = nearest_page(request.path_info)
    if page is not None:
        prefix = request.path[: len(request.path) - len(request.path_info)]
        return HttpResponseSeeOther(prefix + page)
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
