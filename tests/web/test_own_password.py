"""Anyone logged in changes their own password on the site's page (there is no reset by
e-mail); an organiser who has forgotten theirs gets a new one from `manage.py changepassword`
on the server (docs/manual.md)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse
from factories import make_user

pytestmark = pytest.mark.django_db

CHANGE = reverse("password_change")


@pytest.fixture
def dora(client):
    user = make_user("dora", password="old-pass-word-42")
    client.force_login(user)
    return user


def test_the_page_is_in_the_sites_layout_and_linked_from_the_navigation(client, dora):
    home = client.get("/").content.decode()
    assert f'href="{CHANGE}"' in home
    page = client.get(CHANGE)
    assert page.status_code == 200
    assert page.templates[0].name == "registration/password_change_form.html"
    text = page.content.decode()
    assert 'class="site-nav"' in text
    assert 'name="old_password"' in text and 'name="new_password2"' in text


def test_a_new_password_replaces_the_old(client, dora):
    response = client.post(
        CHANGE,
        {
            "old_password": "old-pass-word-42",
            "new_password1": "new-tile-wall-77",
            "new_password2": "new-tile-wall-77",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("password_change_done")
    assert "Your new password is set" in client.get(response["Location"]).content.decode()
    dora.refresh_from_db()
    assert dora.check_password("new-tile-wall-77")


def test_a_wrong_old_password_is_refused_in_words(client, dora):
    response = client.post(
        CHANGE,
        {
            "old_password": "not-it",
            "new_password1": "new-tile-wall-77",
            "new_password2": "new-tile-wall-77",
        },
    )
    assert response.status_code == 200
    assert "Your old password was entered incorrectly" in response.content.decode()
    dora.refresh_from_db()
    assert dora.check_password("old-pass-word-42")


def test_a_visitor_is_sent_to_log_in(client):
    response = client.get(CHANGE)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_the_changepassword_command_sets_a_forgotten_organisers_password(organiser, monkeypatch):
    answers = iter(["server-side-pass-99", "server-side-pass-99"])
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))
    call_command("changepassword", "alice")
    assert get_user_model().objects.get(username="alice").check_password("server-side-pass-99")
