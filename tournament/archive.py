"""The tournament archive: a whole tournament as one JSON document, and reading it back.

The format is "mcr-tournament-archive", version 1 (see issue 3). Beside the fields it names,
an export carries what a lossless copy needs: dates, venue, tie-breaks, organisers, withdrawals,
round status, referees, penalty kinds (so false wins come back as false wins), who entered each
hand and penalty and when, when each game ended, and its game sheet: who submitted it, and when
and by whom it was confirmed. The tournament's confirmation setting and round time limit are
kept; the round clocks are not (they only matter while a round is played).

An import builds the tournament through the services, so every rule of a live tournament is
checked again: seating, round status, 16-hand games, the 8-fan minimum, tiles scored by the
engine for the winner's seat and prevailing wind, penalties. It is all or nothing: the first
problem stops it with an `ArchiveError` naming the round, table and hand, and nothing is saved.

Keys a document must have: `format`, `version`, `tournament` (with `name` and `slug`),
`players` (each with `key` and `name`), `rounds` (each with `number`), every table's `number`
and `seats`, every hand's `number` and `result` (and `winner` and `fan` for a win), every
penalty's `player`, `points`, `distributed` and `reason`. Everything else has a default; an
archive written before game sheets were confirmed (no `confirmed_at` key) counts every ended
game as confirmed, as the games counted then.
Users (organisers, referees, who entered a result) are matched by username; names unknown here
are left out, their entries are attributed to the importing user, and a warning says so. When
none of the organisers exists here, the importing user organises the tournament.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from tournament.models import (
    MOST_HANDS_PER_GAME as HANDS_PER_GAME,  # to do: the preset of the archived tournament
)
from tournament.models import (
    Hand,
    Penalty,
    Player,
    Round,
    Seat,
    Table,
    Tournament,
)
from tournament.rotation import prevailing_wind, seat_wind
from tournament.services import (
    add_player,
    assign_referees,
    confirm_game,
    create_round,
    create_table,
    end_game,
    record_false_win,
    record_hand,
    record_penalty,
    set_round_status,
    set_seating,
)
from tournament.services.tournaments import create_tournament

FORMAT = "mcr-tournament-archive"
VERSION = 1
WINDS = ("E", "S", "W", "N")
FALSE_WIN_KINDS = (Penalty.Kind.FALSE_WIN, Penalty.Kind.FALSE_WIN_INVALID_HAND)


class ArchiveError(ValidationError):
    """A document that cannot be imported; the message says where (round, table, hand) and why."""

    def __init__(self, message: str, code: str = "archive_invalid") -> None:
        super().__init__(message, code=code)


# --- Export ---------------------------------------------------------------------------------


def export_tournament(tournament: Tournament) -> dict[str, Any]:
    """The whole tournament as a JSON-ready dict in the archive format. A few queries in all."""
    rounds = tournament.rounds.prefetch_related(
        Prefetch(
            "tables",
            queryset=Table.objects.select_related("submitted_by", "confirmed_by").order_by(
                "number"
            ),
        ),
        Prefetch("tables__seats", queryset=Seat.objects.select_related("player")),
        Prefetch("tables__referees"),
        Prefetch(
            "tables__hands",
            queryset=Hand.objects.select_related(
                "winner__player", "discarder__player", "entered_by"
            ).order_by("number"),
        ),
        Prefetch(
            "tables__penalties",
            queryset=Penalty.objects.select_related("seat__player", "entered_by").order_by(
                "entered_at", "pk"
            ),
        ),
    )
    return {
        "format": FORMAT,
        "version": VERSION,
        "tournament": {
            "name": tournament.name,
            "slug": tournament.slug,
            "preset": tournament.preset,
            "profile": tournament.profile,
            "seat_rotation": tournament.seat_rotation,
            "table_points": list(tournament.table_points),
            "public": tournament.public,
            "start_date": _iso(tournament.start_date),
            "end_date": _iso(tournament.end_date),
            "venue": tournament.venue,
            "tie_breaks": list(tournament.tie_breaks),
            "confirmation": tournament.confirmation,
            "round_minutes": tournament.round_minutes,
            "organisers": sorted(user.get_username() for user in tournament.organisers.all()),
        },
        "players": [
            {
                "key": player.key,
                "name": player.name,
                "country": player.country,
                "club": player.club,
                "team": player.team,
                "ema_id": player.ema_number,
                "substitute": player.substitute,
                "withdrawn_from_round": player.withdrawn_from_round,
            }
            for player in tournament.players.order_by("key")
        ],
        "rounds": [
            {
                "number": round.number,
                "status": round.status,
                "tables": [_export_table(table) for table in round.tables.all()],
            }
            for round in rounds
        ],
    }


def _export_table(table: Table) -> dict[str, Any]:
    seats = {seat.starting_wind: seat.player.key for seat in table.seats.all()}
    hands = list(table.hands.all())
    numbers = {hand.number for hand in hands}
    by_hand: dict[int, list[Penalty]] = {}
    game_penalties = []
    for penalty in table.penalties.all():
        if penalty.hand_number in numbers:
            by_hand.setdefault(penalty.hand_number, []).append(penalty)
        else:
            game_penalties.append(penalty)
    return {
        "number": table.number,
        "seats": {wind: seats.get(wind) for wind in WINDS},
        "referees": sorted(user.get_username() for user in table.referees.all()),
        "hands": [_export_hand(hand, by_hand.get(hand.number, [])) for hand in hands],
        "penalties": [_export_penalty(penalty, with_hand=True) for penalty in game_penalties],
        "ended_by_time": table.ended_by_time,
        "ended_at": _iso(table.ended_at),
        "submitted_by": _username(table.submitted_by),
        "confirmed_at": _iso(table.confirmed_at),
        "confirmed_by": _username(table.confirmed_by),
    }


def _username(user: AbstractBaseUser | None) -> str | None:
    return user.get_username() if user is not None else None


def _export_hand(hand: Hand, penalties: list[Penalty]) -> dict[str, Any]:
    data: dict[str, Any] = {
        "number": hand.number,
        "result": hand.result,
        "winner": hand.winner.player.key if hand.winner else None,
        "discarder": hand.discarder.player.key if hand.discarder else None,
        "fan": hand.fan,
        "flowers": hand.flowers,
    }
    if hand.tiles is not None:
        data["tiles"] = hand.tiles
    data["penalties"] = [_export_penalty(penalty, with_hand=False) for penalty in penalties]
    data["entered_by"] = hand.entered_by.get_username()
    data["entered_at"] = _iso(hand.entered_at)
    return data


def _export_penalty(penalty: Penalty, *, with_hand: bool) -> dict[str, Any]:
    data: dict[str, Any] = {
        "player": penalty.seat.player.key,
        "points": penalty.points,
        "distributed": penalty.distributed,
        "reason": penalty.reason,
        "kind": penalty.kind,
    }
    if with_hand and penalty.hand_number is not None:
        data["hand_number"] = penalty.hand_number
    data["entered_by"] = penalty.entered_by.get_username()
    data["entered_at"] = _iso(penalty.entered_at)
    return data


def _iso(value: date | datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


# --- Reading the document -------------------------------------------------------------------

_MISSING = object()


@dataclass
class _Penalty:
    where: str
    player: str
    points: int
    distributed: bool
    reason: str
    kind: str | None
    hand_number: int | None
    entered_by: str | None
    entered_at: datetime | None


@dataclass
class _Hand:
    where: str
    number: int
    result: str
    winner: str | None
    discarder: str | None
    fan: int | None
    flowers: int
    tiles: dict[str, Any] | None
    penalties: list[_Penalty]
    entered_by: str | None
    entered_at: datetime | None


@dataclass
class _Table:
    where: str
    number: int
    seats: list[str]  # player keys at E, S, W, N
    referees: list[str]
    hands: list[_Hand]
    penalties: list[_Penalty]
    ended: bool
    ended_by_time: bool
    ended_at: datetime | None
    submitted_by: str | None
    confirmed: bool
    confirmed_at: datetime | None
    confirmed_by: str | None


@dataclass
class _Round:
    where: str
    number: int
    status: str
    tables: list[_Table]

    @property
    def has_results(self) -> bool:
        return any(table.hands or table.penalties or table.ended for table in self.tables)


@dataclass
class _Document:
    tournament: dict[str, Any]
    settings: dict[str, Any]  # set after creation: confirmation and round_minutes
    organisers: list[str]
    players: list[dict[str, Any]]
    rounds: list[_Round]
    usernames: set[str] = field(default_factory=set)


def _get(
    data: Any, key: str, kind: type | tuple[type, ...], where: str, default: Any = _MISSING
) -> Any:
    """`data[key]`, checked to be of `kind` (None allowed only when the default is None)."""
    if not isinstance(data, dict):
        raise ArchiveError(f"{where}: expected an object, found {_json_type(data)}.")
    if key not in data:
        if default is _MISSING:
            raise ArchiveError(f'{where}: the key "{key}" is missing.')
        return default
    value = data[key]
    if value is None and default is None:
        return None
    kinds = kind if isinstance(kind, tuple) else (kind,)
    wrong_bool = isinstance(value, bool) and bool not in kinds
    if wrong_bool or not isinstance(value, kinds):
        expected = " or ".join(_TYPE_NAMES[k] for k in kinds)
        raise ArchiveError(f'{where}: "{key}" must be {expected}, not {_json_type(value)}.')
    return value


_TYPE_NAMES = {
    str: "a string",
    int: "a whole number",
    bool: "true or false",
    list: "a list",
    dict: "an object",
}


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    for kind, name in (
        (str, "a string"),
        (int, "a number"),
        (float, "a number"),
        (list, "a list"),
        (dict, "an object"),
    ):
        if isinstance(value, kind):
            return f"{name} ({value!r})" if kind in (str, int, float) else name
    return type(value).__name__


def _datetime(data: dict, key: str, where: str) -> datetime | None:
    text = _get(data, key, str, where, None)
    if text is None:
        return None
    try:
        value = parse_datetime(text)
    except ValueError:
        value = None
    if value is None:
        raise ArchiveError(f'{where}: "{key}" must be a date and time such as "2025-05-01T14:30"')
    return value if timezone.is_aware(value) else timezone.make_aware(value)


def _date(data: dict, key: str, where: str) -> date | None:
    text = _get(data, key, str, where, None)
    if text is None:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ArchiveError(f'{where}: "{key}" must be a date such as "2025-05-01".') from None


def _read(data: Any) -> _Document:
    if not isinstance(data, dict):
        raise ArchiveError(f"The archive must be a JSON object, not {_json_type(data)}.")
    if data.get("format") != FORMAT:
        raise ArchiveError(
            f'This is not a tournament archive: "format" must be "{FORMAT}", '
            f"not {data.get('format')!r}."
        )
    version = data.get("version")
    if type(version) is not int or version != VERSION:
        raise ArchiveError(
            f"Archive version {version!r} cannot be read; this version reads version {VERSION}."
        )
    info = _get(data, "tournament", dict, "archive")
    tournament = {
        "name": _get(info, "name", str, "tournament"),
        "slug": _get(info, "slug", str, "tournament"),
        "preset": _get(info, "preset", str, "tournament", "mcr"),
        "profile": _get(info, "profile", str, "tournament", Tournament.Profile.WMO_2006),
        "seat_rotation": _get(
            info, "seat_rotation", str, "tournament", Tournament.SeatRotation.WMO
        ),
        "table_points": _get(info, "table_points", list, "tournament", [4, 2, 1, 0]),
        "public": _get(info, "public", bool, "tournament", False),
        "start_date": _date(info, "start_date", "tournament"),
        "end_date": _date(info, "end_date", "tournament"),
        "venue": _get(info, "venue", str, "tournament", ""),
        "tie_breaks": _get(
            info,
            "tie_breaks",
            list,
            "tournament",
            [Tournament.TieBreak.BEST_GAME, Tournament.TieBreak.GAME_SCORES],
        ),
    }
    settings = {
        "confirmation": _get(
            info, "confirmation", str, "tournament", Tournament.Confirmation.ORGANISER
        ),
        "round_minutes": _get(info, "round_minutes", int, "tournament", 120),
    }
    if settings["confirmation"] not in Tournament.Confirmation.values:
        raise ArchiveError(
            f"tournament: confirmation must be one of "
            f"{', '.join(Tournament.Confirmation.values)}, not {settings['confirmation']!r}."
        )
    if not 10 <= settings["round_minutes"] <= 600:
        raise ArchiveError(
            f"tournament: round_minutes must be 10 to 600, not {settings['round_minutes']}."
        )
    organisers = _usernames(info, "organisers", "tournament")
    players = [
        _read_player(player, f"player {index}")
        for index, player in enumerate(_get(data, "players", list, "archive"), start=1)
    ]
    keys = set()
    for player in players:
        if player["key"] in keys:
            raise ArchiveError(f"players: the key {player['key']!r} is used twice.")
        keys.add(player["key"])
    rounds = []
    for index, round in enumerate(_get(data, "rounds", list, "archive"), start=1):
        number = _get(round, "number", int, f"rounds[{index}]")
        if number != index:
            raise ArchiveError(
                f"round {number}: rounds are numbered 1, 2, 3... in order; "
                f"expected round {index} here."
            )
        rounds.append(_read_round(round, keys, f"round {number}", number))
    document = _Document(tournament, settings, organisers, players, rounds)
    document.usernames.update(organisers)
    for round in rounds:
        for table in round.tables:
            document.usernames.update(table.referees)
            document.usernames.add(table.submitted_by or "")
            document.usernames.add(table.confirmed_by or "")
            for hand in table.hands:
                document.usernames.add(hand.entered_by or "")
                for penalty in hand.penalties:
                    document.usernames.add(penalty.entered_by or "")
            for penalty in table.penalties:
                document.usernames.add(penalty.entered_by or "")
    document.usernames.discard("")
    return document


def _usernames(data: dict, key: str, where: str) -> list[str]:
    names = _get(data, key, list, where, [])
    if not all(isinstance(name, str) for name in names):
        raise ArchiveError(f'{where}: "{key}" must be a list of usernames.')
    return names


def _read_player(data: Any, where: str) -> dict[str, Any]:
    key = _get(data, "key", str, where)
    where = f"{where} (key {key!r})"
    withdrawn = _get(data, "withdrawn_from_round", int, where, None)
    return {
        "key": key,
        "name": _get(data, "name", str, where),
        "country": _get(data, "country", str, where, ""),
        "club": _get(data, "club", str, where, ""),
        "team": _get(data, "team", str, where, ""),
        "ema_number": _get(data, "ema_id", str, where, ""),
        "substitute": _get(data, "substitute", bool, where, False),
        "withdrawn_from_round": withdrawn,
    }


def _read_round(data: Any, keys: set[str], where: str, number: int) -> _Round:
    status = _get(data, "status", str, where, None)
    if status is not None and status not in Round.Status.values:
        raise ArchiveError(
            f"{where}: status must be one of {', '.join(Round.Status.values)}, not {status!r}."
        )
    tables = [
        _read_table(table, keys, where, index, status)
        for index, table in enumerate(_get(data, "tables", list, where, []), start=1)
    ]
    numbers = [table.number for table in tables]
    if len(set(numbers)) != len(numbers):
        raise ArchiveError(f"{where}: two tables have the same number.")
    seated: dict[str, int] = {}
    for table in tables:
        for key in table.seats:
            if key in seated:
                raise ArchiveError(
                    f"{where}: player {key!r} is seated at table {seated[key]} and at table "
                    f"{table.number}."
                )
            seated[key] = table.number
    tables.sort(key=lambda table: table.number)
    round = _Round(where, number, status or "", tables)
    if status is None:  # not in the document: the furthest status the data shows
        if round.has_results:
            finished = tables and all(table.ended and table.confirmed for table in tables)
            round.status = Round.Status.FINISHED if finished else Round.Status.PLAYING
        else:
            round.status = Round.Status.SEATED if tables else Round.Status.DRAFT
    elif round.has_results and status not in (Round.Status.PLAYING, Round.Status.FINISHED):
        raise ArchiveError(f"{where}: the round is {status} but has results recorded.")
    return round


def _read_table(
    data: Any, keys: set[str], round_where: str, index: int, status: str | None
) -> _Table:
    number = _get(data, "number", int, f"{round_where}, tables[{index}]")
    where = f"{round_where}, table {number}"
    if number < 1:
        raise ArchiveError(f"{where}: tables are numbered from 1.")
    seats_data = _get(data, "seats", dict, where)
    seats = []
    for wind in WINDS:
        key = _get(seats_data, wind, str, f"{where}, seats")
        if key not in keys:
            raise ArchiveError(f"{where}: the player at {wind}, {key!r}, is not in the players.")
        seats.append(key)
    if len(set(seats)) != 4:
        raise ArchiveError(f"{where}: a table seats four different players.")
    hands = [
        _read_hand(hand, keys, where, position)
        for position, hand in enumerate(_get(data, "hands", list, where, []), start=1)
    ]
    if len(hands) > HANDS_PER_GAME:
        raise ArchiveError(f"{where}: a game has at most {HANDS_PER_GAME} hands.")
    penalties = [
        _read_penalty(penalty, keys, f"{where}, game penalty {position}", None)
        for position, penalty in enumerate(_get(data, "penalties", list, where, []), start=1)
    ]
    ended_by_time = _get(data, "ended_by_time", bool, where, False)
    if "ended_at" in data:
        ended_at = _datetime(data, "ended_at", where)
        ended = ended_at is not None
    else:
        ended_at = None
        ended = ended_by_time or len(hands) == HANDS_PER_GAME or status == Round.Status.FINISHED
    if ended_by_time and not ended:
        raise ArchiveError(f"{where}: ended_by_time is true but the game has no end.")
    if ended_by_time and len(hands) == HANDS_PER_GAME:
        raise ArchiveError(
            f"{where}: ended_by_time is true but all {HANDS_PER_GAME} hands were played."
        )
    if "confirmed_at" in data:
        confirmed_at = _datetime(data, "confirmed_at", where)
        confirmed = confirmed_at is not None
    else:  # an archive from before game sheets were confirmed: ended games counted
        confirmed_at = None
        confirmed = ended
    if confirmed and not ended:
        raise ArchiveError(f"{where}: the game sheet is confirmed but the game has no end.")
    return _Table(
        where=where,
        number=number,
        seats=seats,
        referees=_usernames(data, "referees", where),
        hands=hands,
        penalties=penalties,
        ended=ended,
        ended_by_time=ended_by_time,
        ended_at=ended_at,
        submitted_by=_get(data, "submitted_by", str, where, None),
        confirmed=confirmed,
        confirmed_at=confirmed_at,
        confirmed_by=_get(data, "confirmed_by", str, where, None),
    )


def _read_hand(data: Any, keys: set[str], table_where: str, position: int) -> _Hand:
    number = _get(data, "number", int, f"{table_where}, hands[{position}]")
    where = f"{table_where}, hand {number}"
    if number != position:
        raise ArchiveError(
            f"{where}: hands are numbered 1, 2, 3... in order; expected hand {position} here."
        )
    result = _get(data, "result", str, where)
    if result not in Hand.Result.values:
        raise ArchiveError(f'{where}: "result" must be "win" or "draw", not {result!r}.')
    winner = _get(data, "winner", str, where, None if result == Hand.Result.DRAW else _MISSING)
    discarder = _get(data, "discarder", str, where, None)
    fan = _get(data, "fan", int, where, None if result == Hand.Result.DRAW else _MISSING)
    for role, key in (("winner", winner), ("discarder", discarder)):
        if key is not None and key not in keys:
            raise ArchiveError(f"{where}: the {role}, {key!r}, is not in the players.")
    return _Hand(
        where=where,
        number=number,
        result=result,
        winner=winner,
        discarder=discarder,
        fan=fan,
        flowers=_get(data, "flowers", int, where, 0),
        tiles=_get(data, "tiles", dict, where, None),
        penalties=[
            _read_penalty(penalty, keys, f"{where}, penalty {index}", number)
            for index, penalty in enumerate(_get(data, "penalties", list, where, []), start=1)
        ],
        entered_by=_get(data, "entered_by", str, where, None),
        entered_at=_datetime(data, "entered_at", where),
    )


def _read_penalty(data: Any, keys: set[str], where: str, hand_number: int | None) -> _Penalty:
    player = _get(data, "player", str, where)
    if player not in keys:
        raise ArchiveError(f"{where}: the player {player!r} is not in the players.")
    kind = _get(data, "kind", str, where, None)
    distributed = _get(data, "distributed", bool, where)
    if kind is not None and kind not in Penalty.Kind.values:
        raise ArchiveError(
            f"{where}: kind must be one of {', '.join(Penalty.Kind.values)}, not {kind!r}."
        )
    if kind is not None and (kind == Penalty.Kind.DEDUCTION) == distributed:
        raise ArchiveError(f"{where}: a {kind} penalty cannot have distributed {distributed}.")
    if hand_number is None:
        hand_number = _get(data, "hand_number", int, where, None)
    if kind in FALSE_WIN_KINDS and hand_number is None:
        raise ArchiveError(f"{where}: a false win belongs to a hand; give its hand_number.")
    return _Penalty(
        where=where,
        player=player,
        points=_get(data, "points", int, where),
        distributed=distributed,
        reason=_get(data, "reason", str, where),
        kind=kind,
        hand_number=hand_number,
        entered_by=_get(data, "entered_by", str, where, None),
        entered_at=_datetime(data, "entered_at", where),
    )


# --- Import ---------------------------------------------------------------------------------


@contextmanager
def _at(where: str) -> Iterator[None]:
    """Turn a service's refusal into an ArchiveError that says where in the document it was."""
    try:
        yield
    except ArchiveError:
        raise
    except ValidationError as error:
        code = getattr(error, "code", None) or "invalid"
        raise ArchiveError(f"{where}: {_text(error)}", code=code) from error
    except IntegrityError as error:
        raise ArchiveError(f"{where}: the database refused it ({error}).") from error


