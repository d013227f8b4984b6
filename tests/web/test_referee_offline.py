"""A resubmitted entry is recognised: every entry form of the table screen carries a submission
key, and sending the same form twice records it once. Refused forms keep their key and values.
Submitting the game sheet shows the final scores first, then says who confirms it.
"""

from __future__ import annotations

import re
import uuid

import pytest
from factories import draws
from test_referee_pages import messages_of, scores, snapshot, table_url

from tournament.models import AuditEntry, Deal, Penalty, Table, Tournament
from tournament.services import DealInput, record_deal

pytestmark = pytest.mark.django_db

KEY = re.compile(r'<input type="hidden" name="submission" value="([0-9a-f-]{36})"')
FORMS = ("win", "full", "draw", "false-win", "penalty")


def entry(html: str, name: str) -> str:
    """The HTML of one entry form of the table screen."""
    start = html.index(f'id="entry-{name}"')
    end = html.index("</details>", start)
    return html[start:end]


def key_of(html: str) -> str:
    found = KEY.findall(html)
    assert len(found) == 1, found
    return found[0]


# --- Every entry form has its own key ------------------------------------------------------


def test_every_entry_form_carries_its_own_submission_key(referee_client, world):
    first = referee_client.get(table_url(world)).content.decode()
    keys = [key_of(entry(first, name)) for name in FORMS]
    assert len(set(keys)) == len(FORMS)
    for key in keys:
        assert uuid.UUID(key).version == 4
    # A new page, new keys: a key belongs to one filled-in form.
    again = referee_client.get(table_url(world)).content.decode()
    assert not set(keys) & {key_of(entry(again, name)) for name in FORMS}
    # The undo and end-of-game forms record nothing that could be doubled: no key there.
    assert not KEY.search(entry(first, "end"))


# --- The same form sent twice records once -------------------------------------------------

WIN = {"number": 1, "winner": "2", "discarder": "3", "fan": 10, "flowers": 1}
FULL = {
    "number": 1,
    "winner": "1",
    "discarder": "2",
    "tiles": "2245667888999p 2p",
    "flowers": 0,
    "action": "save",
}
PENALTY = {"player": "3", "kind": "deduction", "points": 10, "reason": "Slow play", "hand": "1"}
FALSE_WIN = {"offender": "4", "number": 1, "kind": "below_minimum"}


@pytest.mark.parametrize(
    "name, data, model, again",
    [
        ("win", WIN, Deal, "Hand 1 was already recorded; nothing was recorded twice."),
        ("full", FULL, Deal, "Hand 1 was already recorded; nothing was recorded twice."),
        ("draw", {"number": 1}, Deal, "Hand 1 was already recorded; nothing was recorded twice."),
        (
            "false_win",
            FALSE_WIN,
            Penalty,
            "False win for Player 4 in hand 1 was already recorded; nothing was recorded twice.",
        ),
        (
            "penalty",
            PENALTY,
            Penalty,
            "Deduction for Player 3 in hand 1 was already recorded; nothing was recorded twice.",
        ),
    ],
)
def test_a_resubmitted_form_is_recognised_and_recorded_once(
    referee_client, world, name, data, model, again
):
    key = str(uuid.uuid4())
    first = referee_client.post(table_url(world, name), {**data, "submission": key})
    assert first.status_code == 302
    assert model.objects.count() == 1
    assert str(model.objects.get().submission) == key
    referee_client.get(table_url(world))  # shows (and so uses up) the first message
    after_first = snapshot()
    table_scores = scores(world.table)
    assert table_scores != [0, 0, 0, 0] or name == "draw"

    second = referee_client.post(table_url(world, name), {**data, "submission": key})
    assert second.status_code == 302
    assert second["Location"] == table_url(world) + "#next"
    assert messages_of(second) == [again]
    assert snapshot() == after_first  # no record, no audit entry, no score changed
    assert scores(world.table) == table_scores


def test_a_resubmission_is_recognised_after_the_game_has_moved_on(referee_client, world):
    key = str(uuid.uuid4())
    referee_client.post(table_url(world, "win"), {**WIN, "submission": key})
    record_deal(
        table=world.table, number=2, deal=DealInput(result="draw"), entered_by=world.organiser
    )
    referee_client.get(table_url(world))
    before = snapshot()
    response = referee_client.post(table_url(world, "win"), {**WIN, "submission": key})
    assert messages_of(response) == ["Hand 1 was already recorded; nothing was recorded twice."]
    assert snapshot() == before


