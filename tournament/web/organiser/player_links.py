"""The players' private links, from the players page: a new link (or none) for one player, new
links for the whole field, and the slips that show them once, each with its QR code.

A link's secret is never stored (services.player_links keeps its digest): the new ones wait in
the session for the one view of the slips page, as the referees' new passwords do."""

from __future__ import annotations

from typing import Any

import segno
from django import forms
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.cache import never_cache

from tournament.models import Player, Tournament
from tournament.reads.access import AuthenticatedRequest
from tournament.services.player_links import issue_link, issue_links, revoke_link
from tournament.web.organiser.access import call_service, organiser_page
from tournament.web.player_link import REFERRER_POLICY

# The secrets of new links wait here for the one page view that shows them.
NEW_LINKS = "organiser_new_player_links"


class LinkForm(forms.Form):
    action = forms.ChoiceField(
        choices=[("issue", gettext_lazy("New link")), ("revoke", gettext_lazy("Revoke"))],
        error_messages={"invalid_choice": gettext_lazy("Unknown action.")},
    )


class FieldLinksForm(forms.Form):
    """Links for the players without one, or with `everyone` (and `confirm`) new links for
    every player, whose old links stop working."""

    everyone = forms.BooleanField(required=False)
    confirm = forms.BooleanField(required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("everyone") and not data.get("confirm"):
            raise forms.ValidationError(
                gettext_lazy("Tick the box to confirm: every player's old link will stop working."),
                code="confirm",
            )
        return data


def _remember(request: AuthenticatedRequest, made: dict[Player, str]) -> None:
    request.session[NEW_LINKS] = [
        {"key": player.key, "name": player.name, "secret": secret}
        for player, secret in made.items()
    ]


def _to_players(tournament: Tournament) -> HttpResponse:
    return redirect("organiser:players", slug=tournament.slug)


@organiser_page("POST")
def player_link(request: AuthenticatedRequest, tournament: Tournament, key: str) -> HttpResponse:
    """A new private link for one player (shown once on the slips page), or none."""
    player = get_object_or_404(Player, tournament=tournament, key=key)
    form = LinkForm(request.POST)
    made: list[str] = []

    def run() -> None:
        if form.cleaned_data["action"] == "issue":
            made.append(issue_link(player, actor=request.user))
        else:
            revoke_link(player, actor=request.user)

    if not call_service(form, run):
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
        return _to_players(tournament)
    if made:
        _remember(request, {player: made[0]})
        return redirect("organiser:player_link_slips", slug=tournament.slug)
    messages.success(
        request,
        _("%(key)s %(name)s's private link is revoked: it opens nothing any more.")
        % {"key": player.key, "name": player.name},
    )
    return _to_players(tournament)


@organiser_page("POST")
def field_links(request: AuthenticatedRequest, tournament: Tournament) -> HttpResponse:
    """New links for the players without one (or for everyone, confirmed), then their slips."""
    form = FieldLinksForm(request.POST)
    made: dict[Player, str] = {}
    if not call_service(
        form,
        lambda: made.update(
            issue_links(
                tournament, actor=request.user, only_missing=not form.cleaned_data["everyone"]
            )
        ),
    ):
        for error in form.non_field_errors():
            messages.error(request, str(error))
        return _to_players(tournament)
    if not made:
        messages.info(request, _("Every player has a link already: no new link was made."))
        return _to_players(tournament)
    _remember(request, made)
    messages.success(
        request,
        ngettext("%(count)s new link.", "%(count)s new links.", len(made)) % {"count": len(made)},
    )
    return redirect("organiser:player_link_slips", slug=tournament.slug)


@never_cache  # the page shows the new links once: no copy may stay in a cache
@organiser_page("GET", "HEAD")
def slips(request: AuthenticatedRequest, tournament: Tournament) -> HttpResponse:
    """The slips of the links just made, shown this once: on A4, the player's name and key, the
    address and its QR code. A HEAD uses none of them up."""
    entries = [] if request.method == "HEAD" else request.session.pop(NEW_LINKS, None) or []
    shown = []
    for entry in entries:
        url = request.build_absolute_uri(reverse("player_link", args=[entry["secret"]]))
        qr = segno.make(url, error="m").svg_inline(
            scale=3, svgclass="slip-qr", title=str(_("Your private link")), lineclass=None
        )
        # segno's own markup; the address in it is escaped
        shown.append({**entry, "url": url, "qr_svg": mark_safe(qr)})  # noqa: S308
    host = request.get_host().rsplit(":", 1)[0].strip("[]")
    response = render(
        request,
        "tournament/organiser/player_link_slips.html",
        {
            "tournament": tournament,
            "slips": shown,
            "local_only": host in ("localhost", "::1") or host.startswith("127."),
        },
    )
    response["Referrer-Policy"] = REFERRER_POLICY  # the links are on it
    return response
