"""Accounts: referee logins made by an organiser, and the user's own API tokens."""

from __future__ import annotations

from urllib.parse import urlencode

import segno
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from tournament.infra.throttle import locked_out_usernames
from tournament.infra.tokens import issue_token
from tournament.models import ApiToken, RefereeAccount, Table, Tournament
from tournament.reads.access import AuthenticatedRequest
from tournament.reads.selectors import tournament_referees
from tournament.services.accounts import (
    attach_referee_account,
    create_referee_account,
    create_referee_accounts,
    reset_referee_password,
    revoke_token,
    set_referee_active,
    unlock_login,
)
from tournament.web.organiser.access import INVALID, call_service, organiser_page
from tournament.web.organiser.forms.accounts import (
    AttachRefereeForm,
    RefereeAccountForm,
    RefereeAccountsForm,
    TokenForm,
)

# The secret of a new token waits here for the one page view that shows it.
NEW_SECRET = "organiser_new_token_secret"
# So do the passwords of new referee accounts (and of reset ones), for their login slips.
NEW_SLIPS = "organiser_new_referee_slips"


def _tables_by_referee(tournament: Tournament) -> dict[int, list[tuple[int, list[int]]]]:
    """For each user id: (round number, table numbers) for the rounds they referee in."""
    rows = (
        Table.referees.through.objects.filter(table__round__tournament=tournament)
        .order_by("table__round__number", "table__number")
        .values_list("user_id", "table__round__number", "table__number")
    )
    found: dict[int, dict[int, list[int]]] = {}
    for user_id, round_number, table_number in rows:
        found.setdefault(user_id, {}).setdefault(round_number, []).append(table_number)
    return {user_id: list(rounds.items()) for user_id, rounds in found.items()}


def _remember_slips(request: AuthenticatedRequest, made: list[tuple[User, str]]) -> None:
    request.session[NEW_SLIPS] = [
        {"username": user.get_username(), "name": user.first_name, "password": password}
        for user, password in made
    ]


def _referees_page(
    request: AuthenticatedRequest,
    tournament: Tournament,
    *,
    form: RefereeAccountForm | None = None,
    bulk_form: RefereeAccountsForm | None = None,
    attach_form: AttachRefereeForm | None = None,
    status: int = 200,
) -> HttpResponse:
    referees = tournament_referees(tournament)
    tables = _tables_by_referee(tournament)
    return render(
        request,
        "tournament/organiser/referees.html",
        {
            "tournament": tournament,
            "form": form or RefereeAccountForm(),
            "bulk_form": bulk_form or RefereeAccountsForm(initial={"username_prefix": "referee"}),
            "attach_form": attach_form or AttachRefereeForm(),
            "rows": [
                {
                    "user": user,
                    "tables": tables.get(user.pk, []),
                    "made_here": _made_here(user, tournament),
                }
                for user in referees
            ],
            "locked_out": locked_out_usernames(user.get_username() for user in referees),
            "last_round": tournament.rounds.order_by("-number").first(),
        },
        status=status,
    )


def _made_here(user: User, tournament: Tournament) -> bool:
    account = getattr(user, "referee_account", None)
    return account is not None and account.tournament_id == tournament.pk


