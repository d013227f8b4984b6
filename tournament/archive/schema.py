"""The archive format, versions 1 to 5, as pydantic models.

Reading a document is validating it into the model of its version, `ArchiveV1`, `ArchiveV2` or
`ArchiveV3`
(`model_for`): what the format itself says (keys, kinds of values, numbering, who is seated
where, references to players, payments that add up to zero) is checked here, and a broken rule
raises a `Problem` or a typed error that `errors.describe` words with its place. The rules of a
live tournament (fan, values, seating, penalties, who deals, what a deal pays...) stay with the
services that load the models.

Version 1 holds MCR games: each hand a win (fan and flowers, or tiles) or a draw. Version 2
holds the deals of every rule preset: the tournament's `rule_settings`,
and for each deal its place in the game (prevailing wind, dealer, extra-hand number), its
result (win, draw or faulty out), its winners with their values (MCR fan and flowers; JT and WA
`value`; WA's further winners on the same discard in `extra_winners`), the preset's facts of
the deal (riichi, faulty claims, ready players, faulty riichi, the faulty out's offender) and
what each starting seat gained or paid. Its other parts are those of version 1.

Version 3 is version 2 with the tournament's referee accounts
(`referee_accounts`: each account's username and the person's name, never a password); which
referee is assigned to which table of each round is each table's `referees`, as before.

Version 4 is version 3 with the tournament's registration and check-in
settings, each player's check-in (`checked_in_at`) and late arrival (`joins_from_round`), and
the registrations made on the public page (`registrations`, with the contact each gave: the
archive is the organisers' copy). Never a player's private link.

Version 5, which exports write, is version 4 with the tournament's final stage (`cut_after_round`,
`cut_size`, `carry_over`, `final_seating`, `consolation`) and its confirmed cut (`cut`: the
finalists in order with the table points and score they had at the cut), the prize-giving
settings (`standings_hidden_from`, `standings_revealed_at`), the teams' `team_best_of`, and each
table's `extra_minutes`.

Defaults are those of the Django models, read from their fields. Values that a Django model
checks with its own messages (preset, profile, seat rotation, tie-breaks, table points) are only
described here, for the JSON Schema; the model refuses a wrong one when the tournament is made.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Any, Final, Literal

from django.contrib.auth.models import User
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    TypeAdapter,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from scoring.engine import PRESETS
from scoring.engine.presets import MCR
from tournament.archive.values import (
    Day,
    Moment,
    Problem,
    between,
    bounded_json,
    choice,
    default,
    described,
    text,
    within,
)
from tournament.models import (
    FALSE_WIN_KINDS,
    MOST_DEALS,
    Deal,
    ExtraWin,
    Penalty,
    Player,
    Registration,
    Round,
    Table,
    Tournament,
    Wind,
    parse_carry_over,
)

FORMAT = "mcr-tournament-archive"
VERSION: Final = 5  # the version that exports write
VERSIONS: Final = (1, 2, 3, 4, 5)  # the versions that imports read


def game_length(document: Any) -> int:
    """How many hands a game of the archived tournament has: its rule preset's, or the longest
    of any preset when the document does not name a known one (the model then refuses it)."""
    tournament = document.get("tournament") if isinstance(document, dict) else None
    preset = tournament.get("preset", MCR.key) if isinstance(tournament, dict) else None
    known = PRESETS.get(preset) if isinstance(preset, str) else None
    return known.hands_per_game or MOST_DEALS if known else MOST_DEALS


#: What validating a document is told: {"hands_per_game": game_length(document)}.
CONTEXT_HANDS = "hands_per_game"


Preset = described(PRESETS)
Profile = described(Tournament.Profile.values)
SeatRotation = described(Tournament.SeatRotation.values)
TieBreak = described(Tournament.TieBreak.values)
Confirmation = choice(Tournament.Confirmation.values)
RoundMinutes = between(Tournament, "round_minutes")
RoundStatus = choice(Round.Status.values)
PenaltyKind = choice(Penalty.Kind.values)
WindLetter = choice(Wind.values)

# What one document may hold. A list longer than these is refused before anything is loaded.
MOST_CHARACTERS: Final = 100_000_000  # of the JSON text
MOST_PLAYERS: Final = 2_000
MOST_ROUNDS: Final = 40
MOST_HANDS: Final = 50_000  # in all the games of the tournament
MOST_PENALTIES: Final = 100  # of a hand, or of a game apart from its hands
MOST_NAMES: Final = 100  # organisers, referees of a table, players named by a deal's fact
MOST_REFEREE_ACCOUNTS: Final = 2_000  # made for the tournament
MOST_REGISTRATIONS: Final = 10_000  # made on the tournament's public page
#: Tiles (the case format) as kept: how deep, how many values, how long a string.
TILES_DEPTH, TILES_VALUES, TILES_TEXT = 6, 200, 100

# Text, with the length its model field holds.
PlayerKey = text(Player, "key")
Username = text(User, "username")
Tiles = Annotated[
    dict[str, Any], bounded_json(depth=TILES_DEPTH, values=TILES_VALUES, length=TILES_TEXT)
]
Points = between(Deal, "east_points")
TournamentName = text(Tournament, "name")
Slug = text(Tournament, "slug")


class Record(BaseModel):
    """Values are taken as JSON gives them: "8" is not a number, 1 is not true."""

    model_config = ConfigDict(strict=True)


class BySeat(Record):
    """An object of the four starting seats E, S, W, N and nothing else: any other key (a seat
    misspelt, "e" or "East") would hold a value that is not read, so it is refused by name."""

    model_config = ConfigDict(strict=True, extra="forbid")


# --- The tournament and its players ---------------------------------------------------------


class TournamentRecord(Record):
    """The tournament's settings; the usernames of its organisers."""

    name: TournamentName
    slug: Slug
    preset: Preset = default(Tournament, "preset")
    profile: Profile = default(Tournament, "profile")
    seat_rotation: SeatRotation = default(Tournament, "seat_rotation")
    table_points: list[int] = default(Tournament, "table_points")
    public: bool = default(Tournament, "public")
    start_date: Day | None = default(Tournament, "start_date")
    end_date: Day | None = default(Tournament, "end_date")
    venue: text(Tournament, "venue", optional=True) = default(Tournament, "venue")
    tie_breaks: list[TieBreak] = default(Tournament, "tie_breaks")
    confirmation: Confirmation = default(Tournament, "confirmation")
    round_minutes: RoundMinutes = default(Tournament, "round_minutes")
    organisers: list[Username] = within(MOST_NAMES)


