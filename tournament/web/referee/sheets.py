"""Referee pages around the game sheet: the live part of the table screen (time left, hands
played, scores, sheet status; 304 when none of it changed) and the confirmation of other
tables' sheets by a second referee.

Anonymous -> log in; a tournament or table the user may not see, or that does not exist -> 404;
no role (not a referee of the table, or not allowed to confirm sheets here) -> 403.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Exists, F, OuterRef
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST, require_safe

from tournament import services
from tournament.models import Table, Tournament
from tournament.reads.access import AuthenticatedRequest, tournament_access
from tournament.reads.clock import table_clock
from tournament.reads.permissions import is_organiser, organises, referees_in
from tournament.reads.selectors import format_points, table_results
from tournament.services.games import may_confirm
from tournament.web.live import answer_live, clock_tag, last_change
from tournament.web.referee.screen import live_context, referee_table, table_state


@require_safe
@login_required
def table_live(request: HttpRequest, **where: Any) -> HttpResponse:
    """The live part of the table screen as an HTML fragment (the screen polls it with htmx);
    304 when nothing it shows has changed."""

    def rendered() -> HttpResponse:
        table = referee_table(request, **where)
        context = live_context(table, table_state(table))
        return render(request, "tournament/referee/_live.html", context)

    return answer_live(request, _live_tag(request, **where), rendered)


def _live_tag(request: HttpRequest, *, slug: str, round: int, table: int) -> str | None:
    """What the live part shows, from one query that also checks that the user referees the
    table or organises the tournament: the tournament's live version, the table's last audit
    entry (its hands and penalties) and the table's clock. None (render, no 304) when the user
    may not see it: the view then refuses as it does."""
    user = request.user
    if not user.is_authenticated or not user.is_active:
        return None
    referees = Table.referees.through.objects.filter(table=OuterRef("pk"), user=user.pk)
    found = (
        Table.objects.filter(round__tournament__slug=slug, round__number=round, number=table)
        .select_related("round__tournament")
        .annotate(
            version=F("round__tournament__live_version__number"),
            changed=last_change(table=OuterRef("pk")),
            organiser=organises(user, OuterRef("round__tournament")),
            referee=Exists(referees),
        )
        .first()
    )
    if found is None or not (found.organiser or found.referee):
        return None
    version = f"{found.version or 0}.{found.changed or 0}"
    return f"referee-{version}-{clock_tag(table_clock(found))}"


# --- Confirmation by a second referee -----------------------------------------------------


def confirms_sheets(user: User, tournament: Tournament) -> bool:
    """Whether `user` may confirm game sheets in `tournament` at all (not their own, though)."""
    if is_organiser(user, tournament):
        return True
    return tournament.confirmation == Tournament.Confirmation.SECOND_REFEREE and referees_in(
        user, tournament
    )


def confirming_tournament(request: AuthenticatedRequest, slug: str) -> Tournament:
    tournament = tournament_access(request.user, slug).tournament
    if not confirms_sheets(request.user, tournament):
        raise PermissionDenied(_("You do not confirm game sheets in this tournament."))
    return tournament


@dataclass(frozen=True)
class SubmittedSheet:
    table: Table
    results: list[dict[str, Any]]
    hands: int
    confirmable: bool  # False: submitted by the user, somebody else confirms it

    @property
    def sheet_url(self) -> str:
        return reverse(
            "public:table",
            args=[self.table.round.tournament.slug, self.table.round.number, self.table.number],
        )

    @property
    def confirm_url(self) -> str:
        return reverse(
            "referee:confirm",
            args=[self.table.round.tournament.slug, self.table.round.number, self.table.number],
        )


def submitted_sheets(user: User, tournament: Tournament) -> list[SubmittedSheet]:
    """Submitted, unconfirmed sheets of `tournament` that `user` may confirm, and the user's own
    submitted sheets waiting for somebody else (marked `mine`)."""
    tables = (
        Table.objects.filter(
            round__tournament=tournament, ended_at__isnull=False, confirmed_at__isnull=True
        )
        .select_related("round__tournament", "submitted_by")
        .order_by("round__number", "number")
    )
    sheets = []
    for table in tables:
        confirmable = may_confirm(user, table)
        if not confirmable and table.submitted_by_id != user.pk:
            continue
        results = [
            {"result": result, "points": format_points(result.table_points)}
            for result in table_results(table)
        ]
        sheets.append(
            SubmittedSheet(
                table=table, results=results, hands=table.deals.count(), confirmable=confirmable
            )
        )
    return sheets


def render_sheets(
    request: AuthenticatedRequest, tournament: Tournament, *, errors: list[str] | None = None
) -> HttpResponse:
    sheets = submitted_sheets(request.user, tournament)
    context = {
        "tournament": tournament,
        "to_confirm": [sheet for sheet in sheets if sheet.confirmable],
        "waiting": [sheet for sheet in sheets if not sheet.confirmable],
        "errors": errors or [],
    }
    return render(request, "tournament/referee/sheets.html", context, status=422 if errors else 200)


@require_safe
@login_required
def sheets(request: AuthenticatedRequest, slug: str) -> HttpResponse:
    """Submitted game sheets of the tournament waiting for the user's confirmation."""
    return render_sheets(request, confirming_tournament(request, slug))


# What a refused confirmation says, by the service's code.
REFUSALS = {
    "not_submitted": gettext_lazy(
        "Table %(table)s has not submitted its game sheet yet: there is nothing to confirm."
    ),
    "confirm_own_sheet": gettext_lazy(
        "You submitted the sheet of table %(table)s: another referee or the organiser confirms it."
    ),
    "not_allowed_to_confirm": gettext_lazy(
        "Only the organiser confirms game sheets in this tournament."
    ),
}


@require_POST
@login_required
def confirm(request: AuthenticatedRequest, slug: str, round: int, table: int) -> HttpResponse:
    """Confirm another table's submitted sheet: from then on the game counts in the standings."""
    found = get_object_or_404(
        Table.objects.select_related("round__tournament"),
        round__tournament__slug=slug,
        round__number=round,
        number=table,
    )
    tournament = confirming_tournament(request, slug)
    try:
        services.confirm_game(table=found, confirmed_by=request.user)
    except ValidationError as error:
        if error.code == "already_confirmed":
            messages.info(
                request,
                _("The sheet of table %(table)s was already confirmed; nothing changed.")
                % {"table": found.number},
            )
            return redirect("referee:sheets", slug=slug)
        text = REFUSALS.get(error.code or "")
        errors = [str(text) % {"table": found.number}] if text else list(error.messages)
        return render_sheets(request, tournament, errors=errors)
    messages.success(
        request,
        _(
            "The sheet of table %(table)s, round %(round)s, is confirmed: it counts in the "
            "standings."
        )
        % {"table": found.number, "round": found.round.number},
    )
    return redirect("referee:sheets", slug=slug)
