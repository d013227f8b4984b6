"""Putting players at tables."""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from tournament.domain.rotation import WINDS
from tournament.models import Player, Round, Seat, Table


def refuse_unless_playing(player: Player, number: int) -> None:
    """Refuse a seat in round `number` to a player who does not play it: withdrawn from it or
    an earlier round, or a late arrival who joins after it."""
    reason = player.out_of_round_reason(number)
    if reason is None:
        return
    kind, round_number = reason
    if kind == "withdrawn":
        raise ValidationError(
            _("%(player)s has withdrawn from round %(round)s on."),
            code="withdrawn",
            params={"player": player.name, "round": round_number},
        )
    raise ValidationError(
        _("%(player)s arrives late and plays from round %(round)s on."),
        code="joins_later",
        params={"player": player.name, "round": round_number},
    )


@transaction.atomic
def create_table(*, round: Round, number: int, players: Sequence[Player]) -> Table:
    """A table of `round` with `players` starting at East, South, West and North, in that order."""
    if len(players) != 4 or len({player.pk for player in players}) != 4:
        raise ValidationError(_("A table seats four different players."), code="four_players")
    for player in players:
        if player.tournament_id != round.tournament_id:
            raise ValidationError(
                _("%(player)s does not play in this tournament."),
                code="wrong_tournament",
                params={"player": player.name},
            )
        refuse_unless_playing(player, round.number)
    try:
        with transaction.atomic():
            table = Table.objects.create(round=round, number=number)
            Seat.objects.bulk_create(
                Seat(table=table, round=round, player=player, starting_wind=wind)
                for wind, player in zip(WINDS, players, strict=True)
            )
    except IntegrityError as error:
        raise ValidationError(
            _(
                "Table %(number)s exists already in round %(round)s, or one of these players is "
                "seated at another table of the round."
            ),
            code="already_seated",
            params={"number": number, "round": round.number},
        ) from error
    return table
