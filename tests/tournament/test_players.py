"""Adding players one by one and importing a list."""

from __future__ import annotations

import importlib

import pytest
from django.core.exceptions import ValidationError
from factories import make_tournament

from tournament.models import Player
from tournament.services import add_player, import_players_csv, update_player

pytestmark = pytest.mark.django_db


def test_add_player_trims_and_saves(tournament):
    player = add_player(tournament=tournament, key=" 7 ", name="  Mei Lin ", country="CN")
    assert (player.key, player.name, player.country) == ("7", "Mei Lin", "CN")


@pytest.mark.parametrize(("fields", "field"), [({"key": "", "name": "A"}, "key"),
                                               ({"key": "1", "name": " "}, "name")])  # fmt: skip
def test_add_player_needs_key_and_name(tournament, fields, field):
    with pytest.raises(ValidationError) as error:
        add_player(tournament=tournament, **fields)
    assert field in error.value.message_dict


@pytest.mark.parametrize(
    "key", ["a/b", "A 1", "1²", "²", "é1", "李1", ".1", "-1", "_1", "1?x", "1%2F", "x" * 21]
)
def test_a_key_outside_its_alphabet_is_refused_with_the_rule(tournament, key):
    with pytest.raises(ValidationError) as error:
        add_player(tournament=tournament, key=key, name="A")

    (message,) = error.value.message_dict["key"]
    assert message.startswith("The key ") or "at most 20 characters" in message
    if len(key) <= 20:
        assert "letters (A to Z), digits, '-', '_' and '.'" in message
    assert not Player.objects.exists()


@pytest.mark.parametrize("key", ["1", "A-7", "x_1.2", "S1", "B12.3", "z" * 20])
def test_a_key_in_its_alphabet_is_taken(tournament, key):
    assert add_player(tournament=tournament, key=key, name="A").key == key


def test_a_key_cannot_be_changed_to_one_outside_its_alphabet(tournament):
    player = add_player(tournament=tournament, key="1", name="A")
    with pytest.raises(ValidationError) as error:
        update_player(player=player, key="1/2")
    assert "key" in error.value.message_dict
    assert Player.objects.get().key == "1"


def test_a_csv_line_with_a_key_outside_its_alphabet_is_named(tournament):
    with pytest.raises(ValidationError) as error:
        import_players_csv(tournament=tournament, text="key,name\n1,Ann\nA/2,Ben\n")

    (message,) = error.value.messages
    assert "line 3: The key 'A/2' cannot be used" in message
    assert not Player.objects.exists()


def test_the_migration_gives_refused_keys_the_nearest_free_key(tournament):
    other_tournament = make_tournament(name="Autumn", slug="autumn")
    migration = importlib.import_module("tournament.migrations.0013_player_key_alphabet")
    for key in ("1", "A-1-b", "9"):
        add_player(tournament=tournament, key=key, name=key)
    add_player(tournament=other_tournament, key="x", name="x")
    # Stored before the alphabet was checked: written past the validation.
    odd = {"A/1 b": "A-1-b-2", "B 12/3": "B-12-3", "/x": "x", "李": "player", "²": "player-2"}
    for number, key in enumerate(odd):
        Player.objects.create(tournament=tournament, key=key, name=f"Odd {number}")
    Player.objects.create(tournament=other_tournament, key="a b", name="Other")

    from django.apps import apps

    migration.fix_player_keys(apps, None)

    keys = dict(Player.objects.filter(name__startswith="Odd").values_list("name", "key"))
    assert keys == {f"Odd {number}": new for number, new in enumerate(odd.values())}
    assert Player.objects.get(name="Other").key == "a-b"
    assert set(
        Player.objects.filter(name__in=["1", "A-1-b", "9", "x"]).values_list("key", flat=True)
    ) == {"1", "A-1-b", "9", "x"}


def test_duplicate_key_is_refused(tournament):
    add_player(tournament=tournament, key="1", name="A")
    with pytest.raises(ValidationError) as error:
        add_player(tournament=tournament, key="1", name="B")
    assert "key" in str(error.value)
    assert Player.objects.count() == 1


def test_update_player_withdraws_from_a_round(tournament):
    player = add_player(tournament=tournament, key="1", name="A")
    update_player(player=player, withdrawn_from_round=3)
    assert Player.objects.get(pk=player.pk).withdrawn_from_round == 3


CSV = """key,name,country,club,team,ema_number,substitute
1,Anna Berg,SE,Stockholm MC,,04010001,no
2,Bo Chen,CN,,Team A,,
3,Carla Diaz,ES,Madrid,,,yes
"""


def test_import_reads_every_column(tournament):
    players = import_players_csv(tournament=tournament, text=CSV)
    assert len(players) == 3
    anna = Player.objects.get(tournament=tournament, key="1")
    assert (anna.name, anna.country, anna.club, anna.ema_number, anna.substitute) == (
        "Anna Berg", "SE", "Stockholm MC", "04010001", False,
    )  # fmt: skip
    assert Player.objects.get(key="3").substitute is True
    assert Player.objects.get(key="2").team == "Team A"


def test_import_accepts_semicolons_other_header_names_and_a_bom(tournament):
    text = "\ufeffStart number;Name;EMA ID\n10;Dora Eng;04010002\n"
    import_players_csv(tournament=tournament, text=text)
    dora = Player.objects.get(key="10")
    assert (dora.name, dora.ema_number) == ("Dora Eng", "04010002")


def test_import_is_all_or_nothing_and_lists_every_bad_line(tournament):
    add_player(tournament=tournament, key="2", name="Existing")
    text = "key,name,substitute\n1,Fine,no\n2,Taken key,no\n3,,no\n4,Odd,maybe\n"
    with pytest.raises(ValidationError) as error:
        import_players_csv(tournament=tournament, text=text)
    message = error.value.messages[0]
    assert "line 3: key 2 is taken" in message
    assert "line 4:" in message and "name" in message
    assert "line 5: substitute is yes or no" in message
    assert "line 2" not in message
    assert list(Player.objects.values_list("key", flat=True)) == ["2"]


def test_duplicate_keys_inside_the_file_are_refused(tournament):
    with pytest.raises(ValidationError) as error:
        import_players_csv(tournament=tournament, text="key,name\n1,A\n1,B\n")
    assert "line 3: key 1 is taken" in error.value.messages[0]
    assert not Player.objects.exists()


def test_header_without_key_or_name_is_explained(tournament):
    with pytest.raises(ValidationError) as error:
        import_players_csv(tournament=tournament, text="player,country\nA,SE\n")
    assert error.value.code == "csv_header"
    assert "key" in error.value.messages[0]


@pytest.mark.parametrize("text", ["", "key,name\n", "key,name\n,\n"])
def test_empty_import_is_refused(tournament, text):
    with pytest.raises(ValidationError) as error:
        import_players_csv(tournament=tournament, text=text)
    assert error.value.code in {"csv_empty", "csv_rows"}
    assert not Player.objects.exists()
