"""An address holding a NUL character is refused before any view sees it.

PostgreSQL cannot store or compare text holding NUL (psycopg raises DataError), so a view that
looks up a tournament, a player or an account by a part of its address would fail with a 500
when that part holds `%00`. No address of the site has a NUL in it, so rather than each
converter or view checking, one middleware answers:

- a NUL in the path (as decoded): 404, the address names nothing (under /api/ the API's JSON
  `not_found`, elsewhere the site's 404 page);
- a NUL in the query string (as decoded): under /api/, 400 `bad_request`; on the pages, the
  parameters holding one are left out, as a page leaves out any value it does not take
  (`tournament.web.query`): the page is drawn as without them.

Bodies are left to the forms (Django's text fields refuse a NUL with a message) and the API's
schemas (`tournament.api.fields`), which name the field.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import unquote_plus

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, QueryDict

NUL = "\x00"
API_PREFIX = "/api/"


def has_nul(request: HttpRequest) -> tuple[bool, bool]:
    """Whether the path, and whether the query string, hold a NUL once decoded."""
    query = request.META.get("QUERY_STRING", "")
    return NUL in request.path_info or NUL in request.path, NUL in unquote_plus(query)


class RefuseNulMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        in_path, in_query = has_nul(request)
        if not (in_path or in_query):
            return self.get_response(request)
        api = request.path_info.startswith(API_PREFIX)
        if in_path:
            if api:
                return JsonResponse(
                    {"error": "not_found", "message": "Nothing is at this address."},
                    status=404,
                )
            # Turned into the site's 404 page by Django's handler around this middleware.
            raise Http404("No address holds a NUL character.")
        if api:
            return JsonResponse(
                {
                    "error": "bad_request",
                    "message": "The query string holds a NUL character, which no value may hold.",
                },
                status=400,
            )
        kept = QueryDict(mutable=True)
        for name, values in request.GET.lists():
            storable = [value for value in values if NUL not in value]
            if NUL not in name and storable:
                kept.setlist(name, storable)
        kept._mutable = False
        request.GET = kept  # type: ignore[assignment]  # immutable again, as Django's own
        return self.get_response(request)
