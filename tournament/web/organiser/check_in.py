"""The check-in desk on the day: who has come, checked in with one tap, found by name, key or
EMA number, or by scanning the QR code of their private link.

The page (`desk`) holds a search-or-scan field, the camera and photo scanner
(static/tournament/check_in.js with the vendored jsQR, on this page only) and a live part: the
desk's state, the counts and the players found. htmx asks for the live part every few seconds
and as the organiser types; when nothing changed it is 304 (tournament.web.live.answer_live).
A tap checks a player in or out (`player`): htmx swaps that player's row and the counts, a
browser without scripts is sent back to the page. What the field holds when it is submitted
(`scan`) is a private link (checked in at once) or a search.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import F, OuterRef
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe
from django_permissions_policy import PermissionsPolicyMiddleware

from tournament.domain.names import natural_key
from tournament.domain.text import storable
from tournament.models import Player, Tournament
from tournament.reads.permissions import organises
from tournament.services.check_in import (
    NotALink,
    check_in_counts,
    desk_check_in,
    link_secret,
    player_for_link,
    set_desk_open,
    set_self_check_in,
)
from tournament.web.form_only import HttpResponseSeeOther
from tournament.web.htmx import AuthenticatedHtmxRequest
from tournament.web.live import answer_live
from tournament.web.organiser.access import organiser_page
from tournament.web.public import render_live
from tournament.web.standings_list import folded

# How often the live part asks for fresh content, in seconds.
REFRESH_SECONDS = 10
# The most of the field's text that is read: a link's address is well within it.
MOST_TEXT = 500


def _search(request: AuthenticatedHtmxRequest) -> str:
    return " ".join(request.GET.get("q", "").split())[:MOST_TEXT]


def _missing(data: Any) -> bool:
    """Whether the desk lists only the players not checked in (`missing=1`)."""
    return data.get("missing") == "1"


def _desk_address(tournament: Tournament, search: str = "", missing: bool = False) -> str:
    address = reverse("organiser:check_in", args=[tournament.slug])
    query = {"q": search} if search else {}
    if missing:
        query["missing"] = "1"
    return f"{address}?{urlencode(query)}" if query else address


def _back(tournament: Tournament, search: str = "", missing: bool = False) -> HttpResponse:
    return HttpResponseSeeOther(_desk_address(tournament, search, missing))


def matching(players: list[Player], search: str) -> list[Player]:
    """The players whose key or EMA number is `search`, or whose name holds every word of it
    (case and accents aside)."""
    if not search:
        return players
    key = search.casefold()
    digits = search.replace(" ", "")
    words = folded(search).split()
    return [
        player
        for player in players
        if player.key.casefold() == key
        or (player.ema_number and player.ema_number == digits)
        or all(word in folded(player.name) for word in words)
    ]


def _found(tournament: Tournament, search: str) -> tuple[list[Player], str]:
    """The players the desk lists for `search`, and a note when it finds nobody because it is
    a link: another kind of address, or a link no player of this tournament has. A bare word
    that could be a link's secret is also searched as a name."""
    try:
        secret = link_secret(search)
    except NotALink:
        return [], str(NOT_A_LINK)
    if secret is not None:
        player = player_for_link(tournament, secret)
        if player is not None:
            return [player], ""
        if not bare(search):
            return [], str(UNKNOWN_LINK)
    players = sorted(tournament.players.all(), key=lambda player: natural_key(player.key))
    found = matching(players, search)
    if secret is not None and not found:
        return [], str(NO_NAME_OR_LINK)
    return found, ""


def bare(text: str) -> bool:
    """Whether `text` is a bare word (a link's secret, or a long name), not an address."""
    return "/" not in text


NOT_A_LINK = gettext_lazy("This is not a player's check-in link.")
UNKNOWN_LINK = gettext_lazy(
    "This link is not the link of a player of this tournament (it may be another "
    "tournament's, or one replaced since)."
)
NO_NAME_OR_LINK = gettext_lazy("No player of this tournament has this name, number or link.")


def _context(tournament: Tournament, search: str, missing: bool) -> dict[str, Any]:
    players, note = _found(tournament, search)
    if missing:
        players = [p for p in players if p.checked_in_at is None and not p.withdrawn]
    return {
        "tournament": tournament,
        "counts": check_in_counts(tournament),
        "players": players,
        "search": search,
        "search_note": note,
        "missing": missing,
        "refresh_seconds": REFRESH_SECONDS,
    }


def camera_allowed() -> str:
    """The Permissions-Policy of the desk page: the site's, with the camera allowed to this
    site (the QR scanner)."""
    return PermissionsPolicyMiddleware.compute_header_value(
        {**settings.PERMISSIONS_POLICY, "camera": ["self"]}, name="the check-in desk's policy"
    )


@organiser_page("GET", "HEAD")
def _desk(request: AuthenticatedHtmxRequest, tournament: Tournament) -> HttpResponse:
    response = render_live(
        request,
        "tournament/organiser/check_in.html",
        "tournament/organiser/check_in_content.html",
        _context(tournament, _search(request), _missing(request.GET)),
    )
    # Read by django_permissions_policy's middleware, in place of the site's policy.
    response._permissions_policy_override = camera_allowed()  # type: ignore[attr-defined]
    return response


