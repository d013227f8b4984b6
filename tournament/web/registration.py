"""The public registration page of a tournament: the form, then what became of it.

The page is reachable by its address whenever the tournament takes registrations (its
`registration` is not "off"), also when the tournament is not public and so not listed: the
organiser gives the address to the players. With registration off, a tournament the visitor
may not read is not found, as its other pages are.

Bots: the form has a field people do not see (`website`, off screen, left out of the
keyboard's order and of autofill). A form that fills it is not registered; it is shown again,
as sent, asking to check and send again, so a person whose browser filled it loses nothing and
a bot learns nothing. One address registers at most `THROTTLE_LIMIT` times an hour in a
tournament (the service counts: many share one address at a venue, so the limit is generous);
beyond it the page says so, answered 429. Every field has a maximum length, said beside it.
"""

from __future__ import annotations

from typing import Any

import segno
from django import forms
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_safe

from tournament.domain.names import country_choices
from tournament.infra.throttle import client_ip
from tournament.models import Registration, Tournament
from tournament.reads.access import Access
from tournament.services import player_links
from tournament.services import registrations as service
from tournament.web.organiser.forms.common import add_service_error

TOO_MANY = 429
INVALID = 422
# The registrations made in this browser, newest last (what the result page shows).
SESSION_KEY = "registrations"
MOST_KEPT = 20


class RegistrationForm(forms.Form):
    family_name = forms.CharField(
        label=_("Family name"),
        max_length=service.max_length("family_name"),
        help_text=_("As you write it: 王, Berg, van der Berg."),
    )
    given_name = forms.CharField(
        label=_("Given name"), max_length=service.max_length("given_name"), required=False
    )
    country = forms.ChoiceField(label=_("Country"), required=False)
    club = forms.CharField(label=_("Club"), max_length=service.max_length("club"), required=False)
    team = forms.CharField(label=_("Team"), max_length=service.max_length("team"), required=False)
    ema_number = forms.CharField(
        label=_("EMA number"),
        max_length=service.max_length("ema_number"),
        required=False,
        help_text=_("Eight digits, such as 04010001, if you have one."),
    )
    contact = forms.CharField(
        label=_("How to reach you"),
        max_length=service.max_length("contact"),
        required=False,
        help_text=_("An e-mail address or a telephone number: seen by the organiser only."),
    )
    # The trap: people do not see it; bots fill every field.
    website = forms.CharField(
        label=_("Leave this empty"),
        required=False,
        max_length=200,
        widget=forms.TextInput(attrs={"autocomplete": "off", "tabindex": "-1"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        country = self.fields["country"]
        assert isinstance(country, forms.ChoiceField)
        country.choices = [("", "—"), *country_choices()]
        for name, field in self.fields.items():
            if isinstance(field, forms.CharField) and field.max_length and name != "website":
                field.widget.attrs.setdefault("maxlength", str(field.max_length))

    def trapped(self) -> bool:
        return bool(self.data.get("website", "").strip())

    def registration_data(self) -> dict[str, str]:
        return {name: self.cleaned_data[name] for name in service.FIELDS if name != "name"}


def _tournament(request: HttpRequest, slug: str) -> Tournament:
    """The tournament at `slug`: found when it takes registrations, or when the visitor may
    read it (to say that it does not)."""
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        raise Http404("No such tournament.")
    if tournament.registration == Tournament.RegistrationMode.OFF:
        if not Access(request.user, tournament).readable:
            raise Http404("No such tournament.")
    return tournament


def _remember(request: HttpRequest, registration: Registration) -> None:
    kept = [pk for pk in request.session.get(SESSION_KEY, []) if pk != registration.pk]
    request.session[SESSION_KEY] = [*kept, registration.pk][-MOST_KEPT:]


@require_http_methods(["GET", "HEAD", "POST"])
def register_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(request, slug)
    now = timezone.now()
    context: dict[str, Any] = {"tournament": tournament}
    if not service.is_open(tournament, now):
        context["closed"] = service.closed_message(tournament, now)
        return render(request, "tournament/public/register.html", context)
    status = 200
    if request.method == "POST":
        form = RegistrationForm(request.POST)
        if form.trapped():
            # Nothing is registered; what was sent is shown again as it was.
            form = RegistrationForm(request.POST.dict() | {"website": ""})
            context["check_again"] = True
        elif form.is_valid():
            try:
                made = service.register(
                    tournament, form.registration_data(), address=client_ip(request)
                )
            except ValidationError as error:
                add_service_error(form, error)
                codes = {item.code for item in getattr(error, "error_list", [])}
                status = TOO_MANY if "too_many_registrations" in codes else INVALID
            else:
                _remember(request, made)
                return redirect("public:registered", slug=tournament.slug)
        else:
            status = INVALID
    else:
        form = RegistrationForm()
    cap = tournament.registration_cap
    taken = service.places_taken(tournament) if cap is not None else 0
    context |= {
        "form": form,
        "cap": cap,
        "taken": min(taken, cap or 0),
        "full": taken >= (cap or 1),
    }
    return render(request, "tournament/public/register.html", context, status=status)


@require_safe
def registered_page(request: HttpRequest, slug: str) -> HttpResponse:
    """What became of the registrations made in this browser: accepted, pending, or waiting
    with their place on the waiting list."""
    tournament = _tournament(request, slug)
    kept = request.session.get(SESSION_KEY, [])
    found = list(
        Registration.objects.filter(tournament=tournament, pk__in=kept).select_related("player")
    )
    found.sort(key=lambda registration: -kept.index(registration.pk))
    rows = [
        (registration, service.waiting_place(registration), _first_link(request, registration))
        for registration in found
    ]
    response = render(
        request,
        "tournament/public/registered.html",
        {"tournament": tournament, "rows": rows, "open": service.is_open(tournament)},
    )
    # The page may show a private link once: no copy may stay in a cache, and the address it
    # was shown at is not sent on.
    add_never_cache_headers(response)
    response["Referrer-Policy"] = "same-origin"
    return response


def _first_link(request: HttpRequest, registration: Registration) -> dict[str, str] | None:
    """The private link of an accepted registration's player who has none yet, made now and
    shown this once (its address and QR code) in the browser that registered; None after."""
    if request.method != "GET" or registration.player is None:
        return None
    if registration.status != Registration.Status.ACCEPTED:
        return None
    secret = player_links.first_link(registration.player, actor=None)
    if secret is None:
        return None
    url = request.build_absolute_uri(reverse("player_link", args=[secret]))
    qr = segno.make(url, error="m").svg_inline(
        scale=4, svgclass="reg-qr", title=str(_("Your private link")), lineclass=None
    )
    return {"url": url, "qr_svg": mark_safe(qr)}  # noqa: S308 (segno's markup, address escaped)
