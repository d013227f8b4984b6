"""The dress rehearsal: a private copy of a tournament, played through before the day.

`start_rehearsal` copies a tournament that has not started (its settings and its players; not
its registrations, check-in, private links or referee accounts) into a new tournament that is
never public, then plays it in the background (`run_rehearsal`): every round is made, seated by
the seating engine as the tournament is configured, and every game is filled with random
results the preset's engine accepts, as a referee would enter them (deals.next_deal says which
deal comes next, so the dealer's repeats come from the rules), its sheet ended and confirmed.
The organiser then looks at every page, print and export of the copy, and deletes it with
`delete_rehearsal`.

What a rehearsal plays, from its seed (the same seed plays the same rehearsal):

- the planned rounds (`Tournament.planned_rounds`; REHEARSAL_ROUNDS when none is planned);
- wins by value and by tiles (the hands of tournament/domain/sample_hands.py), self-drawn and on a
  discard, draws, the preset's faulty outs (MCR and WA: a false win with its penalty before
  someone wins the deal; JT: a faulty out that ends the deal), riichi and ready players (JT), two
  winners on one discard (WA), now and then a deduction, and now and then a game ended by time;
- a field that fills tables of four: the copy brings in substitutes ("Stand-in n") as the
  organiser would when the players are not a multiple of four;
- no-shows: from round 2 (and round 3) a player stays away and a substitute takes the place,
  as the attendance page does (services/attendance.py), while the round keeps at most three
  substitutes, and only before the cut;
- the cut and the final stage where the tournament has one: the cut confirmed once its round
  is finished, the final rounds seated from it (services/stages.py).

The copy is a tournament like any other, so every page, print and export works on it as it will
on the day. It is kept apart: it is never public (`update_tournament` refuses), its slug and
name say what it is, the real tournament's archives and EMA file never hold it (they read only
their own tournament), and deleting the real tournament deletes its rehearsals.
"""

from __future__ import annotations

import datetime as dt
import logging
import random
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournament.domain.rotation import WINDS
from tournament.domain.sample_hands import (
    JT_LIMIT,
    JT_TILES,
    MCR_STRAIGHT,
    MCR_TILES,
    WA_JOKER_PAIR,
    WA_JOKER_SET,
)
from tournament.models import AuditEntry, Player, Rehearsal, Round, Table, Tournament
from tournament.reads import deals
from tournament.services.attendance import MOST_SUBSTITUTES, absent_from
from tournament.services.audit import record
from tournament.services.deal_input import DealInput
from tournament.services.deals import record_deal
from tournament.services.games import confirm_game, end_game
from tournament.services.penalties import record_false_win, record_penalty
from tournament.services.players import EDITABLE, add_player
from tournament.services.rounds import create_round, set_round_status
from tournament.services.seating_plan import enqueue, seat_round
from tournament.services.stages import confirm_cut
from tournament.services.tournaments import CREATE_ONLY, SETTINGS

logger = logging.getLogger(__name__)

#: Rounds played when the tournament has no planned number of rounds.
REHEARSAL_ROUNDS = 4
#: Rounds from which a player stays away (a substitute comes in), when the field allows.
NO_SHOW_ROUNDS = (2, 3)
#: A running rehearsal whose heartbeat is older than this died with its process.
STALE_AFTER = dt.timedelta(minutes=2)

# The settings a copy takes from its tournament: everything the organiser sets that changes
# how it plays, is seated, ranked and shown, but its name, address and publication;
# registration and check-in are not copied.
COPIED_SETTINGS = (
    *(name for name in SETTINGS if name not in ("name", "slug", "public")),
    *CREATE_ONLY,
    "separate_clubs",
    "separate_countries",
    "separate_teams",
    "standings_hidden_from",
)
# A player's fields as the organiser enters them, but their withdrawal: the copy's field is
# the players still in the tournament.
COPIED_PLAYER_FIELDS = tuple(name for name in EDITABLE if name != "withdrawn_from_round")

# The values drawn for a win entered by its value: MCR fan (flowers apart), JT's final score,
# WA's points; mostly small, now and then a big one.
MCR_FAN = (8, 8, 8, 8, 9, 9, 10, 10, 11, 12, 13, 14, 16, 17, 18, 24, 26, 32, 48, 64, 88)
MCR_FLOWERS = (0, 0, 0, 1, 1, 1, 2, 2, 3)
JT_VALUES = (20, 30, 40, 40, 60, 60, 60, 70, 90, 100, 120, 150, 160, 250, 380, 400, 580, 1500)
WA_VALUES = (15, 16, 18, 20, 22, 25, 25, 28, 30, 32, 35, 40, 45, 50, 60, 75, 90, 120, 300)
# How often a game is ended by time before its last deal.
ENDED_BY_TIME = 0.1

