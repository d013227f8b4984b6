"""Referee administration: accounts made many at once with login slips, new passwords given by
the organiser, the referees of a whole round in one form, kept on re-seating and carried to the
next round."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.urls import reverse
from factories import make_tournament, make_user, seated_round

from tournament.models import AuditEntry, RefereeAccount, Round, Table
from tournament.reads.permissions import can_referee
from tournament.services import create_round
from tournament.services.accounts import (
    MOST_ACCOUNTS_AT_ONCE,
    create_referee_accounts,
    set_referee_active,
)

pytestmark = pytest.mark.django_db

User = get_user_model()


def url(name: str, **kwargs) -> str:
    return reverse(f"organiser:{name}", kwargs={"slug": "spring-cup", **kwargs})


def messages_of(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


@pytest.fixture
def logged_in(client, organiser, tournament):
    client.force_login(organiser)
    return client


@pytest.fixture
def draft(tournament, organiser, players):
    """Round 1, a draft: players 1-4 at table 1, 5-8 at table 2."""
    round, _ = seated_round(tournament, organiser, [players[:4], players[4:]], status="draft")
    return round


@pytest.fixture
def refs(tournament, organiser):
    """Three referee accounts made for the tournament: referee-01 to referee-03."""
    made = create_referee_accounts(
        tournament=tournament,
        usernames=["referee-01", "referee-02", "referee-03"],
        actor=organiser,
    )
    return [user for user, _password in made]


def referees_of(round: Round) -> dict[int, list[str]]:
    return {
        table.number: sorted(user.username for user in table.referees.all())
        for table in round.tables.prefetch_related("referees")
    }


def can_log_in(client, username: str, password: str) -> bool:
    return client.login(request=HttpRequest(), username=username, password=password)


# --- Many accounts at once, and their slips ------------------------------------------------


def test_numbered_accounts_are_made_and_their_slips_shown_once(client, logged_in, tournament):
    response = logged_in.post(url("referees_create"), {"count": "3", "username_prefix": "referee"})
    assert response.status_code == 302
    assert response["Location"] == url("referee_slips")
    assert messages_of(response) == ["3 referee accounts are created."]
    made = User.objects.filter(referee_account__tournament=tournament).order_by("username")
    assert [user.username for user in made] == ["referee-01", "referee-02", "referee-03"]
    assert not any(user.is_staff or user.get_all_permissions() for user in made)

    slips = logged_in.get(url("referee_slips"))
    assert slips.status_code == 200
    assert "no-store" in slips["Cache-Control"]
    page = slips.content.decode()
    passwords = [slip["password"] for slip in slips.context["slips"]]
    assert len(set(passwords)) == 3
    for password in passwords:
        assert re.fullmatch(r"[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}", password)
        assert password in page
    assert page.count('<svg width="') == 3  # a QR code on each slip
    assert 'class="slip-qr"' in page
    assert "http://testserver/accounts/login/?next=%2Freferee%2F" in page
    # Shown once: the passwords are gone from the next view of the page.
    again = logged_in.get(url("referee_slips")).content.decode()
    assert not any(password in again for password in passwords)
    assert "The passwords were shown once" in again

    client.logout()
    assert can_log_in(client, "referee-02", passwords[1])


def test_numbering_skips_usernames_taken_by_other_accounts(logged_in, tournament):
    make_user("referee-02")
    logged_in.post(url("referees_create"), {"count": "3", "username_prefix": "referee"})
    usernames = sorted(
        User.objects.filter(referee_account__tournament=tournament).values_list(
            "username", flat=True
        )
    )
    assert usernames == ["referee-01", "referee-03", "referee-04"]


def test_accounts_from_a_list_of_names(logged_in, tournament):
    names = "Anna Schmidt\n\n  Bo   Li \nZoë Ærø\n"
    response = logged_in.post(
        url("referees_create"), {"names": names, "username_prefix": "referee"}
    )
    assert response.status_code == 302
    made = User.objects.filter(referee_account__tournament=tournament).order_by("username")
    assert [(user.username, user.first_name) for user in made] == [
        ("anna-schmidt", "Anna Schmidt"),
        ("bo-li", "Bo Li"),
        ("zoe-ærø", "Zoë Ærø"),
    ]
    slips = logged_in.get(url("referee_slips"))
    assert "Anna Schmidt" in slips.content.decode()


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"names": "Anna Schmidt\nalice"}, "usernames", "taken by other accounts: alice"),
        ({"names": "Bo Li\nbo li"}, "usernames", "come more than once: bo-li"),
        ({"names": "!!!\nBo Li"}, "names", "No username can be made from !!!."),
        ({"count": "2", "names": "Bo Li"}, None, "either how many accounts or their names"),
        ({}, "count", "Give how many accounts to make, or their names."),
        ({"count": "41"}, "count", "At most 40 accounts can be made at once"),
        (
            {"names": "\n".join(f"Person {n}" for n in range(41))},
            "names",
            "these are 41 names",
        ),
        ({"count": "2", "username_prefix": "no spaces"}, "username_prefix", "Enter a valid"),
    ],
)
def test_refused_bulk_creation_makes_no_account(logged_in, tournament, data, field, message):
    before = User.objects.count()
    response = logged_in.post(url("referees_create"), data)
    assert response.status_code == 422
    form = response.context["bulk_form"]
    errors = form.non_field_errors() if field in (None, "usernames") else form.errors[field]
    assert message in " ".join(errors)
    assert User.objects.count() == before
    assert not RefereeAccount.objects.exists()
    # What was typed is still there.
    if "names" in data:
        assert form["names"].value() == data["names"]


# --- The list and new passwords ------------------------------------------------------------


def test_the_list_shows_every_account_with_its_tables(logged_in, draft, refs, referee):
    draft.tables.get(number=2).referees.add(refs[0], referee)  # bob: made elsewhere
    round2 = create_round(tournament=draft.tournament, actor=draft.tournament.organisers.first())
    assert round2.number == 2
    response = logged_in.get(url("referees"))
    rows = {row["user"].username: row for row in response.context["rows"]}
    assert list(rows) == ["bob", "referee-01", "referee-02", "referee-03"]
    assert rows["referee-01"]["tables"] == [(1, [2])]
    assert rows["referee-02"]["tables"] == []  # made here, not assigned yet: still listed
    assert rows["bob"]["made_here"] is False and rows["referee-01"]["made_here"] is True
    page = response.content.decode()
    assert "R1: 2" in page
    assert "no table yet" in page
    # Only accounts made here get a "New password" button.
    assert url("referee_password", username="referee-01") in page
    assert url("referee_password", username="bob") not in page


def test_a_new_password_replaces_the_old_one_and_is_shown_once(client, logged_in, refs):
    user = refs[0]
    user.set_password("old-pass-for-ref-1")
    user.save()
    response = logged_in.post(url("referee_password", username="referee-01"))
    assert response.status_code == 302
    assert response["Location"] == url("referee_slips")
    assert messages_of(response) == ["referee-01 has a new password; the old one no longer works."]
    slips = logged_in.get(url("referee_slips"))
    assert "no-store" in slips["Cache-Control"]
    [slip] = slips.context["slips"]
    assert slip["username"] == "referee-01"
    client.logout()
    assert not can_log_in(client, "referee-01", "old-pass-for-ref-1")
    assert can_log_in(client, "referee-01", slip["password"])


def test_no_new_password_for_an_account_not_made_here(logged_in, draft, referee, organiser):
    draft.tables.get(number=1).referees.add(referee)  # bob, assigned but made elsewhere
    other = make_tournament(slug="other-cup", organisers=[organiser])
    [(theirs, _password)] = create_referee_accounts(
        tournament=other, usernames=["theirs"], actor=organiser
    )
    before = {user.pk: user.password for user in User.objects.all()}
    assert logged_in.post(url("referee_password", username="bob")).status_code == 404
    assert logged_in.post(url("referee_password", username="theirs")).status_code == 404
    assert logged_in.post(url("referee_password", username="alice")).status_code == 404
    assert {user.pk: user.password for user in User.objects.all()} == before


def test_no_new_password_for_an_account_given_more_rights(logged_in, tournament, refs):
    other = make_tournament(slug="other-cup", organisers=[refs[0]])
    assert other.organisers.filter(pk=refs[0].pk).exists()
    before = User.objects.get(pk=refs[0].pk).password
    response = logged_in.post(url("referee_password", username="referee-01"), follow=True)
    assert "more than a referee account now" in response.content.decode()
    assert User.objects.get(pk=refs[0].pk).password == before


def test_another_organiser_cannot_give_passwords(client, tournament, refs):
    stranger = make_user("mallory", password="mallory-pass-42")
    make_tournament(slug="their-cup", organisers=[stranger])
    client.force_login(stranger)
    before = User.objects.get(pk=refs[0].pk).password
    assert client.post(url("referee_password", username="referee-01")).status_code == 403
    assert client.post(url("referees_create"), {"count": "2"}).status_code == 403
    assert client.get(url("referee_slips")).status_code == 403
    assert User.objects.get(pk=refs[0].pk).password == before
    assert RefereeAccount.objects.count() == 3


# --- The referees of a round, in one form --------------------------------------------------


def grid(round: Round, refs, choices: dict[str, object]) -> dict[str, str]:
    """Every box of the round's form, empty except `choices` (field name: user)."""
    data = {f"table-{table.number}-{slot}": "" for table in round.tables.all() for slot in (0, 1)}
    data.update({name: str(user.pk) for name, user in choices.items()})
    return data