def _text(error: ValidationError) -> str:
    if hasattr(error, "error_dict"):
        return "; ".join(
            message if name == "__all__" else f"{name}: {message}"
            for name, messages in error.message_dict.items()
            for message in messages
        )
    return " ".join(error.messages)


@dataclass
class _Loader:
    actor: AbstractBaseUser
    users: dict[str, AbstractBaseUser]
    players: dict[str, Player] = field(default_factory=dict)

    def entered(self, record: _Hand | _Penalty) -> dict[str, Any]:
        """Who entered a result and when, as the archive says (the audit names the actor)."""
        fields: dict[str, Any] = {"entered_by": self.users.get(record.entered_by or "", self.actor)}
        if record.entered_at is not None:
            fields["entered_at"] = record.entered_at
        return fields


@transaction.atomic
def import_tournament(
    data: Any,
    *,
    actor: AbstractBaseUser,
    slug: str | None = None,
    replace: bool = False,
    warnings: list[str] | None = None,
) -> Tournament:
    """Create the tournament described by the archive `data`; all or nothing.

    `actor` is recorded in the audit trail as the one who entered everything. `slug` imports
    under another slug than the document's. A tournament with the same slug is an error unless
    `replace` is true: it is then deleted first, in the same transaction. Notes about users that
    do not exist here are appended to `warnings`.
    """
    document = _read(data)
    info = dict(document.tournament)
    if slug is not None:
        info["slug"] = slug
    existing = Tournament.objects.filter(slug=info["slug"]).first()
    if existing is not None:
        if not replace:
            raise ArchiveError(
                f"tournament: a tournament with the slug {info['slug']!r} exists already; "
                "import it under another slug or replace the existing one.",
                code="slug_taken",
            )
        existing.delete()
    users = {
        user.get_username(): user
        for user in get_user_model().objects.filter(username__in=document.usernames)
    }
    unknown = sorted(document.usernames - set(users))
    if unknown and warnings is not None:
        warnings.append(
            "These users do not exist here: "
            + ", ".join(unknown)
            + f". Their roles are left out and their entries are attributed to "
            f"{actor.get_username()}."
        )
    loader = _Loader(actor=actor, users=users)
    with _at("tournament"):
        tournament = create_tournament(organiser=actor, **info)
        # While loading, the importing user organises the tournament (and so confirms its
        # game sheets); the archive's organisers take over at the end.
        for name, value in document.settings.items():
            setattr(tournament, name, value)
        tournament.full_clean(exclude=["organisers"])
        tournament.save(update_fields=list(document.settings))
    for index, player in enumerate(document.players, start=1):
        with _at(f"player {index} (key {player['key']!r})"):
            loader.players[player["key"]] = add_player(tournament=tournament, **player)
    for round in document.rounds:
        _load_round(loader, tournament, round)
    organisers = [users[name] for name in document.organisers if name in users]
    tournament.organisers.set(organisers or [actor])
    return tournament


