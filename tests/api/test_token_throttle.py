"""Too many wrong API tokens from one address are answered 429 for a while."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from factories import make_user

from tournament.infra.tokens import issue_token
from tournament.models import TokenFailures

pytestmark = pytest.mark.django_db

T = "/api/tournaments/spring-cup"


WRONG = "mcr_not-a-real-token"


@pytest.fixture
def guesser(api_from):
    def make(address: str = "203.0.113.7", **meta):
        return api_from(WRONG, address, **meta)

    return make


def fail_until_locked(api) -> list[int]:
    return [api.get(T).status_code for _ in range(settings.TOKEN_FAILURE_LIMIT)]


def test_wrong_tokens_up_to_the_limit_are_answered_401_and_then_429(tournament, guesser):
    api = guesser()
    statuses = fail_until_locked(api)

    response = api.get(T)

    assert statuses == [401] * (settings.TOKEN_FAILURE_LIMIT - 1) + [429]
    assert response.status_code == 429
    assert response.json()["error"] == "too_many_wrong_tokens"
    retry_after = int(response["Retry-After"])
    assert 0 < retry_after <= settings.TOKEN_COOLOFF.total_seconds()
    assert f"refused for {retry_after} seconds" in response.json()["message"]


def test_a_locked_address_still_lets_a_valid_token_through(
    tournament, guesser, api_from, organiser
):
    """At a venue behind one address, a guesser (or a phone retrying a revoked token) must not
    shut out everyone else: a valid token is never refused for its address."""
    fail_until_locked(guesser())
    valid = api_from(issue_token(user=organiser, name="t")[1], "203.0.113.7")

    assert [valid.get(T).status_code for _ in range(3)] == [200, 200, 200]
    assert guesser().get(T).status_code == 429  # wrong ones still are


def test_a_deactivated_referees_phone_retrying_locks_out_no_other_referee(
    tournament, api_from, organiser
):
    from tournament.services.accounts import create_referee_accounts, set_referee_active

    [(gone, _), (working, _)] = create_referee_accounts(
        tournament=tournament, usernames=["ref-gone", "ref-working"], actor=organiser
    )
    old_phone = api_from(issue_token(user=gone, name="phone")[1], "203.0.113.7")
    other_phone = api_from(issue_token(user=working, name="phone")[1], "203.0.113.7")
    set_referee_active(account=gone.referee_account, active=False, actor=organiser)

    retries = [old_phone.get(T).status_code for _ in range(settings.TOKEN_FAILURE_LIMIT + 3)]

    assert retries[-1] == 429
    assert other_phone.get(T).status_code == 200


def test_wrong_tokens_while_locked_do_not_lengthen_the_lock(tournament, guesser):
    api = guesser()
    fail_until_locked(api)
    locked_until = TokenFailures.objects.get(address="203.0.113.7").locked_until

    for _ in range(5):
        assert api.get(T).status_code == 429

    row = TokenFailures.objects.get(address="203.0.113.7")
    assert row.locked_until == locked_until
    assert row.failures == settings.TOKEN_FAILURE_LIMIT


def test_other_addresses_and_valid_tokens_are_not_held_up(tournament, guesser, api_from, organiser):
    fail_until_locked(guesser())
    valid = api_from(issue_token(user=organiser, name="t")[1], "198.51.100.9")

    assert [valid.get(T).status_code for _ in range(settings.TOKEN_FAILURE_LIMIT + 5)] == [200] * (
        settings.TOKEN_FAILURE_LIMIT + 5
    )
    assert not TokenFailures.objects.filter(address="198.51.100.9").exists()


def test_the_lock_ends_after_the_cool_off(tournament, guesser, monkeypatch):
    api = guesser()
    fail_until_locked(api)
    later = timezone.now() + settings.TOKEN_COOLOFF + timedelta(seconds=1)
    monkeypatch.setattr(timezone, "now", lambda: later)

    assert api.get(T).status_code == 401


def test_failures_spread_over_more_than_the_cool_off_do_not_lock(tournament, guesser, monkeypatch):
    api = guesser()
    start = timezone.now()
    for _ in range(settings.TOKEN_FAILURE_LIMIT - 1):
        api.get(T)
    later = start + settings.TOKEN_COOLOFF + timedelta(seconds=1)
    monkeypatch.setattr(timezone, "now", lambda: later)

    assert api.get(T).status_code == 401
    assert TokenFailures.objects.get(address="203.0.113.7").failures == 1


def test_deleting_the_record_unlocks(tournament, guesser):
    api = guesser()
    fail_until_locked(api)

    TokenFailures.objects.filter(address="203.0.113.7").delete()

    assert api.get(T).status_code == 401


def test_forwarded_for_is_not_believed_without_a_declared_proxy(tournament, guesser):
    statuses = [
        guesser(HTTP_X_FORWARDED_FOR=f"192.0.2.{number}").get(T).status_code
        for number in range(settings.TOKEN_FAILURE_LIMIT + 1)
    ]

    assert statuses[-1] == 429


def test_behind_a_declared_proxy_each_client_is_counted_apart(tournament, guesser, settings):
    settings.PROXY_COUNT = 1
    fail_until_locked(guesser("10.0.0.2", HTTP_X_FORWARDED_FOR="203.0.113.7"))

    assert guesser("10.0.0.2", HTTP_X_FORWARDED_FOR="203.0.113.8").get(T).status_code == 401
    assert guesser("10.0.0.2", HTTP_X_FORWARDED_FOR="203.0.113.7").get(T).status_code == 429


def test_the_document_lists_429_with_retry_after_where_a_token_is_read(openapi):
    for path, operations in openapi["paths"].items():
        for method, operation in operations.items():
            if "401" in operation["responses"]:
                answer = operation["responses"]["429"]
                assert "Retry-After" in answer["headers"], (method, path)


def test_the_admin_lists_a_locked_address_and_deleting_it_unlocks(tournament, guesser, client):
    api = guesser()
    fail_until_locked(api)
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    listing = client.get(reverse("admin:tournament_tokenfailures_changelist"))
    assert listing.status_code == 200 and "203.0.113.7" in listing.text
    row = TokenFailures.objects.get(address="203.0.113.7")

    client.post(reverse("admin:tournament_tokenfailures_delete", args=[row.pk]), {"post": "yes"})

    assert api.get(T).status_code == 401
