"""Players: the list, adding one, changing one, removing one added by mistake, importing many
from CSV."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _

from tournament.domain.names import natural_key
from tournament.models import Player, Tournament
from tournament.services import add_player, import_players_csv, remove_player, update_player
from tournament.web.organiser.access import INVALID, call_service, organiser_page
from tournament.web.organiser.forms.players import ImportPlayersForm, PlayerForm

SAMPLE_CSV = """key,name,family_name,given_name,country,club,team,ema_number,substitute
1,Anna van der Berg,,,SE,Stockholm MC,Nordic,04010001,no
2,王小明,王,小明,CN,,,,no
3,Dieter Hahn,,,DE,Riichi Berlin,,02020034,no
4,Eva Novak,,,CZ,,,,yes
"""


@organiser_page("GET", "HEAD")
def index(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(
        request,
        "tournament/organiser/players.html",
        {
            "tournament": tournament,
            "players": sorted(tournament.players.all(), key=lambda p: natural_key(p.key)),
        },
    )


def _to_list(tournament: Tournament) -> HttpResponse:
    return redirect("organiser:players", slug=tournament.slug)


@organiser_page("GET", "POST")
def add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    if request.method == "POST":
        form = PlayerForm(request.POST, tournament=tournament)
        added: list[Player] = []
        if call_service(
            form,
            lambda: added.append(
                add_player(tournament=tournament, actor=request.user, **form.cleaned_data)
            ),
        ):
            messages.success(
                request,
                _("%(key)s %(name)s is added.") % {"key": added[0].key, "name": added[0].name},
            )
            if "another" in request.POST:
                return redirect("organiser:player_add", slug=tournament.slug)
            return _to_list(tournament)
        status = INVALID
    else:
        form = PlayerForm(tournament=tournament)
        status = 200
    return render(
        request,
        "tournament/organiser/player_form.html",
        {"tournament": tournament, "form": form},
        status=status,
    )


@organiser_page("GET", "POST")
def edit(request: HttpRequest, tournament: Tournament, key: str) -> HttpResponse:
    record = get_object_or_404(Player, tournament=tournament, key=key)
    if request.method == "POST":
        form = PlayerForm(request.POST, tournament=tournament, player=record)
        if call_service(
            form, lambda: update_player(player=record, actor=request.user, **form.cleaned_data)
        ):
            messages.success(
                request, _("%(key)s %(name)s is saved.") % {"key": record.key, "name": record.name}
            )
            return _to_list(tournament)
        record.refresh_from_db()  # the refused values were set on it: the page shows the stored
        status = INVALID
    else:
        form = PlayerForm(
            initial=PlayerForm.initial_for(record), tournament=tournament, player=record
        )
        status = 200
    return render(
        request,
        "tournament/organiser/player_form.html",
        {"tournament": tournament, "form": form, "player": record},
        status=status,
    )


@organiser_page("POST")
def remove(request: HttpRequest, tournament: Tournament, key: str) -> HttpResponse:
    record = get_object_or_404(Player, tournament=tournament, key=key)
    form = forms.Form(request.POST)
    if call_service(form, lambda: remove_player(player=record, actor=request.user)):
        messages.success(
            request,
            _("%(key)s %(name)s is removed.") % {"key": record.key, "name": record.name},
        )
        return _to_list(tournament)
    return render(
        request,
        "tournament/organiser/player_form.html",
        {
            "tournament": tournament,
            "form": PlayerForm(
                initial=PlayerForm.initial_for(record), tournament=tournament, player=record
            ),
            "player": record,
            "remove_form": form,
        },
        status=INVALID,
    )


@organiser_page("GET", "POST")
def import_csv(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    if request.method == "POST":
        form = ImportPlayersForm(request.POST, request.FILES)
        imported: list[Player] = []
        if call_service(
            form,
            lambda: imported.extend(
                import_players_csv(
                    tournament=tournament, text=form.cleaned_data["csv"], actor=request.user
                )
            ),
        ):
            messages.success(
                request, _("%(count)s players are imported.") % {"count": len(imported)}
            )
            return _to_list(tournament)
        if form.cleaned_data.get("csv") and not form.data.get("text", "").strip():
            # The lines came from a file: put them in the box so they can be fixed there.
            refused = form.non_field_errors().as_data()
            form = ImportPlayersForm({"text": form.cleaned_data["csv"]})
            form.is_valid()
            form.add_error(None, refused)
        status = INVALID
    else:
        form = ImportPlayersForm()
        status = 200
    return render(
        request,
        "tournament/organiser/players_import.html",
        {"tournament": tournament, "form": form, "sample": SAMPLE_CSV},
        status=status,
    )