def _load_round(loader: _Loader, tournament: Tournament, data: _Round) -> None:
    actor = loader.actor
    with _at(data.where):
        round = create_round(tournament=tournament, actor=actor)
        seating = [[loader.players[key] for key in table.seats] for table in data.tables]
        if not data.tables:
            tables = []
        elif [table.number for table in data.tables] == list(range(1, len(data.tables) + 1)):
            tables = set_seating(round=round, tables=seating, actor=actor)
        else:
            tables = [
                create_table(round=round, number=table.number, players=players)
                for table, players in zip(data.tables, seating, strict=True)
            ]
        for table, record in zip(tables, data.tables, strict=True):
            referees = [loader.users[name] for name in record.referees if name in loader.users]
            if referees:
                assign_referees(table=table, referees=referees, actor=actor)
        steps = {
            Round.Status.DRAFT: [],
            Round.Status.SEATED: [Round.Status.SEATED],
            Round.Status.PLAYING: [Round.Status.SEATED, Round.Status.PLAYING],
            Round.Status.FINISHED: [Round.Status.SEATED, Round.Status.PLAYING],
        }[data.status]
        for status in steps:
            round = set_round_status(round=round, status=status, actor=actor)
    for table, record in zip(tables, data.tables, strict=True):
        _load_game(loader, table, record)
    if data.status == Round.Status.FINISHED:
        with _at(data.where):
            set_round_status(round=round, status=Round.Status.FINISHED, actor=actor)


