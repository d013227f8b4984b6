"""The demo data (a tournament in its second round), the home page and logging in."""

from __future__ import annotations

import copy
from collections import Counter
from html import escape
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.http import HttpRequest
from django.urls import reverse

from tournament.archive import export_tournament, import_tournament
from tournament.management.demo import (
    DEMO_PASSWORD,
    DEMO_TOURNAMENT_SLUG,
    DEMO_USERNAME,
    REFEREE_USERNAME,
    REGISTRATION_DEMO_SLUG,
)
from tournament.models import Cut, Deal, ExtraWin, Penalty, Seat, Table, Tournament
from tournament.reads import deals
from tournament.reads.clock import clock_of
from tournament.reads.selectors import standings
from tournament.services import registrations

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(db):
    call_command("load_demo", stdout=StringIO())
    return Tournament.objects.get(slug=DEMO_TOURNAMENT_SLUG)


def without_times(document):
    """The archive of a tournament without the moments things were entered, ended or confirmed."""
    document = copy.deepcopy(document)
    for round in document["rounds"]:
        for table in round["tables"]:
            table.pop("ended_at")
            table.pop("confirmed_at")
            for record in [*table["hands"], *table["penalties"]]:
                record.pop("entered_at")
                for penalty in record.get("penalties", []):
                    penalty.pop("entered_at")
    return document


def test_load_demo_creates_organiser_and_public_tournament(demo):
    assert demo.name == "Demo Open"
    assert demo.public
    assert list(demo.organisers.values_list("username", flat=True)) == [DEMO_USERNAME]
    assert get_user_model().objects.get(username=DEMO_USERNAME).check_password(DEMO_PASSWORD)


def test_demo_organiser_may_create_tournaments(demo):
    organiser = get_user_model().objects.get(username=DEMO_USERNAME)

    assert organiser.has_perm("tournament.add_tournament")
    assert not organiser.is_superuser


def test_demo_has_sixteen_players_with_countries_and_clubs(demo):
    players = list(demo.players.all())

    assert len(players) == 16
    assert all(player.country and player.club for player in players)
    assert len({player.country for player in players}) >= 10
    assert not any(player.substitute for player in players)


def test_round_one_is_finished_with_sixteen_hands_at_every_table(demo):
    round = demo.rounds.get(number=1)

    assert round.status == "finished"
    tables = list(round.tables.all())
    assert len(tables) == 4
    assert [table.deals.count() for table in tables] == [16, 16, 16, 16]
    assert all(table.ended_at and not table.ended_by_time for table in tables)


def test_round_one_sheets_are_confirmed_by_the_organiser(demo):
    tables = list(demo.rounds.get(number=1).tables.select_related("confirmed_by"))

    assert all(table.confirmed_at for table in tables)
    assert {table.confirmed_by.username for table in tables} == {DEMO_USERNAME}


def test_round_one_has_every_kind_of_result(demo):
    hands = Deal.objects.filter(table__round__tournament=demo, table__round__number=1)
    penalties = Penalty.objects.filter(table__round__tournament=demo, table__round__number=1)

    assert hands.filter(result="draw").count() == 4
    assert hands.filter(result="win", discarder__isnull=True).count() >= 10
    assert hands.filter(result="win", discarder__isnull=False).count() >= 30
    assert sorted(hands.filter(tiles__isnull=False).values_list("fan", "flowers")) == [
        (21, 1),  # Pure Straight on a discard, 1 flower
        (21, 2),  # Half Flush with pungs, self-drawn, 2 flowers
        (27, 0),  # Full Flush on a discard
    ]
    assert sorted(penalties.values_list("kind", "points")) == [
        ("deduction", 10),
        ("false_win", 30),
        ("false_win_invalid", 60),
    ]


def test_every_demo_table_is_zero_sum_apart_from_the_deduction(demo):
    totals: Counter = Counter()
    for seat in Seat.objects.filter(round__tournament=demo).select_related("round", "table"):
        totals[seat.round.number, seat.table.number] += seat.score

    deducted = Penalty.objects.get(table__round__tournament=demo, kind="deduction").table
    assert len(totals) == 8
    assert totals.pop((1, deducted.number)) == -10
    assert set(totals.values()) == {0}


def test_round_two_is_in_play_refereed_by_the_demo_referee(demo):
    round = demo.rounds.get(number=2)

    assert round.status == "playing"
    tables = list(round.tables.all())
    assert [table.deals.count() for table in tables] == [16, 11, 9, 4]
    assert all(
        list(table.referees.values_list("username", flat=True)) == [REFEREE_USERNAME]
        for table in tables
    )
    assert not Table.objects.filter(round__number=1, referees__isnull=False).exists()


