from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q


class Tournament(models.Model):
    class Profile(models.TextChoices):
        """Which rulebook decides the fine points of fan counting (see rules/RULINGS.md)."""

        WMO_2006 = "wmo-2006", "WMO Green Book (2006)"
        CN_1998 = "cn-1998", "Chinese official rules (1998)"

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=100, unique=True)
    start_date = models.DateField(null=True, blank=True)
    end_date = models.DateField(null=True, blank=True)
    venue = models.CharField(max_length=200, blank=True)
    preset = models.CharField(max_length=40, default="mcr")
    profile = models.CharField(max_length=20, choices=Profile.choices, default=Profile.WMO_2006)
    public = models.BooleanField(
        default=False, help_text="Public tournaments are listed for everyone."
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organised_tournaments", blank=True
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = [F("start_date").desc(nulls_last=True), "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(start_date__isnull=True)
                | Q(end_date__isnull=True)
                | Q(end_date__gte=F("start_date")),
                name="tournament_ends_on_or_after_start",
                violation_error_message="A tournament cannot end before it starts.",
            ),
        ]

    def __str__(self) -> str:
        return self.name
