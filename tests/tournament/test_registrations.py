"""Self-registration (tournament/services/registrations.py): when it is open, the cap and the
waiting list, instant and approval modes, the organiser's decisions, duplicates, bad input,
the throttle, the audit, and the cap holding under concurrent registrations."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.utils import timezone
from factories import make_players, make_tournament, make_user, seated_round
from preset_world import PRESETS

from tournament.models import AuditEntry, Player, Registration
from tournament.services import registrations as service

pytestmark = pytest.mark.django_db

Status = Registration.Status
ADDRESS = "192.0.2.1"


@pytest.fixture
def cup(organiser):
    """A public tournament taking registrations at once, without a cap."""
    return make_tournament(organisers=[organiser], registration="instant")


def sign_up(tournament, family, given="", *, address=ADDRESS, **fields):
    data = {"family_name": family, "given_name": given, **fields}
    return service.register(tournament, data, address=address)


def refused(call, *args, **kwargs) -> ValidationError:
    with pytest.raises(ValidationError) as caught:
        call(*args, **kwargs)
    return caught.value


def codes(error: ValidationError) -> set[str | None]:
    if hasattr(error, "error_dict"):
        return {item.code for items in error.error_dict.values() for item in items}
    return {item.code for item in error.error_list}


# --- Open or not -------------------------------------------------------------------------------


def test_registration_is_closed_when_off(organiser):
    cup = make_tournament(organisers=[organiser])

    error = refused(sign_up, cup, "Berg", "Anna")

    assert codes(error) == {"registration_closed"}
    assert not Registration.objects.exists()


def test_registration_is_not_open_before_it_opens(cup):
    cup.registration_opens = timezone.now() + timedelta(days=1)
    cup.save()

    error = refused(sign_up, cup, "Berg", "Anna")

    assert codes(error) == {"registration_closed"}
    assert "opens" in error.messages[0]


def test_registration_is_closed_after_it_closes(cup):
    cup.registration_closes = timezone.now() - timedelta(minutes=1)
    cup.save()

    error = refused(sign_up, cup, "Berg", "Anna")

    assert "closed" in error.messages[0]
    assert not service.is_open(cup)


def test_registration_is_open_between_its_times(cup):
    cup.registration_opens = timezone.now() - timedelta(days=1)
    cup.registration_closes = timezone.now() + timedelta(days=1)
    cup.save()

    assert sign_up(cup, "Berg", "Anna").status == Status.ACCEPTED


# --- Instant mode, cap and waiting list ---------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_instant_registration_makes_a_player_with_the_next_key(organiser, preset):
    cup = make_tournament(organisers=[organiser], registration="instant", preset=preset)
    make_players(cup, 3)

    registration = sign_up(cup, "Berg", "Anna", country="Sweden", ema_number="0401 0001")

    assert registration.status == Status.ACCEPTED
    player = registration.player
    assert (player.key, player.name, player.family_name, player.given_name) == (
        "4",
        "Anna Berg",
        "Berg",
        "Anna",
    )
    assert (player.country, player.ema_number) == ("SE", "04010001")


def test_next_key_skips_keys_that_are_not_numbers(cup):
    make_players(cup, 2)
    Player.objects.create(tournament=cup, key="A-7", name="Someone")

    assert sign_up(cup, "Berg", "Anna").player.key == "3"


def test_a_chinese_name_is_kept_whole_family_name_first(cup):
    registration = sign_up(cup, "王", "小明", country="CN")

    assert registration.name == "王小明"
    assert registration.player.name == "王小明"


def test_past_the_cap_registrations_wait_in_order_of_arrival(cup):
    cup.registration_cap = 4
    cup.save()

    made = [sign_up(cup, f"Family{number}", "Given") for number in range(6)]

    assert [r.status for r in made] == [Status.ACCEPTED] * 4 + [Status.WAITING] * 2
    assert Player.objects.filter(tournament=cup).count() == 4
    assert [service.waiting_place(r) for r in made[4:]] == [1, 2]
    assert service.waiting_place(made[0]) is None


def test_players_entered_by_the_organiser_take_places_too(cup):
    make_players(cup, 4)
    cup.registration_cap = 4
    cup.save()

    assert sign_up(cup, "Berg", "Anna").status == Status.WAITING


def test_a_withdrawal_before_the_start_promotes_the_first_waiting(cup, organiser):
    cup.registration_cap = 4
    cup.save()
    made = [sign_up(cup, f"Family{number}", "Given") for number in range(6)]

    service.withdraw(made[1], actor=organiser)

    made[4].refresh_from_db()
    made[5].refresh_from_db()
    assert made[4].status == Status.ACCEPTED and made[4].player is not None
    assert made[5].status == Status.WAITING
    assert service.waiting_place(made[5]) == 1
    assert not Player.objects.filter(name="Given Family1").exists()


def test_after_the_start_a_withdrawal_promotes_nobody(cup, organiser):
    seated_round(cup, organiser, [make_players(cup, 4)], status="seated")
    cup.registration_cap = 8
    cup.save()
    made = [sign_up(cup, f"Family{number}", "Given") for number in range(5)]

    service.withdraw(made[0], actor=organiser)

    made[4].refresh_from_db()
    assert made[4].status == Status.WAITING


# --- Approval mode ------------------------------------------------------------------------------


@pytest.fixture
def approval(organiser):
    return make_tournament(organisers=[organiser], registration="approval", registration_cap=4)


def test_in_approval_mode_a_registration_is_pending_without_a_player(approval):
    registration = sign_up(approval, "Berg", "Anna")

    assert registration.status == Status.PENDING
    assert registration.player is None
    assert not approval.players.exists()


def test_pending_registrations_hold_places_so_later_ones_wait(approval):
    made = [sign_up(approval, f"Family{number}", "Given") for number in range(5)]

    assert [r.status for r in made] == [Status.PENDING] * 4 + [Status.WAITING]


def test_the_organiser_accepts_a_pending_registration(approval, organiser):
    registration = sign_up(approval, "Berg", "Anna", club="Stockholm MC")

    service.accept(registration, actor=organiser)

    registration.refresh_from_db()
    assert registration.status == Status.ACCEPTED
    assert (registration.player.key, registration.player.club) == ("1", "Stockholm MC")


def test_accepting_beyond_the_cap_is_refused(approval, organiser):
    made = [sign_up(approval, f"Family{number}", "Given") for number in range(5)]
    for registration in made[:4]:
        service.accept(registration, actor=organiser)

    error = refused(service.accept, made[4], actor=organiser)

    assert codes(error) == {"field_full"}
    assert "Raise the cap" in error.messages[0]
    made[4].refresh_from_db()
    assert made[4].status == Status.WAITING
    assert approval.players.count() == 4


def test_rejecting_a_pending_one_offers_the_place_to_the_first_waiting(approval, organiser):
    made = [sign_up(approval, f"Family{number}", "Given") for number in range(6)]

    service.reject(made[0], actor=organiser)

    statuses = [Registration.objects.get(pk=r.pk).status for r in made]
    assert statuses == [Status.REJECTED] + [Status.PENDING] * 4 + [Status.WAITING]
    assert not approval.players.exists()  # the organiser still decides


def test_raising_the_cap_gives_places_to_the_waiting_list(cup, organiser):
    cup.registration_cap = 4
    cup.save()
    made = [sign_up(cup, f"Family{number}", "Given") for number in range(6)]

    service.update_settings(cup, actor=organiser, registration_cap=5)

    assert [Registration.objects.get(pk=r.pk).status for r in made[4:]] == [
        Status.ACCEPTED,
        Status.WAITING,
    ]


# --- The organiser's other decisions ------------------------------------------------------------


def test_moving_an_accepted_one_to_the_waiting_list_removes_the_player(cup, organiser):
    registration = sign_up(cup, "Berg", "Anna")

    service.move_to_waiting(registration, actor=organiser)

    registration.refresh_from_db()
    assert (registration.status, registration.player) == (Status.WAITING, None)
    assert not cup.players.exists()
    service.move_to_field(registration, actor=organiser)
    registration.refresh_from_db()
    assert registration.status == Status.ACCEPTED
    assert cup.players.get().name == "Anna Berg"


def test_a_seated_player_is_not_rejected(cup, organiser):
    made = [sign_up(cup, f"Family{number}", "Given") for number in range(4)]
    seated_round(cup, organiser, [[r.player for r in made]], status="draft")

    error = refused(service.reject, made[0], actor=organiser)

    assert codes(error) == {"registration_seated"}
    made[0].refresh_from_db()
    assert made[0].status == Status.ACCEPTED
    assert cup.players.count() == 4


def test_a_rejected_registration_cannot_be_accepted(cup, organiser):
    registration = sign_up(cup, "Berg", "Anna")
    service.reject(registration, actor=organiser)

    error = refused(service.accept, registration, actor=organiser)

    assert codes(error) == {"registration_status"}


def test_editing_an_accepted_registration_changes_its_player(cup, organiser):
    registration = sign_up(cup, "Berg", "Anna", contact="anna@example.org")

    service.edit(registration, actor=organiser, family_name="Lind", given_name="Anna", country="NO")

    registration.refresh_from_db()
    assert registration.name == "Anna Lind"
    assert (registration.player.name, registration.player.country) == ("Anna Lind", "NO")
    assert registration.contact == "anna@example.org"


def test_an_edit_that_makes_a_duplicate_is_refused_and_changes_nothing(cup, organiser):
    sign_up(cup, "Berg", "Anna", ema_number="04010001")
    other = sign_up(cup, "Lind", "Eva")

    error = refused(service.edit, other, actor=organiser, ema_number="04010001")

    assert codes(error) == {"duplicate_ema_number"}
    other.refresh_from_db()
    assert other.ema_number == ""


# --- Duplicates and bad input -------------------------------------------------------------------


def test_the_same_ema_number_is_refused(cup):
    sign_up(cup, "Berg", "Anna", ema_number="04010001")

    error = refused(sign_up, cup, "Other", "Name", ema_number="0401 0001")

    assert codes(error) == {"duplicate_ema_number"}
    assert "04010001" in error.message_dict["ema_number"][0]
    assert Registration.objects.count() == 1


def test_the_ema_number_of_a_player_entered_by_the_organiser_is_refused(cup):
    make_players(cup, 1, ema_number="04010001")

    assert codes(refused(sign_up, cup, "Berg", "Anna", ema_number="04010001")) == {
        "duplicate_ema_number"
    }


def test_an_ema_number_of_a_rejected_registration_may_register_again(cup, organiser):
    service.reject(sign_up(cup, "Berg", "Anna", ema_number="04010001"), actor=organiser)

    assert sign_up(cup, "Berg", "Anna", ema_number="04010001").status == Status.ACCEPTED


def test_the_same_name_and_country_is_refused(cup):
    sign_up(cup, "Berg", "Anna", country="SE")

    error = refused(sign_up, cup, "BERG", "anna", country="Sweden")

    assert codes(error) == {"duplicate_name"}
    assert "Sweden" in error.messages[0]


def test_the_same_name_from_another_country_is_welcome(cup):
    sign_up(cup, "Berg", "Anna", country="SE")

    assert sign_up(cup, "Berg", "Anna", country="NO").status == Status.ACCEPTED


@pytest.mark.parametrize(
    ("fields", "field", "code"),
    [
        ({"country": "Narnia"}, "country", "bad_country"),
        ({"ema_number": "4010001"}, "ema_number", "bad_ema_number"),
        ({"ema_number": "abc"}, "ema_number", "bad_ema_number"),
        ({"club": "x" * 201}, "club", "max_length"),
        ({"contact": "x" * 301}, "contact", "max_length"),
        ({"team": "nul\x00"}, "team", "bad_character"),
    ],
)
def test_bad_input_is_refused_by_field_and_nothing_is_saved(cup, fields, field, code):
    error = refused(sign_up, cup, "Berg", "Anna", **fields)

    assert code in {item.code for item in error.error_dict[field]}
    assert not Registration.objects.exists()
    assert not cup.players.exists()
    assert not AuditEntry.objects.exists()


def test_a_name_is_required(cup):
    error = refused(sign_up, cup, "", "")

    assert "family_name" in error.error_dict


def test_hostile_text_is_kept_as_text(cup):
    registration = sign_up(cup, "<script>alert(1)</script>", "Eve")

    assert registration.player.name == "Eve <script>alert(1)</script>"


def test_an_unknown_field_is_refused(cup):
    with pytest.raises(ValidationError):
        service.register(cup, {"family_name": "Berg", "key": "1"}, address=ADDRESS)


# --- Throttle and audit -------------------------------------------------------------------------


def test_one_address_registers_at_most_ten_times_an_hour(cup):
    for number in range(service.THROTTLE_LIMIT):
        sign_up(cup, f"Family{number}", "Given")

    error = refused(sign_up, cup, "One", "Toomany")

    assert codes(error) == {"too_many_registrations"}
    assert sign_up(cup, "One", "Toomany", address="192.0.2.99").status == Status.ACCEPTED


def test_the_throttle_forgets_after_an_hour(cup):
    for number in range(service.THROTTLE_LIMIT):
        sign_up(cup, f"Family{number}", "Given")
    AuditEntry.objects.update(at=timezone.now() - timedelta(hours=1, minutes=1))

    assert sign_up(cup, "One", "More").status == Status.ACCEPTED


def test_every_change_is_audited_without_the_contact_or_the_address(cup, organiser):
    registration = sign_up(cup, "Berg", "Anna", contact="anna@example.org")
    service.edit(registration, actor=organiser, contact="+46 70 000 00 00")
    service.withdraw(registration, actor=organiser)

    entries = list(AuditEntry.objects.filter(action=AuditEntry.Action.REGISTRATION).order_by("pk"))
    assert [entry.actor for entry in entries] == [None, organiser, organiser]
    assert [entry.after["status"] for entry in entries] == ["accepted", "accepted", "withdrawn"]
    assert entries[1].after["contact_changed"] is True
    text = str([(entry.before, entry.after) for entry in entries])
    assert "anna@example.org" not in text and "+46" not in text
    assert ADDRESS not in text


def test_a_refused_registration_is_not_audited(cup):
    sign_up(cup, "Berg", "Anna", ema_number="04010001")

    refused(sign_up, cup, "Other", "Name", ema_number="04010001")

    assert AuditEntry.objects.count() == 1


def test_counts_and_full_tables(cup, organiser):
    cup.registration_cap = 6
    cup.save()
    for number in range(7):
        sign_up(cup, f"Family{number}", "Given")

    counts = service.counts(cup)

    assert (counts.accepted, counts.waiting, counts.field, counts.free_places) == (6, 1, 6, 0)
    assert (counts.more_for_full_tables, counts.fewer_for_full_tables) == (2, 2)


def test_settings_refuse_closing_before_opening(cup, organiser):
    now = timezone.now()

    error = refused(
        service.update_settings,
        cup,
        actor=organiser,
        registration_opens=now,
        registration_closes=now - timedelta(hours=1),
    )

    assert "registration_closes" in error.error_dict


# --- Concurrent registrations -------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_cap_holds_under_concurrent_registrations():
    organiser = make_user("alice")
    cup = make_tournament(organisers=[organiser], registration="instant", registration_cap=5)
    count = 12
    barrier = threading.Barrier(count)
    outcomes: list[object] = []
    lock = threading.Lock()

    def register(number: int) -> None:
        try:
            barrier.wait(timeout=20)
            made = service.register(
                cup,
                {"family_name": f"Family{number}", "given_name": "Given"},
                address=f"192.0.2.{number}",
            )
            with lock:
                outcomes.append(made.status)
        except Exception as error:  # noqa: BLE001  (counted below)
            with lock:
                outcomes.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=register, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert sorted(map(str, outcomes)) == sorted(["accepted"] * 5 + ["waiting"] * 7)
    assert cup.players.count() == 5
    keys = sorted(int(key) for key in cup.players.values_list("key", flat=True))
    assert keys == [1, 2, 3, 4, 5]
    assert Registration.objects.filter(status=Status.WAITING).count() == 7