def test_one_save_assigns_every_table(logged_in, draft, refs):
    page = logged_in.get(url("round_referees", number=1))
    assert page.status_code == 200
    names = [name for name in page.context["form"].fields]
    assert names == ["table-1-0", "table-1-1", "table-2-0", "table-2-1"]
    data = grid(draft, refs, {"table-1-0": refs[0], "table-2-0": refs[1], "table-2-1": refs[0]})
    response = logged_in.post(url("round_referees", number=1), data)
    assert response.status_code == 302
    assert messages_of(response) == ["The referees of round 1 are saved."]
    assert referees_of(draft) == {1: ["referee-01"], 2: ["referee-01", "referee-02"]}
    # Shown again as saved, and on the round page.
    again = logged_in.get(url("round_referees", number=1)).context["form"]
    assert again["table-2-0"].value() in (refs[0].pk, refs[1].pk)
    round_page = logged_in.get(url("round", number=1)).content.decode()
    assert "referee-01, referee-02" in round_page


def test_a_save_keeps_each_tables_change_in_the_audit_trail(logged_in, draft, refs, organiser):
    draft.tables.get(number=1).referees.add(refs[2])
    data = grid(draft, refs, {"table-1-0": refs[0], "table-1-1": refs[2]})
    assert logged_in.post(url("round_referees", number=1), data).status_code == 302
    data = grid(draft, refs, {"table-1-0": refs[0], "table-1-1": refs[2], "table-2-0": refs[1]})
    assert logged_in.post(url("round_referees", number=1), data).status_code == 302

    entries = AuditEntry.objects.filter(action=AuditEntry.Action.TABLE_REFEREES).order_by("pk")
    # Table 1 changed once, table 2 once; a table left as it was is not written again.
    assert [(e.table.number, e.actor, e.before, e.after) for e in entries] == [
        (1, organiser, {"referees": ["referee-03"]}, {"referees": ["referee-01", "referee-03"]}),
        (2, organiser, {"referees": []}, {"referees": ["referee-02"]}),
    ]
    page = " ".join(logged_in.get(url("audit")).content.decode().split())
    assert "Table&#x27;s referees changed" in page or "Table's referees changed" in page
    assert "Referees</span>: referee-03 → referee-01, referee-03" in page
    assert "Referees</span>: — → referee-02" in page


