"""Login throttling (django-axes): wrong passwords lock a username out from one address."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from factories import make_user

from tournament.web.login import KNOWN_COOKIE

PASSWORD = "correct-horse-42"
LOCKED = "logging in is locked for"


@pytest.fixture
def alice(organiser):
    """alice (the organiser of tests/conftest.py), whose password is PASSWORD."""
    return organiser


def log_in(client, password, *, username="alice", address="203.0.113.7", **headers):
    return client.post(
        reverse("login"),
        {"username": username, "password": password},
        REMOTE_ADDR=address,
        **headers,
    )


def test_six_wrong_passwords_lock_out_and_the_right_one_is_then_refused(client, alice):
    assert settings.AXES_FAILURE_LIMIT == 5
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert log_in(client, "wrong").status_code == 200
    answers = [log_in(client, "wrong") for _ in range(2)]

    response = log_in(client, PASSWORD)

    assert [answer.status_code for answer in answers] == [429, 429]
    assert response.status_code == 429
    assert LOCKED in response.text
    assert "15 minutes" in response.text
    assert "_auth_user_id" not in client.session
    assert 'name="username"' in response.text and 'value="alice"' in response.text


def test_fewer_wrong_passwords_than_the_limit_still_let_the_right_one_in(client, alice):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        log_in(client, "wrong")

    response = log_in(client, PASSWORD)

    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_a_successful_login_starts_the_count_again(client, alice):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        log_in(client, "wrong")
    log_in(client, PASSWORD)
    client.logout()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        log_in(client, "wrong")

    assert log_in(client, PASSWORD).status_code == 302


def test_the_lockout_is_per_address_and_username(client, alice):
    make_user("bob", password=PASSWORD)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, "wrong")

    assert log_in(client, PASSWORD, address="198.51.100.9").status_code == 302
    client.logout()
    assert log_in(client, PASSWORD, username="bob").status_code == 302


def test_reset_unlocks(client, alice):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, "wrong")
    assert log_in(client, PASSWORD).status_code == 429

    call_command("axes_reset_username", "alice")

    assert log_in(client, PASSWORD).status_code == 302


def test_the_admin_lists_the_lockout_and_deleting_it_unlocks(client, alice):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, "wrong")
    admin = make_user("root", password="x", is_staff=True, is_superuser=True)
    staff = client.__class__()
    staff.force_login(admin)
    listing = staff.get(reverse("admin:axes_accessattempt_changelist"))
    assert listing.status_code == 200 and "alice" in listing.text
    (attempt,) = AccessAttempt.objects.filter(username="alice")
    staff.post(reverse("admin:axes_accessattempt_delete", args=[attempt.pk]), {"post": "yes"})

    assert log_in(client, PASSWORD).status_code == 302


def test_forwarded_for_is_ignored_unless_a_proxy_is_declared(client, alice):
    """A client cannot escape the lockout by inventing X-Forwarded-For."""
    for number in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, "wrong", HTTP_X_FORWARDED_FOR=f"192.0.2.{number}")

    assert log_in(client, PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.99").status_code == 429


def test_behind_a_declared_proxy_the_forwarded_address_counts(client, alice, settings):
    settings.PROXY_COUNT = 1
    proxy = "10.0.0.2"
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, "wrong", address=proxy, HTTP_X_FORWARDED_FOR="203.0.113.7")

    # Another client behind the same proxy is not locked out; the first one is, whatever it
    # puts in front of the address the proxy appended.
    assert (
        log_in(client, PASSWORD, address=proxy, HTTP_X_FORWARDED_FOR="203.0.113.8").status_code
        == 302
    )
    client.logout()
    spoofed = "198.51.100.1, 203.0.113.7"
    assert log_in(client, PASSWORD, address=proxy, HTTP_X_FORWARDED_FOR=spoofed).status_code == 429


@pytest.fixture
def locked_referee(client, organiser, table, referee):
    """bob, referee of table 1 of the Spring Cup, locked out after wrong passwords."""
    table.referees.add(referee)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, "wrong", username="bob")
    return referee


def test_an_organiser_sees_a_locked_out_referee_and_unlocks_him(client, locked_referee, organiser):
    organiser_client = client.__class__()
    organiser_client.force_login(organiser)
    page = organiser_client.get(reverse("organiser:referees", args=["spring-cup"]))
    assert "Locked out after too many wrong passwords." in page.text

    response = organiser_client.post(
        reverse("organiser:referee_unlock", args=["spring-cup", "bob"]), follow=True
    )

    assert "bob may log in again." in response.text
    assert "Locked out after" not in response.text
    assert log_in(client, "referee-pass-42", username="bob").status_code == 302


def test_unlocking_is_refused_on_get(client, locked_referee, organiser):
    client.force_login(organiser)

    response = client.get(reverse("organiser:referee_unlock", args=["spring-cup", "bob"]))

    # A visit, not the form: sent to the referees' page, the lockout stays.
    assert (response.status_code, response["Location"]) == (
        303,
        reverse("organiser:referees", args=["spring-cup"]),
    )


def test_only_an_organiser_of_the_tournament_unlocks(client, locked_referee, other_referee):
    client.force_login(other_referee)

    response = client.post(reverse("organiser:referee_unlock", args=["spring-cup", "bob"]))

    assert response.status_code == 403
    assert AccessAttempt.objects.filter(username="bob").exists()


def test_an_organiser_unlocks_only_the_referees_of_his_tournament(client, alice, tournament):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, "wrong")
    client.force_login(alice)

    response = client.post(reverse("organiser:referee_unlock", args=["spring-cup", "alice"]))

    assert response.status_code == 404
    assert AccessAttempt.objects.filter(username="alice").exists()


@pytest.mark.parametrize("page", ["login", "admin:login"])
def test_a_username_longer_than_the_limit_is_refused_with_a_message(client, db, page):
    response = client.post(reverse(page), {"username": "x" * 300, "password": "wrong"})

    assert response.status_code == 200
    assert "at most 150 characters (it has 300)" in response.text
    assert not AccessAttempt.objects.exists()


def test_a_failure_with_a_long_username_from_elsewhere_is_recorded_cut(rf, db):
    """The forms refuse a long username first; a failure reaching axes any other way is recorded
    under the name cut to what its table holds, not a database error."""
    request = rf.post("/", REMOTE_ADDR="203.0.113.7")

    assert authenticate(request, username="y" * 300, password="wrong") is None

    (attempt,) = AccessAttempt.objects.all()
    assert attempt.username == "y" * 255


@pytest.mark.parametrize(
    "url",
    ["/accounts/password_reset/", "/accounts/password_reset/done/",
     "/accounts/reset/MQ/set-password/", "/accounts/reset/done/"],
)  # fmt: skip
def test_there_is_no_password_reset_by_email(client, url):
    """A venue has no mail server, and a reset link would be built from the request's Host."""
    assert client.get(url).status_code == 404
    assert client.post(url, {"email": "alice@example.org"}).status_code in (403, 404)


