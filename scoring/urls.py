from __future__ import annotations

from django.urls import path

from scoring import views

app_name = "scoring"

urlpatterns = [
    path("calculator/", views.calculator, name="calculator"),
    path("calculator/verdict/", views.calculator_verdict, name="calculator_verdict"),
]