def test_round_two_has_a_sheet_waiting_for_the_organiser(demo):
    tables = list(demo.rounds.get(number=2).tables.select_related("submitted_by"))

    assert [bool(table.ended_at) for table in tables] == [True, False, False, False]
    assert tables[0].submitted_by.username == REFEREE_USERNAME
    assert not tables[0].ended_by_time
    assert not any(table.confirmed_at for table in tables)


def test_round_two_clock_runs_with_table_four_behind(demo):
    round = demo.rounds.get(number=2)
    clock = clock_of(round)
    tables = list(round.tables.all())

    assert clock.state == "running"
    assert 44 * 60 <= clock.remaining_seconds <= 45 * 60
    assert clock.expected_hands == 10
    assert [clock.behind(t.deals.count(), t.ended_at is not None) for t in tables] == [
        False,
        False,
        False,
        True,
    ]


def test_round_two_avoids_the_opponents_of_round_one(demo):
    met = set()
    for table in demo.rounds.get(number=1).tables.all():
        keys = [seat.player.key for seat in table.seats.select_related("player")]
        met |= {frozenset((a, b)) for a in keys for b in keys if a != b}
    for table in demo.rounds.get(number=2).tables.all():
        keys = [seat.player.key for seat in table.seats.select_related("player")]
        assert not {frozenset((a, b)) for a in keys for b in keys if a != b} & met


def test_round_three_is_an_unseated_draft(demo):
    round = demo.rounds.get(number=3)

    assert round.status == "draft"
    assert not round.tables.exists()


def test_demo_referee_can_log_in(demo, client):
    assert client.login(request=HttpRequest(), username=REFEREE_USERNAME, password=DEMO_PASSWORD)


def test_standings_rank_everyone_on_round_one(demo):
    rows = standings(demo)

    assert [row.rank for row in rows] == list(range(1, 17))
    assert sum(row.table_points for row in rows) == 4 * (4 + 2 + 1 + 0)
    assert not any(row.provisional_games for row in rows)


def test_provisional_standings_add_the_submitted_sheet_of_round_two(demo):
    rows = standings(demo, provisional=True)

    assert sum(row.table_points for row in rows) == 5 * (4 + 2 + 1 + 0)
    assert sorted(row.provisional_games for row in rows) == [0] * 12 + [1] * 4


def test_load_demo_twice_resets_the_same_tournament(demo):
    first = export_tournament(demo)
    out = StringIO()

    call_command("load_demo", stdout=out)

    assert "Reset: tournament 'Demo Open'" in out.getvalue()
    assert Tournament.objects.count() == 5
    assert get_user_model().objects.count() == 2
    again = Tournament.objects.get(slug=DEMO_TOURNAMENT_SLUG)
    assert without_times(export_tournament(again)) == without_times(first)


def test_load_demo_undoes_changes_to_the_demo(demo):
    first = export_tournament(demo)
    Tournament.objects.filter(pk=demo.pk).update(name="Renamed")
    Deal.objects.filter(table__round__tournament=demo, table__round__number=2).delete()

    call_command("load_demo", stdout=StringIO())

    again = Tournament.objects.get(slug=DEMO_TOURNAMENT_SLUG)
    assert without_times(export_tournament(again)) == without_times(first)


def test_load_demo_restores_the_demo_passwords(demo):
    user_model = get_user_model()
    for username in (DEMO_USERNAME, REFEREE_USERNAME):
        user = user_model.objects.get(username=username)
        user.set_password("something-else-123")
        user.save()

    call_command("load_demo", stdout=StringIO())

    for username in (DEMO_USERNAME, REFEREE_USERNAME):
        assert user_model.objects.get(username=username).check_password(DEMO_PASSWORD)


def test_the_demo_survives_an_archive_round_trip(demo):
    organiser = get_user_model().objects.get(username=DEMO_USERNAME)
    first = export_tournament(demo)

    copy_ = import_tournament(first, actor=organiser, slug="demo-copy")

    second = export_tournament(copy_)
    first["tournament"].pop("slug")
    second["tournament"].pop("slug")
    assert second == first


# The small demo tournaments of the presets that count a deal's points.
DEAL_DEMOS = {"demo-jt": "japanese-transitional", "demo-wa": "wilmington-12-tile"}


