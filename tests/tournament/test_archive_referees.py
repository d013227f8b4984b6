"""The archive's referee accounts (version 3): exported by username and name, never with a
password; imported as accounts without a usable password (and a warning saying they need one),
never touching a user of the same name who exists already, except the accounts of the
tournament an import replaces; which referee has which table in each round comes back too,
written in a fixed number of queries however many tables there are."""

from __future__ import annotations

import copy
import json
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from factories import make_tournament, make_user

from tournament.archive import ArchiveError, export_tournament, import_tournament
from tournament.models import AuditEntry, RefereeAccount, Tournament
from tournament.services import (
    add_player,
    assign_round_referees,
    create_round,
    set_round_status,
    set_seating,
)
from tournament.services.accounts import create_referee_accounts, reset_referee_password

pytestmark = pytest.mark.django_db

User = get_user_model()


def referees_by_round(tournament: Tournament) -> dict[int, dict[int, list[str]]]:
    return {
        round.number: {
            table.number: sorted(user.username for user in table.referees.all())
            for table in round.tables.prefetch_related("referees")
        }
        for round in tournament.rounds.order_by("number")
    }


def accounts_of(tournament: Tournament) -> list[tuple[str, str]]:
    return [
        (account.user.username, account.user.first_name)
        for account in tournament.referee_accounts.select_related("user").order_by("user__username")
    ]


@pytest.fixture
def refereed(tournament, organiser):
    """Two rounds of two tables; accounts ref-anna (Anna Schmidt) and ref-bo (Bo Li) made for
    the tournament. Round 1: ref-anna at table 1, ref-bo at table 2; round 2: ref-bo at
    table 1, both at table 2."""
    players = [add_player(tournament=tournament, key=str(n), name=f"P{n}") for n in range(1, 9)]
    made = create_referee_accounts(
        tournament=tournament,
        usernames=["ref-anna", "ref-bo"],
        names=["Anna Schmidt", "Bo Li"],
        actor=organiser,
    )
    anna, bo = (user for user, _password in made)
    for assigned in ({1: [anna], 2: [bo]}, {1: [bo], 2: [anna, bo]}):
        round = create_round(tournament=tournament, actor=organiser)
        set_seating(round=round, tables=[players[:4], players[4:]], actor=organiser)
        assign_round_referees(round=round, referees=assigned, actor=organiser)
        set_round_status(round=round, status="seated", actor=organiser)
    return tournament


EXPECTED_TABLES = {
    1: {1: ["ref-anna"], 2: ["ref-bo"]},
    2: {1: ["ref-bo"], 2: ["ref-anna", "ref-bo"]},
}


def test_the_export_names_the_accounts_and_each_rounds_referees_without_passwords(refereed):
    document = export_tournament(refereed)

    assert document["version"] == 5
    assert document["referee_accounts"] == [
        {"username": "ref-anna", "name": "Anna Schmidt"},
        {"username": "ref-bo", "name": "Bo Li"},
    ]
    tables = {
        round["number"]: {table["number"]: table["referees"] for table in round["tables"]}
        for round in document["rounds"]
    }
    assert tables == EXPECTED_TABLES
    text = json.dumps(document)
    for user in User.objects.filter(username__startswith="ref-"):
        assert user.password not in text
    assert "password" not in text and "pbkdf2" not in text


def forget(tournament: Tournament) -> dict[str, Any]:
    """The tournament's archive; then the tournament and its referee users are gone."""
    document = export_tournament(tournament)
    usernames = [account["username"] for account in document["referee_accounts"]]
    tournament.delete()
    User.objects.filter(username__in=usernames).delete()
    return document