def _load_game(loader: _Loader, table: Table, data: _Table) -> None:
    scheme = table.round.tournament.seat_rotation
    for hand in data.hands:
        for penalty in hand.penalties:
            _load_penalty(loader, table, penalty)
        with _at(hand.where):
            winner = loader.players[hand.winner] if hand.winner else None
            if hand.tiles is not None and winner is not None:
                _check_situation(hand, data.seats.index(hand.winner), scheme)
            recorded = record_hand(
                table=table,
                number=hand.number,
                result=hand.result,
                winner=winner,
                discarder=loader.players[hand.discarder] if hand.discarder else None,
                fan=hand.fan,
                flowers=hand.flowers,
                tiles=hand.tiles,
                entered_by=loader.actor,
            )
            if (recorded.fan, recorded.flowers) != (hand.fan, hand.flowers):
                raise ArchiveError(
                    f"{hand.where}: the tiles score {recorded.fan} fan and {recorded.flowers} "
                    f"flowers, but the archive says {hand.fan} fan and {hand.flowers} flowers.",
                    code="fan_mismatch",
                )
            Hand.objects.filter(pk=recorded.pk).update(**loader.entered(hand))
    for penalty in data.penalties:
        _load_penalty(loader, table, penalty)
    if not data.ended:
        return
    with _at(data.where):
        end_game(table=table, ended_by_time=data.ended_by_time, entered_by=loader.actor)
        table.refresh_from_db(fields=["confirmed_at"])
        if data.confirmed and table.confirmed_at is None:
            table = confirm_game(table=table, confirmed_by=loader.actor)
        elif not data.confirmed and table.confirmed_at is not None:
            raise ArchiveError(
                f"{data.where}: the game sheet is not confirmed, but in this tournament game "
                "sheets count as soon as they are submitted.",
                code="sheet_unconfirmed",
            )
        # Who submitted and confirmed the sheet, and when, as the archive says.
        sheet: dict[str, Any] = {
            "submitted_by": loader.users.get(data.submitted_by or "", loader.actor)
        }
        if data.ended_at is not None:
            sheet["ended_at"] = data.ended_at
        if data.confirmed:
            sheet["confirmed_by"] = loader.users.get(data.confirmed_by or "", loader.actor)
            sheet["confirmed_at"] = data.confirmed_at or data.ended_at or table.confirmed_at
        Table.objects.filter(pk=table.pk).update(**sheet)