class PlayerRecord(Record):
    """A player, known in the rest of the document by `key`. `family_name` and `given_name`
    (left out by archives written before they existed) are the parts of `name` for the EMA
    results file. `country` is an ISO 3166 code; an older archive's country name is read as
    its code when the player is added."""

    key: PlayerKey
    name: text(Player, "name")
    family_name: text(Player, "family_name", optional=True) = default(Player, "family_name")
    given_name: text(Player, "given_name", optional=True) = default(Player, "given_name")
    country: text(Player, "country", optional=True) = default(Player, "country")
    club: text(Player, "club", optional=True) = default(Player, "club")
    team: text(Player, "team", optional=True) = default(Player, "team")
    ema_id: text(Player, "ema_number", optional=True) = default(Player, "ema_number")
    substitute: bool = default(Player, "substitute")
    withdrawn_from_round: between(Player, "withdrawn_from_round", low=1) | None = default(
        Player, "withdrawn_from_round"
    )


# --- Games ----------------------------------------------------------------------------------


class PenaltyRecord(Record):
    """A penalty; a false win is one by its kind. `hand_number` only for a game penalty (one
    listed with a hand belongs to that hand). Without a kind, `distributed` decides it."""

    player: PlayerKey
    points: between(Penalty, "points")
    distributed: bool
    # A false win's reason is written for it.
    reason: text(Penalty, "reason", optional=True) = default(Penalty, "reason")
    kind: PenaltyKind | None = None
    hand_number: between(Penalty, "deal_number", low=1) | None = default(Penalty, "deal_number")
    entered_by: Username | None = None
    entered_at: Moment | None = None

    @model_validator(mode="after")
    def _kind_fits_distribution(self) -> PenaltyRecord:
        if self.kind is not None and (self.kind == Penalty.Kind.DEDUCTION) == self.distributed:
            raise Problem(f"a {self.kind} penalty cannot have distributed {self.distributed}.")
        return self


