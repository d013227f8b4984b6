from django.contrib import admin

from tournament.models import Tournament


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "start_date", "end_date", "venue", "profile", "public"]
    list_filter = ["public", "profile"]
    search_fields = ["name", "slug", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers"]
    date_hierarchy = "start_date"
