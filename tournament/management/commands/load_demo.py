from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from tournament.demo import DEMO_PASSWORD, load_demo_data


class Command(BaseCommand):
    help = "Create a demo organiser and a public demo tournament. Safe to run again."

    def handle(self, *args: Any, **options: Any) -> None:
        demo = load_demo_data()
        state = "Created" if demo.created else "Already present"
        self.stdout.write(
            self.style.SUCCESS(
                f"{state}: tournament {demo.tournament.name!r} ({demo.tournament.slug}), "
                f"organiser login {demo.organiser.get_username()} / {DEMO_PASSWORD}"
            )
        )
