from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from tournament.demo import DEMO_PASSWORD, load_demo_data


class Command(BaseCommand):
    help = (
        "Create the demo logins and the public demo tournament (round 1 played, round 2 in "
        "play, round 3 a draft). Safe to run again: the demo tournament is reset."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        demo = load_demo_data()
        state = "Created" if demo.created else "Reset"
        self.stdout.write(
            self.style.SUCCESS(
                f"{state}: tournament {demo.tournament.name!r} ({demo.tournament.slug}); "
                f"logins {demo.organiser.get_username()} / {DEMO_PASSWORD} (organiser) and "
                f"{demo.referee.get_username()} / {DEMO_PASSWORD} (referee)"
            )
        )