def deals_of(tournament):
    """Every deal of `tournament` with its position, facts and payments, and its penalties:
    what loading the demo again must give again."""
    hands = Deal.objects.filter(table__round__tournament=tournament).order_by(
        "table__round__number", "table__number", "number"
    )
    return [
        [
            (hand.table.round.number, hand.table.number, hand.number, hand.prevailing_wind,
             hand.dealer, hand.extra_hands, hand.result, hand.value, hand.riichi,
             hand.faulty_claims, hand.ready, hand.faulty_riichi, hand.payments,
             hand.winner and hand.winner.player.key, hand.discarder and hand.discarder.player.key,
             hand.offender and hand.offender.player.key,
             [(win.winner.player.key, win.value) for win in hand.extra_wins.all()])
            for hand in hands.select_related(
                "table__round", "winner__player", "discarder__player", "offender__player"
            ).prefetch_related("extra_wins__winner__player")
        ],
        sorted(
            Penalty.objects.filter(table__round__tournament=tournament).values_list(
                "table__round__number", "table__number", "deal_number", "kind", "points",
                "seat__player__key",
            )
        ),
    ]  # fmt: skip


@pytest.mark.parametrize("slug, preset", DEAL_DEMOS.items())
def test_the_jt_and_wa_demos_are_public_tournaments_of_their_presets(demo, slug, preset):
    tournament = Tournament.objects.get(slug=slug)

    assert tournament.preset == preset
    assert tournament.public
    assert tournament.rules.wind_rounds == 2
    assert tournament.seat_rotation == tournament.rules.seat_rotation == "none"
    assert list(tournament.organisers.values_list("username", flat=True)) == [DEMO_USERNAME]
    players = list(tournament.players.all())
    assert len(players) == 8
    assert all(player.country and player.club for player in players)


@pytest.mark.parametrize("slug", DEAL_DEMOS)
def test_round_one_of_the_jt_and_wa_demos_is_played_to_its_end_and_confirmed(demo, slug):
    tournament = Tournament.objects.get(slug=slug)
    round = tournament.rounds.get(number=1)
    tables = list(round.tables.select_related("round__tournament", "confirmed_by"))

    assert round.status == "finished"
    assert len(tables) == 2
    for table in tables:
        assert table.ended_at and not table.ended_by_time
        assert deals.next_deal(table) is None  # both wind rounds played
        assert table.deals.filter(prevailing_wind="S").exists()
        assert table.confirmed_by.username == DEMO_USERNAME
    assert not Table.objects.filter(round=round, referees__isnull=False).exists()


@pytest.mark.parametrize("slug, progress", [("demo-jt", [5, 3]), ("demo-wa", [4, 2])])
def test_round_two_of_the_jt_and_wa_demos_is_in_play_refereed_by_the_demo_referee(
    demo, slug, progress
):
    round = Tournament.objects.get(slug=slug).rounds.get(number=2)
    tables = list(round.tables.order_by("number"))

    assert round.status == "playing"
    assert clock_of(round).state == "running"
    assert [table.deals.count() for table in tables] == progress
    assert not any(table.ended_at for table in tables)
    for table in tables:
        assert list(table.referees.values_list("username", flat=True)) == [REFEREE_USERNAME]
        assert set(table.deals.values_list("entered_by__username", flat=True)) == {REFEREE_USERNAME}


@pytest.mark.parametrize("slug", DEAL_DEMOS)
def test_every_deal_of_the_jt_and_wa_demos_pays_zero_in_all(demo, slug):
    hands = list(Deal.objects.filter(table__round__tournament__slug=slug))
    penalties = Penalty.objects.filter(table__round__tournament__slug=slug)

    assert len(hands) > 30
    assert all(sum(hand.payments) == 0 for hand in hands)
    assert any(hand.payments != [0, 0, 0, 0] for hand in hands)
    assert not penalties.exclude(kind="false_win").exists()
    totals: Counter = Counter()
    for seat in Seat.objects.filter(round__tournament__slug=slug):
        # A game score is the seat's payments of every deal; a WA faulty out pays 40 to each.
        paid = sum(hand.payments[seat.index] for hand in hands if hand.table_id == seat.table_id)
        at_table = [penalty for penalty in penalties if penalty.table_id == seat.table_id]
        fined = sum(-120 if penalty.seat_id == seat.pk else 40 for penalty in at_table)
        assert seat.score == paid + fined
        totals[seat.table_id] += seat.score
    assert len(totals) == 4
    assert set(totals.values()) == {0}


