"""Players and the tournament's settings in the audit trail: what each change keeps, and how
the audit page shows and finds it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournament.models import AuditEntry
from tournament.services import add_player, import_players_csv, remove_player, update_player
from tournament.services.tournaments import create_tournament, update_tournament

pytestmark = pytest.mark.django_db

Action = AuditEntry.Action


def entries(tournament, action):
    return list(tournament.audit.filter(action=action).order_by("pk"))


def test_adding_a_player_keeps_its_fields_under_the_actor(tournament, organiser):
    add_player(tournament=tournament, actor=organiser, key="7", name="Anna Berg", club="Lund")

    (entry,) = entries(tournament, Action.PLAYER_ADDED)
    assert entry.actor == organiser
    assert entry.before is None
    assert entry.after == {"key": "7", "name": "Anna Berg", "club": "Lund"}


def test_changing_a_player_keeps_only_the_changed_fields(tournament, organiser):
    player = add_player(tournament=tournament, actor=organiser, key="7", name="Anna Berg")

    update_player(player=player, actor=organiser, club="Lund", substitute=True, name="Anna Berg")

    (entry,) = entries(tournament, Action.PLAYER_CHANGED)
    assert entry.before == {"key": "7", "name": "Anna Berg", "club": "", "substitute": False}
    assert entry.after == {"key": "7", "name": "Anna Berg", "club": "Lund", "substitute": True}


def test_a_change_that_changes_nothing_is_not_audited(tournament, organiser):
    player = add_player(tournament=tournament, actor=organiser, key="7", name="Anna Berg")

    update_player(player=player, actor=organiser, name=" Anna Berg ")

    assert entries(tournament, Action.PLAYER_CHANGED) == []


def test_removing_a_player_keeps_what_they_were(tournament, organiser):
    player = add_player(tournament=tournament, actor=organiser, key="7", name="Anna Berg")

    remove_player(player=player, actor=organiser)

    (entry,) = entries(tournament, Action.PLAYER_REMOVED)
    assert entry.before == {"key": "7", "name": "Anna Berg"} and entry.after is None


def test_an_import_is_one_entry_listing_the_keys(tournament, organiser):
    import_players_csv(
        tournament=tournament, actor=organiser, text="key,name\n1,Anna Berg\n2,Bo Ek\n"
    )

    (entry,) = entries(tournament, Action.PLAYERS_IMPORTED)
    assert entry.after == {"count": 2, "keys": ["1", "2"]}


def test_a_refused_import_is_not_audited(tournament, organiser):
    with pytest.raises(Exception, match="Nothing was imported"):
        import_players_csv(tournament=tournament, actor=organiser, text="key,name\n1,\n")

    assert not tournament.audit.exists()


def test_without_an_actor_the_caller_keeps_its_own_record(tournament):
    player = add_player(tournament=tournament, key="7", name="Anna Berg")
    update_player(player=player, club="Lund")
    remove_player(player=player)

    assert not tournament.audit.exists()


def test_creating_a_tournament_keeps_its_settings(organiser):
    made = create_tournament(organiser=organiser, name="Autumn Open", round_minutes=90)

    (entry,) = entries(made, Action.TOURNAMENT_CREATED)
    assert entry.actor == organiser
    assert entry.after["name"] == "Autumn Open"
    assert entry.after["slug"] == "autumn-open"
    assert entry.after["round_minutes"] == 90


def test_changing_settings_keeps_the_changed_ones_before_and_after(tournament, organiser):
    old_minutes = tournament.round_minutes

    update_tournament(
        tournament=tournament, actor=organiser, round_minutes=old_minutes + 15, name="Spring Cup"
    )

    (entry,) = entries(tournament, Action.SETTINGS_CHANGED)
    assert entry.before == {"round_minutes": old_minutes}
    assert entry.after == {"round_minutes": old_minutes + 15}


def test_the_audit_page_names_players_and_settings(client, tournament, organiser):
    player = add_player(tournament=tournament, actor=organiser, key="7", name="Anna Berg")
    update_player(player=player, actor=organiser, substitute=True)
    update_tournament(tournament=tournament, actor=organiser, public=not tournament.public)
    client.force_login(organiser)

    page = client.get(reverse("organiser:audit", kwargs={"slug": tournament.slug}))

    text = page.content.decode()
    assert page.status_code == 200
    for words in ("Player added", "Player changed", "Tournament settings changed"):
        assert words in text
    assert "Player 7 Anna Berg" in text
    assert "Substitute" in text and "Public" in text


def test_the_player_filter_finds_a_players_own_entries(client, tournament, organiser):
    anna = add_player(tournament=tournament, actor=organiser, key="7", name="Anna Berg")
    add_player(tournament=tournament, actor=organiser, key="8", name="Bo Ek")
    import_players_csv(tournament=tournament, actor=organiser, text="key,name\n9,Cay Ho\n")
    client.force_login(organiser)
    address = reverse("organiser:audit", kwargs={"slug": tournament.slug})

    anna_page = client.get(address, {"player": anna.pk}).content.decode()
    cay = tournament.players.get(key="9")
    cay_page = client.get(address, {"player": cay.pk}).content.decode()

    assert "Player 7 Anna Berg" in anna_page and "Player 8 Bo Ek" not in anna_page
    assert "Players imported from a list" in cay_page and "Player 7 Anna Berg" not in cay_page


def test_the_kind_filter_offers_the_new_actions(client, tournament, organiser):
    client.force_login(organiser)

    page = client.get(reverse("organiser:audit", kwargs={"slug": tournament.slug}))

    for action in (Action.PLAYER_ADDED, Action.PLAYERS_IMPORTED, Action.SETTINGS_CHANGED):
        assert f'value="{action.value}"' in page.content.decode()


def test_settings_are_shown_by_their_labels(client, organiser):
    made = create_tournament(
        organiser=organiser, name="Autumn Open", tie_breaks=["game_scores", "best_game"]
    )
    client.force_login(organiser)

    page = client.get(reverse("organiser:audit", kwargs={"slug": made.slug})).content.decode()

    assert "Tournament created" in page
    assert "game_scores" not in page.split("<ol", 1)[1]  # the tie-breaks by their labels
