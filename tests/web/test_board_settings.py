"""The settings page sets who confirms game sheets and the round time of the clock."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.datastructures import MultiValueDict

from tournament.models import Tournament
from tournament.web.organiser.forms.tournament import TournamentForm

pytestmark = pytest.mark.django_db

URL = reverse("organiser:settings", args=["spring-cup"])


def settings_data(tournament, **changes):
    """What the settings form sends for `tournament` as it is, with `changes`."""
    form = TournamentForm(initial=TournamentForm.initial_for(tournament), tournament=tournament)
    data = MultiValueDict()
    for name, field in form.fields.items():
        value = form.initial.get(name)
        widget_value = field.widget.format_value(value) if value is not None else ""
        if name == "table_points":
            for index, points in enumerate(value):
                data[f"table_points_{index}"] = str(points)
        elif name == "tie_breaks":
            data.setlist("tie_breaks", list(value))
        elif name == "public":
            if value:
                data["public"] = "on"
        else:
            data[name] = widget_value if widget_value is not None else ""
    for name, value in changes.items():
        data[name] = value
    return data


def test_the_form_shows_both_settings_with_help(client, tournament, organiser):
    client.force_login(organiser)
    html = client.get(URL).content.decode()
    assert 'name="confirmation"' in html and 'name="round_minutes"' in html
    assert "Game sheet confirmation" in html and "Round time (minutes)" in html
    assert "A second referee (or the organiser) confirms each game sheet" in html
    assert "The Green Book allows at most 150 minutes." in html
    assert 'value="120"' in html


def test_saving_both_settings(client, tournament, organiser):
    client.force_login(organiser)
    data = settings_data(tournament, confirmation="referee", round_minutes="150")
    response = client.post(URL, data)
    assert response.status_code == 302, response.content.decode()[-2000:]
    tournament.refresh_from_db()
    assert tournament.confirmation == Tournament.Confirmation.SECOND_REFEREE
    assert tournament.round_minutes == 150


def test_left_out_they_keep_their_values(client, tournament, organiser):
    tournament.confirmation, tournament.round_minutes = "none", 90
    tournament.save()
    client.force_login(organiser)
    data = settings_data(tournament, name="Spring Cup 2")
    del data["confirmation"]
    del data["round_minutes"]
    assert client.post(URL, data).status_code == 302
    tournament.refresh_from_db()
    assert (tournament.name, tournament.confirmation, tournament.round_minutes) == (
        "Spring Cup 2",
        "none",
        90,
    )


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"round_minutes": "5"}, "Ensure this value is greater than or equal to 10."),
        ({"round_minutes": "601"}, "Ensure this value is less than or equal to 600."),
        ({"round_minutes": "two hours"}, "Enter a whole number."),
        ({"confirmation": "nobody"}, "Select a valid choice."),
    ],
)
def test_bad_values_are_refused_with_422_and_kept(client, tournament, organiser, changes, message):
    client.force_login(organiser)
    response = client.post(URL, settings_data(tournament, **changes))
    html = response.content.decode()
    assert response.status_code == 422
    assert message in html
    tournament.refresh_from_db()
    assert (tournament.confirmation, tournament.round_minutes) == ("organiser", 120)
    if "round_minutes" in changes:
        assert f'value="{changes["round_minutes"]}"' in html


def test_a_new_tournament_gets_them_too(client, organiser):
    from django.contrib.auth.models import Permission

    organiser.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client.force_login(organiser)
    data = settings_data(Tournament(), name="Autumn Cup", slug="autumn-cup",
                         confirmation="none", round_minutes="100")  # fmt: skip
    response = client.post(reverse("organiser:create"), data)
    assert response.status_code == 302, response.content.decode()[-2000:]
    created = Tournament.objects.get(slug="autumn-cup")
    assert (created.confirmation, created.round_minutes) == ("none", 100)