Status = Round.Status


def is_rehearsal(tournament: Tournament) -> bool:
    """Whether `tournament` is the copy made by a dress rehearsal."""
    return Rehearsal.objects.filter(copy=tournament).exists()


def refuse_rehearsal(tournament: Tournament) -> None:
    """Raise ValidationError when `tournament` cannot be rehearsed now, saying why."""
    if is_rehearsal(tournament):
        raise ValidationError(
            _("This is a dress rehearsal: rehearse the tournament itself."), code="is_rehearsal"
        )
    if tournament.rounds.filter(status__in=(Status.PLAYING, Status.FINISHED)).exists():
        raise ValidationError(
            _(
                "The tournament has started: a dress rehearsal is played before its first "
                "round is in play."
            ),
            code="started",
        )
    if tournament.players.filter(substitute=False, withdrawn_from_round__isnull=True).count() < 4:
        raise ValidationError(
            _("A dress rehearsal needs at least four players: add the players first."),
            code="too_few_players",
        )
    running = tournament.rehearsals.filter(status=Rehearsal.Status.RUNNING)
    if any(not stale(rehearsal) for rehearsal in running):
        raise ValidationError(
            _("A dress rehearsal is being played: wait for it to finish."), code="running"
        )


def stale(rehearsal: Rehearsal) -> bool:
    """Whether a rehearsal still marked running died with the process that played it."""
    if rehearsal.status != Rehearsal.Status.RUNNING:
        return False
    beat = rehearsal.heartbeat or rehearsal.created
    return timezone.now() - beat > STALE_AFTER


def rounds_to_play(tournament: Tournament) -> int:
    return tournament.planned_rounds or REHEARSAL_ROUNDS