@login_required
@require_safe
def desk(request: AuthenticatedHtmxRequest, slug: str) -> HttpResponse:
    """The desk; its live update is 304 when nothing it shows has changed."""
    return answer_live(request, _desk_tag(request, slug), lambda: _desk(request, slug))


def _desk_tag(request: AuthenticatedHtmxRequest, slug: str) -> str | None:
    """The live version of the tournament, from one query that also checks that the user
    organises it (every check-in, player and setting change moves it). None (render, no 304)
    for a whole page, or when the user may not see the desk (the view then refuses)."""
    if not request.htmx:
        return None
    row = (
        Tournament.objects.filter(slug=slug)
        .annotate(
            version=F("live_version__number"), allowed=organises(request.user, OuterRef("pk"))
        )
        .values_list("pk", "version", "allowed")
        .first()
    )
    if row is None or not row[2]:
        return None
    return f"desk-{row[0]}.{row[1] or 0}"


@organiser_page("POST")
def scan(request: AuthenticatedHtmxRequest, tournament: Tournament) -> HttpResponse:
    """The field's text, submitted: a player's private link checks them in at once (the QR
    code scanned by the camera or a barcode scanner); anything else is a search."""
    text = request.POST.get("q", "").strip()[:MOST_TEXT]
    missing = _missing(request.POST)
    if not storable(text):
        messages.error(request, str(NOT_A_LINK))
        return _back(tournament, missing=missing)
    try:
        secret = link_secret(text)
    except NotALink:
        messages.error(request, str(NOT_A_LINK))
        return _back(tournament, missing=missing)
    player = player_for_link(tournament, secret) if secret is not None else None
    if player is None and (secret is None or bare(text)):
        # A search; a bare word that is nobody's link is searched too (it may be a name), and
        # the results say so when it finds nobody.
        return _back(tournament, " ".join(text.split()), missing)
    if player is None:
        messages.error(request, str(UNKNOWN_LINK))
        return _back(tournament, missing=missing)
    already = player.checked_in_at is not None
    try:
        desk_check_in(player, True, actor=request.user, source="qr")
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return _back(tournament, missing=missing)
    if already:
        messages.info(
            request,
            _("%(key)s %(name)s was already checked in.")
            % {"key": player.key, "name": player.name},
        )
    else:
        messages.success(
            request,
            _("%(key)s %(name)s is checked in.") % {"key": player.key, "name": player.name},
        )
    return _back(tournament, missing=missing)


class TapForm(forms.Form):
    """One tap at the desk: check the player in (1) or out (0)."""

    checked_in = forms.TypedChoiceField(
        choices=[("1", "in"), ("0", "out")],
        coerce=lambda value: value == "1",
        error_messages={
            "required": gettext_lazy("Say whether to check the player in or out."),
            "invalid_choice": gettext_lazy("Say whether to check the player in or out."),
        },
    )


@organiser_page("POST")
def player(request: AuthenticatedHtmxRequest, tournament: Tournament, key: str) -> HttpResponse:
    """Check one player in or out: for htmx their row (and the counts) again, else back to
    the desk with the search the tap was made in."""
    found = get_object_or_404(Player, tournament=tournament, key=key)
    search = " ".join(request.POST.get("q", "").split())[:MOST_TEXT]
    missing = _missing(request.POST)
    form = TapForm(request.POST)
    error = ""
    done = None
    if not form.is_valid():
        error = " ".join(str(message) for message in form.errors["checked_in"])
    else:
        try:
            done = desk_check_in(found, form.cleaned_data["checked_in"], actor=request.user)
        except ValidationError as refused:
            error = " ".join(refused.messages)
    if request.htmx:
        return render(
            request,
            "tournament/organiser/check_in_row.html",
            {
                "tournament": tournament,
                "player": done or found,
                "search": search,
                "missing": missing,
                "error": error,
                "counts": check_in_counts(tournament),
                "oob": True,
            },
        )
    if error:
        messages.error(request, error)
    elif done is not None:
        words = (
            _("%(key)s %(name)s is checked in.")
            if done.checked_in_at
            else _("%(key)s %(name)s is checked out.")
        )
        messages.success(request, words % {"key": done.key, "name": done.name})
    return _back(tournament, search, missing)


class DeskForm(forms.Form):
    """A switch of the desk: `desk` open or closed, or `self_check_in` on or off."""

    setting = forms.ChoiceField(choices=[("desk", "desk"), ("self_check_in", "self_check_in")])
    on = forms.TypedChoiceField(choices=[("1", "on"), ("0", "off")], coerce=lambda v: v == "1")


SWITCHED = {
    ("desk", True): gettext_lazy("The check-in desk is open."),
    ("desk", False): gettext_lazy("The check-in desk is closed."),
    ("self_check_in", True): gettext_lazy(
        "Players may now check themselves in from their private link."
    ),
    ("self_check_in", False): gettext_lazy(
        "Players can no longer check themselves in from their link."
    ),
}


@organiser_page("POST")
def switch(request: AuthenticatedHtmxRequest, tournament: Tournament) -> HttpResponse:
    """Open or close the desk; allow or stop self check-in."""
    form = DeskForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a setting of the desk to change."))
        return _back(tournament)
    setting, on = form.cleaned_data["setting"], form.cleaned_data["on"]
    try:
        if setting == "desk":
            set_desk_open(tournament, on, actor=request.user)
        else:
            set_self_check_in(tournament, on, actor=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, str(SWITCHED[setting, on]))
    return _back(tournament)
