"""The public registration page and the organiser's registrations page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from factories import make_players, make_tournament, make_user
from preset_world import PRESETS

from tournament.models import AuditEntry, Registration
from tournament.services import registrations as service

pytestmark = pytest.mark.django_db

Status = Registration.Status
REGISTER = reverse("public:register", kwargs={"slug": "spring-cup"})
DONE = reverse("public:registered", kwargs={"slug": "spring-cup"})
LIST = reverse("organiser:registrations", kwargs={"slug": "spring-cup"})
SETTINGS = reverse("organiser:registration_settings", kwargs={"slug": "spring-cup"})


@pytest.fixture
def cup(tournament):
    """The Spring Cup (public, alice organises), taking registrations at once."""
    tournament.registration = "instant"
    tournament.save()
    return tournament


def form(**fields):
    return {"family_name": "Berg", "given_name": "Anna", "country": "SE", **fields}


def decide(registration, action):
    return reverse(
        "organiser:registration_decide",
        kwargs={"slug": "spring-cup", "registration": registration.pk, "action": action},
    )


def messages_of(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


# --- The public page ----------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_a_visitor_registers_and_sees_they_are_accepted(client, organiser, preset):
    make_tournament(organisers=[organiser], registration="instant", preset=preset)

    response = client.post(REGISTER, form(contact="anna@example.org"))

    assert response.status_code == 302 and response["Location"] == DONE
    page = client.get(DONE).content.decode()
    assert "Anna Berg" in page and "you have a place in the field" in page
    assert "Your start number is 1." in page
    assert "anna@example.org" not in page
    assert Registration.objects.get().contact == "anna@example.org"


def test_an_accepted_registrant_sees_their_private_link_once_in_their_browser(
    client, organiser, cup
):
    import re

    from django.test import Client

    from tournament.models import AuditEntry

    client.post(REGISTER, form())

    first = client.get(DONE)
    page = first.content.decode()
    url = re.search(r'href="(http://testserver/p/[^"]+/)"', page)
    assert url, page
    assert "no-store" in first["Cache-Control"]
    player = Registration.objects.get().player
    assert player.link_digest and client.get(url[1]).status_code == 200
    again = client.get(DONE).content.decode()
    assert "/p/" not in again and "Your start number is 1." in again  # shown once
    assert "/p/" not in Client().get(DONE).content.decode()  # another browser: nothing
    entry = AuditEntry.objects.filter(action=AuditEntry.Action.PLAYER_LINK).get()
    assert entry.actor is None and url[1].split("/")[-2] not in str(entry.after)


def test_a_registrant_accepted_later_sees_the_link_on_their_next_look(client, organiser, cup):
    cup.registration = "approval"
    cup.save()
    client.post(REGISTER, form())
    assert "/p/" not in client.get(DONE).content.decode()  # pending: no player, no link

    service.accept(Registration.objects.get(), actor=organiser)

    assert "http://testserver/p/" in client.get(DONE).content.decode()


def test_a_link_the_organiser_made_first_is_never_replaced_there(client, organiser, cup):
    from tournament.models import Player
    from tournament.services.player_links import issue_link

    cup.registration = "approval"
    cup.save()
    client.post(REGISTER, form())
    registration = service.accept(Registration.objects.get(), actor=organiser)
    issue_link(registration.player, actor=organiser)  # the organiser printed a slip already
    digest = Player.objects.get(pk=registration.player.pk).link_digest

    assert "/p/" not in client.get(DONE).content.decode()
    assert Player.objects.get(pk=registration.player.pk).link_digest == digest


def test_the_tournament_page_links_to_registration_while_it_is_open(client, cup):
    tournament_page = reverse("public:tournament", kwargs={"slug": "spring-cup"})

    assert REGISTER in client.get(tournament_page).content.decode()
    cup.registration = "off"
    cup.save()
    assert REGISTER not in client.get(tournament_page).content.decode()


def test_in_approval_mode_the_visitor_is_told_it_awaits_approval(client, cup):
    cup.registration = "approval"
    cup.save()

    client.post(REGISTER, form())

    assert "awaits the organiser's approval" in client.get(DONE).content.decode()


def test_past_the_cap_the_visitor_sees_their_place_on_the_waiting_list(client, cup):
    cup.registration_cap = 4
    cup.save()
    make_players(cup, 4)
    service.register(cup, {"family_name": "First"}, address="192.0.2.9")

    client.post(REGISTER, form())

    page = client.get(DONE).content.decode()
    assert "You are on the waiting list, number 2." in page


def test_the_page_says_how_many_places_are_taken_and_when_new_ones_wait(client, cup):
    cup.registration = "approval"
    cup.registration_cap = 4
    cup.save()
    make_players(cup, 2)
    service.register(cup, {"family_name": "Pending"}, address="x")

    open_page = client.get(REGISTER).content.decode()
    service.register(cup, {"family_name": "Pending Too"}, address="x")
    full_page = client.get(REGISTER).content.decode()

    assert "3 of 4 places are taken." in open_page and "join the waiting list" not in open_page
    assert "4 of 4 places are taken." in full_page and "join the waiting list" in full_page


def test_the_result_page_shows_only_this_browsers_registrations(client, cup):
    service.register(cup, {"family_name": "Somebody", "given_name": "Else"}, address="x")

    page = Client().get(DONE).content.decode()

    assert "Somebody" not in page
    assert "No registration was made from this browser." in page


def test_a_registration_page_before_it_opens_says_when(client, cup):
    cup.registration_opens = timezone.now() + timedelta(days=2)
    cup.save()

    response = client.get(REGISTER)
    posted = client.post(REGISTER, form())

    assert response.status_code == 200
    assert "Registration is not open" in response.content.decode()
    assert "Registration opens on" in response.content.decode()
    assert posted.status_code == 200 and not Registration.objects.exists()


def test_a_closed_registration_page_says_so(client, cup):
    cup.registration_closes = timezone.now() - timedelta(hours=1)
    cup.save()

    assert "Registration closed on" in client.get(REGISTER).content.decode()


def test_a_public_tournament_without_registration_says_the_organiser_enters_players(client):
    make_tournament()

    page = client.get(REGISTER).content.decode()

    assert "the organiser enters the players" in page


def test_a_private_tournament_without_registration_is_not_found(client):
    make_tournament(public=False)

    assert client.get(REGISTER).status_code == 404
    assert client.post(REGISTER, form()).status_code == 404


def test_a_private_tournament_taking_registrations_is_reachable_by_its_address(client):
    make_tournament(public=False, registration="instant")

    assert client.get(REGISTER).status_code == 200
    assert client.post(REGISTER, form()).status_code == 302
    assert Registration.objects.get().status == Status.ACCEPTED


def test_the_honeypot_registers_nothing_and_keeps_what_was_typed(client, cup):
    response = client.post(REGISTER, form(website="http://spam.example", club="Stockholm MC"))

    assert response.status_code == 200
    page = response.content.decode()
    assert "Please check your details and send the form again." in page
    assert 'value="Stockholm MC"' in page
    assert "spam.example" not in page
    assert not Registration.objects.exists()
    assert not AuditEntry.objects.exists()


def test_the_honeypot_is_out_of_sight_and_out_of_the_keyboard_order(client, cup):
    page = client.get(REGISTER).content.decode()

    assert 'class="reg-trap" aria-hidden="true"' in page
    assert 'tabindex="-1"' in page


def test_a_duplicate_ema_number_is_refused_on_the_form(client, cup):
    client.post(REGISTER, form(ema_number="04010001"))

    response = Client().post(REGISTER, form(family_name="Other", ema_number="04010001"))

    assert response.status_code == 422
    assert "Someone with the EMA number 04010001 is registered" in response.content.decode()
    assert Registration.objects.count() == 1


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"country": "XX"}, "Select a valid choice"),
        ({"ema_number": "123"}, "An EMA number has eight digits"),
        ({"family_name": "x" * 201}, "at most 200 characters"),
        ({"contact": "y" * 301}, "at most 300 characters"),
        ({"family_name": ""}, "This field is required"),
    ],
)
def test_bad_input_is_refused_with_a_message_and_nothing_saved(client, cup, fields, message):
    response = client.post(REGISTER, form(**fields))

    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Registration.objects.exists()


def test_hostile_text_is_shown_as_text(client, cup):
    client.post(REGISTER, form(family_name="<script>alert(1)</script>"))

    page = client.get(DONE).content.decode()
    players = Client().get(reverse("public:tournament", kwargs={"slug": "spring-cup"}))

    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;" in page
    assert "<script>alert(1)" not in players.content.decode()


def test_the_throttle_answers_429_after_ten_from_one_address(client, cup):
    for number in range(service.THROTTLE_LIMIT):
        assert client.post(REGISTER, form(family_name=f"F{number}")).status_code == 302

    response = client.post(REGISTER, form(family_name="Eleventh"))

    assert response.status_code == 429
    assert "Too many registrations came from your address" in response.content.decode()
    other = Client(REMOTE_ADDR="198.51.100.7").post(REGISTER, form(family_name="Eleventh"))
    assert other.status_code == 302


def test_every_field_says_its_maximum_length(client, cup):
    page = client.get(REGISTER).content.decode()

    assert 'maxlength="300"' in page and "At most 300 characters." in page


# --- The organiser's page -----------------------------------------------------------------------


@pytest.fixture
def logged_in(client, organiser):
    client.force_login(organiser)
    return client


def test_the_list_shows_counts_and_the_distance_to_full_tables(logged_in, cup):
    cup.registration_cap = 6
    cup.save()
    for number in range(7):
        service.register(cup, {"family_name": f"F{number}", "contact": "c@x.org"}, address="a")

    page = logged_in.get(LIST).content.decode()

    assert "6 accepted" in page and "1 on the waiting list" in page
    assert "The field: 6 players of 6 places." in page
    assert "2 more or 2 fewer make full tables of four." in page
    assert "c@x.org" in page  # the organiser sees the contact


def test_the_organiser_navigation_links_to_registrations(logged_in, cup):
    page = logged_in.get(reverse("organiser:players", kwargs={"slug": "spring-cup"}))

    assert LIST in page.content.decode()


def test_the_organiser_accepts_a_pending_registration(logged_in, cup):
    cup.registration = "approval"
    cup.save()
    registration = service.register(cup, {"family_name": "Berg", "given_name": "Anna"}, address="a")

    response = logged_in.post(decide(registration, "accept"))

    assert response.status_code == 302
    assert messages_of(response) == ["Anna Berg is accepted: player 1."]
    registration.refresh_from_db()
    assert registration.status == Status.ACCEPTED


def test_accepting_beyond_the_cap_says_why(logged_in, cup):
    cup.registration = "approval"
    cup.registration_cap = 4
    cup.save()
    make_players(cup, 4)
    registration = service.register(cup, {"family_name": "Berg"}, address="a")

    response = logged_in.post(decide(registration, "accept"))

    assert "The field is full (4 players)" in messages_of(response)[0]
    registration.refresh_from_db()
    assert registration.status == Status.WAITING


@pytest.mark.parametrize(
    ("action", "status"),
    [("waiting", Status.WAITING), ("reject", Status.REJECTED), ("withdraw", Status.WITHDRAWN)],
)
def test_the_organisers_decisions(logged_in, cup, action, status):
    registration = service.register(cup, {"family_name": "Berg"}, address="a")

    logged_in.post(decide(registration, action))

    registration.refresh_from_db()
    assert registration.status == status
    assert not cup.players.exists()


def test_an_unknown_decision_is_not_found(logged_in, cup):
    registration = service.register(cup, {"family_name": "Berg"}, address="a")

    assert logged_in.post(decide(registration, "promote")).status_code == 404


def test_a_decision_by_get_is_refused(logged_in, cup):
    registration = service.register(cup, {"family_name": "Berg"}, address="a")

    response = logged_in.get(decide(registration, "reject"))

    assert response.status_code in (303, 405)
    registration.refresh_from_db()
    assert registration.status == Status.ACCEPTED


@pytest.mark.parametrize("who", ["referee", "stranger"])
def test_only_organisers_decide(client, cup, who):
    registration = service.register(cup, {"family_name": "Berg"}, address="a")
    client.force_login(make_user(who))

    assert client.post(decide(registration, "reject")).status_code == 403
    assert client.get(LIST).status_code == 403
    registration.refresh_from_db()
    assert registration.status == Status.ACCEPTED


def test_editing_a_registration(logged_in, cup):
    registration = service.register(cup, {"family_name": "Berg", "given_name": "Anna"}, address="a")
    url = reverse(
        "organiser:registration", kwargs={"slug": "spring-cup", "registration": registration.pk}
    )
    data = {**service_fields(registration), "family_name": "Lind", "ema_number": "bad"}

    refused = logged_in.post(url, data)
    saved = logged_in.post(url, {**data, "ema_number": "04010001"})

    assert (
        refused.status_code == 422 and "An EMA number is eight digits" in refused.content.decode()
    )
    assert saved.status_code == 302
    registration.refresh_from_db()
    assert (registration.name, registration.player.name) == ("Anna Lind", "Anna Lind")


def service_fields(registration) -> dict[str, str]:
    return {name: getattr(registration, name) for name in service.FIELDS}


def test_the_settings_are_saved_and_refused_with_a_message(logged_in, cup):
    good = {"registration": "approval", "registration_cap": "40",
            "registration_opens": "2026-01-01T10:00", "registration_closes": ""}  # fmt: skip

    saved = logged_in.post(SETTINGS, good)
    refused = logged_in.post(SETTINGS, {**good, "registration_closes": "2025-12-31T10:00"})
    too_small = logged_in.post(SETTINGS, {**good, "registration_cap": "2"})

    assert saved.status_code == 302
    cup.refresh_from_db()
    assert (cup.registration, cup.registration_cap) == ("approval", 40)
    assert cup.registration_opens.year == 2026
    assert refused.status_code == 422
    assert "Registration must close after it opens." in refused.content.decode()
    assert too_small.status_code == 422
    cup.refresh_from_db()
    assert cup.registration_cap == 40


def test_the_list_stays_a_few_queries(logged_in, cup, django_assert_max_num_queries):
    for number in range(30):
        service.register(cup, {"family_name": f"F{number}"}, address=f"192.0.2.{number}")
    logged_in.get(LIST)  # the session and the user, once

    with django_assert_max_num_queries(12):
        page = logged_in.get(LIST)

    assert page.status_code == 200 and "30 accepted" in page.content.decode()
