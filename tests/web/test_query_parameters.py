"""Every query parameter of the pages, sent wrong: negative, huge, empty, unknown, with digits
that are not ASCII (², ٣). A page never fails on its address: a value it does not take gives
its default, a number out of range the nearest end (`tournament/web/query.py`); only a file
format that does not exist is refused (400)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tournament.models import SeatingJob
from tournament.services import DealInput, add_player, record_deal
from tournament.web.projector import DEFAULT_EVERY

pytestmark = pytest.mark.django_db

BAD_NUMBERS = ["-1", "0", "99999999999999999999999999", "²", "٣", "", "abc", "1.5", " 5", "1_0"]
BAD_WORDS = ["", "²", "unknown", "-", ",", "x" * 2000, "\u0000"]

STANDINGS = reverse("public:standings", args=["spring-cup"])
PROJECTOR = reverse("public:projector", args=["spring-cup"])
AUDIT = reverse("organiser:audit", kwargs={"slug": "spring-cup"})
PREVIEW = reverse("seating:preview", kwargs={"slug": "spring-cup"})


def rows_of(response) -> int:
    return len(re.findall(r"<tr[^>]*>\s*<td", response.content.decode()))


@pytest.fixture
def field(tournament, organiser, board):
    """Round 1 of `board` in play, with a hand at table 1; and 8 more players."""
    for key in range(9, 17):
        add_player(tournament=tournament, key=str(key), name=f"Extra {key}")
    record_deal(
        table=board["tables"][0], number=1, deal=DealInput(result="draw"), entered_by=organiser
    )
    return board


# --- The public standings ---------------------------------------------------------------


@pytest.mark.parametrize("value", BAD_NUMBERS)
@pytest.mark.parametrize("name", ["per_page", "page"])
def test_standings_take_any_page_number(client, field, name, value):
    response = client.get(STANDINGS, {name: value})

    assert response.status_code == 200
    assert rows_of(response) >= 1


def test_a_page_size_in_other_digits_is_the_default_not_read_as_a_number(client, field):
    assert rows_of(client.get(STANDINGS, {"per_page": "2"})) == 2
    assert rows_of(client.get(STANDINGS, {"per_page": "٢"})) == 16  # the default: every row
    assert rows_of(client.get(STANDINGS, {"per_page": "-5"})) == 1  # the nearest end


@pytest.mark.parametrize("value", [*BAD_WORDS, "score,²", "-name,-", "rank,rank"])
def test_standings_take_any_sort(client, field, value):
    response = client.get(STANDINGS, {"sort": value})

    assert response.status_code == 200
    assert rows_of(response) == 16


@pytest.mark.parametrize("value", [*BAD_WORDS, "yes", "true", "2", "01"])
def test_provisional_standings_only_for_1(client, field, value):
    response = client.get(STANDINGS, {"provisional": value})

    assert response.status_code == 200
    assert response.context["provisional"] is False


def test_provisional_standings_for_1(client, field):
    assert client.get(STANDINGS, {"provisional": "1"}).context["provisional"] is True


@pytest.mark.parametrize("value", ["", "²", "pdf", "CSV", "csv "])
def test_an_export_format_that_does_not_exist_is_400(client, field, value):
    response = client.get(STANDINGS, {"_export": value})

    assert response.status_code == 400
    assert response.content.decode() == "Unknown export format; choose csv or xlsx."


# --- The projector, the board, the audit trail ---------------------------------------------


@pytest.mark.parametrize("value", BAD_NUMBERS)
@pytest.mark.parametrize("name", ["every", "page"])
def test_the_projector_takes_any_number(client, field, name, value):
    response = client.get(PROJECTOR, {name: value, "panel": "standings"})

    assert response.status_code == 200


@pytest.mark.parametrize("value", BAD_WORDS)
def test_the_projector_takes_any_panel(client, field, value):
    assert client.get(PROJECTOR, {"panel": value}).status_code == 200


def test_the_projectors_pace_in_other_digits_is_the_default(client, field):
    html = client.get(PROJECTOR, {"every": "٣٠"}).content.decode()

    assert f'content="{DEFAULT_EVERY};url=' in html
    assert f"every={DEFAULT_EVERY}" in html  # asked for, so kept in the next address


@pytest.mark.parametrize("value", BAD_NUMBERS)
def test_the_board_takes_any_pace(client, organiser, field, value):
    client.force_login(organiser)
    url = reverse("organiser:board", args=["spring-cup", 1])

    response = client.get(url, {"every": value})

    assert response.status_code == 200
    assert response.context["refresh_seconds"] in range(2, 61)


@pytest.mark.parametrize("value", BAD_NUMBERS)
def test_the_audit_trail_takes_any_page(client, organiser, field, value):
    client.force_login(organiser)

    response = client.get(AUDIT, {"page": value})

    assert response.status_code == 200
    assert response.context["page"].number == 1


# --- The seating preview --------------------------------------------------------------------


@pytest.mark.parametrize("value", BAD_NUMBERS)
def test_the_seating_preview_takes_any_job(client, tournament, organiser, field, value):
    done = SeatingJob.objects.create(tournament=tournament, created_by=organiser, status="done")
    client.force_login(organiser)

    response = client.get(PREVIEW, {"job": value})

    assert response.status_code == 200
    assert response.context["job"] in (done, None)


def test_the_seating_preview_shows_the_job_asked_for(client, tournament, organiser, field):
    asked = SeatingJob.objects.create(tournament=tournament, created_by=organiser, status="failed")
    SeatingJob.objects.create(tournament=tournament, created_by=organiser, status="done")
    client.force_login(organiser)

    assert client.get(PREVIEW, {"job": str(asked.pk)}).context["job"] == asked
    assert client.get(PREVIEW, {"job": "²"}).context["job"] != asked


# --- The referee's screen and the calculator ------------------------------------------------


@pytest.mark.parametrize("value", [*BAD_NUMBERS, *BAD_WORDS])
def test_the_referee_screen_takes_any_hand_to_correct(client, field, value):
    client.force_login(field["referee"])
    url = reverse("referee:table", args=["spring-cup", 1, 1])

    assert client.get(url, {"correct": value}).status_code == 200


@pytest.mark.parametrize(
    "query",
    [
        {"hand": "²"},
        {"hand": ""},
        {"hand": "x" * 5000},
        {"hand": "123m456p789s11z", "flowers": "²"},
        {"hand": "123m456p789s11z", "flowers": "-1"},
        {"hand": "123m456p789s11z", "flowers": "99999999999999999999"},
        {"hand": "123m456p789s11z", "seat_wind": "²"},
        {"hand": "123m456p789s11z", "prevalent_wind": ""},
    ],
)
def test_the_calculator_takes_any_query(client, query):
    response = client.get(reverse("scoring:calculator"), query)

    assert response.status_code == 200
