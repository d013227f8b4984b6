"""An existing referee login (made for another tournament, like the demo's `referee`) is added
to a new tournament's referees by its username, in one step on the referees page: it is then
offered for the new tournament's tables (round referee form and API). Only plain logins can be
added; organisers, staff, administrators and deactivated accounts are refused. Each addition
is in the audit trail."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.urls import reverse
from factories import make_tournament, make_user, seated_round

from tournament.models import AuditEntry, RefereeListing
from tournament.reads.permissions import can_referee
from tournament.reads.selectors import tournament_referees
from tournament.services.accounts import attach_referee_account, create_referee_accounts

pytestmark = pytest.mark.django_db

User = get_user_model()


def url(name: str, **kwargs) -> str:
    return reverse(f"organiser:{name}", kwargs={"slug": "spring-cup", **kwargs})


@pytest.fixture
def logged_in(client, organiser, tournament):
    client.force_login(organiser)
    return client


@pytest.fixture
def elsewhere(db):
    """A referee account made for another tournament, organised by someone else."""
    other_organiser = make_user("olga")
    other = make_tournament(organisers=[other_organiser], name="Demo Open", slug="demo-open")
    ((user, _password),) = create_referee_accounts(
        tournament=other, usernames=["referee"], actor=other_organiser
    )
    return user


def test_an_existing_account_is_added_and_offered_for_the_tables(
    logged_in, tournament, organiser, players, elsewhere
):
    seated_round(tournament, organiser, [players[:4], players[4:]], status="seated")
    page = logged_in.get(url("referees")).content.decode()
    assert "Add an existing account" in page
    assert page.count('id="id_username"') == 1  # the two forms' fields have ids of their own
    assert 'id="attach_username"' in page

    response = logged_in.post(url("referees_attach"), {"username": " referee "})

    assert response.status_code == 302
    assert [user.username for user in tournament_referees(tournament)] == ["referee"]
    listing = RefereeListing.objects.get(tournament=tournament)
    assert (listing.user, listing.added_by) == (elsewhere, organiser)
    entry = AuditEntry.objects.filter(tournament=tournament).latest("pk")
    assert entry.action == AuditEntry.Action.ACCOUNT_CREATED
    assert entry.actor == organiser
    assert entry.after == {"username": "referee", "attached": True, "made_for": "demo-open"}
    # Listed on the referees page, its password left to the tournament that made it.
    listed = logged_in.get(url("referees")).content.decode()
    assert "(added: its password is managed where it was made)" in listed
    assert url("referee_password", username="referee") not in listed
    # Offered by the round's referee form, and saved there.
    form = logged_in.get(url("round_referees", number=1)).context["form"]
    field = form.fields[next(iter(form.fields))]
    assert str(elsewhere.pk) in [str(value) for value, _label in field.choices]
    # Still the other tournament's account: its password is not this tournament's business.
    assert logged_in.post(url("referee_password", username="referee")).status_code == 404


def test_the_api_seating_takes_an_added_account(client, tournament, organiser, players, elsewhere):
    attach_referee_account(tournament=tournament, username="referee", actor=organiser)
    round, _tables = seated_round(tournament, organiser, [players[:4]], status="draft")
    client.force_login(organiser)
    body = {"tables": [{"E": "1", "S": "2", "W": "3", "N": "4", "referees": ["referee"]}]}

    response = client.post(
        "/api/tournaments/spring-cup/rounds/1/seating", body, content_type="application/json"
    )

    assert response.status_code == 200, response.content
    assert response.json()["tables"][0]["referees"] == ["referee"]
    assert can_referee(elsewhere, round.tables.get(number=1))


def test_the_api_gives_a_table_to_an_added_account_and_not_before(
    client, tournament, organiser, players, elsewhere
):
    seated_round(tournament, organiser, [players[:4], players[4:]], status="seated")
    client.force_login(organiser)
    put = "/api/tournaments/spring-cup/rounds/1/tables/1/referees"
    body = {"referees": ["referee"]}

    refused = client.put(put, body, content_type="application/json")
    attach_referee_account(tournament=tournament, username="referee", actor=organiser)
    given = client.put(put, body, content_type="application/json")

    assert refused.status_code == 400 and "not_a_referee" in refused.content.decode()
    assert given.status_code == 200, given.content


def test_one_account_may_referee_in_two_tournaments(organiser, tournament, elsewhere):
    second = make_tournament(organisers=[organiser], name="Summer Cup", slug="summer-cup")
    attach_referee_account(tournament=tournament, username="referee", actor=organiser)
    attach_referee_account(tournament=second, username="referee", actor=organiser)
    assert [user.username for user in tournament_referees(second)] == ["referee"]
    assert [user.username for user in tournament_referees(tournament)] == ["referee"]


def test_a_plain_login_without_referee_account_may_be_added(logged_in, tournament):
    """Like the demo's `referee`: a plain login the demo loader made."""
    make_user("referee")
    response = logged_in.post(url("referees_attach"), {"username": "referee"})
    assert response.status_code == 302
    assert [user.username for user in tournament_referees(tournament)] == ["referee"]


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: None, "No account has the username referee."),
        (lambda: make_user("referee", is_staff=True), "is more than a referee's login"),
        (lambda: make_user("referee", is_superuser=True), "is more than a referee's login"),
        (
            lambda: make_tournament(
                organisers=[make_user("referee")], name="Theirs", slug="theirs"
            ),
            "is more than a referee's login",
        ),
        (
            lambda: make_user("referee").user_permissions.add(
                Permission.objects.get(codename="add_tournament")
            ),
            "is more than a referee's login",
        ),
        (lambda: make_user("referee", is_active=False), "is deactivated"),
    ],
)
def test_only_active_plain_logins_may_be_added(logged_in, tournament, make, message):
    make()
    before = AuditEntry.objects.count()

    response = logged_in.post(url("referees_attach"), {"username": "referee"})

    assert response.status_code == 422
    assert message in " ".join(response.context["attach_form"].errors["username"])
    assert not RefereeListing.objects.exists()
    assert AuditEntry.objects.count() == before


def test_an_account_is_added_once(logged_in, tournament, organiser, elsewhere):
    attach_referee_account(tournament=tournament, username="referee", actor=organiser)
    again = logged_in.post(url("referees_attach"), {"username": "referee"})
    assert again.status_code == 422
    errors = again.context["attach_form"].errors["username"]
    assert errors == ["referee is already one of this tournament's referees."]
    create_referee_accounts(tournament=tournament, usernames=["mine"], actor=organiser)
    own = logged_in.post(url("referees_attach"), {"username": "mine"})
    assert own.status_code == 422
    assert RefereeListing.objects.count() == 1


def test_making_a_taken_name_points_to_adding_it(logged_in, elsewhere):
    response = logged_in.post(
        url("referees"),
        {
            "username": "referee",
            "password": "tiles-and-winds-9",
            "password_again": "tiles-and-winds-9",
        },
    )
    assert response.status_code == 422
    errors = " ".join(response.context["form"].errors["username"])
    assert "referee is taken by another account" in errors
    assert "“Add an existing account”" in errors


def test_only_organisers_may_add(client, referee, tournament, elsewhere):
    client.force_login(referee)
    response = client.post(url("referees_attach"), {"username": "referee"})
    assert response.status_code in (403, 404)
    assert not RefereeListing.objects.exists()
