"""Accounts: referee logins made by an organiser, and the user's own API tokens."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from tournament.access import AuthenticatedRequest
from tournament.models import ApiToken, Tournament
from tournament.services.accounts import create_referee_account, revoke_token, unlock_login
from tournament.throttle import locked_out_usernames
from tournament.tokens import issue_token
from tournament.web.organiser.access import INVALID, call_service, organiser_page
from tournament.web.organiser.forms.accounts import RefereeAccountForm, TokenForm

# The secret of a new token waits here for the one page view that shows it.
NEW_SECRET = "organiser_new_token_secret"


@organiser_page("GET", "POST")
def referees(request: AuthenticatedRequest, tournament: Tournament) -> HttpResponse:
    if request.method == "POST":
        form = RefereeAccountForm(request.POST)
        if call_service(
            form,
            lambda: create_referee_account(
                username=form.cleaned_data["username"], password=form.cleaned_data["password"]
            ),
        ):
            messages.success(
                request,
                _(
                    "The referee account %(username)s is created. Assign it to tables on the "
                    "round pages."
                )
                % {"username": form.cleaned_data["username"].strip()},
            )
            return redirect("organiser:referees", slug=tournament.slug)
        status = INVALID
    else:
        form = RefereeAccountForm()
        status = 200
    assigned = (
        get_user_model()
        .objects.filter(refereed_tables__round__tournament=tournament)
        .annotate(
            table_count=Count(
                "refereed_tables", filter=Q(refereed_tables__round__tournament=tournament)
            )
        )
        .order_by("username")
    )
    return render(
        request,
        "tournament/organiser/referees.html",
        {
            "tournament": tournament,
            "form": form,
            "assigned": assigned,
            "locked_out": locked_out_usernames(user.get_username() for user in assigned),
        },
        status=status,
    )


@organiser_page("POST")
def unlock_referee(
    request: AuthenticatedRequest, tournament: Tournament, username: str
) -> HttpResponse:
    """Lift the login lockout of one of the tournament's referees."""
    referee = (
        get_user_model()
        .objects.filter(username=username, refereed_tables__round__tournament=tournament)
        .first()
    )
    if referee is None:
        raise Http404("No referee of this tournament has that username.")
    unlock_login(username=referee.get_username())
    messages.success(
        request,
        _("%(username)s may log in again.") % {"username": referee.get_username()},
    )
    return redirect("organiser:referees", slug=tournament.slug)


@login_required
@never_cache  # the page shows a new token's secret once: no copy may stay in a cache
@require_http_methods(["GET", "HEAD", "POST"])
def tokens(request: AuthenticatedRequest) -> HttpResponse:
    if request.method == "POST":
        form = TokenForm(request.POST)
        if form.is_valid():
            token, secret = issue_token(user=request.user, name=form.cleaned_data["name"])
            request.session[NEW_SECRET] = secret
            messages.success(request, _("The token “%(name)s” is created.") % {"name": token.name})
            return redirect("organiser:tokens")
        status = INVALID
    else:
        form = TokenForm()
        status = 200
    return render(
        request,
        "tournament/organiser/tokens.html",
        {
            "form": form,
            "secret": request.session.pop(NEW_SECRET, None),
            "tokens": ApiToken.objects.filter(user=request.user).order_by("-created"),
        },
        status=status,
    )


@login_required
@require_POST
def revoke(request: AuthenticatedRequest, token: int) -> HttpResponse:
    record = get_object_or_404(ApiToken, pk=token, user=request.user)
    revoke_token(token=record)
    messages.success(
        request,
        _("The token “%(name)s” (%(prefix)s…) is revoked.")
        % {"name": record.name, "prefix": record.prefix},
    )
    return redirect("organiser:tokens")
