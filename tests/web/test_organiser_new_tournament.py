"""The new tournament form: the slug made from the name, private until made public, the number
of rounds asked there, and only rule presets that are built offered as such."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from factories import make_tournament
from test_organiser_tournaments import tournament_data

from scoring.engine import PRESETS
from tournament.models import Tournament
from tournament.services.tournaments import create_tournament, free_slug

pytestmark = pytest.mark.django_db

CREATE = reverse("organiser:create")


@pytest.fixture
def creator(client, organiser):
    organiser.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client.force_login(organiser)
    return organiser


def test_an_empty_slug_is_made_from_the_name(client, creator):
    response = client.post(CREATE, tournament_data(name="Été à Zürich 2026", slug=""))
    assert response.status_code == 302
    assert response["Location"] == "/manage/ete-a-zurich-2026/"
    assert Tournament.objects.filter(slug="ete-a-zurich-2026").exists()


def test_a_made_slug_never_takes_a_used_one(client, creator, tournament):
    assert tournament.slug == "spring-cup"
    client.post(CREATE, tournament_data(name="Spring Cup", slug=""))
    client.post(CREATE, tournament_data(name="Spring  cup!", slug=""))
    assert sorted(Tournament.objects.values_list("slug", flat=True)) == [
        "spring-cup",
        "spring-cup-2",
        "spring-cup-3",
    ]


def test_a_name_with_no_latin_letter_gets_a_plain_slug(client, creator):
    assert client.post(CREATE, tournament_data(name="上海公开赛", slug="")).status_code == 302
    assert Tournament.objects.get(name="上海公开赛").slug == "tournament"
    make_tournament(slug="new")  # a page's name is never made either
    assert free_slug("New") == "new-2"


def test_a_slug_that_is_given_is_kept_and_checked(client, creator, tournament):
    response = client.post(CREATE, tournament_data(name="Spring Cup", slug="spring-cup"))
    assert response.status_code == 422
    assert response.context["form"].errors["slug"] == ["Another tournament has this slug."]


def test_the_settings_form_still_needs_a_slug(client, creator, tournament):
    settings = reverse("organiser:settings", kwargs={"slug": "spring-cup"})
    response = client.post(settings, tournament_data(name="Spring Cup", slug=""))
    assert response.status_code == 422
    assert "slug" in response.context["form"].errors
    assert Tournament.objects.get(pk=tournament.pk).slug == "spring-cup"


def test_the_form_says_private_until_public_and_asks_the_rounds(client, creator):
    page = client.get(CREATE)
    form = page.context["form"]
    assert list(form.fields)[:4] == ["name", "slug", "planned_rounds", "public"]
    assert form["public"].value() is False
    text = page.content.decode()
    assert "A tournament is private until it is made public" in text
    assert "Number of rounds" in text
    assert 'src="/static/tournament/slug.js"' in text
    assert 'data-slug-from="id_name"' in text


def test_the_number_of_rounds_is_kept(client, creator):
    response = client.post(CREATE, tournament_data(planned_rounds="7"))
    assert response.status_code == 302
    assert Tournament.objects.get(slug="autumn-open").planned_rounds == 7


@pytest.mark.parametrize("rounds", ["0", "51", "x"])
def test_a_bad_number_of_rounds_is_refused(client, creator, rounds):
    response = client.post(CREATE, tournament_data(planned_rounds=rounds))
    assert response.status_code == 422
    assert "planned_rounds" in response.context["form"].errors
    assert not Tournament.objects.filter(slug="autumn-open").exists()


def test_the_service_refuses_a_bad_number_of_rounds(organiser):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as refused:
        create_tournament(organiser=organiser, name="X", slug="x", planned_rounds=99)
    assert "planned_rounds" in refused.value.message_dict


def test_the_settings_do_not_ask_the_rounds(client, creator, tournament):
    settings = reverse("organiser:settings", kwargs={"slug": "spring-cup"})
    assert "planned_rounds" not in client.get(settings).context["form"].fields


def test_every_preset_offered_is_built_or_says_it_is_not(client, creator):
    """All three presets score hands from their tiles now, so each is offered by its plain
    name; a preset without tile scoring would say so in its label."""
    choices = dict(client.get(CREATE).context["form"].fields["preset"].choices)
    assert set(choices) == set(PRESETS)
    for key, preset in PRESETS.items():
        assert preset.hand_scoring_available
        assert "not built" not in str(choices[key])
