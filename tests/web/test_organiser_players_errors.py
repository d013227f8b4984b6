"""Adding, changing and importing players: every wrong field is named after one submit."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from tournament.models import Player
from tournament.services import add_player

pytestmark = pytest.mark.django_db

ADD = reverse("organiser:player_add", kwargs={"slug": "spring-cup"})
IMPORT = reverse("organiser:players_import", kwargs={"slug": "spring-cup"})
EMA_ERROR = "An EMA number has eight digits"


@pytest.fixture
def logged_in(client, organiser, tournament):
    client.force_login(organiser)
    return client


def page_of(response) -> str:
    return html.unescape(response.content.decode())


def test_adding_names_every_wrong_field_at_once_and_keeps_what_was_typed(logged_in):
    data = {"key": "abc", "name": "", "ema_number": "1234", "club": "Wien Mahjong"}
    response = logged_in.post(ADD, data)
    assert response.status_code == 422
    form = response.context["form"]
    assert set(form.errors) >= {"name", "ema_number"}
    page = page_of(response)
    assert "Give the player's name." in page
    assert EMA_ERROR in page
    assert 'value="1234"' in page and 'value="Wien Mahjong"' in page
    assert Player.objects.count() == 0


def test_a_field_the_form_refuses_does_not_hide_the_others(logged_in, tournament):
    add_player(tournament=tournament, key="1", name="Anna Berg")
    data = {"key": "1", "name": "", "ema_number": "1234", "fixed_table": "x"}
    response = logged_in.post(ADD, data)
    assert response.status_code == 422
    errors = response.context["form"].errors
    assert set(errors) == {"key", "name", "ema_number", "fixed_table"}
    assert errors["key"] == ["Another player of this tournament has this key."]  # one, not two
    assert Player.objects.count() == 1


def test_changing_names_every_wrong_field_at_once(logged_in, tournament):
    anna = add_player(tournament=tournament, key="1", name="Anna Berg")
    url = reverse("organiser:player", kwargs={"slug": "spring-cup", "key": "1"})
    data = {"key": "1", "name": "", "given_name": "Anna", "ema_number": "12"}
    response = logged_in.post(url, data)
    assert response.status_code == 422
    assert set(response.context["form"].errors) == {"name", "family_name", "ema_number"}
    anna.refresh_from_db()
    assert anna.name == "Anna Berg"


def test_a_right_player_is_still_added(logged_in):
    response = logged_in.post(ADD, {"key": "7", "name": "Dora Wu", "ema_number": "04010007"})
    assert response.status_code == 302
    assert Player.objects.get().ema_number == "04010007"


def test_an_imported_line_lists_all_its_problems(logged_in):
    text = "key,name,ema_number\n1,,1234\n2,Ben Li,04010002\n"
    response = logged_in.post(IMPORT, {"text": text})
    page = page_of(response)
    assert "line 2" in page
    line = next(part for part in page.split("line 2")[1:] if "name" in part)
    assert "Give the player's name" in line and EMA_ERROR in line
    assert Player.objects.count() == 0


def test_bulk_referee_accounts_name_every_wrong_field_at_once(logged_in, django_user_model):
    url = reverse("organiser:referees_create", kwargs={"slug": "spring-cup"})
    data = {"count": "0", "username_prefix": "no spaces", "names": "!!!"}
    response = logged_in.post(url, data)
    assert response.status_code == 422
    errors = response.context["bulk_form"].errors
    assert set(errors) == {"count", "username_prefix", "names"}
    assert "No username can be made from !!!." in errors["names"]
    page = page_of(response)
    assert 'value="no spaces"' in page and "!!!</textarea>" in page
    assert not django_user_model.objects.filter(username__startswith="referee").exists()