class HandRecord(Record):
    """A hand: a win (by `winner`, on `discarder`'s discard or self-drawn) or a draw. With
    `tiles`, the engine scores the winning hand, and its fan and flowers must agree."""

    number: int
    result: str
    winner: PlayerKey | None = None
    discarder: PlayerKey | None = None
    fan: between(Deal, "fan") | None = default(Deal, "fan")
    flowers: between(Deal, "flowers") = default(Deal, "flowers")
    tiles: Tiles | None = default(Deal, "tiles")
    penalties: list[PenaltyRecord] = within(MOST_PENALTIES)
    entered_by: Username | None = None
    entered_at: Moment | None = None


class WinRecord(HandRecord):
    """A won hand."""

    result: Literal["win"]
    winner: PlayerKey
    fan: between(Deal, "fan")


class DrawRecord(HandRecord):
    """A drawn hand."""

    result: Literal["draw"]


AnyHand = Annotated[WinRecord | DrawRecord, Field(discriminator="result")]


class Seats(BySeat):
    """The keys of the players at the four starting seats."""

    E: PlayerKey
    S: PlayerKey
    W: PlayerKey
    N: PlayerKey

    def keys(self) -> list[str]:
        """The players in seat order: East, South, West, North."""
        return [self.E, self.S, self.W, self.N]


class TableRecord(Record):
    """A table of a round and its game; its game sheet, who submitted and confirmed it."""

    number: between(Table, "number", low=1)
    seats: Seats
    referees: list[Username] = within(MOST_NAMES)
    hands: list[AnyHand] = Field(default_factory=list, max_length=MOST_DEALS)
    penalties: list[PenaltyRecord] = within(MOST_PENALTIES)
    ended_by_time: bool = default(Table, "ended_by_time")
    ended_at: Moment | None = default(Table, "ended_at")
    submitted_by: Username | None = None
    confirmed_at: Moment | None = default(Table, "confirmed_at")
    confirmed_by: Username | None = None
    # The archived tournament's game length, from the validation context (see game_length).
    _hands_per_game: int = PrivateAttr(default=MOST_DEALS)

    def ended(self, *, round_finished: bool) -> bool:
        """Whether the game ended. Without "ended_at", a game ended that was ended by time,
        played all its hands or belongs to a finished round."""
        if "ended_at" in self.model_fields_set:
            return self.ended_at is not None
        return self.ended_by_time or len(self.hands) == self._hands_per_game or round_finished

    def confirmed(self, *, round_finished: bool) -> bool:
        """Whether the game sheet is confirmed. An archive from before game sheets were
        confirmed (no "confirmed_at") counts every ended game, as the standings did then."""
        if "confirmed_at" in self.model_fields_set:
            return self.confirmed_at is not None
        return self.ended(round_finished=round_finished)

    @model_validator(mode="after")
    def _check(self, info: ValidationInfo) -> TableRecord:
        if info.context and CONTEXT_HANDS in info.context:
            self._hands_per_game = info.context[CONTEXT_HANDS]
        if len(self.hands) > self._hands_per_game:
            raise Problem(
                f'"hands" has at most {self._hands_per_game} entries, not {len(self.hands)}.'
            )
        if self.number < 1:
            raise Problem("tables are numbered from 1.")
        if len(set(self.seats.keys())) != 4:
            raise Problem("a table seats four different players.")
        for position, hand in enumerate(self.hands, start=1):
            if hand.number != position:
                raise Problem(
                    f"hands are numbered 1, 2, 3... in order; expected hand {position} here.",
                    "hands",
                    position - 1,
                )
        for index, penalty in enumerate(self.penalties):
            if penalty.kind in FALSE_WIN_KINDS and penalty.hand_number is None:
                raise Problem(
                    "a false win belongs to a hand; give its hand_number.", "penalties", index
                )
        if self.ended_by_time and not self.ended(round_finished=False):
            raise Problem("ended_by_time is true but the game has no end.")
        if self.ended_by_time and len(self.hands) == self._hands_per_game:
            raise Problem(
                f"ended_by_time is true but all {self._hands_per_game} hands were played."
            )
        return self


