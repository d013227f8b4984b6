"""Endpoints of tournaments, their players and standings."""

from __future__ import annotations

from django.db.models import Q
from django.http import HttpRequest, JsonResponse
from django.urls import reverse

from tournament.api import serialisers
from tournament.api.auth import (
    forbidden,
    not_found,
    organised_tournament,
    published_rounds,
    readable_tournament,
)
from tournament.api.errors import ApiError, answer
from tournament.api.http import Fields, present, read_json
from tournament.models import Player, Tournament
from tournament.selectors import standings, visible_tournaments
from tournament.services import add_player, update_player
from tournament.services.tournaments import create_tournament, update_tournament

TOURNAMENT_FIELDS = (
    "name",
    "slug",
    "start_date",
    "end_date",
    "venue",
    "preset",
    "profile",
    "seat_rotation",
    "table_points",
    "tie_breaks",
    "public",
    "confirmation",
    "round_minutes",
)
PLAYER_FIELDS = (
    "key",
    "name",
    "country",
    "club",
    "team",
    "ema_number",
    "substitute",
    "withdrawn_from_round",
)


def _field_length(model, name: str) -> int:
    return model._meta.get_field(name).max_length


def list_tournaments(request: HttpRequest) -> JsonResponse:
    """Public tournaments, those the caller organises and those where they referee."""
    user = request.user
    tournaments = visible_tournaments(user)
    if user.is_authenticated and not user.is_superuser:
        tournaments = Tournament.objects.filter(
            Q(pk__in=tournaments.values("pk")) | Q(rounds__tables__referees=user)
        ).distinct()
    return answer({"tournaments": [serialisers.tournament_summary(t) for t in tournaments]})


def _tournament_fields(body: object, *, creating: bool) -> dict:
    fields = Fields(body, TOURNAMENT_FIELDS)
    values = present(
        name=fields.string("name", max_length=_field_length(Tournament, "name"), required=creating),
        slug=fields.string("slug", max_length=_field_length(Tournament, "slug"), required=creating),
        start_date=fields.date("start_date"),
        end_date=fields.date("end_date"),
        venue=fields.string("venue", max_length=_field_length(Tournament, "venue")),
        preset=fields.string("preset", max_length=_field_length(Tournament, "preset")),
        profile=fields.choice("profile", Tournament.Profile.values),
        seat_rotation=fields.choice("seat_rotation", Tournament.SeatRotation.values),
        table_points=fields.list_of("table_points", int, max_items=4),
        tie_breaks=fields.list_of("tie_breaks", str, max_items=len(Tournament.TieBreak.values)),
        public=fields.boolean("public"),
        confirmation=fields.choice("confirmation", Tournament.Confirmation.values),
        round_minutes=fields.integer("round_minutes", minimum=10, maximum=600),
    )
    fields.check()
    return values


def create(request: HttpRequest) -> JsonResponse:
    if not request.user.has_perm("tournament.add_tournament"):
        raise forbidden("Creating tournaments needs the permission tournament.add_tournament.")
    values = _tournament_fields(read_json(request), creating=True)
    tournament = create_tournament(organiser=request.user, **values)
    location = reverse("tournament_api:tournament", kwargs={"slug": tournament.slug})
    return answer(_detail(tournament), 201, {"Location": location})


def _detail(tournament: Tournament) -> dict:
    rounds = serialisers.annotated_rounds(tournament.rounds.all())
    return serialisers.tournament_detail(tournament, rounds=list(rounds))


def detail(request: HttpRequest, slug: str) -> JsonResponse:
    tournament = readable_tournament(request, slug)
    rounds = serialisers.annotated_rounds(published_rounds(request, tournament))
    body = serialisers.tournament_detail(tournament, rounds=list(rounds))
    return answer(body)


def change(request: HttpRequest, slug: str) -> JsonResponse:
    tournament = organised_tournament(request, slug)
    values = _tournament_fields(read_json(request), creating=False)
    if values.get("slug", tournament.slug) != tournament.slug:
        message = "A tournament's slug is its address; it cannot change."
        raise ApiError(400, "invalid", message, fields={"slug": message})
    tournament = update_tournament(tournament=tournament, **values)
    return answer(_detail(tournament))


def list_players(request: HttpRequest, slug: str) -> JsonResponse:
    tournament = readable_tournament(request, slug)
    players = tournament.players.order_by("key")
    return answer({"players": [serialisers.player(player) for player in players]})


def _player_fields(body: object, *, creating: bool) -> dict:
    fields = Fields(body, PLAYER_FIELDS)
    values = present(
        **{
            name: fields.string(
                name,
                max_length=_field_length(Player, name),
                required=creating and name in {"key", "name"},
            )
            for name in ("key", "name", "country", "club", "team", "ema_number")
        },
        substitute=fields.boolean("substitute"),
        withdrawn_from_round=fields.integer(
            "withdrawn_from_round", null=True, minimum=1, maximum=32767
        ),
    )
    fields.check()
    return values


def add(request: HttpRequest, slug: str) -> JsonResponse:
    tournament = organised_tournament(request, slug)
    values = _player_fields(read_json(request), creating=True)
    player = add_player(tournament=tournament, **values)
    location = reverse("tournament_api:player", kwargs={"slug": slug, "key": player.key})
    return answer(serialisers.player(player), 201, {"Location": location})


def change_player(request: HttpRequest, slug: str, key: str) -> JsonResponse:
    tournament = organised_tournament(request, slug)
    player = tournament.players.filter(key=key).first()
    if player is None:
        raise not_found(f"This tournament has no player {key!r}.")
    values = _player_fields(read_json(request), creating=False)
    player = update_player(player=player, **values)
    return answer(serialisers.player(player))


TRUE = ("1", "true", "yes")
FALSE = ("", "0", "false", "no")


def show_standings(request: HttpRequest, slug: str) -> JsonResponse:
    """Over confirmed games; with ?provisional=1 also over submitted, unconfirmed ones."""
    tournament = readable_tournament(request, slug)
    value = request.GET.get("provisional", "").strip().lower()
    if value not in TRUE + FALSE:
        message = "Give provisional=1 (count unconfirmed sheets too) or provisional=0."
        raise ApiError(400, "invalid", message, fields={"provisional": message})
    provisional = value in TRUE
    rows = [serialisers.standing(row) for row in standings(tournament, provisional=provisional)]
    return answer({"provisional": provisional, "standings": rows})