def test_a_resubmission_is_recognised_after_the_sheet_was_submitted(referee_client, world):
    key = str(uuid.uuid4())
    referee_client.post(table_url(world, "draw"), {"number": 1, "submission": key})
    referee_client.post(table_url(world, "end"), {"time_called": "on"})
    referee_client.get(table_url(world))
    before = snapshot()
    response = referee_client.post(table_url(world, "draw"), {"number": 1, "submission": key})
    assert response.status_code == 302
    assert messages_of(response) == ["Hand 1 was already recorded; nothing was recorded twice."]
    assert snapshot() == before


def test_a_form_without_a_key_still_records(referee_client, world):
    """Old pages and scripts that send no key: recorded, only without the protection."""
    response = referee_client.post(table_url(world, "win"), WIN)
    assert response.status_code == 302
    assert Deal.objects.get().submission is None


# --- Refused forms keep their key; a key that cannot work is replaced -----------------------


def test_a_refused_form_keeps_its_key_and_values_and_the_retry_records(referee_client, world):
    key = str(uuid.uuid4())
    refused = referee_client.post(table_url(world, "win"), {**WIN, "fan": 6, "submission": key})
    assert refused.status_code == 200
    form = entry(refused.content.decode(), "win")
    form = form[: form.index('class="ref-offer"')]  # the false win offered has its own key
    assert key_of(form) == key
    assert 'name="fan" value="6"' in form
    assert not Deal.objects.exists()
    # The corrected form goes with the same key, and is recorded.
    response = referee_client.post(table_url(world, "win"), {**WIN, "submission": key})
    assert response.status_code == 302
    assert str(Deal.objects.get().submission) == key


def test_a_penalty_refused_keeps_its_key(referee_client, world):
    key = str(uuid.uuid4())
    refused = referee_client.post(
        table_url(world, "penalty"), {**PENALTY, "points": 3, "submission": key}
    )
    assert refused.status_code == 200
    assert key_of(entry(refused.content.decode(), "penalty")) == key
    assert not Penalty.objects.exists()


def test_a_damaged_key_is_refused_and_the_form_gets_a_new_one(referee_client, world):
    before = snapshot()
    response = referee_client.post(table_url(world, "win"), {**WIN, "submission": "not-a-key"})
    assert response.status_code == 200
    form = entry(response.content.decode(), "win")
    assert "The form&#x27;s submission key is damaged: reload the table page." in form
    uuid.UUID(key_of(form))  # a fresh, valid key
    assert 'name="fan" value="10"' in form
    assert snapshot() == before


def test_a_key_sent_again_with_other_values_records_nothing_and_is_replaced(referee_client, world):
    key = str(uuid.uuid4())
    referee_client.post(table_url(world, "win"), {**WIN, "submission": key})
    before = snapshot()
    # The answer was lost; the referee changed the fan and sent the same form again.
    response = referee_client.post(table_url(world, "win"), {**WIN, "fan": 12, "submission": key})
    assert response.status_code == 200
    form = entry(response.content.decode(), "win")
    assert "sent with a key already used for another entry, so nothing was recorded" in form
    assert key_of(form) != key
    assert 'name="fan" value="12"' in form
    assert snapshot() == before


def test_another_users_key_is_not_answered_with_their_record(referee_client, world):
    key = uuid.uuid4()
    record_deal(
        table=world.table,
        number=1,
        deal=DealInput(result="draw"),
        entered_by=world.organiser,
        submission=key,
    )
    response = referee_client.post(
        table_url(world, "win"), {**WIN, "number": 2, "submission": str(key)}
    )
    assert response.status_code == 302
    assert messages_of(response) != ["Hand 1 was already recorded; nothing was recorded twice."]
    assert Deal.objects.get(number=2).submitted_by == world.referee


def test_the_false_win_offered_after_a_small_win_has_its_own_key(referee_client, world):
    key = str(uuid.uuid4())
    response = referee_client.post(table_url(world, "win"), {**WIN, "fan": 6, "submission": key})
    html = entry(response.content.decode(), "win")
    offer = html[html.index('class="ref-offer"') :]
    offer_key = key_of(offer)
    assert offer_key != key
    referee_client.post(
        table_url(world, "false_win"),
        {"offender": "2", "number": 1, "kind": "below_minimum", "submission": offer_key},
    )
    assert str(Penalty.objects.get().submission) == offer_key


