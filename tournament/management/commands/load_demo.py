from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from tournament.management.demo import DEMO_PASSWORD, load_demo_data


class Command(BaseCommand):
    help = (
        "Create the demo logins and the public demo tournaments: Demo Open (MCR; round 1 "
        "played, round 2 in play, round 3 a draft) and a small Japanese Transitional and "
        "Wilmington tournament (round 1 played, round 2 in play), Demo Autumn Open, a month "
        "ahead and taking registrations, and Demo Check-in Day, today at its check-in desk. "
        "Safe to run again: the demo tournaments are reset."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        demo = load_demo_data()
        for tournament in demo.tournaments:
            state = "Reset" if tournament.slug in demo.reset else "Created"
            self.stdout.write(
                self.style.SUCCESS(f"{state}: tournament {tournament.name!r} ({tournament.slug})")
            )
        self.stdout.write(
            self.style.SUCCESS(
                f"Logins {demo.organiser.get_username()} / {DEMO_PASSWORD} (organiser) and "
                f"{demo.referee.get_username()} / {DEMO_PASSWORD} (referee)"
            )
        )
        if demo.player_link:
            self.stdout.write(
                self.style.SUCCESS(
                    f"A player's private link (Demo Check-in Day, player 1): {demo.player_link}"
                )
            )
