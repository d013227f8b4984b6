"""Who may open the seating plan pages: every URL of the `seating` namespace, swept by role."""

from __future__ import annotations

import pytest
from django.urls import get_resolver, reverse
from factories import make_players, make_user, seated_round

from tournament.models import AuditEntry, Player, Round, Seat, SeatingJob, Table, Tournament
from tournament.services import set_round_status
from tournament.services.seating_plan import update_seating_settings

pytestmark = pytest.mark.django_db

MODELS = (AuditEntry, Player, Round, Seat, SeatingJob, Table, Tournament)
WRITES = ("settings", "generate", "publish")
# What a POST would need to do something if it were let through.
FORMS = {
    "settings": {
        "planned_rounds": "3",
        "separate_clubs": "hard",
        "separate_countries": "off",
        "separate_teams": "off",
        "generate": "1",
    },
    "generate": {"seed": "1"},
    "publish": {"all": "1"},
}


@pytest.fixture(autouse=True)
def inline_jobs(settings):
    settings.SEATING_JOBS_INLINE = True


def seating_names() -> list[str]:
    resolver = get_resolver()
    names = resolver.namespace_dict["seating"][1].reverse_dict.keys()
    return sorted(name for name in names if isinstance(name, str))


@pytest.fixture
def world(tournament, organiser, referee):
    """Round 1 seated (published), round 2 a seated draft, a finished run of the generator."""
    players = make_players(tournament, name="P{}")
    for _ in range(2):
        seated_round(tournament, organiser, [players[:4], players[4:]], status="draft")
    set_round_status(round=tournament.rounds.get(number=1), status="seated", actor=organiser)
    update_seating_settings(
        tournament=tournament,
        planned_rounds=2,
        separate_clubs="soft",
        separate_countries="soft",
        separate_teams="soft",
        by_standing=[],
        actor=organiser,
    )
    job = SeatingJob.objects.create(
        tournament=tournament, created_by=organiser, status="done", figures={}
    )
    tournament.rounds.get(number=1).tables.first().referees.add(referee)
    stranger = make_user("carol", password="stranger-pass-42")
    return {"job": job, "referee": referee, "stranger": stranger}


def url(name: str, world, slug: str = "spring-cup") -> str:
    kwargs = {"slug": slug}
    if name == "job":
        kwargs["job"] = world["job"].pk
    return reverse(f"seating:{name}", kwargs=kwargs)


def snapshot() -> dict[str, object]:
    counts: dict[str, object] = {model.__name__: model.objects.count() for model in MODELS}
    counts["statuses"] = list(Round.objects.values_list("number", "status"))
    counts["settings"] = list(
        Tournament.objects.values_list("planned_rounds", "separate_clubs", "separate_teams")
    )
    return counts


def test_the_sweep_sees_every_page():
    assert seating_names() == ["generate", "job", "plan", "preview", "publish", "settings"]


def test_the_pages_are_under_manage(world):
    assert url("plan", world) == "/manage/spring-cup/seating/"
    assert url("job", world) == f"/manage/spring-cup/seating/jobs/{world['job'].pk}/"


@pytest.mark.parametrize("name", seating_names())
def test_anonymous_visitors_are_asked_to_log_in(client, world, name):
    before = snapshot()
    target = url(name, world)
    response = client.post(target, FORMS.get(name, {})) if name in WRITES else client.get(target)
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next={target}"
    assert snapshot() == before


@pytest.mark.parametrize("name", seating_names())
@pytest.mark.parametrize("who", ["stranger", "referee"])
def test_users_who_do_not_organise_get_403(client, world, name, who):
    client.force_login(world[who])
    before = snapshot()
    target = url(name, world)
    response = client.post(target, FORMS.get(name, {})) if name in WRITES else client.get(target)
    assert response.status_code == 403
    assert b"not an organiser" in response.content
    assert snapshot() == before


@pytest.mark.parametrize("name", seating_names())
def test_a_private_tournament_is_not_found_for_others(client, world, tournament, name):
    tournament.public = False
    tournament.save()
    client.force_login(world["stranger"])
    before = snapshot()
    target = url(name, world)
    response = client.post(target, FORMS.get(name, {})) if name in WRITES else client.get(target)
    assert response.status_code == 404
    assert snapshot() == before


@pytest.mark.parametrize("name", seating_names())
def test_an_unknown_tournament_is_not_found(client, world, organiser, name):
    client.force_login(organiser)
    target = url(name, world, slug="no-such-cup")
    response = client.post(target, FORMS.get(name, {})) if name in WRITES else client.get(target)
    assert response.status_code == 404


@pytest.mark.parametrize("name", WRITES)
def test_writes_refuse_get(client, world, organiser, name):
    client.force_login(organiser)
    before = snapshot()
    response = client.get(url(name, world))  # a visit, not the form: sent to the plan
    assert (response.status_code, response["Location"]) == (303, url("plan", world))
    assert snapshot() == before


@pytest.mark.parametrize("name", ["plan", "job", "preview"])
def test_pages_refuse_post(client, world, organiser, name):
    client.force_login(organiser)
    before = snapshot()
    assert client.post(url(name, world), {}).status_code == 405
    assert snapshot() == before


@pytest.mark.parametrize("name", ["plan", "preview"])
def test_the_organiser_reads_the_pages_and_nothing_changes(client, world, organiser, name):
    client.force_login(organiser)
    before = snapshot()
    assert client.get(url(name, world)).status_code == 200
    assert snapshot() == before


def test_a_run_of_another_tournament_is_not_found(client, world, organiser):
    other = Tournament.objects.create(name="Autumn Cup", slug="autumn-cup")
    other.organisers.add(organiser)
    job = SeatingJob.objects.create(tournament=other, created_by=organiser)
    client.force_login(organiser)
    response = client.get(reverse("seating:job", kwargs={"slug": "spring-cup", "job": job.pk}))
    assert response.status_code == 404


@pytest.mark.parametrize("name", WRITES)
def test_writes_need_the_csrf_token(world, organiser, name):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)
    before = snapshot()
    response = client.post(url(name, world), FORMS[name])
    assert response.status_code == 403
    assert snapshot() == before