# --- One address shared by many (a venue behind NAT) ------------------------------------------


def _age_failures(username: str, minutes: float) -> None:
    """Move the recorded failures of `username` `minutes` into the past."""
    for attempt in AccessAttempt.objects.filter(username=username):
        attempt.attempt_time -= timedelta(minutes=minutes)
        attempt.save(update_fields=["attempt_time"])


def log_out_keeping_cookies(client) -> None:
    """Log out as a browser does: the session ends, the browser's other cookies stay (the test
    client's logout() forgets every cookie)."""
    client.post(reverse("logout"))
    assert "_auth_user_id" not in client.session


def lock(client, username="alice", address="203.0.113.7"):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, "wrong", username=username, address=address)


def test_tries_during_the_lock_neither_count_nor_lengthen_it(client, alice):
    lock(client)
    (attempt,) = AccessAttempt.objects.filter(username="alice")
    locked_at, failures = attempt.attempt_time, attempt.failures_since_start
    _age_failures("alice", 10)

    # One try every few minutes, the right password among them: refused, and not counted.
    answers = [log_in(client, "wrong").status_code, log_in(client, PASSWORD).status_code]

    (attempt,) = AccessAttempt.objects.filter(username="alice")
    assert answers == [429, 429]
    assert attempt.attempt_time == locked_at - timedelta(minutes=10)
    assert attempt.failures_since_start == failures
    # The lock ends LOGIN_COOLOFF_MINUTES after the failure that set it.
    _age_failures("alice", settings.AXES_COOLOFF_TIME.total_seconds() / 60 - 10 + 0.1)
    assert log_in(client, PASSWORD).status_code == 302