def _check_situation(hand: _Hand, starting_seat: int, scheme: str) -> None:
    """Tiles that state the winds or self-draw must state those of this hand and winner."""
    expected = {
        "seat_wind": seat_wind(scheme=scheme, starting_seat=starting_seat, number=hand.number),
        "prevalent_wind": prevailing_wind(hand.number),
        "self_drawn": hand.discarder is None,
    }
    for name, value in expected.items():
        given = hand.tiles.get(name, value)
        if isinstance(given, str):
            given = given.strip().upper()
        if given != value:
            raise ArchiveError(
                f"{hand.where}: the tiles give {name} {hand.tiles[name]!r}, but in this hand "
                f"it is {value!r}.",
                code="situation_mismatch",
            )


def _load_penalty(loader: _Loader, table: Table, data: _Penalty) -> None:
    with _at(data.where):
        player = loader.players[data.player]
        entered_by = loader.actor
        if data.kind in FALSE_WIN_KINDS:
            penalty = record_false_win(
                table=table,
                number=data.hand_number,
                offender=player,
                invalid_hand=data.kind == Penalty.Kind.FALSE_WIN_INVALID_HAND,
                entered_by=entered_by,
            )
            if penalty.points != data.points:
                raise ArchiveError(
                    f"{data.where}: under this tournament's rules this false win costs "
                    f"{penalty.points} points, not {data.points}.",
                    code="false_win_points",
                )
        else:
            penalty = record_penalty(
                table=table,
                player=player,
                points=data.points,
                distributed=data.distributed,
                reason=data.reason,
                hand_number=data.hand_number,
                entered_by=entered_by,
            )
        reason = data.reason.strip() or penalty.reason
        Penalty.objects.filter(pk=penalty.pk).update(reason=reason, **loader.entered(data))
