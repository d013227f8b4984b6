"""Which standings a viewer sees while the last rounds are kept for the prize-giving.

An organiser may hide the standings from round k on (`Tournament.standings_hidden_from`) until
they reveal them (`Tournament.standings_revealed_at`). Until then everyone but the tournament's
organisers sees the ranking as it stood after round k-1: only the games of the rounds before k
count. That is the ranking wherever it is shown: the standings page and its downloads and live
updates, a player's rank and totals (their public page and their private link's), the rank
after each round on a player's statistics page, the projector and the API's standings.

What happened at a table stays visible to whoever could see it before: a table's score sheet
and results, a round's tables, and the games and deals on a player's page. Only the ranking,
and the totals that would let anyone rebuild it, stop at round k-1.

The projector is seen by the whole hall, so it shows the public's standings to everyone,
organisers too; its bottom-up reveal (tournament.web.projector) is the organiser's tool for
the prize-giving and shows them the full ranking before they reveal it to everyone.

The writes (hide from a round, reveal, hide again) are tournament.services.prize_giving.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournament.models import Tournament


def hidden_from(tournament: Tournament) -> int | None:
    """The round from which the public standings are hidden now; None when nothing is (never
    hidden, or revealed)."""
    if tournament.standings_revealed_at is not None:
        return None
    return tournament.standings_hidden_from


@dataclass(frozen=True)
class Shown:
    """Which games a viewer's standings count.

    `hidden_from`: the round from which the public does not see the results in the standings
    (None: the public sees every round). `full`: this viewer sees every round all the same
    (an organiser)."""

    hidden_from: int | None
    full: bool

    @property
    def before_round(self) -> int | None:
        """The `standings(before_round=)` of this viewer: None counts every round."""
        return None if self.full else self.hidden_from

    @property
    def hidden(self) -> bool:
        """Whether this viewer's standings leave rounds out."""
        return self.before_round is not None

    @property
    def hidden_for_others(self) -> bool:
        """Whether this viewer sees all, but the public sees the hidden standings (the
        organiser's notice)."""
        return self.full and self.hidden_from is not None

    @property
    def counted_rounds(self) -> int | None:
        """How many rounds this viewer's standings count when rounds are left out (k-1)."""
        return None if self.before_round is None else self.before_round - 1


def shown(tournament: Tournament, *, organiser: bool) -> Shown:
    """What the standings count for a viewer: an `organiser` of the tournament sees every
    round; everyone else (visitors, players, referees) the rounds before the hidden ones."""
    return Shown(hidden_from=hidden_from(tournament), full=organiser)


def public(tournament: Tournament) -> Shown:
    """What the public sees, whoever asks (the projector, `standings --public`)."""
    return shown(tournament, organiser=False)
