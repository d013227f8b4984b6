"""What the organiser does to referee accounts is in the tournament's audit trail: making one,
making many, a new password, deactivating and reactivating, lifting a lockout; who did it and
when, never a password. The audit page labels these entries and filters them by kind and
actor."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from factories import make_tournament, make_user

from tournament.models import AuditEntry, RefereeAccount

pytestmark = pytest.mark.django_db

User = get_user_model()
Action = AuditEntry.Action


def url(name: str, **kwargs) -> str:
    return reverse(f"organiser:{name}", kwargs={"slug": "spring-cup", **kwargs})


@pytest.fixture
def logged_in(client, organiser, tournament):
    client.force_login(organiser)
    return client


def account_entries(tournament) -> list[AuditEntry]:
    kinds = [
        Action.ACCOUNT_CREATED,
        Action.ACCOUNTS_CREATED,
        Action.PASSWORD_RESET,
        Action.ACCOUNT_DEACTIVATED,
        Action.ACCOUNT_REACTIVATED,
        Action.LOGIN_UNLOCKED,
    ]
    return list(AuditEntry.objects.filter(tournament=tournament, action__in=kinds).order_by("pk"))


def stored(entry: AuditEntry) -> str:
    return json.dumps([entry.before, entry.after])


def test_one_account_made_with_a_chosen_password_is_audited(logged_in, tournament, organiser):
    started = timezone.now()
    password = "long-enough-secret-481"
    response = logged_in.post(
        url("referees"), {"username": "ref-anna", "password": password, "password_again": password}
    )
    assert response.status_code == 302

    [entry] = account_entries(tournament)
    assert entry.action == Action.ACCOUNT_CREATED
    assert entry.actor == organiser
    assert entry.table is None
    assert started <= entry.at <= timezone.now()
    assert (entry.before, entry.after) == (None, {"username": "ref-anna"})
    assert password not in stored(entry)
    assert User.objects.get(username="ref-anna").password not in stored(entry)


def test_many_accounts_are_one_entry_naming_them_without_passwords(
    logged_in, tournament, organiser
):
    logged_in.post(url("referees_create"), {"names": "Anna Schmidt\nBo Li", "username_prefix": ""})
    passwords = [slip["password"] for slip in logged_in.get(url("referee_slips")).context["slips"]]
    assert len(passwords) == 2

    [entry] = account_entries(tournament)
    assert entry.action == Action.ACCOUNTS_CREATED
    assert entry.actor == organiser
    assert entry.after == {
        "usernames": ["anna-schmidt", "bo-li"],
        "names": ["Anna Schmidt", "Bo Li"],
    }
    assert not any(password in stored(entry) for password in passwords)


def test_numbered_accounts_have_no_names_in_their_entry(logged_in, tournament):
    logged_in.post(url("referees_create"), {"count": "2", "username_prefix": "referee"})

    [entry] = account_entries(tournament)
    assert entry.after == {"usernames": ["referee-01", "referee-02"]}


def test_a_refused_creation_leaves_no_entry(logged_in, tournament):
    make_user("referee-01")
    logged_in.post(
        url("referees"),
        {
            "username": "referee-01",
            "password": "long-secret-9921",
            "password_again": "long-secret-9921",
        },
    )
    logged_in.post(url("referees_create"), {"names": "A B\nA B", "username_prefix": ""})

    assert account_entries(tournament) == []


def test_a_new_password_is_audited_without_the_password(logged_in, tournament, organiser):
    logged_in.post(url("referees_create"), {"count": "1", "username_prefix": "referee"})
    logged_in.get(url("referee_slips"))
    response = logged_in.post(url("referee_password", username="referee-01"))
    assert response.status_code == 302
    [slip] = logged_in.get(url("referee_slips")).context["slips"]

    entry = account_entries(tournament)[-1]
    assert entry.action == Action.PASSWORD_RESET
    assert entry.actor == organiser
    assert entry.after == {"username": "referee-01"}
    assert slip["password"] not in stored(entry)


def test_a_refused_new_password_leaves_no_entry(logged_in, tournament, organiser):
    logged_in.post(url("referees_create"), {"count": "1", "username_prefix": "referee"})
    promoted = User.objects.get(username="referee-01")
    make_tournament(slug="their-cup", organisers=[promoted])
    logged_in.post(url("referee_password", username="referee-01"))

    assert [entry.action for entry in account_entries(tournament)] == [Action.ACCOUNTS_CREATED]


def test_deactivating_and_reactivating_an_account(client, logged_in, tournament, organiser):
    logged_in.post(
        url("referees"),
        {
            "username": "ref-bo",
            "password": "long-secret-5567x",
            "password_again": "long-secret-5567x",
        },
    )
    response = logged_in.post(url("referee_active", username="ref-bo"), {"active": "0"})
    assert response.status_code == 302
    assert not User.objects.get(username="ref-bo").is_active
    page = logged_in.get(url("referees")).content.decode()
    assert "Reactivate" in page
    # Deactivating again changes nothing and adds nothing to the trail.
    logged_in.post(url("referee_active", username="ref-bo"), {"active": "0"})
    logged_in.post(url("referee_active", username="ref-bo"), {"active": "1"})
    assert User.objects.get(username="ref-bo").is_active

    entries = account_entries(tournament)
    assert [(entry.action, entry.after) for entry in entries] == [
        (Action.ACCOUNT_CREATED, {"username": "ref-bo"}),
        (Action.ACCOUNT_DEACTIVATED, {"username": "ref-bo"}),
        (Action.ACCOUNT_REACTIVATED, {"username": "ref-bo"}),
    ]
    assert {entry.actor for entry in entries} == {organiser}


def test_a_deactivated_account_cannot_log_in(client, logged_in, tournament):
    logged_in.post(
        url("referees"),
        {
            "username": "ref-cy",
            "password": "long-secret-7781q",
            "password_again": "long-secret-7781q",
        },
    )
    logged_in.post(url("referee_active", username="ref-cy"), {"active": "0"})
    client.logout()

    assert not client.login(request=HttpRequest(), username="ref-cy", password="long-secret-7781q")


def test_only_the_accounts_made_here_are_deactivated(logged_in, organiser, tournament, referee):
    other = make_tournament(slug="other-cup", organisers=[organiser])
    theirs = make_user("theirs")
    RefereeAccount.objects.create(user=theirs, tournament=other)
    for username in ("theirs", referee.username, organiser.username, "nobody"):
        response = logged_in.post(url("referee_active", username=username), {"active": "0"})
        assert response.status_code == 404, username
    assert User.objects.filter(is_active=False).count() == 0
    assert account_entries(tournament) == [] and account_entries(other) == []


def test_an_account_given_more_rights_is_not_deactivated(logged_in, tournament):
    logged_in.post(
        url("referees"),
        {
            "username": "ref-di",
            "password": "long-secret-1123z",
            "password_again": "long-secret-1123z",
        },
    )
    User.objects.filter(username="ref-di").update(is_staff=True)
    response = logged_in.post(
        url("referee_active", username="ref-di"), {"active": "0"}, follow=True
    )
    assert "only an administrator can deactivate or reactivate it" in response.content.decode()
    assert User.objects.get(username="ref-di").is_active
    assert len(account_entries(tournament)) == 1


def test_another_organiser_cannot_deactivate(client, tournament, organiser):
    client.force_login(organiser)
    client.post(
        url("referees"),
        {
            "username": "ref-ed",
            "password": "long-secret-3349k",
            "password_again": "long-secret-3349k",
        },
    )
    stranger = make_user("mallory")
    make_tournament(slug="their-cup", organisers=[stranger])
    client.force_login(stranger)

    response = client.post(url("referee_active", username="ref-ed"), {"active": "0"})
    assert response.status_code == 403
    assert User.objects.get(username="ref-ed").is_active


def test_the_audit_page_labels_and_filters_account_entries(logged_in, tournament, organiser):
    logged_in.post(url("referees_create"), {"names": "Anna Schmidt", "username_prefix": ""})
    logged_in.post(url("referee_password", username="anna-schmidt"))
    logged_in.post(url("referee_active", username="anna-schmidt"), {"active": "0"})
    helper = make_user("helper")
    tournament.organisers.add(helper)
    logged_in.force_login(helper)
    logged_in.post(url("referee_active", username="anna-schmidt"), {"active": "1"})
    # Entries a moment apart, so that the page's newest-first order is certain.
    for offset, entry in enumerate(account_entries(tournament)):
        AuditEntry.objects.filter(pk=entry.pk).update(at=entry.at + timedelta(seconds=offset))

    page = logged_in.get(url("audit"))
    assert page.status_code == 200
    html = page.content.decode()
    for label in (
        "Referee accounts created",
        "Password reset",
        "Referee account deactivated",
        "Referee account reactivated",
    ):
        assert f"<strong>{label}</strong>" in html
        assert f">{label}</option>" in html  # a kind to filter by
    text = re.sub(r"\s+", " ", html)
    assert "Usernames</span>: anna-schmidt" in text
    assert "Names</span>: Anna Schmidt" in text
    assert "Username</span>: anna-schmidt" in text

    by_kind = logged_in.get(url("audit"), {"kind": "password_reset"}).context["rows"]
    assert [row["entry"].action for row in by_kind] == [Action.PASSWORD_RESET]
    by_helper = logged_in.get(url("audit"), {"actor": helper.pk}).context["rows"]
    assert [row["entry"].action for row in by_helper] == [Action.ACCOUNT_REACTIVATED]
    by_organiser = logged_in.get(url("audit"), {"actor": organiser.pk}).context["rows"]
    assert [row["entry"].action for row in by_organiser] == [
        Action.ACCOUNT_DEACTIVATED,
        Action.PASSWORD_RESET,
        Action.ACCOUNTS_CREATED,
    ]
    assert all(row["where"] == "" for row in by_organiser)


def test_lifting_a_referees_lockout_is_audited(client, organiser, tournament, settings):
    logged_in = client.__class__()
    logged_in.force_login(organiser)
    logged_in.post(url("referees"), {"username": "ref-fay", "password": "long-secret-8812m",
                                      "password_again": "long-secret-8812m"})  # fmt: skip
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse("login"), {"username": "ref-fay", "password": "wrong"})
    assert "Locked out" in logged_in.get(url("referees")).content.decode()

    response = logged_in.post(url("referee_unlock", username="ref-fay"))

    assert response.status_code == 302
    entry = account_entries(tournament)[-1]
    assert (entry.action, entry.actor, entry.after) == (
        Action.LOGIN_UNLOCKED,
        organiser,
        {"username": "ref-fay"},
    )
    assert "Locked out" not in logged_in.get(url("referees")).content.decode()
