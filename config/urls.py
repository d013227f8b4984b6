from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import JavaScriptCatalog, set_language

from config.api import urlpatterns as api_urlpatterns
from tournament.web import home as tournament_views
from tournament.web import player_link
from tournament.web.login import AdminLoginForm, SiteLoginView

admin.site.login_form = AdminLoginForm

urlpatterns = [
    path("", tournament_views.home, name="home"),
    path("accounts/login/", SiteLoginView.as_view(), name="login"),
    # Logging out and changing one's own password; no password reset by e-mail (a venue has no
    # mail server, and a reset link would take the Host header of the request).
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password_change/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    # Choosing a language needs no CSRF token: a forged request could only change the reader's
    # language, and a page without a token sets no cookie, so nginx may keep one copy of a
    # public page for every visitor (hosting.live_cache).
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    path(
        "jsi18n/",
        JavaScriptCatalog.as_view(packages=["scoring", "tournament"]),
        name="javascript-catalog",
    ),
    path("admin/", admin.site.urls),
    path("scoring/", include("scoring.urls")),
    path("api/", include(api_urlpatterns())),
    path("manage/<slug:slug>/print/", include("tournament.web.urls_outputs")),
    path("t/<slug:slug>/statistics/", include("tournament.web.urls_stats")),
    path("t/", include("tournament.web.urls_public")),
    path("manage/<slug:slug>/seating/", include("tournament.web.urls_seating")),
    path("manage/", include("tournament.web.urls_organiser")),
    path("referee/", include("tournament.web.urls_referee")),
    # A player's private link: the secret is any text, a wrong one is 404 like a revoked one.
    path("p/<str:secret>/", player_link.page, name="player_link"),
    path("p/<str:secret>/check-in/", player_link.check_in, name="player_link_check_in"),
    path("p/<str:secret>/call/", player_link.call, name="player_link_call"),
]
