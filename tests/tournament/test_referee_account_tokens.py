"""A referee account's API tokens end with its password or its activity: a new password set by
the organiser, or deactivating the account, revokes them, and making the account active again
revives none. The audit trail says how many went."""

from __future__ import annotations

import pytest

from tournament.infra.tokens import issue_token, user_for_token
from tournament.models import ApiToken, AuditEntry, RefereeAccount
from tournament.services.accounts import (
    create_referee_account,
    reset_referee_password,
    set_referee_active,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def account(tournament, organiser):
    user = create_referee_account(tournament=tournament, username="ref-1",
                                  password="a-long-pass-phrase-42", actor=organiser)  # fmt: skip
    return RefereeAccount.objects.get(user=user)


def last_entry(tournament) -> AuditEntry:
    return tournament.audit.order_by("-pk").first()


def test_a_new_password_revokes_the_accounts_tokens(account, organiser, tournament):
    _token, secret = issue_token(user=account.user, name="phone")
    assert user_for_token(secret) == account.user

    reset_referee_password(account=account, actor=organiser)

    assert user_for_token(secret) is None
    assert not ApiToken.objects.filter(user=account.user).exists()
    assert last_entry(tournament).after == {"username": "ref-1", "tokens_revoked": 1}


def test_reactivating_an_account_revives_none_of_its_tokens(account, organiser, tournament):
    _token, secret = issue_token(user=account.user, name="phone")

    set_referee_active(account=account, active=False, actor=organiser)
    assert last_entry(tournament).after == {"username": "ref-1", "tokens_revoked": 1}
    set_referee_active(account=account, active=True, actor=organiser)

    assert user_for_token(secret) is None
    assert not ApiToken.objects.filter(user=account.user).exists()
    assert last_entry(tournament).after == {"username": "ref-1"}


def test_another_users_tokens_stay(account, organiser, referee):
    _mine, _secret = issue_token(user=account.user, name="phone")
    _theirs, secret = issue_token(user=referee, name="laptop")

    reset_referee_password(account=account, actor=organiser)

    assert user_for_token(secret) == referee
