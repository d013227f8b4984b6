from __future__ import annotations

from django.urls import path

from scoring import api

app_name = "scoring_api"

urlpatterns = [
    path("score", api.score, name="score"),
    path("openapi.json", api.openapi_schema, name="openapi"),
]
