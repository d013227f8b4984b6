"""The pages of the final stage: the organiser's cut page, the public standings and the
projector showing the stage."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone
from factories import make_players, make_tournament, make_user, seated_round

from tournament.models import AuditEntry, Cut, Round, Seat, Table
from tournament.services import create_round
from tournament.services.stages import confirm_cut, seat_stage_round


@pytest.fixture
def cup(db):
    """Sixteen players, two finished rounds (East wins 41 at every table), a cut to eight
    after round 2 carrying half, three planned rounds."""
    organiser = make_user("alice")
    tournament = make_tournament(
        organisers=[organiser], cut_after_round=2, cut_size=8, carry_over="1/2", planned_rounds=3
    )
    players = make_players(tournament, 16)
    tables = [players[i : i + 4] for i in range(0, 16, 4)]
    now = timezone.now()
    for _ in range(2):
        round, made = seated_round(tournament, organiser, tables)
        for table in made:
            for seat, score in zip(table.seats_in_order, [41, 21, -21, -41], strict=True):
                Seat.objects.filter(pk=seat.pk).update(score=score)
        Table.objects.filter(round=round).update(ended_at=now, confirmed_at=now)
        Round.objects.filter(pk=round.pk).update(status=Round.Status.FINISHED)
    return tournament, organiser


def cut_url(tournament):
    return reverse("organiser:cut", args=[tournament.slug])


def test_cut_page_shows_who_goes_on(client, cup):
    tournament, organiser = cup
    client.force_login(organiser)
    response = client.get(cut_url(tournament))
    assert response.status_code == 200
    text = response.content.decode()
    assert "Confirm the cut to 8" in text
    assert text.count("In (") == 8
    assert "carries 4 and 41" in text  # half of 8 table points and 82


def test_cut_page_confirms_with_one_post(client, cup):
    tournament, organiser = cup
    client.force_login(organiser)
    response = client.post(cut_url(tournament), {"action": "confirm"})
    assert response.status_code == 302
    assert Cut.objects.get(tournament=tournament).finalists.count() == 8
    assert AuditEntry.objects.filter(action=AuditEntry.Action.CUT_CONFIRMED).exists()
    page = client.get(cut_url(tournament)).content.decode()
    assert "Undo the cut" in page


def test_cut_refused_before_the_round_is_finished_shows_why(client, cup):
    tournament, organiser = cup
    Round.objects.filter(number=2).update(status=Round.Status.PLAYING)
    client.force_login(organiser)
    page = client.get(cut_url(tournament)).content.decode()
    assert "round 2 is not finished yet" in page
    assert "Confirm the cut" not in page
    response = client.post(cut_url(tournament), {"action": "confirm"})
    assert response.status_code == 422
    assert not Cut.objects.exists()


def test_cut_page_refuses_a_bad_action(client, cup):
    tournament, organiser = cup
    client.force_login(organiser)
    assert client.post(cut_url(tournament), {"action": "nonsense"}).status_code == 422
    assert not Cut.objects.exists()


def test_cut_page_is_for_organisers_only(client, cup):
    tournament, _ = cup
    client.force_login(make_user("mallory"))
    assert client.get(cut_url(tournament)).status_code in (403, 404)
    assert client.post(cut_url(tournament), {"action": "confirm"}).status_code in (403, 404)
    assert not Cut.objects.exists()


def test_cut_page_without_a_stage_says_so(client, cup):
    tournament, organiser = cup
    tournament.cut_after_round = None
    tournament.cut_size = None
    tournament.save()
    client.force_login(organiser)
    assert "has no final stage" in client.get(cut_url(tournament)).content.decode()


def test_public_standings_show_the_stage_and_each_stage(client, cup):
    tournament, organiser = cup
    confirm_cut(tournament=tournament, actor=organiser)
    url = reverse("public:standings", args=[tournament.slug])
    page = client.get(url).content.decode()
    assert "Final stage — after the cut to 8" in page
    assert "Before the cut" in page
    final = client.get(url, {"stage": "final"}).content.decode()
    assert final.count('data-key="') == 8
    main = client.get(url, {"stage": "main"}).content.decode()
    assert main.count('data-key="') == 16
    assert client.get(url, {"stage": "bogus"}).status_code == 200


def test_carried_fraction_shows_two_decimals(client, cup):
    tournament, organiser = cup
    tournament.carry_over = "1/4"
    tournament.save()
    confirm_cut(tournament=tournament, actor=organiser)
    page = client.get(
        reverse("public:standings", args=[tournament.slug]), {"stage": "final"}
    ).content.decode()
    assert "20.50" in page  # a quarter of 82


def test_projector_heads_the_standings_with_the_stage(client, cup):
    tournament, organiser = cup
    confirm_cut(tournament=tournament, actor=organiser)
    round = create_round(tournament=tournament, actor=organiser)
    seat_stage_round(round=round, actor=organiser)
    response = client.get(
        reverse("public:projector", args=[tournament.slug]), {"panel": "standings"}
    )
    assert "Final stage — after the cut to 8" in response.content.decode()


def test_settings_form_checks_the_stage(client, cup):
    tournament, organiser = cup
    client.force_login(organiser)
    url = reverse("organiser:settings", args=[tournament.slug])
    form = client.get(url).context["form"]
    data = {
        name: value
        for name, value in form.initial.items()
        if value is not None and name not in ("table_points", "tie_breaks", "consolation")
    }
    data.update(
        {
            "table_points_0": 4,
            "table_points_1": 2,
            "table_points_2": 1,
            "table_points_3": 0,
            "tie_breaks_0": "best_game",
            "cut_size": 6,
            "cut_after_round": 3,
            "carry_over": "3/2",
        }
    )
    response = client.post(url, data)
    assert response.status_code == 422
    errors = response.context["form"].errors
    assert "cut_size" in errors and "cut_after_round" in errors and "carry_over" in errors
    data.update({"cut_size": 12, "cut_after_round": 2, "carry_over": "0.75"})
    response = client.post(url, data)
    assert response.status_code == 302, response.context["form"].errors
    tournament.refresh_from_db()
    assert (tournament.cut_size, tournament.carry_over) == (12, "3/4")


def test_a_carried_fraction_prints_two_decimals_everywhere(client, cup):
    tournament, organiser = cup
    tournament.carry_over = "1/4"
    tournament.save()
    confirm_cut(tournament=tournament, actor=organiser)
    player = client.get(reverse("public:player", args=[tournament.slug, "1"])).content.decode()
    assert "20.50" in player and "41/2" not in player
    client.force_login(organiser)
    printed = client.get(reverse("outputs:standings", args=[tournament.slug])).content.decode()
    assert "20.50" in printed and "41/2" not in printed


def test_public_round_after_the_cut_says_which_tables_are_final(client, cup):
    tournament, organiser = cup
    confirm_cut(tournament=tournament, actor=organiser)
    round = create_round(tournament=tournament, actor=organiser)
    seat_stage_round(round=round, actor=organiser)
    Round.objects.filter(pk=round.pk).update(status=Round.Status.SEATED)
    page = client.get(reverse("public:round", args=[tournament.slug, 3])).content.decode()
    assert "tables 1 to 2 are the final tables" in page
    earlier = client.get(reverse("public:round", args=[tournament.slug, 2])).content.decode()
    assert "final tables" not in earlier