def _free_slug(tournament: Tournament) -> str:
    base = f"{tournament.slug[:80]}-rehearsal"
    taken = set(Tournament.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    if base not in taken:
        return base
    number = 2
    while f"{base}-{number}" in taken:
        number += 1
    return f"{base}-{number}"


@transaction.atomic
def start_rehearsal(tournament: Tournament, *, actor: User, seed: int | None = None) -> Rehearsal:
    """Copy `tournament` (not started) into a private tournament and play it through in the
    background (at once when `settings.SEATING_JOBS_INLINE`); audited on `tournament`."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    refuse_rehearsal(tournament)
    if seed is None:
        seed = random.SystemRandom().randrange(1, 2**31)
    copy = Tournament(
        name=gettext("%(name)s (dress rehearsal)") % {"name": tournament.name[:170]},
        slug=_free_slug(tournament),
        public=False,
        **{name: getattr(tournament, name) for name in COPIED_SETTINGS},
    )
    copy.full_clean()
    copy.save()
    copy.organisers.set(tournament.organisers.all())
    copy.organisers.add(actor)
    for player in tournament.players.filter(withdrawn_from_round__isnull=True).order_by("pk"):
        add_player(
            tournament=copy, **{name: getattr(player, name) for name in COPIED_PLAYER_FIELDS}
        )
    rehearsal = Rehearsal.objects.create(
        original=tournament,
        copy=copy,
        created_by=actor,
        seed=seed,
        heartbeat=timezone.now(),
    )
    record(
        tournament,
        AuditEntry.Action.REHEARSAL,
        actor=actor,
        after={"made": copy.slug, "seed": seed},
    )
    enqueue(run_rehearsal, rehearsal.pk, name=f"rehearsal-{rehearsal.pk}")
    rehearsal.refresh_from_db()
    return rehearsal


def run_rehearsal(rehearsal_id: int) -> None:
    """Play the rehearsal through; on a refusal or an error it stops, saying why."""
    rehearsal = Rehearsal.objects.select_related("copy", "created_by").get(pk=rehearsal_id)
    try:
        play(rehearsal)
    except ValidationError as error:
        _stop(rehearsal, " ".join(error.messages))
    except Exception as error:
        logger.exception("Dress rehearsal %s stopped", rehearsal_id)
        _stop(rehearsal, gettext("An error stopped it: %(error)s") % {"error": error})
    else:
        Rehearsal.objects.filter(pk=rehearsal.pk).update(
            status=Rehearsal.Status.DONE, finished=timezone.now(), heartbeat=timezone.now()
        )


def _stop(rehearsal: Rehearsal, message: str) -> None:
    Rehearsal.objects.filter(pk=rehearsal.pk).update(
        status=Rehearsal.Status.FAILED, finished=timezone.now(), message=message[:2000]
    )


def play(rehearsal: Rehearsal) -> None:
    """Every round of the copy made, seated, played, confirmed and finished."""
    copy, actor = rehearsal.copy, rehearsal.created_by
    rng = random.Random(rehearsal.seed)
    rounds = rounds_to_play(copy)
    regulars = list(copy.players.filter(substitute=False).order_by("pk"))
    fill = _fill_the_tables(copy, len(regulars))
    # Before the cut only: a finalist away from the final stage is seated by hand.
    last_no_show = rounds if copy.cut_after_round is None else copy.cut_after_round
    no_shows = [number for number in NO_SHOW_ROUNDS if number <= last_no_show]
    no_shows = no_shows[: max(0, MOST_SUBSTITUTES - fill)]
    bench = [_stand_in(copy, benched=True) for _number in no_shows]
    away = rng.sample(regulars, len(no_shows))
    tables = (len(regulars) + fill) // 4
    final_rounds = 0 if copy.cut_after_round is None else max(0, rounds - copy.cut_after_round)
    final_tables = tables if copy.consolation else (copy.cut_size or 0) // 4
    total = (rounds - final_rounds) * tables + final_rounds * final_tables
    Rehearsal.objects.filter(pk=rehearsal.pk).update(total=total)
    dealer = Dealer(copy.preset, rng)
    done = 0
    for number in range(1, rounds + 1):
        if number in no_shows:
            index = no_shows.index(number)
            absent_from(away[index], number, actor=actor, substitute=bench[index].key)
        with transaction.atomic():
            round = create_round(tournament=copy, actor=actor)
            seat_round(round=round, actor=actor, seed=rng.randrange(2**31))
            set_round_status(round=round, status=Status.SEATED, actor=actor)
            set_round_status(round=round, status=Status.PLAYING, actor=actor)
        for table in round.tables.order_by("number"):
            with transaction.atomic():
                play_game(table, actor, dealer)
                if table.confirmed_at is None:
                    confirm_game(table=Table.objects.get(pk=table.pk), confirmed_by=actor)
            done += 1
            Rehearsal.objects.filter(pk=rehearsal.pk).update(done=done, heartbeat=timezone.now())
        set_round_status(round=round, status=Status.FINISHED, actor=actor)
        if number == copy.cut_after_round:
            confirm_cut(tournament=copy, actor=actor)


def _fill_the_tables(copy: Tournament, regulars: int) -> int:
    """Make the copy's substitutes fill the last table: the first ones play, the others wait on
    the bench; stand-ins are added when there are too few. How many substitutes play."""
    fill = -regulars % 4
    substitutes = list(copy.players.filter(substitute=True).order_by("pk"))
    while len(substitutes) < fill:
        substitutes.append(_stand_in(copy, benched=False))
    for index, player in enumerate(substitutes):
        player.joins_from_round = None
        player.withdrawn_from_round = None if index < fill else 1
        player.save(update_fields=["joins_from_round", "withdrawn_from_round"])
    return fill


def _stand_in(copy: Tournament, *, benched: bool) -> Player:
    taken = set(copy.players.values_list("key", flat=True))
    number = 1
    while f"S{number}" in taken:
        number += 1
    return add_player(
        tournament=copy,
        key=f"S{number}",
        name=f"Stand-in {number}",
        substitute=True,
        withdrawn_from_round=1 if benched else None,
    )


# The kinds of deal of each preset and how often each comes (weights). The first deals of a
# rehearsal take every kind once, in this order, so every rehearsal holds each of them; the
# others are drawn by weight.
KINDS: dict[str, tuple[tuple[str, int], ...]] = {
    "mcr": (
        ("value", 60),
        ("tiles", 8),
        ("straight", 5),
        ("draw", 12),
        ("false_win", 5),
        ("invalid_hand", 2),
        ("deduction", 2),
    ),
    "japanese-transitional": (
        ("value", 44),
        ("dealer", 14),
        ("draw", 8),
        ("draw_ready", 7),
        ("faulty_out", 3),
        ("tiles", 6),
        ("limit", 2),
        ("claim", 4),
        ("deduction", 2),
    ),
    "wilmington-12-tile": (
        ("value", 46),
        ("dealer", 14),
        ("draw", 10),
        ("two_by_tiles", 6),
        ("tiles_self_drawn", 4),
        ("two_by_value", 6),
        ("false_win", 5),
        ("deduction", 2),
    ),
}
VALUES = {"mcr": MCR_FAN, "japanese-transitional": JT_VALUES, "wilmington-12-tile": WA_VALUES}


class Dealer:
    """Draws the deals of one rehearsal: every kind once first, then by weight."""

    def __init__(self, preset: str, rng: random.Random) -> None:
        self.preset = preset if preset in KINDS else "wilmington-12-tile"
        self.rng = rng
        self.kinds = [kind for kind, _weight in KINDS[self.preset]]
        self.weights = [weight for _kind, weight in KINDS[self.preset]]
        self.dealt = 0

    def kind(self) -> str:
        self.dealt += 1
        if self.dealt <= len(self.kinds):
            return self.kinds[self.dealt - 1]
        return self.rng.choices(self.kinds, weights=self.weights)[0]

    def value(self) -> int:
        return self.rng.choice(VALUES[self.preset])

    def facts(
        self, kind: str, players: Sequence[Player], dealer: Player
    ) -> tuple[dict[str, Any], Player | None, bool]:
        """The arguments of `record_deal` for a deal of `kind`, the player who declared a
        false win first (or None) and whether their hand was invalid."""
        rng = self.rng
        if kind == "dealer":  # the dealer wins and deals again (JT, WA)
            winner = dealer
            discarder, third = rng.sample([p for p in players if p != dealer], 2)
        else:
            winner, discarder, third = rng.sample(list(players), 3)
        on_discard = None if rng.random() < 0.3 else discarder
        facts: dict[str, Any] = {"result": "win", "winner": winner}
        if kind == "draw":
            return {"result": "draw"}, None, False
        if kind == "draw_ready":
            return {"result": "draw", "riichi": [winner], "ready": [winner, third]}, None, False
        if kind == "faulty_out":
            return {"result": "faulty_out", "offender": third}, None, False
        if kind == "tiles" and self.preset == "mcr":
            facts.update(discarder=discarder, tiles=MCR_TILES)
        elif kind == "straight":
            facts.update(discarder=discarder, tiles=MCR_STRAIGHT)
        elif kind == "tiles":  # JT: a concealed hand on a discard after riichi
            facts.update(discarder=discarder, tiles=JT_TILES, riichi=[winner])
        elif kind == "limit":
            facts.update(discarder=None, tiles=JT_LIMIT)
        elif kind == "two_by_tiles":
            facts.update(discarder=discarder, tiles=WA_JOKER_SET)
            facts["extra_tiles"] = [(third, WA_JOKER_PAIR)]
        elif kind == "tiles_self_drawn":
            facts.update(discarder=None, tiles=WA_JOKER_SET)
        elif kind == "two_by_value":
            facts.update(discarder=discarder, value=self.value())
            facts["extra_winners"] = [(third, self.value())]
        elif self.preset == "mcr":
            facts.update(discarder=on_discard, fan=self.value(), flowers=rng.choice(MCR_FLOWERS))
        else:
            facts.update(discarder=on_discard, value=self.value())
            if self.preset == "japanese-transitional" and rng.random() < 0.3:
                facts["riichi"] = [winner]
        if kind == "claim":
            facts["faulty_claims"] = [third]
        false_win = kind in ("false_win", "invalid_hand")
        return facts, third if false_win else None, kind == "invalid_hand"


def play_game(table: Table, user: User, dealer: Dealer) -> Table:
    """Deals at `table` until its game is over (or, now and then, time is called), then the
    game ended and its sheet submitted."""
    rng = dealer.rng
    seats = {seat.starting_wind: seat.player for seat in table.seats.select_related("player")}
    players = [seats[wind] for wind in WINDS]
    stop_after = rng.randrange(4, 12) if rng.random() < ENDED_BY_TIME else None
    while (at := deals.next_deal(table)) is not None:
        if stop_after is not None and at.number > stop_after:
            break
        kind = dealer.kind()
        facts, offender, invalid = dealer.facts(kind, players, players[at.dealer])
        if offender is not None:
            record_false_win(
                table=table,
                number=at.number,
                offender=offender,
                invalid_hand=invalid,
                entered_by=user,
            )
        record_deal(table=table, number=at.number, entered_by=user, deal=DealInput(**facts))
        if kind == "deduction":
            record_penalty(
                table=table,
                player=rng.choice(players),
                points=10,
                distributed=False,
                reason="Dress rehearsal: slow play",
                deal_number=at.number,
                entered_by=user,
            )
    return end_game(table=table, ended_by_time=stop_after is not None, entered_by=user)


@transaction.atomic
def delete_rehearsal(rehearsal: Rehearsal, *, actor: User) -> None:
    """Delete the rehearsal's copy and everything in it (refused while it is being played);
    audited on the real tournament."""
    rehearsal = Rehearsal.objects.select_for_update().select_related("copy").get(pk=rehearsal.pk)
    if rehearsal.status == Rehearsal.Status.RUNNING and not stale(rehearsal):
        raise ValidationError(
            _("The dress rehearsal is being played: delete it once it has finished."),
            code="running",
        )
    slug = rehearsal.copy.slug
    original = rehearsal.original
    rehearsal.copy.delete()  # the rehearsal goes with it
    record(original, AuditEntry.Action.REHEARSAL, actor=actor, before={"deleted": slug})
