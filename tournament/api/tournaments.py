"""Endpoints of tournaments, their players and standings."""

from __future__ import annotations

from typing import Annotated, Any

from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from ninja import Query, Router
from ninja.responses import Status
from pydantic import WithJsonSchema

from tournament import services
from tournament.api import pages, schemas, serialisers
from tournament.api.auth import CREATORS, ORGANISERS, reach
from tournament.api.errors import ApiError, invalid_field, refusals
from tournament.models import Round, Tournament
from tournament.reads import stages
from tournament.reads.access import AuthenticatedRequest
from tournament.reads.prize_giving import shown
from tournament.reads.selectors import visible_tournaments
from tournament.reads.standings_cache import cached_standings
from tournament.reads.teams import team_standings
from tournament.services import prize_giving
from tournament.services import tournaments as tournament_services
from tournament.services.stages import confirm_cut, undo_cut

router = Router(exclude_unset=True)

T = "/{slug:slug}"
READ = refusals(401, 404)
WRITE = refusals(400, 401, 403, 404, 409)
PAGED = refusals(400, 401, 404)  # a read with `limit` and `offset`


@router.get(
    "",
    url_name="tournaments",
    response={200: schemas.TournamentList, **refusals(400, 401)},
    summary="Tournaments the caller may read",
)
def list_tournaments(
    request: HttpRequest,
    page: Query[pages.TournamentsPage],
) -> dict[str, Any]:
    """Public tournaments and those the caller organises or referees, a page at a time
    (`limit`, `offset`; `count` and `next` say what is left).

    Who: anyone."""
    user = request.user
    tournaments = visible_tournaments(user)
    if user.is_authenticated and not user.is_superuser:
        tournaments = Tournament.objects.filter(
            Q(pk__in=tournaments.values("pk")) | Q(rounds__tables__referees=user)
        ).distinct()
    tournaments = tournaments.order_by(*(Tournament._meta.ordering or ()), "pk")
    return {
        "tournaments": list(tournaments[page.offset : page.offset + page.limit]),
        **pages.paged(request, page, tournaments.count()),
    }


@router.post(
    "",
    auth=CREATORS,
    response={201: schemas.Tournament, **refusals(400, 401, 403, 409)},
    summary="Create a tournament",
)
def create_tournament(
    request: AuthenticatedRequest, response: HttpResponse, payload: schemas.TournamentCreate
) -> Status:
    """Created; Location is its address. Any rule preset with its rule settings; the seat
    rotation, when not given, is the preset's (MCR wmo; JT and WA none).

    Who: a user with the permission tournament.add_tournament; they become its organiser."""
    values = payload.model_dump(exclude_unset=True)
    tournament = tournament_services.create_tournament(organiser=request.user, **values)
    response["Location"] = reverse("tournament_api:tournament", kwargs={"slug": tournament.slug})
    return Status(201, _tournament_answer(request, tournament, tournament.rounds.all()))


@router.get(
    T,
    url_name="tournament",
    response={200: schemas.Tournament, **READ},
    summary="A tournament's settings and rounds",
)
def get_tournament(request: HttpRequest, slug: str) -> schemas.Tournament:
    """Draft rounds are listed for organisers only.

    Who: anyone who may read the tournament: everyone for a public one, else its organisers and
    referees."""
    tournament = reach(request).tournament
    return _tournament_answer(request, tournament, reach(request).access.rounds())


@router.patch(
    T, response={200: schemas.Tournament, **WRITE}, summary="Change a tournament's settings"
)
def change_tournament(
    request: HttpRequest,
    slug: str,
    payload: schemas.TournamentChange,
) -> schemas.Tournament:
    """Who: an organiser of the tournament."""
    tournament = reach(request).tournament
    values = payload.model_dump(exclude_unset=True)
    if values.get("slug", tournament.slug) != tournament.slug:
        raise invalid_field("slug", "A tournament's slug is its address; it cannot change.")
    values.pop("slug", None)
    tournament = tournament_services.update_tournament(
        tournament=tournament, actor=request.user, **values
    )
    return _tournament_answer(request, tournament, tournament.rounds.all())


def _tournament_answer(
    request: HttpRequest, tournament: Tournament, rounds: QuerySet[Round]
) -> schemas.Tournament:
    """The tournament with `rounds` (those the caller may see)."""
    context = {"request": request, "rounds": serialisers.annotated_rounds(rounds)}
    return schemas.Tournament.model_validate(tournament, context=context)


def _cut_answer(request: HttpRequest, tournament: Tournament) -> schemas.Cut:
    """The confirmed cut, or else its preview."""
    cut = stages.confirmed_cut(tournament) or stages.cut_preview(tournament)
    context = {"request": request, "tournament": tournament}
    return schemas.Cut.model_validate(cut, context=context)


