"""The organiser's seating plan, mounted at manage/<slug>/seating/ (the slug comes from the
include in config/urls.py)."""

from __future__ import annotations

from django.urls import path

from tournament.web import seating_plan

app_name = "seating"

urlpatterns = [
    path("", seating_plan.plan, name="plan"),
    path("settings/", seating_plan.save_settings, name="settings"),
    path("generate/", seating_plan.generate, name="generate"),
    path("jobs/<int:job>/", seating_plan.job, name="job"),
    path("preview/", seating_plan.preview, name="preview"),
    path("publish/", seating_plan.publish, name="publish"),
]
