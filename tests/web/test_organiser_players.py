"""Players: the list, adding one, changing one (withdrawal, substitute) and the CSV import."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tournament.models import Player
from tournament.services import add_player
from tournament.web.organiser.players import SAMPLE_CSV

pytestmark = pytest.mark.django_db

PLAYERS = reverse("organiser:players", kwargs={"slug": "spring-cup"})
ADD = reverse("organiser:player_add", kwargs={"slug": "spring-cup"})
IMPORT = reverse("organiser:players_import", kwargs={"slug": "spring-cup"})


@pytest.fixture
def logged_in(client, organiser, tournament):
    client.force_login(organiser)
    return client


@pytest.fixture
def anna(tournament):
    return add_player(tournament=tournament, key="1", name="Anna Berg", ema_number="04010001")


def player_url(player) -> str:
    return reverse("organiser:player", kwargs={"slug": "spring-cup", "key": player.key})


def messages_of(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


def test_list_shows_every_player_with_status(logged_in, tournament, anna):
    add_player(tournament=tournament, key="2", name="Ben Sub", substitute=True)
    add_player(tournament=tournament, key="3", name="Cy Gone", withdrawn_from_round=3)
    page = logged_in.get(PLAYERS).content.decode()
    assert "Anna Berg" in page and "04010001" in page
    assert "substitute" in page
    assert "withdrawn from round 3" in page
    assert "3 players." in page


def test_list_stays_a_few_queries(logged_in, tournament, django_assert_max_num_queries):
    for number in range(1, 41):
        add_player(tournament=tournament, key=str(number), name=f"Player {number}")
    with django_assert_max_num_queries(6):
        response = logged_in.get(PLAYERS)
    assert response.content.decode().count("Player ") == 40


def test_add_a_player(logged_in, tournament):
    data = {"key": " 7 ", "name": "Dora Wu", "country": "AT", "substitute": "on"}
    response = logged_in.post(ADD, data)
    assert response.status_code == 302
    assert response["Location"] == PLAYERS
    player = tournament.players.get()
    assert (player.key, player.name, player.country, player.substitute) == (
        "7",
        "Dora Wu",
        "AT",
        True,
    )
    assert messages_of(response) == ["7 Dora Wu is added."]


def test_add_and_add_another_comes_back_to_the_form(logged_in):
    response = logged_in.post(ADD, {"key": "8", "name": "Eli", "another": "1"})
    assert response["Location"] == ADD


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"key": "1", "name": "Again"}, "key", "Another player of this tournament has this key."),
        (
            {"key": "2", "name": "Twin", "ema_number": "04010001"},
            "ema_number",
            "Another player of this tournament has this EMA number.",
        ),
        ({"key": "2", "name": ""}, "name", "Give the player's name."),
        (
            {"key": "2", "name": "X", "withdrawn_from_round": "0"},
            "withdrawn_from_round",
            "Ensure this value is greater than or equal to 1.",
        ),
    ],
)
def test_add_refuses_bad_input_and_keeps_it(logged_in, anna, data, field, message):
    response = logged_in.post(ADD, {**data, "club": "Tiles & Co"})
    assert response.status_code == 422
    assert response.context["form"].errors[field] == [message]
    assert "Tiles &amp; Co" in response.content.decode()
    assert Player.objects.count() == 1


def test_edit_withdraws_a_player_from_a_round_on(logged_in, anna):
    form = logged_in.get(player_url(anna)).context["form"]
    assert form["name"].value() == "Anna Berg"
    data = {"key": "1", "name": "Anna Berg", "ema_number": "04010001", "withdrawn_from_round": "3"}
    response = logged_in.post(player_url(anna), data)
    assert response.status_code == 302
    anna.refresh_from_db()
    assert anna.withdrawn_from_round == 3
    assert anna.ema_number == "04010001"


def test_edit_makes_a_player_a_substitute_and_back(logged_in, anna):
    logged_in.post(player_url(anna), {"key": "1", "name": "Anna Berg", "substitute": "on"})
    anna.refresh_from_db()
    assert anna.substitute is True
    logged_in.post(player_url(anna), {"key": "1", "name": "Anna Berg"})
    anna.refresh_from_db()
    assert anna.substitute is False


def test_edit_may_keep_the_players_own_key_but_not_take_another(logged_in, tournament, anna):
    add_player(tournament=tournament, key="2", name="Ben")
    response = logged_in.post(player_url(anna), {"key": "2", "name": "Anna Berg"})
    assert response.status_code == 422
    assert response.context["form"].errors["key"] == [
        "Another player of this tournament has this key."
    ]
    anna.refresh_from_db()
    assert anna.key == "1"


def test_a_player_of_another_tournament_is_404(logged_in, organiser):
    from tournament.models import Tournament

    other = Tournament.objects.create(name="Other", slug="other")
    stranger = add_player(tournament=other, key="1", name="Zed")
    assert logged_in.get(player_url(stranger)).status_code == 404


# --- CSV import ----------------------------------------------------------------------------


def test_import_page_shows_the_sample(logged_in):
    page = logged_in.get(IMPORT).content.decode()
    assert "key,name,family_name,given_name,country,club,team,ema_number,substitute" in page


def test_the_sample_imports_as_shown(logged_in, tournament):
    response = logged_in.post(IMPORT, {"text": SAMPLE_CSV})
    assert response.status_code == 302
    rows = list(tournament.players.values_list("key", "name", "ema_number", "substitute"))
    assert rows == [
        ("1", "Anna van der Berg", "04010001", False),
        ("2", "王小明", "", False),
        ("3", "Dieter Hahn", "02020034", False),
        ("4", "Eva Novak", "", True),
    ]
    assert messages_of(response) == ["4 players are imported."]


def test_import_a_file(logged_in, tournament):
    upload = SimpleUploadedFile(
        "players.csv", "start number;name;country\n10;Ágota Kiss;Hungary\n".encode("utf-8-sig")
    )
    response = logged_in.post(IMPORT, {"file": upload})
    assert response.status_code == 302
    assert list(tournament.players.values_list("key", "name", "country")) == [
        ("10", "Ágota Kiss", "HU")
    ]


def test_bad_lines_are_listed_nothing_is_imported_and_the_text_is_kept(logged_in, anna):
    text = "key,name,substitute\n2,Ben,no\n1,Again,no\n3,,no\n4,Dee,maybe\n"
    response = logged_in.post(IMPORT, {"text": text})
    assert response.status_code == 422
    assert response.context["form"].non_field_errors() == [
        "Nothing was imported. Fix these lines and try again: line 3: key 1 is taken; "
        "line 4: Give the player's name; line 5: substitute is yes or no, not “maybe”."
    ]
    assert response.context["form"]["text"].value() == text
    assert "4,Dee,maybe" in response.content.decode()
    assert Player.objects.count() == 1


def test_a_refused_file_comes_back_as_text_to_fix(logged_in, anna):
    upload = SimpleUploadedFile("players.csv", b"key,name\n1,Again\n")
    response = logged_in.post(IMPORT, {"file": upload})
    assert response.status_code == 422
    form = response.context["form"]
    assert form["text"].value() == "key,name\n1,Again\n"
    assert "line 2: key 1 is taken" in form.non_field_errors()[0]
    assert Player.objects.count() == 1


def test_import_needs_a_header_naming_key_and_name(logged_in):
    response = logged_in.post(IMPORT, {"text": "number,who\n1,Anna\n"})
    assert response.status_code == 422
    assert response.context["form"].non_field_errors() == [
        "The first line of the CSV names the columns; it needs name (found: number, who)."
    ]
    assert Player.objects.count() == 0


def test_import_refuses_a_file_that_is_not_utf8(logged_in):
    upload = SimpleUploadedFile("players.csv", "key,name\n1,Jürgen\n".encode("latin-1"))
    response = logged_in.post(IMPORT, {"file": upload})
    assert response.status_code == 422
    assert response.context["form"].non_field_errors() == [
        "The file is not UTF-8 text: save it as CSV UTF-8."
    ]
    assert Player.objects.count() == 0


def test_import_needs_a_file_or_text(logged_in):
    response = logged_in.post(IMPORT, {"text": "  "})
    assert response.status_code == 422
    assert response.context["form"].non_field_errors() == ["Choose a CSV file or paste the lines."]


def test_a_key_with_every_sign_its_alphabet_allows_has_its_own_page(logged_in, tournament):
    player = add_player(tournament=tournament, key="A-1_b.2", name="Odd Key")
    assert player_url(player) == "/manage/spring-cup/players/A-1_b.2/"
    assert player_url(player) in logged_in.get(PLAYERS).content.decode()
    data = {"key": "A-1_b.2", "name": "Odd Key", "club": "Q"}
    response = logged_in.post(player_url(player), data)
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.club == "Q"


@pytest.mark.parametrize("key", ["A/1", "A 1", "1²", "-1"])
def test_add_refuses_a_key_outside_its_alphabet_and_says_why(logged_in, key):
    response = logged_in.post(ADD, {"key": key, "name": "Odd Key"})
    assert response.status_code == 422
    (message,) = response.context["form"].errors["key"]
    assert "a player's key is made of letters (A to Z), digits, '-', '_' and '.'" in message
    assert not Player.objects.exists()


def test_an_address_with_a_key_outside_the_alphabet_is_404(logged_in, tournament):
    assert logged_in.get("/manage/spring-cup/players/A/1/").status_code == 404


# --- Natural order, names, countries, removing ----------------------------------------------


def test_the_list_takes_start_numbers_as_numbers(logged_in, tournament):
    for key in ("10", "2", "1", "B", "A-10", "A-2"):
        add_player(tournament=tournament, key=key, name=f"Player {key}")
    players = logged_in.get(PLAYERS).context["players"]
    assert [player.key for player in players] == ["1", "2", "10", "A-2", "A-10", "B"]


def test_the_form_offers_countries_by_name_and_keeps_a_country_from_before(
    logged_in, tournament, anna
):
    Player.objects.filter(pk=anna.pk).update(country="Atlantis")  # stored before the codes
    form = logged_in.get(player_url(anna)).context["form"]
    choices = dict(form.fields["country"].choices)
    assert choices["SE"] == "Sweden" and choices["CN"] == "China"
    assert form["country"].value() == "Atlantis"
    response = logged_in.post(player_url(anna), {"key": "1", "name": "Anna Berg",
                                                 "country": "Atlantis"})  # fmt: skip
    assert response.status_code == 422
    assert "Atlantis is not a country code" in response.context["form"].errors["country"][0]
    anna.refresh_from_db()
    assert anna.country == "Atlantis"


def test_a_wrong_ema_number_is_refused_on_the_form(logged_in, anna):
    response = logged_in.post(ADD, {"key": "2", "name": "Ben", "ema_number": "123"})
    assert response.status_code == 422
    assert "eight digits" in response.context["form"].errors["ema_number"][0]
    assert Player.objects.count() == 1


def test_the_form_makes_the_name_from_its_parts(logged_in, tournament):
    response = logged_in.post(ADD, {"key": "5", "family_name": "王", "given_name": "小明"})
    assert response.status_code == 302
    assert messages_of(response) == ["5 王小明 is added."]
    assert tournament.players.get().name == "王小明"


def test_a_player_added_by_mistake_is_removed(logged_in, tournament, anna):
    url = reverse("organiser:player_remove", kwargs={"slug": "spring-cup", "key": "1"})
    visit = logged_in.get(url)  # a visit, not the form: sent to the player's page
    assert (visit.status_code, visit["Location"]) == (303, player_url(anna))
    response = logged_in.post(url)
    assert response["Location"] == PLAYERS
    assert messages_of(response) == ["1 Anna Berg is removed."]
    assert not Player.objects.exists()


def test_a_seated_player_is_not_removed_and_the_page_says_why(logged_in, tournament, organiser):
    from factories import make_players, seated_round

    players = make_players(tournament, 4)
    seated_round(tournament, organiser, [players])
    url = reverse("organiser:player_remove", kwargs={"slug": "spring-cup", "key": "2"})
    response = logged_in.post(url)
    assert response.status_code == 422
    assert "Player 2 has played (round 1, table 1)" in response.content.decode()
    assert Player.objects.count() == 4


def test_only_an_organiser_removes_a_player(client, referee, anna):
    client.force_login(referee)
    url = reverse("organiser:player_remove", kwargs={"slug": "spring-cup", "key": "1"})
    assert client.post(url).status_code == 403
    assert Player.objects.count() == 1


def test_the_dashboard_names_the_players_at_each_table(logged_in, tournament, organiser):
    from factories import make_players, seated_round

    players = make_players(tournament, 4, names=["Ann", "Ben", "Cai", "Dee"])
    seated_round(tournament, organiser, [players])
    page = logged_in.get(reverse("organiser:dashboard", kwargs={"slug": "spring-cup"}))
    assert "Ann, Ben, Cai, Dee" in page.content.decode()


def test_the_ema_page_says_how_many_names_were_split(logged_in, tournament):
    add_player(tournament=tournament, key="1", name="王小明")
    add_player(tournament=tournament, key="2", name="Anna Berg", family_name="Berg",
               given_name="Anna")  # fmt: skip
    page = logged_in.get(reverse("outputs:ema", kwargs={"slug": "spring-cup"})).content.decode()
    assert "1 name is split into last and first name from the full name" in page
    assert "<td>王</td>" in page and "<td>小明</td>" in page


def test_a_refused_change_of_key_shows_the_stored_player(logged_in, anna):
    response = logged_in.post(player_url(anna), {"key": "-1", "name": "Anna Berg"})
    assert response.status_code == 422
    page = response.content.decode()
    assert "<h1>1 Anna Berg</h1>" in page
    assert reverse("organiser:player_remove", kwargs={"slug": "spring-cup", "key": "1"}) in page