def test_a_browser_that_logged_in_before_gets_in_through_a_lock(alice):
    phone, guesser = Client(), Client()
    assert log_in(phone, PASSWORD).status_code == 302
    log_out_keeping_cookies(phone)
    lock(guesser)
    assert log_in(guesser, PASSWORD).status_code == 429  # a new browser waits

    response = log_in(phone, PASSWORD)

    assert response.status_code == 302
    assert phone.session["_auth_user_id"] == str(alice.pk)
    # Logging in reset the count, as always.
    assert not AccessAttempt.objects.filter(username="alice").exists()


def test_a_known_browsers_wrong_passwords_lock_it_alone(alice):
    phone, desk = Client(), Client()
    log_in(phone, PASSWORD)
    log_out_keeping_cookies(phone)

    answers = [log_in(phone, "wrong").status_code for _ in range(settings.AXES_FAILURE_LIMIT + 1)]

    assert answers[-2:] == [429, 429]
    assert log_in(phone, PASSWORD).status_code == 429  # locked: guessing stays bounded
    # Nobody else at the address is held up by the phone's typos.
    assert log_in(desk, PASSWORD).status_code == 302


def test_a_new_password_voids_the_known_browser(alice):
    phone, guesser = Client(), Client()
    log_in(phone, PASSWORD)
    log_out_keeping_cookies(phone)
    alice.set_password("another-horse-43")
    alice.save()
    lock(guesser)

    assert log_in(phone, "another-horse-43").status_code == 429


def test_a_browser_known_for_another_username_is_not_known_for_this_one(alice):
    make_user("bob", password=PASSWORD)
    phone, guesser = Client(), Client()
    log_in(phone, PASSWORD, username="bob")
    log_out_keeping_cookies(phone)
    lock(guesser)

    assert log_in(phone, PASSWORD).status_code == 429


def test_a_forged_cookie_is_not_a_known_browser(alice):
    guesser = Client()
    lock(guesser)
    guesser.cookies[KNOWN_COOKIE] = "alice:forged"

    assert log_in(guesser, PASSWORD).status_code == 429


def test_spraying_many_usernames_from_one_address_locks_the_address(alice, settings):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 12
    make_user("dora", password=PASSWORD)
    phone = Client()
    log_in(phone, PASSWORD, username="dora")
    log_out_keeping_cookies(phone)
    sprayer = Client()
    # A few guesses for each of many usernames: never enough to lock one of them.
    for number in range(4):
        for _ in range(3):
            log_in(sprayer, "wrong", username=f"user-{number}")
    assert not AccessAttempt.objects.filter(failures_since_start__gte=settings.AXES_FAILURE_LIMIT)

    # The address is locked for browsers it does not know, the right password included...
    assert log_in(Client(), PASSWORD).status_code == 429
    assert log_in(sprayer, "guess", username="user-9").status_code == 429
    # ... but not elsewhere, nor for a browser that has logged in before.
    assert log_in(Client(), PASSWORD, address="198.51.100.9").status_code == 302
    assert log_in(phone, PASSWORD, username="dora").status_code == 302
