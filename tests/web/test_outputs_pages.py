"""The organiser's printouts: what they show, worked out by hand, and their query counts."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from factories import seated_round

from tournament.models import Tournament
from tournament.services import (
    DealInput,
    add_player,
    confirm_submitted_games,
    create_round,
    end_game,
    record_deal,
    record_false_win,
    set_round_status,
    set_seating,
)

pytestmark = pytest.mark.django_db

NAMES = ["Ann Archer", "Ben Baker", "Cai Chen", "Dora Diaz", "Eve Evans", "Finn Fox", "Gus Gray"]


@pytest.fixture
def cup(tournament, organiser, client):
    """Round 1 finished, round 2 seated (published), round 3 a seated draft.

    Round 1 sheets are confirmed by the organiser.
    Round 1, table 1 (Ann E, Ben S, Cai W, Dora N), ended by time:
      hand 1: Ann wins on Ben's discard, 8 fan + 1 flower (9): Ann +33, Ben −17, Cai −8,
              Dora −8; hand 2 drawn. Table points Ann 4, Cai and Dora 1 1/2 each, Ben 0.
    Round 1, table 2 (Eve E, Finn S, Gus W, Sam N; Sam is a substitute), ended by time:
      hand 1: Gus self-drawn, 8 fan: Gus +48, the others −16. Table points Gus 4, the others 1.
    Ranking without Sam (N = 7): Gus 1st (4, 48), Ann 2nd (4, 33), Cai and Dora share 3rd
    (1 1/2, −8), Eve and Finn share 5th (1, −16), Ben 7th (0, −17).
    """
    p = {
        name.split()[0]: add_player(
            tournament=tournament,
            key=str(key),
            name=name,
            ema_number=f"0400{key:04d}" if key < 3 else "",
        )
        for key, name in enumerate(NAMES, start=1)
    }
    p["Sam"] = add_player(tournament=tournament, key="8", name="Sam Sub", substitute=True)
    one, (t1, t2) = seated_round(
        tournament,
        organiser,
        [[p["Ann"], p["Ben"], p["Cai"], p["Dora"]], [p["Eve"], p["Finn"], p["Gus"], p["Sam"]]],
    )
    record_deal(
        table=t1,
        number=1,
        deal=DealInput(result="win", winner=p["Ann"], discarder=p["Ben"], fan=8, flowers=1),
        entered_by=organiser,
    )
    record_deal(table=t1, number=2, deal=DealInput(result="draw"), entered_by=organiser)
    record_deal(
        table=t2,
        number=1,
        deal=DealInput(result="win", winner=p["Gus"], fan=8),
        entered_by=organiser,
    )
    for table in (t1, t2):
        end_game(table=table, ended_by_time=True, entered_by=organiser)
    confirm_submitted_games(round=one, confirmed_by=organiser)
    set_round_status(round=one, status="finished", actor=organiser)
    seated_round(
        tournament,
        organiser,
        [[p["Ann"], p["Eve"], p["Ben"], p["Finn"]], [p["Cai"], p["Gus"], p["Dora"], p["Sam"]]],
        status="seated",
    )
    seated_round(
        tournament,
        organiser,
        [[p["Gus"], p["Ann"], p["Finn"], p["Dora"]], [p["Ben"], p["Cai"], p["Eve"], p["Sam"]]],
        status="draft",
    )
    client.force_login(organiser)
    return p


def get(client, name, **kwargs):
    response = client.get(reverse(name, kwargs={"slug": "spring-cup", **kwargs}))
    assert response.status_code == 200
    return response


def text(response) -> str:
    """The page's text, tags removed and spaces squeezed."""
    html = re.sub(r"<[^>]+>", " ", response.content.decode())
    return " ".join(html.split())


# --- EMA ------------------------------------------------------------------------------------


