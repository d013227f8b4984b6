"""The demo data behind `manage.py load_demo`: one organiser and one public tournament."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.db import transaction

from tournament.models import Tournament

DEMO_USERNAME = "organiser"
DEMO_PASSWORD = "mahjong-demo"
DEMO_TOURNAMENT_SLUG = "demo-open"


@dataclass(frozen=True)
class DemoData:
    organiser: AbstractUser
    tournament: Tournament
    created: bool


@transaction.atomic
def load_demo_data() -> DemoData:
    """Create the demo organiser and tournament, or bring them back to their demo state.

    Running it again creates nothing new; it only resets the organiser's password so the login
    printed by scripts/demo always works.
    """
    user_model = get_user_model()
    organiser, user_created = user_model.objects.get_or_create(
        username=DEMO_USERNAME,
        defaults={"first_name": "Demo", "last_name": "Organiser"},
    )
    organiser.set_password(DEMO_PASSWORD)
    organiser.save(update_fields=["password"])

    tournament, tournament_created = Tournament.objects.get_or_create(
        slug=DEMO_TOURNAMENT_SLUG,
        defaults={
            "name": "Demo Open",
            "venue": "Community Hall",
            "public": True,
        },
    )
    tournament.organisers.add(organiser)
    return DemoData(
        organiser=organiser,
        tournament=tournament,
        created=user_created or tournament_created,
    )
