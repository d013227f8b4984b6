"""Tournaments: creating one and changing its settings, each kept in the audit trail (what it
was created with; the settings that changed, before and after)."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from scoring.engine import PRESETS
from tournament.models import RESERVED_SLUGS, AuditEntry, Cut, Deal, Tournament, parse_carry_over
from tournament.services.audit import Actor, record
from tournament.services.live import note_change
from tournament.services.seating_plan.settings import MOST_ROUNDS

# The final stage (docs/stages.md): fixed once the cut is confirmed.
STAGE_SETTINGS = ("cut_after_round", "cut_size", "carry_over", "final_seating", "consolation")
SETTINGS = (
    "name",
    "slug",
    "start_date",
    "end_date",
    "venue",
    "preset",
    "profile",
    "seat_rotation",
    "table_points",
    "tie_breaks",
    "public",
    "confirmation",
    "round_minutes",
    "rule_settings",
    "team_best_of",
    *STAGE_SETTINGS,
)
# Asked once, when a tournament is created; the seating plan page changes it later.
CREATE_ONLY = ("planned_rounds",)
# Recorded hands were paid and scored under these: they cannot change once a hand is recorded.
RULES = {
    "preset": _("rule preset"),
    "profile": _("ruling profile"),
    "seat_rotation": _("seat rotation"),
    "rule_settings": _("rule settings"),
}


def rules_locked(tournament: Tournament) -> bool:
    """Whether the settings in RULES are fixed: they are once a hand is recorded."""
    return Deal.objects.filter(table__round__tournament=tournament).exists()


def free_slug(name: str) -> str:
    """A slug made from `name` that no tournament has and no page takes: "autumn-open", else
    "autumn-open-2", "autumn-open-3", … ("tournament" when the name has no Latin letter or
    digit)."""
    base = slugify(name)[:90].strip("-") or "tournament"
    taken = set(
        Tournament.objects.filter(slug__startswith=base).values_list("slug", flat=True)
    ) | set(RESERVED_SLUGS)
    slug, number = base, 1
    while slug in taken:
        number += 1
        slug = f"{base}-{number}"
    return slug


def _refuse_unknown(fields: dict[str, Any], extra: tuple[str, ...] = ()) -> None:
    unknown = set(fields) - set(SETTINGS) - set(extra)
    if unknown:
        raise ValidationError(f"Unknown tournament settings: {', '.join(sorted(unknown))}.")


def _save(tournament: Tournament) -> None:
    tournament.name = tournament.name.strip()
    tournament.venue = tournament.venue.strip()
    tournament.full_clean(exclude=["organisers"])
    try:
        with transaction.atomic():
            tournament.save()
    except IntegrityError as error:  # a concurrent save of the same slug
        raise ValidationError({"slug": _("Another tournament has this slug.")}) from error
    note_change(tournament.pk)


@transaction.atomic
def create_tournament(*, organiser: User, **fields: Any) -> Tournament:
    """A new tournament with `organiser` as its organiser; raises ValidationError by field.

    Without a `seat_rotation` it takes its rule preset's (MCR wmo; JT and WA none); without a
    `slug`, one made from the name (`free_slug`)."""
    _refuse_unknown(fields, CREATE_ONLY)
    planned = fields.get("planned_rounds")
    if planned is not None and not 1 <= planned <= MOST_ROUNDS:
        raise ValidationError(
            {"planned_rounds": _("Plan between 1 and %(most)s rounds.") % {"most": MOST_ROUNDS}}
        )
    if not fields.get("slug"):
        fields["slug"] = free_slug(fields.get("name", "").strip())
    tournament = Tournament(**fields)
    if not fields.get("seat_rotation") and tournament.preset in PRESETS:
        tournament.seat_rotation = PRESETS[tournament.preset].seat_rotation
    _save(tournament)
    tournament.organisers.add(organiser)
    made = {name: getattr(tournament, name) for name in (*SETTINGS, *CREATE_ONLY)}
    after = {name: _plain(value) for name, value in made.items() if value not in ("", None)}
    record(tournament, AuditEntry.Action.TOURNAMENT_CREATED, actor=organiser, after=after)
    return tournament


def _plain(value: Any) -> Any:
    """A setting as the audit trail keeps it (JSON): a date as ISO text."""
    return value.isoformat() if isinstance(value, date) else value


def _settings(tournament: Tournament) -> dict[str, Any]:
    return {name: _plain(getattr(tournament, name)) for name in SETTINGS}


@transaction.atomic
def update_tournament(*, tournament: Tournament, actor: Actor = None, **fields: Any) -> Tournament:
    """Change the settings of `tournament`; the audit trail keeps, when an `actor` made the
    change, the settings that changed, before and after.

    The rule preset, ruling profile and seat rotation are refused (code "rules_locked") once a
    hand is recorded: recorded payments, tile scores and seat winds were computed under them.
    Table points and tie-breaks are applied when standings are read, so they may change any time.
    A dress rehearsal's copy is never made public.
    """
    _refuse_unknown(fields)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    changed = [
        name for name in RULES if name in fields and fields[name] != getattr(tournament, name)
    ]
    if changed and rules_locked(tournament):
        raise ValidationError(
            {
                name: ValidationError(
                    _("Hands are recorded under the current %(setting)s; it cannot change now."),
                    code="rules_locked",
                    params={"setting": RULES[name]},
                )
                for name in changed
            }
        )
    if fields.get("public") and hasattr(tournament, "rehearsal"):
        raise ValidationError(
            {"public": _("A dress rehearsal is never public: it is the organisers' private copy.")},
            code="rehearsal_private",
        )
    staged = [
        name
        for name in STAGE_SETTINGS
        if name in fields and fields[name] != getattr(tournament, name)
    ]
    if staged and Cut.objects.filter(tournament=tournament).exists():
        raise ValidationError(
            {
                name: ValidationError(
                    _("The cut is confirmed; undo it on the cut page to change the final stage."),
                    code="cut_confirmed",
                )
                for name in staged
            }
        )
    if "carry_over" in fields:
        try:  # stored in lowest terms: "2/4" is "1/2", "0.5" is "1/2"
            fields["carry_over"] = str(parse_carry_over(fields["carry_over"]))
        except ValueError:
            pass  # the field's validator words it
    before = _settings(tournament)
    for name, value in fields.items():
        setattr(tournament, name, value)
    _save(tournament)
    after = _settings(tournament)
    changed = [name for name in SETTINGS if after[name] != before[name]]
    if changed and actor is not None:
        record(
            tournament,
            AuditEntry.Action.SETTINGS_CHANGED,
            actor=actor,
            before={name: before[name] for name in changed},
            after={name: after[name] for name in changed},
        )
    return tournament


def set_organisers(*, tournament: Tournament, organisers: list[User]) -> None:
    """Make `organisers` the organisers of `tournament`, replacing those before: an import
    hands the tournament from the importing user to the archive's organisers."""
    tournament.organisers.set(organisers)


def delete_tournament(tournament: Tournament) -> None:
    """Delete `tournament` and everything of it (rounds, players, results, audit trail): an
    import that replaces it."""
    tournament.delete()
