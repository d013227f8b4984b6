"""The Django admin: a back office for superusers. It never goes around a rule of the services:
what the services guard (results, rounds and their statuses, the rules a recorded hand was
scored under) is read-only here and changed on the organiser's pages."""

from __future__ import annotations

from collections.abc import Sequence

from django import forms
from django.contrib import admin
from django.db.models import Model, QuerySet
from django.http import HttpRequest

from tournament.models import (
    AuditEntry,
    Deal,
    Penalty,
    Player,
    Round,
    Seat,
    Table,
    TokenFailures,
    Tournament,
)
from tournament.services.live import note_change
from tournament.services.tournaments import RULES, rules_locked


class NotesChanges(admin.ModelAdmin):
    """An edit here moves the tournament's LiveVersion number as the services' edits do: the
    live pages' ETags and the kept standings (tournament.reads.standings_cache) see it at once."""

    @staticmethod
    def tournament_id(obj: Tournament | Player) -> int:
        return obj.pk if isinstance(obj, Tournament) else obj.tournament_id

    def save_model(
        self, request: HttpRequest, obj: Tournament | Player, form: forms.BaseForm, change: bool
    ) -> None:
        super().save_model(request, obj, form, change)
        note_change(self.tournament_id(obj))

    def delete_model(self, request: HttpRequest, obj: Tournament | Player) -> None:
        tournament_id = self.tournament_id(obj)
        super().delete_model(request, obj)
        if not isinstance(obj, Tournament):
            note_change(tournament_id)

    def delete_queryset(
        self, request: HttpRequest, queryset: QuerySet[Tournament] | QuerySet[Player]
    ) -> None:
        changed = {self.tournament_id(obj) for obj in queryset}
        deleting_tournaments = queryset.model is Tournament
        super().delete_queryset(request, queryset)
        if not deleting_tournaments:
            for tournament_id in changed:
                note_change(tournament_id)


@admin.register(Tournament)
class TournamentAdmin(NotesChanges):
    list_display = ["name", "slug", "start_date", "end_date", "venue", "profile", "public"]
    list_filter = ["public", "profile", "seat_rotation"]
    search_fields = ["name", "slug", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers"]
    date_hierarchy = "start_date"

    def get_readonly_fields(self, request: HttpRequest, obj: Tournament | None = None) -> list[str]:
        if obj is None:
            return []
        # A tournament's slug is its address; the rules are fixed once a hand is recorded.
        return ["slug", *RULES] if rules_locked(obj) else ["slug"]

    def get_prepopulated_fields(
        self, request: HttpRequest, obj: Tournament | None = None
    ) -> dict[str, Sequence[str]]:
        return self.prepopulated_fields if obj is None else {}


@admin.register(Player)
class PlayerAdmin(NotesChanges):
    list_display = ["key", "name", "tournament", "country", "club", "ema_number", "substitute"]
    list_filter = ["tournament", "substitute"]
    search_fields = ["name", "key", "ema_number", "club"]


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rounds and results change only through the services, which keep the rules, the scores and
    the audit trail right."""

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class TableInline(admin.TabularInline):
    model = Table
    fields = readonly_fields = ("number", "ended_at", "ended_by_time")
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "number", "status"]
    list_filter = ["tournament", "status"]
    inlines = [TableInline]


class SeatInline(admin.TabularInline):
    model = Seat
    fields = readonly_fields = ("starting_wind", "player", "score")
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "round", "ended_at", "ended_by_time"]
    list_filter = ["round__tournament"]
    inlines = [SeatInline]


@admin.register(Deal)
class HandAdmin(ReadOnlyAdmin):
    list_display = ["table", "number", "result", "fan", "flowers", "entered_by", "entered_at"]
    list_filter = ["table__round__tournament", "result"]


@admin.register(Penalty)
class PenaltyAdmin(ReadOnlyAdmin):
    list_display = ["table", "seat", "kind", "points", "distributed", "deal_number", "reason"]
    list_filter = ["table__round__tournament", "kind"]


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["at", "tournament", "table", "actor", "action"]
    list_filter = ["tournament", "action"]


@admin.register(TokenFailures)
class TokenFailuresAdmin(admin.ModelAdmin):
    """Addresses that sent wrong API tokens (`tournament.infra.throttle`); deleting one unlocks
    it."""

    list_display = ["address", "failures", "since", "locked_until"]
    search_fields = ["address"]
    readonly_fields = ["address", "failures", "since", "locked_until"]

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False