def test_missing_accounts_are_made_without_a_password_and_the_organiser_is_told(
    refereed, organiser
):
    document = forget(refereed)
    warnings: list[str] = []

    copy_ = import_tournament(document, actor=organiser, warnings=warnings)

    assert accounts_of(copy_) == [("ref-anna", "Anna Schmidt"), ("ref-bo", "Bo Li")]
    for user in User.objects.filter(username__in=["ref-anna", "ref-bo"]):
        assert not user.has_usable_password()
        assert user.is_active and not user.is_staff
    assert referees_by_round(copy_) == EXPECTED_TABLES
    assert warnings == [
        "Referee accounts made without a password: ref-anna, ref-bo. Each needs a password "
        'before it can log in: give it one with "New password" on the tournament\'s referee '
        "accounts page."
    ]
    [entry] = AuditEntry.objects.filter(tournament=copy_, action="accounts_created")
    assert (entry.actor, entry.after) == (organiser, {"usernames": ["ref-anna", "ref-bo"]})
    # The organiser gives one a password: it logs in.
    account = RefereeAccount.objects.get(user__username="ref-bo")
    password = reset_referee_password(account=account, actor=organiser)
    assert User.objects.get(username="ref-bo").check_password(password)
    # And the copy exports as the original did.
    assert export_tournament(copy_) == document


def test_the_import_command_prints_the_warning(refereed, tmp_path):
    path = tmp_path / "cup.json"
    path.write_text(json.dumps(forget(refereed)), encoding="utf-8")
    err = StringIO()

    call_command("import_tournament", str(path), stdout=StringIO(), stderr=err)

    assert "Referee accounts made without a password: ref-anna, ref-bo." in err.getvalue()


def test_users_of_the_same_names_elsewhere_are_left_as_they_are(refereed, organiser):
    """A copy under another slug: the accounts are the first tournament's and stay so."""
    document = export_tournament(refereed)
    before = {user.username: user.password for user in User.objects.all()}
    warnings: list[str] = []

    copy_ = import_tournament(document, actor=organiser, slug="copy-cup", warnings=warnings)

    assert accounts_of(copy_) == []
    assert accounts_of(refereed) == [("ref-anna", "Anna Schmidt"), ("ref-bo", "Bo Li")]
    assert {user.username: user.password for user in User.objects.all()} == before
    assert warnings == [
        "Users of these names exist here already and are not this tournament's referee "
        "accounts (another tournament's referees, or other people's logins); they are left as "
        "they are and keep their passwords: ref-anna, ref-bo. Where the archive assigns them "
        "to tables, they referee those tables."
    ]
    assert referees_by_round(copy_) == EXPECTED_TABLES
    assert not AuditEntry.objects.filter(tournament=copy_, action="accounts_created").exists()


def test_someone_elses_login_of_that_name_is_not_taken_over(organiser, refereed):
    document = forget(refereed)
    theirs = make_user("ref-anna", password="their-own-pass-55", first_name="Someone Else")
    warnings: list[str] = []

    copy_ = import_tournament(document, actor=organiser, warnings=warnings)

    theirs.refresh_from_db()
    assert theirs.check_password("their-own-pass-55") and theirs.first_name == "Someone Else"
    assert not RefereeAccount.objects.filter(user=theirs).exists()
    assert accounts_of(copy_) == [("ref-bo", "Bo Li")]
    assert "left as they are and keep their passwords: ref-anna." in warnings[1]


def test_replacing_the_tournament_gives_it_back_its_accounts(refereed, organiser):
    document = export_tournament(refereed)
    before = {user.username: user.password for user in User.objects.all()}
    warnings: list[str] = []

    copy_ = import_tournament(document, actor=organiser, replace=True, warnings=warnings)

    assert accounts_of(copy_) == [("ref-anna", "Anna Schmidt"), ("ref-bo", "Bo Li")]
    assert {user.username: user.password for user in User.objects.all()} == before
    assert warnings == []
    assert referees_by_round(copy_) == EXPECTED_TABLES