def test_ema_csv_download(client, cup):
    response = get(client, "outputs:ema_csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="spring-cup-ema.csv"'
    body = response.content.decode("utf-8")
    assert body.startswith("\ufeff")  # so that spreadsheets read accented names right
    assert body[1:].split("\r\n") == [
        "Place,EMA number,Last name,First name,Country,Table points,Score,Base rank",
        "1,,Gray,Gus,,4,48,1000",
        "2,04000001,Archer,Ann,,4,33,833",
        "3,,Chen,Cai,,1.5,-8,667",
        "3,,Diaz,Dora,,1.5,-8,667",
        "5,,Evans,Eve,,1,-16,333",
        "5,,Fox,Finn,,1,-16,333",
        "7,04000002,Baker,Ben,,0,-17,0",
        "",
    ]


def test_exports_answer_even_for_table_points_stored_out_of_range(client, cup, tournament):
    """Stored before the range was checked (or by hand in the database): never a 500."""
    Tournament.objects.filter(pk=tournament.pk).update(table_points=[10**30, 2, 1, 0])

    ema = get(client, "outputs:ema_csv").content.decode("utf-8")
    public = reverse("public:standings", kwargs={"slug": "spring-cup"})
    csv = client.get(public, {"_export": "csv"})
    xlsx = client.get(public, {"_export": "xlsx"})

    assert str(10**30) in ema
    assert (csv.status_code, xlsx.status_code) == (200, 200)
    assert str(10**30) in csv.content.decode("utf-8")


def test_ema_page_shows_the_rows_and_the_substitute_apart(client, cup):
    page = text(get(client, "outputs:ema"))
    assert "1 Gray Gus 4 48 1000" in page
    assert "3 Chen Cai 1.5 -8 667 3 Diaz Dora 1.5 -8 667" in page
    assert "7 ranked players (N)" in page
    substitutes = page.split("Substitutes (not ranked, not in the EMA file)")[1]
    assert "8 Sam Sub 1 -16" in substitutes
    # round 2 is published and its two games have not ended
    assert (
        "Provisional: only games with a confirmed sheet count. 2 games of published rounds have"
        " not ended." in page
    )


# --- Standings and seating ------------------------------------------------------------------


def test_final_standings_page(client, cup):
    page = text(get(client, "outputs:standings"))
    assert "3 3 Cai Chen 1 1/2 -8 1 3 4 Dora Diaz 1 1/2 -8 1" in page
    assert "7 2 Ben Baker 0 -17 1" in page
    assert "– 8 Sam Sub substitute, not ranked 1 -16 1" in page
    assert page.index("Gus Gray") < page.index("Ann Archer") < page.index("Ben Baker")


def test_round_seating_by_table(client, cup):
    page = text(get(client, "outputs:round_seating", number=2))
    assert (
        "Table 1 Seat Key Player East 1 Ann Archer South 5 Eve Evans West 2 Ben Baker "
        "North 6 Finn Fox" in page
    )
    assert (
        "Table 2 Seat Key Player East 3 Cai Chen South 7 Gus Gray West 4 Dora Diaz "
        "North 8 Sam Sub sub" in page
    )
    assert "draft" not in page


def test_a_draft_rounds_seating_is_marked_as_not_published(client, cup):
    page = text(get(client, "outputs:round_seating", number=3))
    assert "Round 3 is a draft: this seating is not published yet" in page


def test_seating_by_player_lists_published_rounds_alphabetically(client, cup):
    response = get(client, "outputs:player_seating")
    page = text(response)
    assert "Round 1 Round 2" in page and "Round 3" not in page  # round 3 is a draft
    assert "Ann Archer 1 1 E 1 E" in page
    assert "Ben Baker 2 1 S 1 W" in page
    assert "Sam Sub 8 2 N 2 N" in page
    names = re.findall(r'<th scope="row">([^<]+)</th>', response.content.decode())
    assert names == [*NAMES, "Sam Sub"]


def test_seating_by_player_marks_a_player_not_seated(client, tournament, cup):
    add_player(tournament=tournament, key="9", name="Zoe Late")
    assert "Zoe Late 9 – –" in text(get(client, "outputs:player_seating"))


# --- Game sheets ----------------------------------------------------------------------------


def sheet_rows(response, table: int) -> dict[int, dict]:
    """Hand number -> prevailing wind, seat winds, +/- and totals, from table `table`'s sheet."""
    html = response.content.decode()
    section = html.split(f'id="sheet-{table}"')[1].split('<section class="sheet"')[0]
    rows = {}
    row = (
        r'<th scope="row" class="hand">(\d+)</th>\s*<td class="wind">(\w)</td>(.*?)'
        r'<td class="notes-col">'
    )
    for number, wind, cells in re.findall(row, section, re.S):
        winds = re.findall(r'class="seat-wind[^"]*">(\w)<', cells)
        boxes = re.findall(r'class="box number">([^<]*)<', cells)
        rows[int(number)] = {
            "wind": wind,
            "winds": "".join(winds),
            "paid": boxes[0::2],
            "total": boxes[1::2],
        }
    return rows


def test_blank_sheets_give_the_winds_of_every_hand_and_empty_boxes(client, cup):
    response = get(client, "outputs:blank_sheets", number=2)
    page = text(response)
    assert "Round 2 · Table 1" in page and "Round 2 · Table 2" in page
    assert "E: Ann Archer" in page and "N: Sam Sub" in page
    rows = sheet_rows(response, 1)
    assert sorted(rows) == list(range(1, 17))
    # Seat winds of the players who started E, S, W, N (WMO rotation, rules/TOURNAMENT.md)
    assert [rows[n]["winds"] for n in (1, 2, 3, 4)] == ["ESWN", "NESW", "WNES", "SWNE"]
    assert [rows[n]["wind"] for n in (1, 5, 9, 13)] == ["E", "S", "W", "N"]
    assert rows[5]["winds"] == "SENW"  # B A D C: the player who started South deals
    assert rows[9]["winds"] == "NWES"  # C D B A
    assert rows[13]["winds"] == "WNSE"  # D C A B
    assert all(box == "" for row in rows.values() for box in row["paid"] + row["total"])


def test_blank_sheets_follow_the_tournaments_seat_rotation(client, cup):
    Tournament.objects.filter(slug="spring-cup").update(seat_rotation="half")
    rows = sheet_rows(get(client, "outputs:blank_sheets", number=2), 1)
    assert rows[5]["winds"] == "ESWN"  # nobody moves before the West wind round
    assert rows[9]["winds"] == "SENW"  # then E and S, W and N swap


def test_filled_sheets_show_the_hands_entered(client, cup):
    response = get(client, "outputs:sheets", number=1)
    rows = sheet_rows(response, 1)
    assert rows[1]["paid"] == ["33", "-17", "-8", "-8"]
    assert rows[2]["paid"] == ["0", "0", "0", "0"]
    assert rows[2]["total"] == ["33", "-17", "-8", "-8"]
    assert rows[3]["paid"] == ["", "", "", ""]  # not played: time was called
    page = text(response)
    assert "Ann Archer 8 fan + 1 flower, from Ben Baker" in page
    assert "Game ended by time · 2 hands" in page
    # place · table points, by starting seat
    assert "Place · table points 1 · 4 4 · 0 2 · 1 1/2 2 · 1 1/2" in page


def test_filled_sheets_show_penalties(client, tournament, organiser, cup):
    round = tournament.rounds.get(number=2)
    set_round_status(round=round, status="playing", actor=organiser)
    table = round.tables.get(number=1)
    record_false_win(table=table, number=1, offender=cup["Finn"], invalid_hand=False,
                     entered_by=organiser)  # fmt: skip
    response = get(client, "outputs:sheets", number=2)
    rows = sheet_rows(response, 1)
    assert rows[1]["paid"] == ["10", "10", "10", "-30"]
    assert "False win: Finn Fox −30" in text(response)
    assert "0 of 16 hands entered" in text(response)


def test_a_round_without_tables_has_no_sheets(client, tournament, organiser, cup):
    create_round(tournament=tournament, actor=organiser)
    page = text(get(client, "outputs:blank_sheets", number=4))
    assert "Round 4 is not seated yet: there is no table to print." in page


def test_index_links_every_printout(client, cup):
    html = get(client, "outputs:index").content.decode()
    for number in (1, 2, 3):
        assert (
            reverse("outputs:blank_sheets", kwargs={"slug": "spring-cup", "number": number}) in html
        )
    assert reverse("outputs:ema_csv", kwargs={"slug": "spring-cup"}) in html


def test_printouts_have_a_print_stylesheet(client, cup):
    html = get(client, "outputs:sheets", number=1).content.decode()
    assert "tournament/print.css" in html
    assert 'class="print-tools no-print"' in html


# --- Query counts ---------------------------------------------------------------------------


def build(tournament, organiser, tables: int) -> None:
    """`tables` tables in round 1 (ended, a hand and a false win each) and round 2 (in play)."""
    players = [
        add_player(tournament=tournament, key=str(n), name=f"Player {n}")
        for n in range(1, 4 * tables + 1)
    ]
    one = create_round(tournament=tournament, actor=organiser)
    groups = [players[i : i + 4] for i in range(0, len(players), 4)]
    set_seating(round=one, tables=groups, actor=organiser)
    set_round_status(round=one, status="seated", actor=organiser)
    set_round_status(round=one, status="playing", actor=organiser)
    for table in one.tables.all():
        seats = sorted(table.seats.all(), key=lambda seat: seat.index)
        record_deal(
            table=table,
            number=1,
            deal=DealInput(result="win", winner=seats[0].player, discarder=seats[1].player, fan=8),
            entered_by=organiser,
        )
        record_false_win(table=table, number=2, offender=seats[3].player, invalid_hand=False,
                         entered_by=organiser)  # fmt: skip
        end_game(table=table, ended_by_time=True, entered_by=organiser)
    confirm_submitted_games(round=one, confirmed_by=organiser)
    set_round_status(round=one, status="finished", actor=organiser)
    two = create_round(tournament=tournament, actor=organiser)
    set_seating(round=two, tables=[group[1:] + group[:1] for group in groups], actor=organiser)
    set_round_status(round=two, status="seated", actor=organiser)
    set_round_status(round=two, status="playing", actor=organiser)
    for table in two.tables.all():
        record_deal(table=table, number=1, deal=DealInput(result="draw"), entered_by=organiser)


# Pages (not the CSV download) include the header's check whether to offer "Organise".
QUERY_PAGES = [
    ("outputs:index", {}, 6),
    ("outputs:ema_csv", {}, 6),
    ("outputs:ema", {}, 8),
    ("outputs:standings", {}, 8),
    ("outputs:player_seating", {}, 8),
    ("outputs:round_seating", {"number": 1}, 9),
    ("outputs:sheets", {"number": 1}, 10),
    ("outputs:blank_sheets", {"number": 1}, 8),
]


@pytest.mark.parametrize("tables", [2, 6])
@pytest.mark.parametrize(("name", "kwargs", "queries"), QUERY_PAGES)
def test_query_count_does_not_grow_with_the_tournament(
    client, tournament, organiser, django_assert_max_num_queries, tables, name, kwargs, queries
):
    build(tournament, organiser, tables)
    client.force_login(organiser)
    # session, user, tournament, organiser check, then the page's own reads: the same number
    # for 2 and for 6 tables
    with django_assert_max_num_queries(queries):
        response = client.get(reverse(name, kwargs={"slug": "spring-cup", **kwargs}))
    assert response.status_code == 200


def test_round_seating_by_name(client, cup):
    response = client.get(
        reverse("outputs:round_seating", kwargs={"slug": "spring-cup", "number": 2}),
        {"order": "name"},
    )
    page = text(response)

    assert "Seating by name, round 2" in page
    assert (
        "Player Key Table Seat Ann Archer 1 1 East Ben Baker 2 1 West Cai Chen 3 2 East "
        "Dora Diaz 4 2 West Eve Evans 5 1 South Finn Fox 6 1 North Gus Gray 7 2 South "
        "Sam Sub sub 8 2 North" in page
    )
    assert "Sorted by table instead" in page


def test_the_index_offers_the_seating_by_name_on_paper_and_on_the_projector(client, cup):
    html = get(client, "outputs:index").content.decode()

    assert "/print/rounds/2/seating/?order=name" in html or "seating/?order=name" in html
    assert "/t/spring-cup/projector/?seating=name" in html
