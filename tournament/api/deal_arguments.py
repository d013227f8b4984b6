"""A deal as the API receives it, turned into the arguments of the services that record and
correct deals (`record_deal`, `correct_deal`): players found by key, the tiles in the case
format (from `tiles` or the compact notation) with their situation, further winners; and a
service's refusal of a deal named by the request's field it is about."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError

from scoring.engine import HandError, parse_compact
from tournament import services
from tournament.api import schemas
from tournament.api.errors import ApiError, from_validation_error, invalid
from tournament.models import Deal, Player, Table

SITUATION = tuple(schemas.Situation.model_fields)
# The facts of a deal named as lists of players, as the request and the services call them.
DEAL_FACTS = ("riichi", "faulty_claims", "ready", "faulty_riichi")
# The tiles of a win as sent (the case format), with its situation: MCR's, JT's, WA's flags.
CASE_FIELDS = (
    "concealed", "melds", "win_tile", "flowers", *SITUATION,
    "last_discard", "supplement_tile", "robbing_kong", "heavenly", "earthly",
    "last_available", "four_kongs_immediate", "thirteen_discarded_orphans",
)  # fmt: skip


def players_by_key(table: Table, keys: dict[str, str | None]) -> dict[str, Player | None]:
    """The players of the tournament by field, found by key (None for None) in one query; 400
    naming each key no player has."""
    wanted = {key for key in keys.values() if key is not None}
    players = {
        player.key: player
        for player in (
            table.round.tournament.players.filter(key__in=wanted).order_by() if wanted else ()
        )
    }
    found: dict[str, Player | None] = {}
    unknown = {}
    for name, key in keys.items():
        found[name] = None if key is None else players.get(key)
        if key is not None and found[name] is None:
            unknown[name] = f"No player of this tournament has the key {key!r}."
    if unknown:
        raise invalid(unknown)
    return found


def hand_values(table: Table, hand: schemas.HandCorrection) -> services.DealInput:
    """The deal record_deal / correct_deal take, from a hand as sent."""
    if hand.tiles is not None and hand.compact is not None:
        raise invalid({"compact": "Send the tiles either as tiles or as compact, not both."})
    players = players_by_key(
        table, {"winner": hand.winner, "discarder": hand.discarder, "offender": hand.offender}
    )
    situation = hand.model_dump(include=set(SITUATION), exclude_unset=True)
    case = None
    if hand.tiles is not None:
        case = _case(hand.tiles) | situation
    elif hand.compact is not None:
        try:
            parsed = parse_compact(hand.compact, flowers=hand.flowers, **situation)
        except HandError as error:
            raise ApiError(
                400, "invalid_tiles", error.message, fields={"compact": error.message}
            ) from error
        case = parsed.to_case()
    also = hand.also or []
    facts = _player_lists(
        table,
        {name: getattr(hand, name) or [] for name in DEAL_FACTS}
        | {"also": [win.player for win in also]},
    )
    further = facts.pop("also")
    return services.DealInput(
        result=hand.result,
        winner=players["winner"],
        discarder=players["discarder"],
        offender=players["offender"],
        fan=hand.fan,
        flowers=hand.flowers,
        tiles=case,
        value=hand.value,
        extra_winners=[(player, win.value) for player, win in zip(further, also, strict=True)],
        extra_tiles=[
            (player, _case(win.tiles))
            for player, win in zip(further, also, strict=True)
            if win.tiles is not None
        ],
        riichi=facts["riichi"],
        faulty_claims=facts["faulty_claims"],
        ready=facts["ready"],
        faulty_riichi=facts["faulty_riichi"],
    )


def _case(tiles: dict[str, Any]) -> dict[str, Any]:
    """The fields of the case format in tiles as sent (others are left out)."""
    return {name: tiles[name] for name in CASE_FIELDS if name in tiles}


def _player_lists(table: Table, keys: dict[str, list[str]]) -> dict[str, list[Player]]:
    """The players of the tournament named in each list (in its order), found by key; 400
    naming each list with a key no player has."""
    wanted = {key for named in keys.values() for key in named}
    found = {player.key: player for player in table.round.tournament.players.filter(key__in=wanted)}
    unknown = {
        name: f"No player of this tournament has the key {missing[0]!r}."
        for name, named in keys.items()
        if (missing := [key for key in named if key not in found])
    }
    if unknown:
        raise invalid(unknown)
    return {name: [found[key] for key in named] for name, named in keys.items()}


# The field of a deal a service's refusal is about, by its code, where its code says it.
CODE_FIELDS = {
    "bad_riichi": "faulty_riichi",
    "offender_required": "offender",
    "one_winner": "also",
    "winner_twice": "also",
    "value_disagrees_with_tiles": "value",
}
# Refusals that name the fact of the deal ("fact") or the player's part ("role") they are about.
FACT_FIELDS = {"riichi", "faulty_claims", "ready", "faulty_riichi", "offender"}
# Refusals of a winner's value, naming the winner ("player").
VALUE_CODES = {"value_required", "bad_value", "below_minimum"}


def _deal_field(error: ValidationError, values: dict[str, Any]) -> str | None:
    """The field of the request a service's refusal of a deal is about (`values`: the
    arguments the service had), where it is one of the fields of presets that count points;
    None otherwise (MCR's refusals stay as they were)."""
    if hasattr(error, "error_dict") or len(error.error_list) != 1:
        return None
    refusal = error.error_list[0]
    params = refusal.params if isinstance(refusal.params, dict) else {}
    named = str(params.get("fact") or params.get("role") or "").replace(" ", "_")
    further = {player.name for player, _value in values["extra_winners"]}
    winner = values["winner"].name if values["winner"] is not None else None
    if (
        refusal.code in ("named_twice", "not_in_preset", "not_seated", "draw_only")
        and named in FACT_FIELDS
    ):
        return named
    about_a_winner = VALUE_CODES | {"not_seated", "value_disagrees_with_tiles"}
    if refusal.code in about_a_winner and params.get("player") in further:
        if params["player"] != winner:
            return "also"
    if refusal.code in VALUE_CODES and (refusal.code != "below_minimum" or "player" in params):
        return "value"
    if refusal.code == "fan_required" and (values["value"] is not None or further):
        return "value" if values["value"] is not None else "also"
    return CODE_FIELDS.get(str(refusal.code))


def recorded(service: Any, deal: services.DealInput, **arguments: Any) -> Deal:
    """`service` (record_deal or correct_deal) given a `deal`; a refusal about one of the
    deal's fields names it."""
    try:
        return service(**arguments, deal=deal)
    except ValidationError as error:
        field = _deal_field(error, vars(deal))
        if field is None:
            raise
        translated = from_validation_error(error)
        raise ApiError(
            translated.status,
            translated.code,
            translated.message,
            fields={field: translated.message},
        ) from error