def test_replacing_does_not_take_an_account_that_organises_a_tournament_since(refereed, organiser):
    document = export_tournament(refereed)
    anna = User.objects.get(username="ref-anna")
    make_tournament(slug="annas-cup", organisers=[anna])
    warnings: list[str] = []

    copy_ = import_tournament(document, actor=organiser, replace=True, warnings=warnings)

    assert accounts_of(copy_) == [("ref-bo", "Bo Li")]
    assert "keep their passwords: ref-anna." in warnings[0]


def test_a_version_2_archive_without_accounts_still_imports(refereed, organiser):
    document = forget(refereed)
    document["version"] = 2
    del document["referee_accounts"]
    warnings: list[str] = []

    copy_ = import_tournament(document, actor=organiser, warnings=warnings)

    assert accounts_of(copy_) == []
    assert referees_by_round(copy_) == {1: {1: [], 2: []}, 2: {1: [], 2: []}}
    assert warnings == [
        "These users do not exist here: ref-anna, ref-bo. Their roles are left out and their "
        "entries are attributed to alice."
    ]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda accounts: accounts.append(dict(accounts[0])),
            "referee account 3 ('ref-anna'): the username 'ref-anna' is listed twice.",
        ),
        (
            lambda accounts: accounts[1].update(username="ref bo!"),
            "referee account 2 ('ref bo!'): the username 'ref bo!' cannot be used here: "
            "Enter a valid username.",
        ),
        (
            lambda accounts: accounts[0].pop("username"),
            'referee account 1: the key "username" is missing.',
        ),
    ],
    ids=["repeated", "bad username", "no username"],
)
def test_a_bad_account_is_refused_with_its_place(refereed, organiser, change, message):
    document = forget(refereed)
    broken = copy.deepcopy(document)
    change(broken["referee_accounts"])

    with pytest.raises(ArchiveError) as refused:
        import_tournament(broken, actor=organiser)

    assert message in str(refused.value)
    assert not Tournament.objects.exists()
    assert not User.objects.filter(username__startswith="ref").exists()


def many_tables(tables: int, *, refereed: bool) -> dict[str, Any]:
    """Two seated rounds of `tables` tables; when `refereed`, an account per table refereeing
    it in both rounds."""
    keys = [str(number) for number in range(1, 4 * tables + 1)]

    def table(number: int) -> dict[str, Any]:
        record: dict[str, Any] = {
            "number": number,
            "seats": dict(zip("ESWN", keys[4 * number - 4 : 4 * number], strict=True)),
        }
        if refereed:
            record["referees"] = [f"ref-{number:02d}"]
        return record

    return {
        "format": "mcr-tournament-archive",
        "version": 3,
        "tournament": {"name": "Queries", "slug": "queries"},
        "players": [{"key": key, "name": f"Player {key}"} for key in keys],
        "rounds": [
            {"number": n, "status": "seated", "tables": [table(t) for t in range(1, tables + 1)]}
            for n in (1, 2)
        ],
        "referee_accounts": [
            {"username": f"ref-{number:02d}", "name": f"Referee {number}"}
            for number in range(1, tables + 1)
        ]
        if refereed
        else [],
    }


def queries_to_import(archive: dict[str, Any], actor) -> int:
    with transaction.atomic():
        with CaptureQueriesContext(connection) as queries:
            import_tournament(archive, actor=actor)
        transaction.set_rollback(True)
    return len(queries)


def test_referees_cost_the_same_queries_for_few_tables_as_for_many(organiser):
    extra = {
        tables: queries_to_import(many_tables(tables, refereed=True), organiser)
        - queries_to_import(many_tables(tables, refereed=False), organiser)
        for tables in (2, 12)
    }

    assert extra[2] == extra[12]
    assert extra[2] <= 6  # accounts, their users, the audit entry, each round's referees


def test_a_password_in_an_archive_is_never_used(refereed, organiser):
    document = forget(refereed)
    document["referee_accounts"][0]["password"] = "pbkdf2_sha256$1$salt$hash"

    import_tournament(document, actor=organiser)

    anna = User.objects.get(username="ref-anna")
    assert not anna.has_usable_password()
    assert "hash" not in anna.password
