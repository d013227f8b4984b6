"""Registrations: the list with its counts, the organiser's decisions (accept, reject, to the
waiting list, into the field, withdraw), editing one, and the registration settings (mode,
when it opens and closes, the cap). The rules are the service's
(tournament/services/registrations.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _

from tournament.domain.names import country_choices
from tournament.models import Registration, Tournament
from tournament.services import registrations as service
from tournament.web.organiser.access import INVALID, call_service, organiser_page


class DateTimeInput(forms.DateTimeInput):
    """The browser's date and time picker; its value is always ISO 8601, whatever the
    language (see DateInput in forms/tournament.py)."""

    input_type = "datetime-local"

    def __init__(self, attrs: dict | None = None) -> None:
        super().__init__(attrs, format="%Y-%m-%dT%H:%M")


class SettingsForm(forms.Form):
    registration = forms.ChoiceField(
        label=_("Registration"), choices=Tournament.RegistrationMode.choices
    )
    registration_opens = forms.DateTimeField(
        label=_("Opens"),
        required=False,
        widget=DateTimeInput(),
        help_text=_("Empty: open now."),
    )
    registration_closes = forms.DateTimeField(
        label=_("Closes"),
        required=False,
        widget=DateTimeInput(),
        help_text=_("Empty: open until registration is switched off."),
    )
    registration_cap = forms.IntegerField(
        label=_("Places in the field"),
        required=False,
        min_value=4,
        max_value=2000,
        help_text=_(
            "Players beyond it join the waiting list in order of arrival. Empty: no limit."
        ),
    )

    @staticmethod
    def initial_for(tournament: Tournament) -> dict[str, Any]:
        return {name: getattr(tournament, name) for name in service.SETTINGS}


class EditForm(forms.Form):
    name = forms.CharField(
        label=_("Name"),
        max_length=service.max_length("name"),
        required=False,
        help_text=_("In its natural order; empty: made from the family and given names."),
    )
    family_name = forms.CharField(
        label=_("Family name"), max_length=service.max_length("family_name"), required=False
    )
    given_name = forms.CharField(
        label=_("Given name"), max_length=service.max_length("given_name"), required=False
    )
    country = forms.ChoiceField(label=_("Country"), required=False)
    club = forms.CharField(label=_("Club"), max_length=service.max_length("club"), required=False)
    team = forms.CharField(label=_("Team"), max_length=service.max_length("team"), required=False)
    ema_number = forms.CharField(
        label=_("EMA number"), max_length=service.max_length("ema_number"), required=False
    )
    contact = forms.CharField(
        label=_("Contact"),
        max_length=service.max_length("contact"),
        required=False,
        help_text=_("Seen by the organisers only."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—"), *country_choices()]
        kept = self.initial.get("country") or (self.data.get("country") if self.is_bound else "")
        if kept and kept not in dict(choices):
            choices.insert(1, (kept, _("%(text)s (not a country code)") % {"text": kept}))
        country = self.fields["country"]
        assert isinstance(country, forms.ChoiceField)
        country.choices = choices

    @staticmethod
    def initial_for(registration: Registration) -> dict[str, Any]:
        return {name: getattr(registration, name) for name in service.FIELDS}


# The organiser's decisions by the name in their address, with what is said once done.
ACTIONS: dict[str, tuple[Callable[..., Registration], Any]] = {
    "accept": (service.accept, _("%(name)s is accepted: player %(key)s.")),
    "field": (service.move_to_field, _("%(name)s is moved into the field: player %(key)s.")),
    "waiting": (service.move_to_waiting, _("%(name)s is on the waiting list.")),
    "reject": (service.reject, _("%(name)s's registration is rejected.")),
    "withdraw": (service.withdraw, _("%(name)s's registration is withdrawn.")),
}


def _list(
    request: HttpRequest,
    tournament: Tournament,
    *,
    settings_form: SettingsForm | None = None,
    status: int = 200,
) -> HttpResponse:
    registrations = list(tournament.registrations.select_related("player"))
    waiting = [r for r in registrations if r.status == Registration.Status.WAITING]
    places = {registration.pk: place for place, registration in enumerate(waiting, start=1)}
    rows = [(registration, places.get(registration.pk)) for registration in registrations]
    return render(
        request,
        "tournament/organiser/registrations.html",
        {
            "tournament": tournament,
            "rows": rows,
            "counts": service.counts(tournament),
            "open": service.is_open(tournament),
            "settings_form": settings_form
            or SettingsForm(initial=SettingsForm.initial_for(tournament)),
        },
        status=status,
    )


@organiser_page("GET", "HEAD")
def index(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return _list(request, tournament)


def _to_list(tournament: Tournament) -> HttpResponse:
    return redirect("organiser:registrations", slug=tournament.slug)


@organiser_page("POST")
def settings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = SettingsForm(request.POST)
    if call_service(
        form,
        lambda: service.update_settings(tournament, actor=request.user, **form.cleaned_data),
    ):
        messages.success(request, _("The registration settings are saved."))
        return _to_list(tournament)
    tournament.refresh_from_db()
    return _list(request, tournament, settings_form=form, status=INVALID)


def _registration(tournament: Tournament, pk: int) -> Registration:
    return get_object_or_404(
        Registration.objects.select_related("player"), tournament=tournament, pk=pk
    )


@organiser_page("POST")
def decide(
    request: HttpRequest, tournament: Tournament, registration: int, action: str
) -> HttpResponse:
    if action not in ACTIONS:
        raise Http404("No such action.")
    found = _registration(tournament, registration)
    act, said = ACTIONS[action]
    form = forms.Form(request.POST)
    done: list[Registration] = []
    if call_service(form, lambda: done.append(act(found, actor=request.user))):
        made = done[0]
        key = made.player.key if made.player else ""
        messages.success(request, said % {"name": made.name, "key": key})
    else:
        for message in form.non_field_errors():
            messages.error(request, str(message))
    return _to_list(tournament)


@organiser_page("GET", "POST")
def edit(request: HttpRequest, tournament: Tournament, registration: int) -> HttpResponse:
    found = _registration(tournament, registration)
    if request.method == "POST":
        form = EditForm(request.POST)
        if call_service(form, lambda: service.edit(found, actor=request.user, **form.cleaned_data)):
            messages.success(request, _("%(name)s's registration is saved.") % {"name": found.name})
            return _to_list(tournament)
        found.refresh_from_db()
        status = INVALID
    else:
        form = EditForm(initial=EditForm.initial_for(found))
        status = 200
    return render(
        request,
        "tournament/organiser/registration_form.html",
        {"tournament": tournament, "form": form, "registration": found},
        status=status,
    )