def test_the_jt_demo_has_every_kind_of_deal(demo):
    hands = Deal.objects.filter(table__round__tournament__slug="demo-jt")
    wins = hands.filter(result="win")

    assert wins.filter(discarder__isnull=True).count() >= 5
    assert wins.filter(discarder__isnull=False).count() >= 10
    assert hands.filter(extra_hands__gte=2).exists()  # a dealer kept the deal twice
    assert wins.exclude(riichi=[]).count() >= 5
    assert wins.exclude(faulty_claims=[]).exists()
    assert hands.filter(result="draw").exclude(ready=[]).exclude(riichi=[]).count() >= 2
    assert hands.filter(result="draw", ready=[]).exists()
    assert hands.filter(result="faulty_out", offender__isnull=False).count() >= 2
    assert not ExtraWin.objects.filter(deal__in=hands).exists()


def test_the_wa_demo_has_two_winners_on_a_discard_and_faulty_outs(demo):
    hands = Deal.objects.filter(table__round__tournament__slug="demo-wa")
    wins = hands.filter(result="win")
    penalties = Penalty.objects.filter(table__round__tournament__slug="demo-wa")

    assert ExtraWin.objects.filter(deal__in=wins, deal__discarder__isnull=False).count() >= 3
    assert wins.filter(discarder__isnull=True).count() >= 3
    assert hands.filter(result="draw", extra_hands__gte=1).exists()  # the dealer continues
    assert list(penalties.values_list("kind", "points")) == [("false_win", 120)] * 3
    assert not hands.exclude(riichi=[]).exists()
    assert not hands.filter(result="faulty_out").exists()


@pytest.mark.parametrize("slug", DEAL_DEMOS)
def test_the_jt_and_wa_demos_rank_everyone_on_round_one(demo, slug):
    tournament = Tournament.objects.get(slug=slug)
    rows = standings(tournament)

    assert [row.rank for row in rows] == list(range(1, 9))
    main = standings(tournament, stage="main") if tournament.cut_after_round else rows
    assert sum(row.table_points for row in main) == 2 * (4 + 2 + 1 + 0)


def test_the_jt_demo_has_a_final_stage_after_round_one(demo):
    tournament = Tournament.objects.get(slug="demo-jt")
    cut = Cut.objects.get(tournament=tournament)
    finalists = [finalist.player for finalist in cut.finalists.order_by("position")]
    main = standings(tournament, stage="main")

    assert (cut.after_round, cut.size, cut.carry_over, cut.consolation) == (1, 4, "1/2", True)
    assert finalists == [row.player for row in main[:4]]
    table_1 = Seat.objects.filter(round__tournament=tournament, round__number=2, table__number=1)
    assert {seat.player for seat in table_1} == set(finalists)
    rows = standings(tournament)
    assert [row.stage for row in rows] == ["final"] * 4 + ["consolation"] * 4
    assert rows[0].carried_table_points == main[0].table_points / 2


@pytest.mark.parametrize("slug", DEAL_DEMOS)
def test_the_standings_and_the_referee_screens_of_the_jt_and_wa_demos_open(demo, client, slug):
    tournament = Tournament.objects.get(slug=slug)
    names = tournament.players.values_list("name", flat=True)

    page = client.get(reverse("public:standings", args=[slug]))

    assert page.status_code == 200
    assert all(escape(name) in page.text for name in names)
    assert client.login(request=HttpRequest(), username=REFEREE_USERNAME, password=DEMO_PASSWORD)
    assert tournament.name in client.get(reverse("referee:index")).text
    for table in (1, 2):
        screen = client.get(reverse("referee:table", args=[slug, 2, table]))
        assert screen.status_code == 200


def test_the_referee_and_organiser_pages_of_the_jt_demo_count_its_deals(demo, client):
    assert client.login(request=HttpRequest(), username=REFEREE_USERNAME, password=DEMO_PASSWORD)

    tables = client.get(reverse("referee:index")).text
    review = client.get(reverse("referee:end", args=["demo-jt", 2, 2]), {"time_called": "on"})

    assert "5 deals played" in tables and "3 deals played" in tables
    assert "of None" not in tables
    assert review.status_code == 200
    assert "Time was called after 3 deals: the deal in play is not scored." in review.text
    client.force_login(get_user_model().objects.get(username=DEMO_USERNAME))
    dashboard = client.get(reverse("organiser:dashboard", args=["demo-jt"]))
    assert dashboard.status_code == 200
    assert "/ None" not in dashboard.text


