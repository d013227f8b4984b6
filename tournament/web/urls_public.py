from __future__ import annotations

app_name = "public"

urlpatterns: list = []
