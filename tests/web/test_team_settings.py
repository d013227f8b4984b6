"""The tournament settings' "team ranking counts the best k players"."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.web.test_organiser_tournaments import tournament_data

pytestmark = pytest.mark.django_db

SETTINGS = reverse("organiser:settings", kwargs={"slug": "spring-cup"})


def test_the_settings_save_the_teams_best_k(client, organiser, tournament):
    client.force_login(organiser)
    data = tournament_data(slug="spring-cup", team_best_of="3")
    assert client.post(SETTINGS, data).status_code == 302
    tournament.refresh_from_db()
    assert tournament.team_best_of == 3
    assert client.get(SETTINGS).context["form"]["team_best_of"].value() == 3


def test_an_empty_best_k_counts_every_player(client, organiser, tournament):
    tournament.team_best_of = 4
    tournament.save()
    client.force_login(organiser)
    assert client.post(SETTINGS, tournament_data(slug="spring-cup")).status_code == 302
    tournament.refresh_from_db()
    assert tournament.team_best_of is None


@pytest.mark.parametrize("value", ["0", "-2", "101", "two"])
def test_a_best_k_out_of_range_is_refused_and_nothing_saved(client, organiser, tournament, value):
    client.force_login(organiser)
    response = client.post(SETTINGS, tournament_data(slug="spring-cup", team_best_of=value))
    assert response.status_code == 422
    assert response.context["form"].errors["team_best_of"]
    tournament.refresh_from_db()
    assert (tournament.team_best_of, tournament.name) == (None, "Spring Cup")
