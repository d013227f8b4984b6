"""Players' names in parts, EMA numbers, ISO country codes, keys in natural order, and
removing a player added by mistake."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from factories import make_players, seated_round

from tournament.domain.names import country_code, full_name, natural_key, split_name
from tournament.models import Player
from tournament.reads.ema import name_parts
from tournament.services import (
    DealInput,
    add_player,
    import_players_csv,
    record_deal,
    remove_player,
    update_player,
)

pytestmark = pytest.mark.django_db


# --- Keys -----------------------------------------------------------------------------------


def test_keys_sort_as_numbers_where_they_are_numbers():
    keys = ["10", "2", "A-10", "A-2", "1", "b", "B-1", "02"]
    assert sorted(keys, key=natural_key) == ["1", "02", "2", "10", "A-2", "A-10", "b", "B-1"]


# --- Names ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "family", "given"),
    [
        ("王小明", "王", "小明"),
        ("欧阳娜娜", "欧阳", "娜娜"),
        ("歐陽娜娜", "歐陽", "娜娜"),
        ("司马光", "司马", "光"),
        ("王五", "王", "五"),
        ("山田 太郎", "山田", "太郎"),
        ("김민수", "김", "민수"),
        ("남궁민수", "남궁", "민수"),
        ("王", "王", ""),
        ("Anna BERG", "BERG", "Anna"),
        ("VAN DER BERG Anna", "VAN DER BERG", "Anna"),
        ("Anna van der Berg", "van der Berg", "Anna"),
        ("Berg, Anna", "Berg", "Anna"),
        ("王，小明", "王", "小明"),
        ("J. R. Tolkien", "Tolkien", "J. R."),
    ],
)
def test_full_names_split_into_family_and_given(name, family, given):
    assert split_name(name) == (family, given)


def test_names_are_written_in_their_natural_order():
    assert full_name("王", "小明") == "王小明"
    assert full_name("van der Berg", "Anna") == "Anna van der Berg"
    assert full_name("Madonna", "") == "Madonna"


def test_a_name_is_stored_as_given(tournament):
    player = add_player(tournament=tournament, key="1", name="  Berg,  Anna ")
    assert player.name == "Berg,  Anna"
    assert (player.family_name, player.given_name) == ("", "")


def test_family_and_given_names_alone_make_the_name(tournament):
    wang = add_player(tournament=tournament, key="1", family_name="王", given_name="小明")
    anna = add_player(tournament=tournament, key="2", family_name="van der Berg", given_name="Anna")
    assert (wang.name, wang.family_name, wang.given_name) == ("王小明", "王", "小明")
    assert anna.name == "Anna van der Berg"


def test_the_ema_file_takes_the_family_name_given_over_the_split(tournament):
    # A Japanese name without a space: the split would take one character.
    given = add_player(
        tournament=tournament, key="1", name="山田太郎", family_name="山田", given_name="太郎"
    )
    split = add_player(tournament=tournament, key="2", name="欧阳娜娜")
    assert name_parts(given) == ("山田", "太郎", False)
    assert name_parts(split) == ("欧阳", "娜娜", True)


def test_a_given_name_needs_its_family_name(tournament):
    with pytest.raises(ValidationError) as error:
        add_player(tournament=tournament, key="1", name="Anna Berg", given_name="Anna")
    assert list(error.value.message_dict) == ["family_name"]


def test_no_name_at_all_is_refused(tournament):
    with pytest.raises(ValidationError) as error:
        add_player(tournament=tournament, key="1", name="  ")
    assert error.value.message_dict == {"name": ["Give the player's name."]}


# --- EMA numbers and countries -------------------------------------------------------------


@pytest.mark.parametrize("number", ["4010001", "0401000A", "040100011", "EMA-1"])
def test_an_ema_number_is_eight_digits(tournament, number):
    with pytest.raises(ValidationError) as error:
        add_player(tournament=tournament, key="1", name="Anna", ema_number=number)
    assert error.value.error_dict["ema_number"][0].code == "bad_ema_number"
    assert not Player.objects.exists()


def test_a_lost_leading_zero_is_pointed_out(tournament):
    with pytest.raises(ValidationError) as error:
        add_player(tournament=tournament, key="1", name="Anna", ema_number="4010001")
    assert "leading zero" in error.value.message_dict["ema_number"][0]


def test_spaces_leave_an_ema_number(tournament):
    player = add_player(tournament=tournament, key="1", name="Anna", ema_number=" 0401 0001 ")
    assert player.ema_number == "04010001"


@pytest.mark.parametrize(
    ("text", "code"),
    [("SE", "SE"), ("se", "SE"), ("SWE", "SE"), ("Sweden", "SE"), ("瑞典", "SE"),
     ("United Kingdom", "GB"), ("UK", "GB"), ("England", "GB"), ("", "")],
)  # fmt: skip
def test_countries_become_their_iso_codes(tournament, text, code):
    assert country_code(text) == code
    player = add_player(tournament=tournament, key="1", name="Anna", country=text)
    assert player.country == code


@pytest.mark.parametrize("text", ["Narnia", "XX", "S"])
def test_a_country_that_is_none_is_refused(tournament, text):
    with pytest.raises(ValidationError) as error:
        add_player(tournament=tournament, key="1", name="Anna", country=text)
    assert error.value.error_dict["country"][0].code == "bad_country"
    assert "ISO 3166" in error.value.message_dict["country"][0]


def test_a_change_of_another_field_keeps_the_checks(tournament):
    player = add_player(tournament=tournament, key="1", name="Anna", country="SE")
    # A country from before codes were asked for stays until the player is changed.
    Player.objects.filter(pk=player.pk).update(country="Atlantis")
    player.refresh_from_db()
    with pytest.raises(ValidationError) as error:
        update_player(player=player, club="Oak")
    assert list(error.value.message_dict) == ["country"]
    assert update_player(player=player, club="Oak", country="DK").country == "DK"


# --- The CSV import ------------------------------------------------------------------------


def test_the_csv_import_takes_family_and_given_names_and_country_names(tournament):
    text = "key,family name,given name,country\n1,王,小明,China\n2,Berg,Anna,swe\n"
    players = import_players_csv(tournament=tournament, text=text)
    assert [(p.name, p.family_name, p.given_name, p.country) for p in players] == [
        ("王小明", "王", "小明", "CN"),
        ("Anna Berg", "Berg", "Anna", "SE"),
    ]


def test_the_csv_import_names_each_bad_ema_number_and_country_by_line(tournament):
    text = "key,name,country,ema\n1,Anna,Narnia,04010001\n2,Ben,DE,4010002\n3,Cy,CN,\n"
    with pytest.raises(ValidationError) as error:
        import_players_csv(tournament=tournament, text=text)
    message = error.value.messages[0]
    assert "line 2: Narnia is not a country code" in message
    assert "line 3: An EMA number has eight digits; 4010002 has 7" in message
    assert "line 4" not in message
    assert not Player.objects.exists()


# --- Removing a player ----------------------------------------------------------------------


def test_a_player_without_a_seat_is_removed(tournament):
    player = add_player(tournament=tournament, key="17", name="Mistake")
    remove_player(player=player)
    assert not Player.objects.exists()


def test_a_player_seated_in_a_round_not_played_yet_is_kept(tournament, organiser):
    players = make_players(tournament, 4)
    seated_round(tournament, organiser, [players], status="seated")
    with pytest.raises(ValidationError) as error:
        remove_player(player=players[2])
    assert error.value.code == "player_seated"
    assert "seated at table 1 in round 1" in error.value.messages[0]
    assert Player.objects.count() == 4


def test_a_player_who_has_played_is_kept(tournament, organiser):
    players = make_players(tournament, 4)
    _round, (table,) = seated_round(tournament, organiser, [players])
    record_deal(table=table, number=1, deal=DealInput(result="draw"), entered_by=organiser)
    with pytest.raises(ValidationError) as error:
        remove_player(player=players[3])
    assert error.value.code == "player_has_results"
    assert "withdraw them" in error.value.messages[0]
    assert Player.objects.count() == 4


def test_a_player_in_a_round_in_play_is_kept_even_before_a_hand(tournament, organiser):
    players = make_players(tournament, 4)
    seated_round(tournament, organiser, [players])
    with pytest.raises(ValidationError) as error:
        remove_player(player=players[0])
    assert error.value.code == "player_has_results"


# --- The migration of existing players ------------------------------------------------------


def test_the_migration_turns_country_names_into_codes_and_splits_comma_names(tournament):
    from importlib import import_module

    from django.apps import apps

    migration = import_module("tournament.migrations.0017_player_names_and_codes")
    rows = [("1", "Berg, Anna", "Sweden"), ("2", "王, 小明", "china"), ("3", "Cy", "Atlantis")]
    for key, name, country in rows:  # as they were stored before the checks
        Player.objects.create(tournament=tournament, key=key, name=name, country=country)

    migration.forwards(apps, None)

    assert list(
        Player.objects.order_by("key").values_list("name", "family_name", "given_name", "country")
    ) == [
        ("Anna Berg", "Berg", "Anna", "SE"),
        ("王小明", "王", "小明", "CN"),
        ("Cy", "", "", "Atlantis"),  # kept; refused when the player is next changed
    ]
