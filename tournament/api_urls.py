from __future__ import annotations

app_name = "tournament_api"

urlpatterns: list = []