@router.get(
    f"{T}/cut",
    url_name="cut",
    auth=ORGANISERS,
    response={200: schemas.Cut, **refusals(401, 403, 404, 409)},
    summary="The cut to the final stage",
)
def get_cut(request: HttpRequest, slug: str) -> schemas.Cut:
    """Who goes on to the final stage: before the cut is confirmed, a preview from the
    standings after its round (every ranked player, those in with their place and what they
    would carry, players level across the line marked); once confirmed, the finalists as
    frozen. 409 (no_stage) for a tournament without a final stage.

    Who: an organiser of the tournament."""
    tournament = reach(request).tournament
    if tournament.cut_after_round is None or tournament.cut_size is None:
        raise ApiError(409, "no_stage", "This tournament has no final stage.")
    return _cut_answer(request, tournament)


@router.post(
    f"{T}/cut",
    response={200: schemas.Cut, **WRITE},
    summary="Confirm the cut to the final stage",
)
def post_cut(
    request: AuthenticatedRequest, slug: str, payload: schemas.Empty = schemas.EMPTY
) -> schemas.Cut:
    """Confirm the cut as the preview shows it now (refused with 409 before its round is
    finished, once a later round has started, or when it is confirmed already). The body is
    empty or {}.

    Who: an organiser of the tournament."""
    tournament = reach(request).tournament
    confirm_cut(tournament=tournament, actor=request.user)
    return _cut_answer(request, tournament)


@router.delete(
    f"{T}/cut",
    response={200: schemas.Cut, **WRITE},
    summary="Undo the confirmed cut",
)
def delete_cut(request: AuthenticatedRequest, slug: str) -> schemas.Cut:
    """Forget the confirmed cut and answer its preview again (refused with 409 no_cut when
    none is confirmed, final_stage_started once a round after it has started). Rounds of the
    final stage already seated keep their seating: seat them again.

    Who: an organiser of the tournament."""
    tournament = reach(request).tournament
    undo_cut(tournament=tournament, actor=request.user)
    return _cut_answer(request, tournament)


@router.patch(
    f"{T}/prize-giving",
    url_name="prize_giving",
    response={200: schemas.Tournament, **WRITE},
    summary="Hide the standings until the prize-giving, or reveal them",
)
def change_prize_giving(
    request: AuthenticatedRequest, slug: str, payload: schemas.PrizeGivingChange
) -> schemas.Tournament:
    """Answers the tournament, whose `standings_hidden_from` and `standings_revealed_at` say
    what is hidden now. Revealing is refused with 409 nothing_hidden (no round is hidden) or
    already_revealed; hiding again with not_revealed. Setting the round it has already
    changes nothing.

    Who: an organiser of the tournament."""
    tournament = reach(request).tournament
    given = payload.model_dump(exclude_unset=True)
    if "hidden_from" in given:
        tournament = prize_giving.hide_standings_from(
            tournament=tournament, round=given["hidden_from"], actor=request.user
        )
    if given.get("revealed") is True:
        tournament = prize_giving.reveal_standings(tournament=tournament, actor=request.user)
    elif given.get("revealed") is False:
        tournament = prize_giving.hide_standings_again(tournament=tournament, actor=request.user)
    return _tournament_answer(request, tournament, tournament.rounds.all())


@router.get(
    f"{T}/players",
    url_name="players",
    response={200: schemas.PlayerList, **PAGED},
    summary="The players",
)
def list_players(
    request: HttpRequest,
    slug: str,
    page: Query[pages.PlayersPage],
) -> dict[str, Any]:
    """By key, a page at a time (`limit`, `offset`; `count` and `next` say what is left).

    Who: anyone who may read the tournament."""
    players = reach(request).tournament.players.order_by("key")
    return {
        "players": list(players[page.offset : page.offset + page.limit]),
        **pages.paged(request, page, players.count()),
    }


@router.post(f"{T}/players", response={201: schemas.Player, **WRITE}, summary="Add a player")
def add_player(
    request: HttpRequest, response: HttpResponse, slug: str, payload: schemas.PlayerCreate
) -> Status:
    """Added; Location is the player's address.

    Who: an organiser of the tournament."""
    values = payload.model_dump(exclude_unset=True)
    player = services.add_player(tournament=reach(request).tournament, actor=request.user, **values)
    response["Location"] = reverse(
        "tournament_api:player", kwargs={"slug": slug, "key": player.key}
    )
    return Status(201, player)


@router.patch(
    f"{T}/players/{{key}}",
    url_name="player",
    response={200: schemas.Player, **WRITE},
    summary="Change a player (also to withdraw them from a round on)",
)
def change_player(
    request: HttpRequest,
    slug: str,
    key: str,
    payload: schemas.PlayerChange,
) -> Any:
    """Who: an organiser of the tournament."""
    values = payload.model_dump(exclude_unset=True)
    return services.update_player(player=reach(request).named, actor=request.user, **values)


