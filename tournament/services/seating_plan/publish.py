"""Publishing generated rounds: draft -> seated, all the chosen rounds or none."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from tournament.domain.text import listed
from tournament.models import Round, Tournament
from tournament.services.rounds import set_round_status

Status = Round.Status


@transaction.atomic
def publish_rounds(*, tournament: Tournament, numbers: Iterable[int], actor: User) -> list[Round]:
    """Publish the draft rounds `numbers` (draft -> seated), all or none."""
    wanted = sorted(set(numbers))
    if not wanted:
        raise ValidationError(_("Choose the rounds to publish."), code="no_rounds")
    rounds = {r.number: r for r in tournament.rounds.filter(number__in=wanted)}
    unknown = [n for n in wanted if n not in rounds]
    if unknown:
        raise ValidationError(
            _("Round %(rounds)s does not exist."),
            code="no_such_round",
            params={"rounds": listed(unknown)},
        )
    not_draft = [n for n in wanted if rounds[n].status != Status.DRAFT]
    if not_draft:
        raise ValidationError(
            _("Round %(rounds)s is published already."),
            code="not_draft",
            params={"rounds": listed(not_draft)},
        )
    return [set_round_status(round=rounds[n], status=Status.SEATED, actor=actor) for n in wanted]
