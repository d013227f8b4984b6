"""Queries that decide what a user may see."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet

from tournament.models import Tournament


def visible_tournaments(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Tournament]:
    """Public tournaments, plus every tournament the user organises (superusers see all)."""
    tournaments = Tournament.objects.all()
    if user.is_superuser:
        return tournaments
    if not user.is_authenticated:
        return tournaments.filter(public=True)
    return tournaments.filter(Q(public=True) | Q(pk__in=user.organised_tournaments.values("pk")))