@router.delete(
    f"{T}/players/{{key}}",
    response={200: schemas.Player, **WRITE},
    summary="Remove a player added by mistake",
)
def remove_player(request: HttpRequest, slug: str, key: str) -> Any:
    """Answers the player as they were. Only while the player has no seat and no result: 409
    player_has_results for a player who has played (withdraw them instead), 409 player_seated
    for one seated in a round not played yet.

    Who: an organiser of the tournament."""
    player = reach(request).named
    services.remove_player(player=player, actor=request.user)
    return player


# The values `?provisional=` takes, exactly as written (the schema lists them): anything else,
# an empty value too, is 400. Left out, it is false.
TRUE = ("1", "true", "yes")
FALSE = ("0", "false", "no")
PROVISIONAL = {"type": "string", "enum": [*TRUE, *FALSE]}


@router.get(
    f"{T}/standings",
    url_name="standings",
    response={200: schemas.Standings, **refusals(400, 401, 404)},
    summary="The standings",
)
def get_standings(
    request: HttpRequest,
    slug: str,
    page: Query[pages.PlayersPage],
    provisional: Annotated[str | None, WithJsonSchema(PROVISIONAL)] = Query(
        None,
        description="1: also count the games whose sheets are submitted but not confirmed "
        "yet; each row says how many of its games are such (provisional_games).",
    ),
) -> dict[str, Any]:
    """Over the games whose sheets are confirmed (with ?provisional=1 also those submitted but
    not confirmed yet): table points, then score, then the tournament's tie-breaks; the rows
    in the shape of `manage.py standings --json`, a page at a time (`limit`, `offset`; `count`
    and `next` say what is left).

    While rounds are hidden until the prize-giving, everyone but the tournament's organisers
    gets the standings before them (`hidden`, `hidden_from`).

    Who: anyone who may read the tournament."""
    tournament = reach(request).tournament
    seen = shown(tournament, organiser=reach(request).access.organiser)
    if provisional is not None and provisional not in TRUE + FALSE:
        raise invalid_field(
            "provisional",
            "Give provisional=1 (count unconfirmed sheets too) or provisional=0, not "
            f"{provisional[:20]!r}.",
        )
    counted = provisional in TRUE
    # Every row serialised once per change of the tournament (tournament.reads.standings_cache).
    rows = cached_standings(
        tournament,
        provisional=counted,
        shape="api",
        build=lambda found: [schemas.Standing.model_validate(row) for row in found],
        before_round=seen.before_round,
    )
    return {
        "provisional": counted,
        "hidden": seen.hidden,
        "hidden_from": seen.before_round,
        "standings": rows[page.offset : page.offset + page.limit],
        **pages.paged(request, page, len(rows)),
    }


@router.get(
    f"{T}/teams",
    url_name="team_standings",
    response={200: schemas.TeamStandings, **refusals(400, 401, 404)},
    summary="The team standings",
)
def get_team_standings(
    request: HttpRequest,
    slug: str,
    provisional: Annotated[str | None, WithJsonSchema(PROVISIONAL)] = Query(
        None,
        description="1: also count the games whose sheets are submitted but not confirmed yet.",
    ),
) -> dict[str, Any]:
    """Teams of the players' `team` field, best first: a team counts the table points, then
    the scores, of its best `best_of` players by the individual standings (the tournament's
    `team_best_of`; null: all of them); substitutes never count. A team with fewer players is
    incomplete and ranked after the complete ones; teams level on both share a rank. Below
    two teams, `teams` is empty. In the shape of `manage.py standings --teams --json`. While
    rounds are hidden until the prize-giving, anyone but the tournament's organisers gets the
    team standings of the rounds before them, as for the standings.

    Who: anyone who may read the tournament."""
    tournament = reach(request).tournament
    if provisional is not None and provisional not in TRUE + FALSE:
        raise invalid_field(
            "provisional",
            "Give provisional=1 (count unconfirmed sheets too) or provisional=0, not "
            f"{provisional[:20]!r}.",
        )
    counted = provisional in TRUE
    seen = shown(tournament, organiser=reach(request).access.organiser)
    teams = cached_standings(
        tournament,
        provisional=counted,
        shape="api-teams",
        build=lambda found: [
            schemas.TeamStanding.model_validate(team) for team in team_standings(tournament, found)
        ],
        before_round=seen.before_round,
    )
    return {
        "provisional": counted,
        "best_of": tournament.team_best_of,
        "teams": teams if len(teams) >= 2 else [],
    }