def test_load_demo_twice_gives_the_same_jt_and_wa_deals_without_duplicates(demo):
    first = {slug: deals_of(Tournament.objects.get(slug=slug)) for slug in DEAL_DEMOS}
    out = StringIO()

    call_command("load_demo", stdout=out)

    assert "Reset: tournament 'Demo Japanese Transitional' (demo-jt)" in out.getvalue()
    assert "Reset: tournament 'Demo Wilmington' (demo-wa)" in out.getvalue()
    assert sorted(Tournament.objects.values_list("slug", flat=True)) == [
        "demo-autumn", "demo-day", "demo-jt", "demo-open", "demo-wa"
    ]  # fmt: skip
    assert get_user_model().objects.count() == 2
    assert {slug: deals_of(Tournament.objects.get(slug=slug)) for slug in DEAL_DEMOS} == first


def test_home_lists_the_demo_tournament_and_links_the_calculator(demo, client):
    response = client.get("/")

    assert response.status_code == 200
    assert "Demo Open" in response.text
    assert 'href="/scoring/calculator/"' in response.text


def test_home_hides_private_tournaments_from_visitors(client, tournament):
    Tournament.objects.create(name="Closed Club Night", slug="club-night", public=False)

    response = client.get("/")

    assert "Spring Cup" in response.text
    assert "Closed Club Night" not in response.text


def test_home_shows_organisers_their_private_tournaments(client, organiser):
    private = Tournament.objects.create(name="Closed Club Night", slug="club-night")
    private.organisers.add(organiser)
    Tournament.objects.create(name="Someone Else's Night", slug="other-night")
    client.force_login(organiser)

    response = client.get("/")

    assert "Closed Club Night" in response.text
    assert "Someone Else" not in response.text


def test_home_is_one_query_however_many_tournaments(client, django_assert_num_queries):
    Tournament.objects.bulk_create(
        Tournament(name=f"Open {n}", slug=f"open-{n}", public=True) for n in range(30)
    )
    with django_assert_num_queries(1):
        response = client.get("/")
    assert response.text.count('class="card"') == 31  # 30 tournaments + the calculator card


def test_home_refuses_post(client):
    assert client.post("/").status_code == 405


def test_login_page_renders(client):
    response = client.get(reverse("login"))

    assert response.status_code == 200
    assert 'name="username"' in response.text
    assert 'name="password"' in response.text


def test_demo_organiser_can_log_in(demo, client):
    response = client.post(reverse("login"), {"username": DEMO_USERNAME, "password": DEMO_PASSWORD})

    assert response.status_code == 302
    assert response.headers["Location"] == reverse("home")
    assert client.get("/").context["user"].username == DEMO_USERNAME


def test_wrong_password_shows_an_error(demo, client):
    response = client.post(reverse("login"), {"username": DEMO_USERNAME, "password": "nope"})

    assert response.status_code == 200
    assert "correct username and password" in response.text


def test_the_registration_demo_takes_registrations_with_some_accepted_pending_and_waiting(demo):
    autumn = Tournament.objects.get(slug=REGISTRATION_DEMO_SLUG)
    counts = registrations.counts(autumn)

    assert registrations.is_open(autumn)
    assert (autumn.registration, autumn.registration_cap) == ("approval", 8)
    assert (counts.accepted, counts.pending, counts.waiting, counts.field) == (6, 2, 2, 6)
    assert sorted(autumn.players.values_list("key", flat=True), key=int) == [
        "1", "2", "3", "4", "5", "6",
    ]  # fmt: skip
    assert autumn.players.get(key="2").name == "李娜"
    assert autumn.organisers.get().username == DEMO_USERNAME


def test_loading_the_demo_again_keeps_one_registration_demo(demo):
    call_command("load_demo", stdout=StringIO())

    autumn = Tournament.objects.get(slug=REGISTRATION_DEMO_SLUG)
    assert autumn.registrations.count() == 10


def test_the_check_in_demo_is_at_its_desk_with_links_and_some_checked_in(demo, client):
    from tournament.management.demo import CHECK_IN_DEMO_SLUG
    from tournament.services.check_in import check_in_counts

    out = StringIO()
    call_command("load_demo", stdout=out)
    day = Tournament.objects.get(slug=CHECK_IN_DEMO_SLUG)
    link = out.getvalue().split("Demo Check-in Day, player 1): ", 1)[1].split()[0]

    assert (day.check_in_open, day.self_check_in, day.check_in_closed_at) == (True, True, None)
    assert not day.rounds.exists()
    assert day.players.filter(substitute=True).count() == 3
    assert not day.players.filter(link_digest="").exists()
    assert day.players.exclude(checked_in_at=None).count() == 12
    counts = check_in_counts(day)
    assert (counts.checked_in, counts.missing) == (11, 3)
    page = client.get(link)
    assert page.status_code == 200 and "Ines Moreau" in page.text