def test_an_organiser_of_the_tournament_is_offered_as_a_referee(logged_in, draft, refs):
    page = logged_in.get(url("round_referees", number=1))
    offered = [label for _value, label in page.context["form"].fields["table-1-0"].choices]
    assert "alice" in offered
    assert "referee-01" in offered


def test_a_deactivated_account_is_not_offered(logged_in, draft, refs, organiser):
    set_referee_active(account=refs[1].referee_account, active=False, actor=organiser)
    page = logged_in.get(url("round_referees", number=1))
    offered = [label for _value, label in page.context["form"].fields["table-1-0"].choices]
    assert "referee-02" not in offered
    data = grid(draft, refs, {"table-1-0": refs[1]})
    assert logged_in.post(url("round_referees", number=1), data).status_code == 422
    assert referees_of(draft) == {1: [], 2: []}


def test_a_refused_save_keeps_every_box_and_changes_nothing(logged_in, draft, refs):
    draft.tables.get(number=1).referees.add(refs[2])
    data = grid(draft, refs, {"table-1-0": refs[0], "table-2-0": refs[1]})
    data["table-2-1"] = "999999"  # not a referee of this tournament
    response = logged_in.post(url("round_referees", number=1), data)
    assert response.status_code == 422
    form = response.context["form"]
    assert "table-2-1" in form.errors
    assert form["table-1-0"].value() == str(refs[0].pk)  # what was typed stays
    assert form["table-2-0"].value() == str(refs[1].pk)
    assert referees_of(draft) == {1: ["referee-03"], 2: []}


def test_an_account_of_another_tournament_is_not_offered(logged_in, draft, refs, organiser):
    other = make_tournament(slug="other-cup", organisers=[organiser])
    [(theirs, _password)] = create_referee_accounts(
        tournament=other, usernames=["theirs"], actor=organiser
    )
    page = logged_in.get(url("round_referees", number=1))
    assert "theirs" not in page.content.decode()
    data = grid(draft, refs, {"table-1-0": theirs})
    assert logged_in.post(url("round_referees", number=1), data).status_code == 422
    assert referees_of(draft) == {1: [], 2: []}


