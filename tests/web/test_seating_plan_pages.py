"""The seating plan pages: settings, generating, the job's progress, the preview, publishing;
the fixed table on the player form and the link on the dashboard."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from tournament.models import Round, Seat, SeatingJob
from tournament.services import add_player, create_round, set_round_status, set_seating
from tournament.services.seating_plan import update_seating_settings

pytestmark = pytest.mark.django_db

CLUBS = ("Oak", "Elm", "Ash", "Yew")


@pytest.fixture(autouse=True)
def inline_jobs(settings):
    settings.SEATING_JOBS_INLINE = True


def url(name: str, **kwargs) -> str:
    return reverse(f"seating:{name}", kwargs={"slug": "spring-cup", **kwargs})


def messages_of(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


def errors(html: str) -> list[str]:
    return [" ".join(re.sub("<[^>]+>", "", e).split()) for e in re.findall(r"<li>(.*?)</li>", html)]


@pytest.fixture
def logged_in(client, organiser):
    client.force_login(organiser)
    return client


@pytest.fixture
def field(tournament):
    """8 players keyed 1..8; player i is in club CLUBS[i % 4]."""
    return {
        n: add_player(tournament=tournament, key=str(n), name=f"P{n}", club=CLUBS[n % 4])
        for n in range(1, 9)
    }


def settings_form(**changes) -> dict[str, str]:
    form = {
        "planned_rounds": "3",
        "separate_clubs": "soft",
        "separate_countries": "soft",
        "separate_teams": "off",
        "seed": "",
    }
    form.update(changes)
    return form


def keys_by_table(round) -> dict[int, list[str]]:
    tables: dict[int, list[str]] = {}
    for seat in Seat.objects.filter(round=round).select_related("table", "player"):
        tables.setdefault(seat.table.number, [""] * 4)[seat.index] = seat.player.key
    return tables


# --- Settings ------------------------------------------------------------------------------


def test_the_plan_page_shows_the_settings(logged_in, tournament, field):
    update_seating_settings(
        tournament=tournament,
        planned_rounds=4,
        separate_clubs="hard",
        separate_countries="off",
        separate_teams="soft",
        by_standing=[4],
        actor=tournament.organisers.get(),
    )

    html = logged_in.get(url("plan")).content.decode()

    assert 'name="planned_rounds" value="4"' in html
    assert re.search(r'<option value="hard" selected>Always apart</option>', html)
    assert re.findall(r'name="by_standing" value="(\d+)"( checked)?', html) == [
        ("1", ""),
        ("2", ""),
        ("3", ""),
        ("4", " checked"),
    ]


def test_save_the_settings(logged_in, tournament, field):
    response = logged_in.post(
        url("settings"), settings_form(planned_rounds="5", separate_clubs="hard", by_standing="5")
    )

    assert response.status_code == 302
    assert response["Location"] == url("plan")
    assert messages_of(response) == ["The seating settings are saved."]
    tournament.refresh_from_db()
    assert (tournament.planned_rounds, tournament.separate_clubs, tournament.separate_teams) == (
        5,
        "hard",
        "off",
    )
    assert list(tournament.rounds.values_list("number", "seat_by_standing")) == [
        (1, False),
        (2, False),
        (3, False),
        (4, False),
        (5, True),
    ]
    assert not SeatingJob.objects.exists()


def test_refused_settings_are_shown_again_with_422(logged_in, tournament, field, organiser):
    create_round(tournament=tournament, actor=organiser)
    create_round(tournament=tournament, actor=organiser)

    response = logged_in.post(url("settings"), settings_form(planned_rounds="1"))

    assert response.status_code == 422
    html = response.content.decode()
    assert "Rounds 1 to 2 exist already; remove the last draft rounds to plan fewer." in html
    assert 'name="planned_rounds" value="1"' in html
    tournament.refresh_from_db()
    assert tournament.planned_rounds is None


def test_an_unknown_separation_is_refused(logged_in, tournament, field):
    response = logged_in.post(url("settings"), settings_form(separate_clubs="always"))
    assert response.status_code == 422
    assert "Select a valid choice. always is not one of the available choices." in errors(
        response.content.decode()
    )
    tournament.refresh_from_db()
    assert tournament.planned_rounds is None


# --- Generating ----------------------------------------------------------------------------


def test_save_and_generate_lands_on_the_preview(logged_in, tournament, field):
    response = logged_in.post(url("settings"), settings_form(seed="12", generate="1"))

    job = SeatingJob.objects.get()
    assert response.status_code == 302
    assert response["Location"] == url("job", job=job.pk)
    assert (job.status, job.seed, job.message) == ("done", 12, "Seated rounds 1–3.")
    page = logged_in.get(response["Location"])
    assert page.status_code == 302
    assert page["Location"] == f"{url('preview')}?job={job.pk}"
    html = logged_in.get(page["Location"]).content.decode()
    assert "with seed 12: Seated rounds 1–3." in html
    for number in (1, 2, 3):
        assert f'id="round-{number}-table-2"' in html
        assert len(keys_by_table(tournament.rounds.get(number=number))) == 2


def test_generating_without_planned_rounds_is_refused(logged_in, tournament, field):
    response = logged_in.post(url("settings"), settings_form(planned_rounds="", generate="1"))

    assert response.status_code == 422
    html = response.content.decode()
    assert "Set how many rounds the tournament will have before generating its seating." in html
    assert "The seating settings are saved." in html
    assert not SeatingJob.objects.exists()


def test_regenerate_from_the_preview(logged_in, tournament, field, organiser):
    update_seating_settings(
        tournament=tournament,
        planned_rounds=2,
        separate_clubs="soft",
        separate_countries="soft",
        separate_teams="soft",
        by_standing=[],
        actor=organiser,
    )

    response = logged_in.post(url("generate"), {"seed": "4"})

    job = SeatingJob.objects.get()
    assert response["Location"] == url("job", job=job.pk)
    assert job.seed == 4 and job.status == "done"


def test_a_second_run_is_refused_on_the_preview(logged_in, tournament, field, organiser):
    update_seating_settings(
        tournament=tournament,
        planned_rounds=2,
        separate_clubs="soft",
        separate_countries="soft",
        separate_teams="soft",
        by_standing=[],
        actor=organiser,
    )
    SeatingJob.objects.create(tournament=tournament, created_by=organiser)

    response = logged_in.post(url("generate"), {"seed": ""})

    assert response.status_code == 422
    assert "The seating is being generated already" in response.content.decode()
    assert SeatingJob.objects.count() == 1


def test_a_bad_seed_is_refused(logged_in, tournament, field):
    response = logged_in.post(url("generate"), {"seed": "-3"})
    assert response.status_code == 422
    assert "Ensure this value is greater than or equal to 0." in response.content.decode()
    assert not SeatingJob.objects.exists()


# --- The job's page ------------------------------------------------------------------------


def test_a_running_job_refreshes_itself_and_shows_progress(logged_in, tournament, organiser):
    job = SeatingJob.objects.create(
        tournament=tournament,
        created_by=organiser,
        seed=8,
        stage="rounds 2–5: search",
        done=1500,
        total=6000,
        figures={"cost": 24},
    )

    html = logged_in.get(url("job", job=job.pk)).content.decode()

    assert '<meta http-equiv="refresh" content="1">' in html
    assert '<p class="seat-stage">rounds 2–5: search</p>' in html
    assert '<progress max="6000" value="1500">25%</progress>' in html
    assert "25% of this stage (1500 of 6000)" in html
    assert '<strong class="seat-cost">24</strong>' in html
    assert "<script" not in html


def test_a_failed_job_shows_its_message_without_refreshing(logged_in, tournament, organiser):
    job = SeatingJob.objects.create(
        tournament=tournament,
        created_by=organiser,
        status="failed",
        message="The 5 players of club 'Yew' cannot sit apart at 4 "
        "tables; make club separation soft.",
    )

    html = logged_in.get(url("job", job=job.pk)).content.decode()

    assert 'http-equiv="refresh"' not in html
    assert (
        "No seating was generated: The 5 players of club &#x27;Yew&#x27; cannot sit apart at 4 "
        "tables; make club separation soft." in html
    )


def test_a_dead_job_stops_refreshing(logged_in, tournament, organiser, now):
    job = SeatingJob.objects.create(
        tournament=tournament, created_by=organiser, created=now - timedelta(hours=1)
    )
    html = logged_in.get(url("job", job=job.pk)).content.decode()
    assert 'http-equiv="refresh"' not in html
    assert "it has stopped" in html


def test_a_failed_run_from_the_page_changes_nothing(logged_in, tournament, field, organiser):
    round = create_round(tournament=tournament, actor=organiser)
    set_seating(
        round=round, tables=[list(field.values())[:4], list(field.values())[4:]], actor=organiser
    )
    before = keys_by_table(round)
    # With 9 and 10, Oak has four of the twelve players seated at three tables.
    add_player(tournament=tournament, key="9", name="P9", club="Oak", substitute=True)
    add_player(tournament=tournament, key="10", name="P10", club="Oak")
    add_player(tournament=tournament, key="11", name="P11")
    add_player(tournament=tournament, key="12", name="P12")

    response = logged_in.post(
        url("settings"), settings_form(planned_rounds="2", separate_clubs="hard", generate="1")
    )
    job = SeatingJob.objects.get()
    html = logged_in.get(response["Location"]).content.decode()

    assert job.status == "failed"
    assert (
        "No seating was generated: The 4 players of club &#x27;Oak&#x27; cannot sit apart at 3 "
        "tables; make club separation soft." in html
    )
    assert keys_by_table(round) == before
    assert list(tournament.rounds.values_list("number", flat=True)) == [1]


# --- The preview ---------------------------------------------------------------------------


@pytest.fixture
def by_hand(tournament, organiser, field):
    """Round 1 published, 1 2 3 4 | 5 6 7 8; round 2 a draft, 1 2 5 6 | 3 4 7 8."""
    rounds = []
    for tables in ([[1, 2, 3, 4], [5, 6, 7, 8]], [[1, 2, 5, 6], [3, 4, 7, 8]]):
        round = create_round(tournament=tournament, actor=organiser)
        set_seating(round=round, tables=[[field[n] for n in t] for t in tables], actor=organiser)
        rounds.append(round)
    set_round_status(round=rounds[0], status="seated", actor=organiser)
    return rounds


def test_the_preview_marks_frozen_rounds_and_links_to_editing(logged_in, by_hand):
    html = logged_in.get(url("preview")).content.decode()

    round_1 = html.split('id="round-1"')[1].split("</h2>")[0]
    round_2 = html.split('id="round-2"')[1].split("</h2>")[0]
    assert "frozen" in round_1 and "frozen" not in round_2
    edit = reverse("organiser:round", kwargs={"slug": "spring-cup", "number": 2})
    assert f'<a href="{edit}">Edit: swap players on the round page</a>' in html


def test_the_preview_counts_repeats_conflicts_and_winds(logged_in, by_hand):
    html = logged_in.get(url("preview")).content.decode()

    # Round 2 repeats 1-2, 5-6, 3-4 and 7-8; clubs are i % 4, so 1-5, 2-6, 3-7 and 4-8 share
    # one in round 2.
    assert '<strong class="repeats">4</strong> repeat meetings' in html
    assert '<strong class="club-conflicts">4</strong> club conflicts' in html
    assert '<strong class="country-conflicts">0</strong>' in html
    rows = re.findall(
        r'<tr id="figures-(\d)">.*?<td class="number">(\d+)</td>\s*<td class="number">(\d+)</td>',
        html,
        re.S,
    )
    assert rows == [("1", "0", "0"), ("2", "4", "4")]
    assert re.search(
        r'class="card seat-table conflict repeat" id="round-2-table-1">\s*<h3>Table 1\s*'
        r'<span class="badge conflict">same club</span>\s*'
        r'<span class="badge repeat">2 met before</span>',
        html,
    )
    assert 'class="card seat-table" id="round-1-table-1"' in html
    # Players 1, 2, 7 and 8 start at the same wind in both rounds (E, S, W, N).
    assert '<strong class="wind-spread">2</strong>' in html
    assert "Unbalanced: 1 P1, 2 P2, 7 P7, 8 P8." in html


def test_the_preview_makes_a_fixed_number_of_queries(
    logged_in, by_hand, django_assert_max_num_queries
):
    with django_assert_max_num_queries(12):
        assert logged_in.get(url("preview")).status_code == 200


# --- Publishing ----------------------------------------------------------------------------


def test_publish_chosen_rounds(logged_in, tournament, by_hand, organiser):
    create_round(tournament=tournament, actor=organiser)  # round 3, not seated

    response = logged_in.post(url("publish"), {"rounds": ["2"]})

    assert response.status_code == 302
    assert response["Location"] == url("preview")
    assert messages_of(response) == ["Round 2 is published."]
    assert list(tournament.rounds.values_list("status", flat=True)) == [
        "seated",
        "seated",
        "draft",
    ]


def test_publish_all_seated_drafts(logged_in, tournament, by_hand, organiser):
    create_round(tournament=tournament, actor=organiser)  # round 3, not seated: left as it is
    set_round_status(round=by_hand[0], status="draft", actor=organiser)

    response = logged_in.post(url("publish"), {"all": "1"})

    assert messages_of(response) == ["Rounds 1, 2 are published."]
    assert list(tournament.rounds.values_list("status", flat=True)) == [
        "seated",
        "seated",
        "draft",
    ]


def test_publishing_nothing_is_refused(logged_in, tournament, by_hand):
    response = logged_in.post(url("publish"), {})
    assert response.status_code == 422
    assert "Choose the rounds to publish." in response.content.decode()
    assert Round.objects.get(number=2).status == "draft"


def test_publishing_a_frozen_round_is_refused(logged_in, tournament, by_hand):
    response = logged_in.post(url("publish"), {"rounds": ["1", "2"]})
    assert response.status_code == 422
    assert "Round 1 is published already." in response.content.decode()
    assert Round.objects.get(number=2).status == "draft"


# --- Player form and dashboard -------------------------------------------------------------


def test_the_player_form_sets_a_fixed_table(logged_in, tournament, field):
    target = reverse("organiser:player", kwargs={"slug": "spring-cup", "key": "3"})
    assert 'name="fixed_table"' in logged_in.get(target).content.decode()

    response = logged_in.post(target, {"key": "3", "name": "P3", "club": "Ash", "fixed_table": "2"})

    assert response.status_code == 302
    field[3].refresh_from_db()
    assert field[3].fixed_table == 2


def test_a_fixed_table_of_zero_is_refused(logged_in, tournament, field):
    target = reverse("organiser:player", kwargs={"slug": "spring-cup", "key": "3"})
    response = logged_in.post(target, {"key": "3", "name": "P3", "fixed_table": "0"})
    assert response.status_code == 422
    field[3].refresh_from_db()
    assert field[3].fixed_table is None


def test_the_dashboard_links_to_the_seating_plan(logged_in, tournament):
    html = logged_in.get(reverse("organiser:dashboard", kwargs={"slug": "spring-cup"})).content
    assert f'<a href="{url("plan")}">Seating plan</a>' in html.decode()