# --- Submitting the game sheet ----------------------------------------------------------------


def test_the_sheet_is_submitted_after_a_summary_of_the_final_scores(referee_client, world):
    referee_client.post(table_url(world, "win"), {**WIN, "submission": str(uuid.uuid4())})
    html = referee_client.get(table_url(world)).content.decode()
    end = entry(html, "end")
    assert "Submit the game sheet" in end
    assert '<form method="get"' in end  # the review is a page of its own, safe to reload

    before = snapshot()
    review = referee_client.get(table_url(world, "end"), {"time_called": "on"})
    assert review.status_code == 200
    assert snapshot() == before  # only a look: nothing ended, nothing audited
    page = review.content.decode()
    assert "Submit the game sheet of table 1?" in page
    assert "Time was called after 1 of 16 hands" in page
    rows = re.findall(
        r"<tr><td>(\d)</td><td>([^<]+)</td><td class=\"number\" data-final-score>"
        r"(-?\d+)</td>",
        page,
    )
    assert rows == [
        ("1", "Player 2", "35"),
        ("2", "Player 1", "-8"),
        ("2", "Player 4", "-8"),
        ("4", "Player 3", "-19"),
    ]
    assert "The organiser confirms the sheet" in page
    assert '<input type="hidden" name="time_called" value="on">' in page

    response = referee_client.post(table_url(world, "end"), {"time_called": "on"}, follow=True)
    table = Table.objects.get(pk=world.table.pk)
    assert table.ended_at is not None and table.submitted_by == world.referee
    html = response.content.decode()
    assert "Submitted, awaiting confirmation" in html
    assert "The organiser confirms the sheet" in html


def test_a_review_sent_by_post_goes_on_to_the_review_page(referee_client, world):
    """A form of the table screen loaded before the review became a page of its own."""
    response = referee_client.post(table_url(world, "end"), {"review": "1", "time_called": "on"})
    assert response.status_code == 302
    assert response["Location"] == table_url(world, "end") + "?time_called=on"
    assert Table.objects.get(pk=world.table.pk).ended_at is None


def test_going_back_to_the_review_once_submitted_goes_to_the_table(referee_client, world):
    draws(world.table, 16, world.referee)
    referee_client.post(table_url(world, "end"), {})
    response = referee_client.get(table_url(world, "end"), follow=True)
    assert response.redirect_chain[-1][0] == table_url(world) + "#next"
    assert "This game has already ended." in response.content.decode()
    assert AuditEntry.objects.filter(action=AuditEntry.Action.GAME_ENDED).count() == 1


def test_the_summary_is_refused_when_time_was_not_called(referee_client, world):
    draws(world.table, 3, world.referee)
    before = snapshot()
    response = referee_client.get(table_url(world, "end"))
    assert response.status_code == 200
    assert (
        "Only 3 of 16 hands are entered; end the game early only when time is called."
        in response.content.decode()
    )
    assert "Submit the game sheet of table 1?" not in response.content.decode()
    assert snapshot() == before


@pytest.mark.parametrize(
    "confirmation, says",
    [
        ("organiser", "The organiser confirms the sheet"),
        ("referee", "A second referee of the tournament (not the one who submitted it)"),
        ("none", "This tournament needs no confirmation"),
    ],
)
def test_after_submission_the_screen_says_who_confirms(referee_client, world, confirmation, says):
    Tournament.objects.filter(pk=world.tournament.pk).update(confirmation=confirmation)
    draws(world.table, 16, world.referee)
    review = referee_client.get(table_url(world, "end")).content.decode()
    assert "All 16 hands are entered." in review
    assert says in review
    response = referee_client.post(table_url(world, "end"), {}, follow=True)
    html = response.content.decode()
    if confirmation == "none":
        assert "Sheet: <strong>Confirmed</strong>" in html
    else:
        assert "Sheet: <strong>Submitted, awaiting confirmation</strong>" in html
        assert says in html
    assert 'id="entry-end"' not in html
    assert AuditEntry.objects.filter(action=AuditEntry.Action.GAME_ENDED).count() == 1