class RoundRecord(Record):
    """A round. Without a status, the furthest its tables show: draft, seated, playing or
    finished (when every game ended and its sheet is confirmed)."""

    number: int
    status: RoundStatus | None = None
    tables: list[TableRecord] = within(MOST_PLAYERS // 4)

    @property
    def finished(self) -> bool:
        """Whether the document says the round is finished."""
        return self.status == Round.Status.FINISHED

    @property
    def has_results(self) -> bool:
        return any(
            table.hands or table.penalties or table.ended(round_finished=self.finished)
            for table in self.tables
        )

    def status_to_load(self) -> str:
        """The round's status as given, or the furthest its tables show."""
        if self.status is not None:
            return self.status
        if not self.has_results:
            return Round.Status.SEATED if self.tables else Round.Status.DRAFT
        if all(
            table.ended(round_finished=False) and table.confirmed(round_finished=False)
            for table in self.tables
        ):
            return Round.Status.FINISHED
        return Round.Status.PLAYING

    @model_validator(mode="after")
    def _check(self) -> RoundRecord:
        numbers = [table.number for table in self.tables]
        if len(set(numbers)) != len(numbers):
            raise Problem("two tables have the same number.")
        seated: dict[str, int] = {}
        for table in self.tables:
            for key in table.seats.keys():
                if key in seated:
                    raise Problem(
                        f"player {key!r} is seated at table {seated[key]} and at table "
                        f"{table.number}."
                    )
                seated[key] = table.number
        for index, table in enumerate(self.tables):
            finished = self.finished
            if table.confirmed(round_finished=finished) and not table.ended(
                round_finished=finished
            ):
                raise Problem(
                    "the game sheet is confirmed but the game has no end.", "tables", index
                )
        playing = (Round.Status.PLAYING, Round.Status.FINISHED)
        if self.status is not None and self.status not in playing and self.has_results:
            raise Problem(f"the round is {self.status} but has results recorded.")
        return self


# --- The document ---------------------------------------------------------------------------


class ArchiveV1(Record):
    """A whole tournament: its settings, players and rounds, with every game played."""

    model_config = ConfigDict(
        title="MCR tournament archive, version 1",
        json_schema_extra={"$schema": "https://json-schema.org/draft/2020-12/schema"},
    )

    format: Literal[FORMAT]
    version: Literal[1]
    tournament: TournamentRecord
    players: list[PlayerRecord] = Field(max_length=MOST_PLAYERS)
    rounds: list[RoundRecord] = Field(max_length=MOST_ROUNDS)

    @field_validator("version", mode="before")
    @classmethod
    def _version_is_a_number(cls, version: Any) -> Any:
        if type(version) is not int:  # true and 1.0 equal 1, but they are no version
            raise PydanticCustomError("int_type", "Input should be a valid integer")
        return version

    @field_validator("players")
    @classmethod
    def _keys_differ(cls, players: list[PlayerRecord]) -> list[PlayerRecord]:
        keys: set[str] = set()
        for player in players:
            if player.key in keys:
                raise Problem(f"the key {player.key!r} is used twice.")
            keys.add(player.key)
        return players

    @field_validator("rounds")
    @classmethod
    def _rounds_in_order(cls, rounds: list[RoundRecord]) -> list[RoundRecord]:
        hands = sum(len(table.hands) for round in rounds for table in round.tables)
        if hands > MOST_HANDS:
            raise Problem(
                f"the games hold {hands:,} hands in all; an archive holds at most {MOST_HANDS:,}."
            )
        for index, round in enumerate(rounds):
            if round.number != index + 1:
                raise Problem(
                    f"rounds are numbered 1, 2, 3... in order; expected round {index + 1} here.",
                    index,
                )
        return rounds

    @model_validator(mode="after")
    def _players_are_known(self) -> ArchiveV1:
        """Every key that names a player is one of the players."""
        keys = {player.key for player in self.players}
        for r, round in enumerate(self.rounds):
            for t, table in enumerate(round.tables):
                at = ("rounds", r, "tables", t)
                for wind, key in zip(Wind.values, table.seats.keys(), strict=True):
                    if key not in keys:
                        raise Problem(f"the player at {wind}, {key!r}, is not in the players.", *at)
                for h, hand in enumerate(table.hands):
                    for role in ("winner", "discarder"):
                        key = getattr(hand, role)
                        if key is not None and key not in keys:
                            raise Problem(
                                f"the {role}, {key!r}, is not in the players.", *at, "hands", h
                            )
                    for p, penalty in enumerate(hand.penalties):
                        _known(penalty, keys, *at, "hands", h, "penalties", p)
                for p, penalty in enumerate(table.penalties):
                    _known(penalty, keys, *at, "penalties", p)
        return self

    def usernames(self) -> set[str]:
        """Every username the document names: organisers, referees, who entered a result."""
        names: set[str | None] = set(self.tournament.organisers)
        for round in self.rounds:
            for table in round.tables:
                names.update(table.referees)
                names.update((table.submitted_by, table.confirmed_by))
                for hand in table.hands:
                    names.add(hand.entered_by)
                    names.update(penalty.entered_by for penalty in hand.penalties)
                names.update(penalty.entered_by for penalty in table.penalties)
        return {name for name in names if name}


def _known(penalty: PenaltyRecord, keys: set[str], *at: str | int) -> None:
    if penalty.player not in keys:
        raise Problem(f"the player {penalty.player!r} is not in the players.", *at)


# --- Version 2: the deals of every preset ------------------------------------------------------


class TournamentRecordV2(TournamentRecord):
    """The tournament's settings, with the values of its rule preset's settings (such as JT's
    "wind_rounds"); the preset's own value for any not given."""

    rule_settings: dict[str, int] = default(Tournament, "rule_settings")


class ExtraWinRecord(Record):
    """A further winner on the same discard, where the preset lets several players win (WA),
    with his hand's value and, when the referee entered them, his tiles (the engine scores
    them, and the value must agree)."""

    winner: PlayerKey
    value: between(ExtraWin, "value")
    tiles: Tiles | None = default(ExtraWin, "tiles")


class Payments(BySeat):
    """What the players at the starting seats gained (+) or paid (-) in a deal."""

    E: Points
    S: Points
    W: Points
    N: Points

    def values(self) -> list[int]:
        """The payments in seat order: East, South, West, North."""
        return [self.E, self.S, self.W, self.N]


class DealRecord(Record):
    """A deal (MCR: a hand) of any preset. Its place in the game (`prevailing_wind`, `dealer`,
    `extra_hands`) and its `payments` follow from the deals before it and its facts: when
    given, they must be what the preset makes them; left out, they are worked out. A win is
    worth `fan` and `flowers` (or `tiles`) under MCR, `value` under JT and WA. Players are
    named by key; `faulty_claims` names a player once per claim."""

    number: int
    prevailing_wind: WindLetter | None = None
    dealer: PlayerKey | None = None
    extra_hands: between(Deal, "extra_hands") | None = None
    result: str
    winner: PlayerKey | None = None
    discarder: PlayerKey | None = None
    fan: between(Deal, "fan") | None = default(Deal, "fan")
    flowers: between(Deal, "flowers") = default(Deal, "flowers")
    value: between(Deal, "value") | None = default(Deal, "value")
    tiles: Tiles | None = default(Deal, "tiles")
    extra_winners: list[ExtraWinRecord] = within(MOST_NAMES)
    riichi: list[PlayerKey] = within(MOST_NAMES)
    faulty_claims: list[PlayerKey] = within(MOST_NAMES)
    ready: list[PlayerKey] = within(MOST_NAMES)
    faulty_riichi: list[PlayerKey] = within(MOST_NAMES)
    offender: PlayerKey | None = None
    payments: Payments | None = None
    penalties: list[PenaltyRecord] = within(MOST_PENALTIES)
    entered_by: Username | None = None
    entered_at: Moment | None = None

    def players(self) -> list[tuple[str, str]]:
        """The keys that name players, each with the role it is given for."""
        named = [
            (role, key)
            for role in ("dealer", "winner", "discarder", "offender")
            if (key := getattr(self, role)) is not None
        ]
        named += [("further winner", win.winner) for win in self.extra_winners]
        for fact in ("riichi", "faulty_claims", "ready", "faulty_riichi"):
            named += [(fact.replace("_", " "), key) for key in getattr(self, fact)]
        return named


class WinDeal(DealRecord):
    """A won deal."""

    result: Literal["win"]
    winner: PlayerKey


class DrawDeal(DealRecord):
    """A drawn deal."""

    result: Literal["draw"]


class FaultyOutDeal(DealRecord):
    """A deal ended by a faulty out (JT), with its offender."""

    result: Literal["faulty_out"]
    offender: PlayerKey


AnyDeal = Annotated[WinDeal | DrawDeal | FaultyOutDeal, Field(discriminator="result")]


class TableRecordV2(TableRecord):
    """A table of a round and its game of deals."""

    hands: list[AnyDeal] = Field(default_factory=list, max_length=MOST_DEALS)  # type: ignore[assignment]

    @model_validator(mode="after")
    def _payments_add_up(self) -> TableRecordV2:
        for index, deal in enumerate(self.hands):
            total = sum(deal.payments.values()) if deal.payments is not None else 0
            if total:
                raise Problem(
                    f"the payments add up to {total:+d}, not 0: what some pay, the others receive.",
                    "hands",
                    index,
                )
        return self


class RoundRecordV2(RoundRecord):
    tables: list[TableRecordV2] = within(MOST_PLAYERS // 4)  # type: ignore[assignment]


class ArchiveV2(ArchiveV1):
    """A whole tournament of any rule preset: its settings, players and rounds, with every
    deal played."""

    model_config = ConfigDict(
        title="Tournament archive, version 2",
        json_schema_extra={"$schema": "https://json-schema.org/draft/2020-12/schema"},
    )

    version: Literal[2]  # type: ignore[assignment]
    tournament: TournamentRecordV2
    rounds: list[RoundRecordV2] = Field(max_length=MOST_ROUNDS)  # type: ignore[assignment]

    @model_validator(mode="after")
    def _deal_players_are_known(self) -> ArchiveV2:
        """Every key that names a player in a deal's facts is one of the players."""
        keys = {player.key for player in self.players}
        for r, round in enumerate(self.rounds):
            for t, table in enumerate(round.tables):
                for h, deal in enumerate(table.hands):
                    for role, key in deal.players():
                        if key not in keys:
                            at = ("rounds", r, "tables", t, "hands", h)
                            raise Problem(f"the {role}, {key!r}, is not in the players.", *at)
        return self


# --- Version 3: the tournament's referee accounts -----------------------------------------------


class RefereeAccountRecord(Record):
    """A referee account made for the tournament: its username and the person's name. Never a
    password: an import makes a missing account without one (the organiser gives it one)."""

    username: Username
    name: text(User, "first_name", optional=True) = default(User, "first_name")


class ArchiveV3(ArchiveV2):
    """A whole tournament of any rule preset, with its referee accounts."""

    model_config = ConfigDict(
        title="Tournament archive, version 3",
        json_schema_extra={"$schema": "https://json-schema.org/draft/2020-12/schema"},
    )

    version: Literal[3]  # type: ignore[assignment]
    referee_accounts: list[RefereeAccountRecord] = within(MOST_REFEREE_ACCOUNTS)

    @field_validator("referee_accounts")
    @classmethod
    def _usernames_differ(cls, accounts: list[RefereeAccountRecord]) -> list[RefereeAccountRecord]:
        seen: set[str] = set()
        for index, account in enumerate(accounts):
            if account.username in seen:
                raise Problem(f"the username {account.username!r} is listed twice.", index)
            seen.add(account.username)
        return accounts

    def usernames(self) -> set[str]:
        """Every username the document names, its referee accounts too."""
        return super().usernames() | {account.username for account in self.referee_accounts}


# --- Version 4: registration and check-in -------------------------------------------------------


class TournamentRecordV4(TournamentRecordV2):
    """The tournament's settings with those of self-registration (`registration`: off,
    instant or approval; when it opens and closes; the cap) and of check-in (whether the desk
    checks players in, whether players may check themselves in, when check-in was closed)."""

    registration: choice(Tournament.RegistrationMode.values) = default(Tournament, "registration")
    registration_opens: Moment | None = default(Tournament, "registration_opens")
    registration_closes: Moment | None = default(Tournament, "registration_closes")
    registration_cap: between(Tournament, "registration_cap") | None = default(
        Tournament, "registration_cap"
    )
    check_in_open: bool = default(Tournament, "check_in_open")
    self_check_in: bool = default(Tournament, "self_check_in")
    check_in_closed_at: Moment | None = default(Tournament, "check_in_closed_at")


class PlayerRecordV4(PlayerRecord):
    """A player, with when they checked in (null: not checked in) and, for a late arrival,
    the first round they play (`joins_from_round`, 2 or later). Never their private link."""

    checked_in_at: Moment | None = default(Player, "checked_in_at")
    joins_from_round: between(Player, "joins_from_round", low=2) | None = default(
        Player, "joins_from_round"
    )


class RegistrationRecord(Record):
    """A registration made on the tournament's public page, in order of arrival (`created`);
    an accepted one names its `player` by key. `contact` is kept: the archive is the
    organisers' own copy of their tournament (it is in no public page nor results export)."""

    created: Moment
    changed: Moment | None = None
    name: text(Registration, "name")
    family_name: text(Registration, "family_name", optional=True) = default(
        Registration, "family_name"
    )
    given_name: text(Registration, "given_name", optional=True) = default(
        Registration, "given_name"
    )
    country: text(Registration, "country", optional=True) = default(Registration, "country")
    club: text(Registration, "club", optional=True) = default(Registration, "club")
    team: text(Registration, "team", optional=True) = default(Registration, "team")
    ema_id: text(Registration, "ema_number", optional=True) = default(Registration, "ema_number")
    contact: text(Registration, "contact", optional=True) = default(Registration, "contact")
    status: choice(Registration.Status.values)
    player: PlayerKey | None = None

    @model_validator(mode="after")
    def _accepted_has_a_player(self) -> RegistrationRecord:
        accepted = self.status == Registration.Status.ACCEPTED
        if accepted and self.player is None:
            raise Problem("an accepted registration names its player.")
        if not accepted and self.player is not None:
            raise Problem(f"a {self.status} registration has no player.")
        return self


class ArchiveV4(ArchiveV3):
    """A whole tournament of any rule preset, with its referee accounts, its registrations and
    its players' check-in."""

    model_config = ConfigDict(
        title="Tournament archive, version 4",
        json_schema_extra={"$schema": "https://json-schema.org/draft/2020-12/schema"},
    )

    version: Literal[4]  # type: ignore[assignment]
    tournament: TournamentRecordV4
    players: list[PlayerRecordV4] = Field(max_length=MOST_PLAYERS)  # type: ignore[assignment]
    registrations: list[RegistrationRecord] = within(MOST_REGISTRATIONS)

    @model_validator(mode="after")
    def _registrations_fit(self) -> ArchiveV4:
        """Each accepted registration names a player of the document, each player at most
        once; no two active registrations share an EMA number."""
        keys = {player.key for player in self.players}
        named: set[str] = set()
        numbers: set[str] = set()
        active = {
            Registration.Status.PENDING,
            Registration.Status.ACCEPTED,
            Registration.Status.WAITING,
        }
        for index, registration in enumerate(self.registrations):
            at = ("registrations", index)
            if registration.player is not None:
                if registration.player not in keys:
                    raise Problem(f"the player {registration.player!r} is not in the players.", *at)
                if registration.player in named:
                    raise Problem(f"the player {registration.player!r} has two registrations.", *at)
                named.add(registration.player)
            number = registration.ema_id.strip()
            if number and registration.status in active:
                if number in numbers:
                    raise Problem(f"the EMA number {number} is in two active registrations.", *at)
                numbers.add(number)
        return self


# --- Version 5: the final stage, prize-giving, teams, a table's own time -------------------------


class TournamentRecordV5(TournamentRecordV4):
    """The settings of version 4 with the final stage's (docs/stages.md), the prize-giving's
    (the public standings hidden from a round until revealed) and the teams' (how many of a
    team's players count)."""

    standings_hidden_from: between(Tournament, "standings_hidden_from") | None = default(
        Tournament, "standings_hidden_from"
    )
    standings_revealed_at: Moment | None = default(Tournament, "standings_revealed_at")
    team_best_of: between(Tournament, "team_best_of") | None = default(Tournament, "team_best_of")
    cut_after_round: between(Tournament, "cut_after_round") | None = default(
        Tournament, "cut_after_round"
    )
    cut_size: between(Tournament, "cut_size") | None = default(Tournament, "cut_size")
    carry_over: text(Tournament, "carry_over") = default(Tournament, "carry_over")
    final_seating: choice(Tournament.FinalSeating.values) = default(Tournament, "final_seating")
    consolation: bool = default(Tournament, "consolation")


class TableRecordV5(TableRecordV2):
    """A table, with the minutes it plays beyond (or short of) the round's clock."""

    extra_minutes: between(Table, "extra_minutes") = default(Table, "extra_minutes")


class RoundRecordV5(RoundRecordV2):
    tables: list[TableRecordV5] = within(MOST_PLAYERS // 4)  # type: ignore[assignment]


class FinalistRecord(Record):
    """A player who made the cut, with the table points (an exact fraction such as "19/3",
    in twelfths at most) and score they had after the cut's round, before the carry-over."""

    player: PlayerKey
    table_points: str
    score: int

    @field_validator("table_points")
    @classmethod
    def _twelfths(cls, value: str) -> str:
        try:
            points = Fraction(value)
        except (ValueError, ZeroDivisionError):
            raise Problem(f"{value!r} is not a number of table points such as 8 or 19/3.") from None
        if 12 % points.denominator:
            raise Problem(f"{value!r}: table points are whole twelfths.")
        return value


class CutRecord(Record):
    """The confirmed cut to the final stage: the finalists best first."""

    after_round: int
    size: int
    carry_over: text(Tournament, "carry_over")
    consolation: bool = True
    confirmed_at: Moment
    confirmed_by: Username | None = None
    finalists: list[FinalistRecord] = Field(max_length=MOST_PLAYERS)

    @model_validator(mode="after")
    def _check(self) -> CutRecord:
        if self.size < 4 or self.size % 4:
            raise Problem("the cut takes a multiple of 4 players.")
        if len(self.finalists) != self.size:
            raise Problem(f"the cut takes {self.size} players; {len(self.finalists)} are listed.")
        if len({finalist.player for finalist in self.finalists}) != len(self.finalists):
            raise Problem("a player is listed twice among the finalists.")
        try:
            parse_carry_over(self.carry_over)
        except ValueError:
            raise Problem(f"{self.carry_over!r} is not a carry-over from 0 to 1.") from None
        return self


class ArchiveV5(ArchiveV4):
    """Version 4 with the final stage and its confirmed cut, the prize-giving and team
    settings, and each table's own extra time."""

    model_config = ConfigDict(
        title="Tournament archive, version 5",
        json_schema_extra={"$schema": "https://json-schema.org/draft/2020-12/schema"},
    )

    version: Literal[5]  # type: ignore[assignment]
    tournament: TournamentRecordV5
    rounds: list[RoundRecordV5] = Field(max_length=MOST_ROUNDS)  # type: ignore[assignment]
    cut: CutRecord | None = None

    @model_validator(mode="after")
    def _cut_fits(self) -> ArchiveV5:
        if self.cut is None:
            return self
        settings = self.tournament
        if (settings.cut_after_round, settings.cut_size) != (self.cut.after_round, self.cut.size):
            raise Problem(
                "the cut's after_round and size are the tournament's cut_after_round and cut_size.",
                "cut",
            )
        keys = {player.key for player in self.players}
        for index, finalist in enumerate(self.cut.finalists):
            if finalist.player not in keys:
                raise Problem(
                    f"the player {finalist.player!r} is not in the players.",
                    "cut",
                    "finalists",
                    index,
                )
        return self

    def usernames(self) -> set[str]:
        names = super().usernames()
        if self.cut is not None and self.cut.confirmed_by:
            names.add(self.cut.confirmed_by)
        return names


# Each version of the format is one model; a document is read by the model of its version, and
# the JSON Schema is their union, told apart by "version".
Archive = ArchiveV1 | ArchiveV2 | ArchiveV3 | ArchiveV4 | ArchiveV5
ARCHIVES: dict[int, TypeAdapter[Any]] = {
    1: TypeAdapter(ArchiveV1),
    2: TypeAdapter(ArchiveV2),
    3: TypeAdapter(ArchiveV3),
    4: TypeAdapter(ArchiveV4),
    5: TypeAdapter(ArchiveV5),
}


def model_for(document: Any) -> TypeAdapter[Any]:
    """What reads `document`: the model of the version it gives, or of the version exports
    write when it gives none that is read (that model then says what is wrong)."""
    version = document.get("version") if isinstance(document, dict) else None
    if type(version) is int and version in ARCHIVES:
        return ARCHIVES[version]
    return ARCHIVES[VERSION]


def json_schema() -> dict[str, Any]:
    """The archive format as a JSON Schema (draft 2020-12), for documents to be imported: one
    of the versions, told apart by "version"."""
    either: TypeAdapter[Any] = TypeAdapter(
        ArchiveV1 | ArchiveV2 | ArchiveV3 | ArchiveV4 | ArchiveV5
    )
    schema = either.json_schema()
    for model in schema["$defs"].values():
        model.pop("$schema", None)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Tournament archive",
        "description": f'A whole tournament in the "{FORMAT}" format, version 1 to 5.',
        # Exactly one: their "version" differs.
        "oneOf": schema["anyOf"],
        "$defs": schema["$defs"],
    }
