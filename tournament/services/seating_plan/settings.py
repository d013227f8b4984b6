"""The generator's settings of a tournament: planned rounds, separations, rounds by standing."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from tournament.domain.text import listed
from tournament.models import Round, Separation, Tournament
from tournament.services.rounds import create_round

Status = Round.Status
#: The most rounds a tournament can plan.
MOST_ROUNDS = 50


@transaction.atomic
def update_seating_settings(
    *,
    tournament: Tournament,
    planned_rounds: int | None,
    separate_clubs: str,
    separate_countries: str,
    separate_teams: str,
    by_standing: Iterable[int],
    actor: User,
) -> Tournament:
    """Save the generator's settings of `tournament`.

    `by_standing` names the draft rounds (or rounds still to be created, up to
    `planned_rounds`) to be seated by standing; the missing rounds up to the highest of them
    are created as drafts so that the choice can be kept. Other draft rounds are seated
    normally; published rounds keep their flag.
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    rounds = {round.number: round for round in tournament.rounds.all()}
    last = max(rounds, default=0)
    if planned_rounds is not None and not 1 <= planned_rounds <= MOST_ROUNDS:
        raise ValidationError(
            {"planned_rounds": _("Plan between 1 and %(most)s rounds.") % {"most": MOST_ROUNDS}},
        )
    if planned_rounds is not None and planned_rounds < last:
        raise ValidationError(
            {
                "planned_rounds": ValidationError(
                    _(
                        "Rounds 1 to %(last)s exist already; remove the last draft rounds to plan "
                        "fewer."
                    ),
                    code="rounds_exist",
                    params={"last": last},
                )
            }
        )
    cut = tournament.cut_after_round
    if planned_rounds is not None and cut is not None and planned_rounds <= cut:
        raise ValidationError(
            {
                "planned_rounds": ValidationError(
                    _("The final stage begins after round %(round)s: plan more rounds than that."),
                    code="before_cut",
                    params={"round": cut},
                )
            }
        )
    values = {
        "separate_clubs": separate_clubs,
        "separate_countries": separate_countries,
        "separate_teams": separate_teams,
    }
    for name, value in values.items():
        if value not in Separation.values:
            choices = ", ".join(Separation.values)
            raise ValidationError({name: _("Choose one of %(choices)s.") % {"choices": choices}})
    chosen = set(by_standing)
    open_numbers = {n for n, r in rounds.items() if r.status == Status.DRAFT}
    open_numbers |= set(range(last + 1, (planned_rounds or 0) + 1))
    refused = sorted(chosen - open_numbers)
    if refused:
        raise ValidationError(
            {
                "by_standing": ValidationError(
                    _(
                        "Only draft rounds and rounds still to come can be seated by standing, not "
                        "round %(rounds)s."
                    ),
                    code="not_draft",
                    params={"rounds": listed(refused)},
                )
            }
        )
    tournament.planned_rounds = planned_rounds
    for name, value in values.items():
        setattr(tournament, name, value)
    tournament.save(update_fields=["planned_rounds", *values])
    for _missing in range(last, max(chosen, default=0)):
        created = create_round(tournament=tournament, actor=actor)
        rounds[created.number] = created
    for number, round in rounds.items():
        wanted = number in chosen
        if round.status == Status.DRAFT and round.seat_by_standing != wanted:
            round.seat_by_standing = wanted
            round.save(update_fields=["seat_by_standing"])
    return tournament