def test_a_table_with_three_referees_keeps_them_all(logged_in, draft, refs):
    draft.tables.get(number=1).referees.add(*refs)
    form = logged_in.get(url("round_referees", number=1)).context["form"]
    assert [name for name in form.fields if name.startswith("table-1-")] == [
        "table-1-0",
        "table-1-1",
        "table-1-2",
    ]
    data = {name: form[name].value() or "" for name in form.fields}
    data = {name: str(value) for name, value in data.items()}
    assert logged_in.post(url("round_referees", number=1), data).status_code == 302
    assert referees_of(draft)[1] == ["referee-01", "referee-02", "referee-03"]


def test_seating_again_keeps_the_referees_with_their_tables(logged_in, draft, refs):
    draft.tables.get(number=1).referees.add(refs[0])
    draft.tables.get(number=2).referees.add(refs[1])
    response = logged_in.post(url("round_seat", number=1), {"seed": "7"})
    assert response.status_code == 302
    assert referees_of(draft) == {1: ["referee-01"], 2: ["referee-02"]}


def test_the_next_round_starts_with_the_same_referees(logged_in, draft, refs, organiser):
    draft.tables.get(number=1).referees.add(refs[0])
    draft.tables.get(number=2).referees.add(refs[1], refs[2])
    round2 = create_round(tournament=draft.tournament, actor=organiser)
    unseated = logged_in.get(url("round_referees", number=2))
    assert "each table takes the referees of the table of the same number in round 1" in (
        unseated.content.decode()
    )
    assert logged_in.post(url("round_seat", number=2), {"seed": "3"}).status_code == 302
    assert referees_of(round2) == {1: ["referee-01"], 2: ["referee-02", "referee-03"]}
    # Changing round 2 leaves round 1 as it was.
    data = grid(round2, refs, {"table-1-0": refs[2]})
    logged_in.post(url("round_referees", number=2), data)
    assert referees_of(round2) == {1: ["referee-03"], 2: []}
    assert referees_of(draft) == {1: ["referee-01"], 2: ["referee-02", "referee-03"]}


def test_a_referee_assigned_by_the_form_referees_that_table_only(client, logged_in, draft, refs):
    data = grid(draft, refs, {"table-2-0": refs[1]})
    logged_in.post(url("round_referees", number=1), data)
    assert can_referee(refs[1], Table.objects.get(round=draft, number=2))
    assert not can_referee(refs[1], Table.objects.get(round=draft, number=1))
    client.force_login(refs[1])
    assert client.get(url("round_referees", number=1)).status_code == 403


def test_the_round_referees_page_asks_few_queries(
    logged_in, draft, refs, django_assert_max_num_queries
):
    for table in draft.tables.all():
        table.referees.add(refs[table.number % 3])
    with django_assert_max_num_queries(14):
        assert logged_in.get(url("round_referees", number=1)).status_code == 200
    with django_assert_max_num_queries(14):
        assert logged_in.get(url("referees")).status_code == 200


def test_numbered_accounts_take_the_prefix_given(logged_in, tournament):
    logged_in.post(url("referees_create"), {"count": "2", "username_prefix": "spring"})
    usernames = sorted(
        User.objects.filter(referee_account__tournament=tournament).values_list(
            "username", flat=True
        )
    )
    assert usernames == ["spring-01", "spring-02"]


# --- How many at once ------------------------------------------------------------------------


def test_the_most_accounts_made_at_once_keeps_the_request_under_the_proxys_wait():
    """Each password is hashed at Django's work factor, about a second on a busy venue machine
    (1.6 s the slowest measured); the reverse proxy waits 120 s for an answer."""
    assert MOST_ACCOUNTS_AT_ONCE * 1.6 < 120 * 0.6


def test_the_service_refuses_more_than_the_most_at_once(tournament, organiser):
    usernames = [f"ref-{n}" for n in range(MOST_ACCOUNTS_AT_ONCE + 1)]
    with pytest.raises(ValidationError) as refused:
        create_referee_accounts(tournament=tournament, usernames=usernames, actor=organiser)
    assert refused.value.error_dict["usernames"][0].code == "too_many"
    assert "second batch" in " ".join(refused.value.messages)
    assert not RefereeAccount.objects.exists()


def test_the_most_at_once_are_made_and_a_second_batch_goes_on_numbering(logged_in, tournament):
    response = logged_in.post(url("referees_create"), {"count": str(MOST_ACCOUNTS_AT_ONCE)})
    assert response.status_code == 302
    response = logged_in.post(url("referees_create"), {"count": "2"})
    assert response.status_code == 302
    made = User.objects.filter(referee_account__tournament=tournament)
    assert made.count() == MOST_ACCOUNTS_AT_ONCE + 2
    assert made.filter(username=f"referee-{MOST_ACCOUNTS_AT_ONCE + 2}").exists()


def test_the_form_says_the_most_at_once(logged_in):
    page = logged_in.get(url("referees")).content.decode()
    assert f"at most {MOST_ACCOUNTS_AT_ONCE} at once" in page
