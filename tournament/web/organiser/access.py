"""Who may open an organiser page, and what a page does with a service's answer."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_http_methods

from tournament.models import Round, Table, Tournament
from tournament.reads.access import ORGANISER, tournament_access
from tournament.web.organiser.forms.common import add_service_error

# The status of a page that shows a form again because what was sent is refused.
INVALID = 422


def organised_tournament(request: HttpRequest, slug: str) -> Tournament:
    """The tournament `slug` if the user organises it.

    404 when it does not exist or the user may not even read it (a private tournament does
    not reveal that it exists); 403 when the user may read it but does not organise it.
    """
    return tournament_access(request.user, slug, role=ORGANISER).tournament


def organiser_page(*methods: str) -> Callable:
    """Log in first, allow only `methods`, then pass the organised tournament to the view."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @login_required
        @require_http_methods(list(methods))
        @wraps(view)
        def page(request: HttpRequest, slug: str, **kwargs: Any) -> HttpResponse:
            return view(request, organised_tournament(request, slug), **kwargs)

        return page

    return decorate


def round_of(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(Round, tournament=tournament, number=number)


def table_of(tournament: Tournament, round_number: int, number: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round__tournament"),
        round__tournament=tournament,
        round__number=round_number,
        number=number,
    )


def call_service(
    form: forms.Form,
    service: Callable[[], Any],
    fields_by_code: dict[str, str] | None = None,
) -> bool:
    """Run `service` if the form is valid; a refusal is shown on the form. True when it ran."""
    if not form.is_valid():
        return False
    try:
        service()
    except ValidationError as error:
        add_service_error(form, error, fields_by_code)
        return False
    return True