@organiser_page("GET", "HEAD", "POST")
def referees(request: AuthenticatedRequest, tournament: Tournament) -> HttpResponse:
    """The tournament's referees with their tables; one account made here with a password the
    organiser chooses."""
    if request.method != "POST":
        return _referees_page(request, tournament)
    form = RefereeAccountForm(request.POST)
    if call_service(
        form,
        lambda: create_referee_account(
            tournament=tournament,
            username=form.cleaned_data["username"],
            password=form.cleaned_data["password"],
            actor=request.user,
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
    return _referees_page(request, tournament, form=form, status=INVALID)


@organiser_page("POST")
def create_referees(request: AuthenticatedRequest, tournament: Tournament) -> HttpResponse:
    """Many referee accounts at once, each with a new password; then their login slips."""
    form = RefereeAccountsForm(request.POST)
    made: list[tuple[User, str]] = []
    if call_service(
        form,
        lambda: made.extend(
            create_referee_accounts(
                tournament=tournament,
                usernames=form.cleaned_data["usernames"],
                names=form.cleaned_data["people"],
                actor=request.user,
            )
        ),
    ):
        _remember_slips(request, made)
        messages.success(
            request,
            ngettext(
                "%(count)s referee account is created.",
                "%(count)s referee accounts are created.",
                len(made),
            )
            % {"count": len(made)},
        )
        return redirect("organiser:referee_slips", slug=tournament.slug)
    return _referees_page(request, tournament, bulk_form=form, status=INVALID)


@organiser_page("POST")
def attach_referee(request: AuthenticatedRequest, tournament: Tournament) -> HttpResponse:
    """Add an existing login (a referee account of another tournament) to this tournament's
    referees, by its username."""
    form = AttachRefereeForm(request.POST)
    if call_service(
        form,
        lambda: attach_referee_account(
            tournament=tournament, username=form.cleaned_data["username"], actor=request.user
        ),
    ):
        messages.success(
            request,
            _(
                "%(username)s is now one of this tournament's referees. Assign it to tables on "
                "the round pages."
            )
            % {"username": form.cleaned_data["username"].strip()},
        )
        return redirect("organiser:referees", slug=tournament.slug)
    return _referees_page(request, tournament, attach_form=form, status=INVALID)


@organiser_page("POST")
def reset_password(
    request: AuthenticatedRequest, tournament: Tournament, username: str
) -> HttpResponse:
    """A new password for one of the referee accounts made for this tournament."""
    account = RefereeAccount.objects.filter(tournament=tournament, user__username=username).first()
    if account is None:
        raise Http404("No referee account of this tournament has that username.")
    try:
        password = reset_referee_password(account=account, actor=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("organiser:referees", slug=tournament.slug)
    _remember_slips(request, [(account.user, password)])
    messages.success(
        request,
        _("%(username)s has a new password; the old one no longer works.") % {"username": username},
    )
    return redirect("organiser:referee_slips", slug=tournament.slug)


@organiser_page("POST")
def set_active(
    request: AuthenticatedRequest, tournament: Tournament, username: str
) -> HttpResponse:
    """Deactivate one of the referee accounts made for this tournament (it can no longer log
    in; its tables and results stay), or make it active again ("active" = "1")."""
    account = RefereeAccount.objects.filter(tournament=tournament, user__username=username).first()
    if account is None:
        raise Http404("No referee account of this tournament has that username.")
    active = request.POST.get("active") == "1"
    try:
        set_referee_active(account=account, active=active, actor=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("organiser:referees", slug=tournament.slug)
    if active:
        message = _("%(username)s may log in again.")
    else:
        message = _("%(username)s is deactivated: it can no longer log in.")
    messages.success(request, message % {"username": username})
    return redirect("organiser:referees", slug=tournament.slug)


@never_cache  # the page shows new passwords once: no copy may stay in a cache
@organiser_page("GET")  # not HEAD: a HEAD would use up the passwords unseen
def slips(request: AuthenticatedRequest, tournament: Tournament) -> HttpResponse:
    """Login slips of the accounts just made or given a new password, shown this once: on A4,
    username, password and a QR code of the login page."""
    entries = request.session.pop(NEW_SLIPS, None) or []
    login_url = request.build_absolute_uri(
        f"{reverse('login')}?{urlencode({'next': reverse('referee:index')})}"
    )
    qr = segno.make(login_url, error="m").svg_inline(
        scale=3, svgclass="slip-qr", title=str(_("Login page")), lineclass=None
    )
    host = request.get_host().rsplit(":", 1)[0].strip("[]")
    return render(
        request,
        "tournament/organiser/referee_slips.html",
        {
            "tournament": tournament,
            "slips": entries,
            "login_url": login_url,
            "qr_svg": mark_safe(qr),  # segno's own markup; the address in it is escaped
            "local_only": host in ("localhost", "::1") or host.startswith("127."),
        },
    )


@organiser_page("POST")
def unlock_referee(
    request: AuthenticatedRequest, tournament: Tournament, username: str
) -> HttpResponse:
    """Lift the login lockout of one of the tournament's referees."""
    referee = (
        get_user_model()
        .objects.filter(
            Q(refereed_tables__round__tournament=tournament)
            | Q(referee_account__tournament=tournament)
            | Q(referee_listings__tournament=tournament),
            username=username,
        )
        .distinct()
        .first()
    )
    if referee is None:
        raise Http404("No referee of this tournament has that username.")
    unlock_login(username=referee.get_username(), tournament=tournament, actor=request.user)
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
