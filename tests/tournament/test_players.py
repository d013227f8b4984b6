"""Adding players one by one and importing a list."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

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
