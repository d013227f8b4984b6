from __future__ import annotations

import re
from fractions import Fraction

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Mod
from django.db.models.lookups import Exact
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from scoring.engine import PRESETS, RulePreset, get_preset
from scoring.engine.presets import MCR
from scoring.engine.rulebook import Rulebook, rulebook_for
from scoring.engine.settlement import penalty_payments
from scoring.words import Words
from tournament.domain.names import country_name, validate_country, validate_ema_number
from tournament.domain.rotation import WINDS
from tournament.domain.rule_settings import setting_problem

#: Far more deals than any game has: forms refuse a deal number above it as a typing slip (a
#: game's own length comes from its rule preset and is the services' rule).
MOST_DEALS = 999


def default_table_points() -> list[int]:
    return [4, 2, 1, 0]


def default_tie_breaks() -> list[str]:
    return [Tournament.TieBreak.BEST_GAME, Tournament.TieBreak.GAME_SCORES]


def validate_preset(value: str) -> None:
    if value not in PRESETS:
        raise ValidationError(
            _("Unknown rule preset %(value)s; choose one of %(choices)s."),
            code="unknown_preset",
            params={"value": value, "choices": ", ".join(PRESETS)},
        )


#: The table points of a place lie from -MOST_TABLE_POINTS to MOST_TABLE_POINTS: the one rule
#: of the settings form, the API and archives (`validate_table_points`).
MOST_TABLE_POINTS = 1000


def validate_table_points(value: object) -> None:
    if (
        not isinstance(value, list)
        or len(value) != 4
        or not all(isinstance(points, int) and not isinstance(points, bool) for points in value)
        or not all(-MOST_TABLE_POINTS <= points <= MOST_TABLE_POINTS for points in value)
        or value != sorted(value, reverse=True)
    ):
        raise ValidationError(
            _(
                "Table points are four whole numbers from %(least)s to %(most)s, from first to "
                "last place, such as 4, 2, 1, 0."
            ),
            code="bad_table_points",
            params={"least": -MOST_TABLE_POINTS, "most": MOST_TABLE_POINTS},
        )


def validate_tie_breaks(value: object) -> None:
    if (
        not isinstance(value, list)
        or len(set(value)) != len(value)
        or not set(value) <= set(Tournament.TieBreak.values)
    ):
        raise ValidationError(
            _("Tie-breaks are a list of distinct choices from: %(choices)s."),
            code="bad_tie_breaks",
            params={"choices": ", ".join(Tournament.TieBreak.values)},
        )


class Wind(models.TextChoices):
    """A seat or prevailing wind, by its letter (`rotation.WINDS`)."""

    EAST = WINDS[0], _("East")
    SOUTH = WINDS[1], _("South")
    WEST = WINDS[2], _("West")
    NORTH = WINDS[3], _("North")


class Separation(models.TextChoices):
    """How firmly the seating generator keeps players of one club, country or team apart."""

    OFF = "off", _("Not separated")
    SOFT = "soft", _("Apart where possible")
    HARD = "hard", _("Always apart")


class Profile(models.TextChoices):
    """Which rulebook decides the fine points of fan counting (see rules/RULINGS.md)."""

    WMO_2006 = "wmo-2006", _("WMO Green Book (2006)")
    CN_1998 = "cn-1998", _("Chinese official rules (1998)")


class SeatRotation(models.TextChoices):
    """How players change seats between wind rounds (rules/TOURNAMENT.md)."""

    WMO = "wmo", _("Every wind round (WMO chart)")
    NONE = "none", _("Never")
    HALF = "half", _("Once, before the West wind round")


class Confirmation(models.TextChoices):
    """Who confirms a submitted game sheet before the game counts in the standings."""

    ORGANISER = "organiser", _("The organiser confirms each game sheet")
    SECOND_REFEREE = (
        "referee",
        _("A second referee (or the organiser) confirms each game sheet"),
    )
    NONE = "none", _("Game sheets count as soon as they are submitted")


class TieBreak(models.TextChoices):
    """Further tie-breaks after table points and score (Chinese 1998 rules)."""

    BEST_GAME = "best_game", _("Best single game score")
    GAME_SCORES = "game_scores", _("More high game scores")


# Slugs that are fixed parts of the addresses where a tournament's slug goes (/manage/new/,
# /manage/tokens/): no tournament may take them, whichever way it is made.
RESERVED_SLUGS = frozenset({"new", "tokens"})


class FinalSeating(models.TextChoices):
    """How the tables of a final stage are seated from the finalists' ranks (docs/stages.md)."""

    RANK = "rank", _("By rank: 1–4 at table 1, 5–8 at table 2, …")
    SPREAD = "spread", _("Spread: table 1 takes ranks 1, 2n, 2n+1 and 4n of n tables, …")


#: The largest denominator a carry-over factor may have (such as 3/4 or 2/3).
CARRY_OVER_DENOMINATOR = 100


def parse_carry_over(value: str) -> Fraction:
    """The factor that a carry-over such as "1", "1/2", "0", "0.75" or "3/4" stands for;
    ValueError unless it is a fraction from 0 to 1 whose denominator is at most
    CARRY_OVER_DENOMINATOR."""
    try:
        factor = Fraction(str(value).strip())
    except (ValueError, ZeroDivisionError) as error:
        raise ValueError(value) from error
    if not 0 <= factor <= 1 or factor.denominator > CARRY_OVER_DENOMINATOR:
        raise ValueError(value)
    return factor


def validate_carry_over(value: str) -> None:
    try:
        parse_carry_over(value)
    except ValueError:
        raise ValidationError(
            _(
                "The carry-over is a factor from 0 to 1: 1 (all), 1/2 (half), 0 (nothing) or "
                "another fraction such as 3/4."
            ),
            code="bad_carry_over",
        ) from None


class RegistrationMode(models.TextChoices):
    OFF = "off", _("Closed: the organiser enters the players")
    INSTANT = "instant", _("Open: accepted at once")
    APPROVAL = "approval", _("Open: accepted after the organiser's approval")


class Tournament(models.Model):
    Profile = Profile
    SeatRotation = SeatRotation
    Confirmation = Confirmation
    TieBreak = TieBreak
    RegistrationMode = RegistrationMode
    FinalSeating = FinalSeating

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=100, unique=True)
    start_date = models.DateField(null=True, blank=True)
    end_date = models.DateField(null=True, blank=True)
    venue = models.CharField(max_length=200, blank=True)
    preset = models.CharField(max_length=40, default=MCR.key, validators=[validate_preset])
    profile = models.CharField(max_length=20, choices=Profile.choices, default=Profile.WMO_2006)
    seat_rotation = models.CharField(
        max_length=10, choices=SeatRotation.choices, default=SeatRotation.WMO
    )
    table_points = models.JSONField(
        default=default_table_points,
        validators=[validate_table_points],
        help_text=_("Given by rank within the table at the end of a game, first place first."),
    )
    tie_breaks = models.JSONField(
        default=default_tie_breaks,
        blank=True,
        validators=[validate_tie_breaks],
        help_text=_("Used in this order when table points and score are equal."),
    )
    public = models.BooleanField(
        default=False, help_text=_("Public tournaments are listed for everyone.")
    )
    planned_rounds = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("How many rounds the tournament will have.")
    )
    separate_clubs = models.CharField(
        max_length=4, choices=Separation.choices, default=Separation.SOFT,
        help_text=_("Keep players of one club apart when generating the seating."),
    )  # fmt: skip
    separate_countries = models.CharField(
        max_length=4, choices=Separation.choices, default=Separation.SOFT,
        help_text=_("Keep players of one country apart when generating the seating."),
    )  # fmt: skip
    separate_teams = models.CharField(
        max_length=4, choices=Separation.choices, default=Separation.SOFT,
        help_text=_("Keep players of one team apart when generating the seating."),
    )  # fmt: skip
    confirmation = models.CharField(
        max_length=10,
        choices=Confirmation.choices,
        default=Confirmation.ORGANISER,
        help_text=_("Standings count a game once its sheet is confirmed."),
    )
    round_minutes = models.PositiveSmallIntegerField(
        default=120,
        validators=[MinValueValidator(10), MaxValueValidator(600)],
        help_text=_("The time limit of a round, for the round clock (GB 3.5.6: at most 150)."),
    )
    rule_settings = models.JSONField(
        default=dict,
        blank=True,
        help_text=_(
            "The tournament's values of the settings its rule preset offers (such as the number "
            "of wind rounds); the preset's own value for any not given."
        ),
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organised_tournaments", blank=True
    )
    created = models.DateTimeField(auto_now_add=True)
    # Before the games: players register themselves (services/registrations.py), then check in
    # on the day (services/check_in.py).
    registration = models.CharField(
        max_length=10,
        choices=RegistrationMode.choices,
        default=RegistrationMode.OFF,
        help_text=_("Whether players may register themselves on the tournament's public page."),
    )
    registration_opens = models.DateTimeField(
        null=True, blank=True, help_text=_("Registration opens at this time (empty: now).")
    )
    registration_closes = models.DateTimeField(
        null=True, blank=True, help_text=_("Registration closes at this time (empty: never).")
    )
    registration_cap = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(4), MaxValueValidator(2000)],
        help_text=_("How many players the field takes; later ones join a waiting list."),
    )
    check_in_open = models.BooleanField(
        default=False, help_text=_("The check-in desk checks players in.")
    )
    self_check_in = models.BooleanField(
        default=False, help_text=_("Players may check themselves in from their private link.")
    )
    check_in_closed_at = models.DateTimeField(
        null=True, blank=True, help_text=_("When check-in was closed and the field settled.")
    )
    # Prize-giving: the public standings (pages, projector, API, exports for visitors) hide the
    # results of this round and later ones until the organiser reveals them.
    standings_hidden_from = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(200)],
        help_text=_("Hide the public standings from this round on, until the prize-giving."),
    )
    standings_revealed_at = models.DateTimeField(
        null=True, blank=True, help_text=_("When the hidden standings were revealed.")
    )
    # Teams: a team's ranking counts its best k members (by table points, then score).
    team_best_of = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(100)],
        help_text=_("How many of a team's players count for its ranking; empty: all of them."),
    )
    # A final stage (docs/stages.md): after round `cut_after_round` the top `cut_size` players
    # go on, carrying `carry_over` times their table points and score; the others play a
    # consolation stage in the same rounds or stop.
    cut_after_round = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(200)],
        help_text=_("The final stage begins after this round; empty: no final stage."),
    )
    cut_size = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(4), MaxValueValidator(2000)],
        help_text=_("How many players go on to the final stage: a multiple of 4."),
    )
    carry_over = models.CharField(
        max_length=12,
        default="1",
        validators=[validate_carry_over],
        help_text=_(
            "What the finalists carry over of their table points and score: 1 (all), 1/2 "
            "(half), 0 (nothing) or another factor such as 3/4."
        ),
    )
    final_seating = models.CharField(
        max_length=10, choices=FinalSeating.choices, default=FinalSeating.RANK
    )
    consolation = models.BooleanField(
        default=True,
        help_text=_(
            "The players who miss the cut play on at their own tables (a consolation stage); "
            "otherwise they stop."
        ),
    )

    class Meta:
        ordering = [F("start_date").desc(nulls_last=True), "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(start_date__isnull=True)
                | Q(end_date__isnull=True)
                | Q(end_date__gte=F("start_date")),
                name="tournament_ends_on_or_after_start",
                violation_error_message="A tournament cannot end before it starts.",
            ),
            models.CheckConstraint(
                condition=Q(seat_rotation__in=SeatRotation.values),
                name="tournament_seat_rotation_known",
            ),
            models.CheckConstraint(
                condition=Q(confirmation__in=Confirmation.values),
                name="tournament_confirmation_known",
            ),
            models.CheckConstraint(
                condition=Q(cut_after_round__isnull=True, cut_size__isnull=True)
                | (
                    Q(cut_after_round__isnull=False, cut_size__gte=4)
                    & Q(Exact(Mod("cut_size", 4), 0))
                ),
                name="tournament_cut_complete",
            ),
            models.CheckConstraint(
                condition=Q(final_seating__in=FinalSeating.values),
                name="tournament_final_seating_known",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def rules(self) -> RulePreset:
        """The rule preset in force, with this tournament's settings: the data the game follows
        (initial points, how long a game is, how the deal passes, payments, penalties)."""
        preset = get_preset(self.preset)
        try:
            return preset.configured(self.rule_settings or {})
        except ValueError:  # refused by clean(); a stored value the preset no longer knows
            return preset

    @property
    def rulebook(self) -> Rulebook:
        """What the rules in force do (`scoring.engine.rulebook`): every page, print and export
        asks it rather than naming a preset."""
        return rulebook_for(self.rules)

    @property
    def words(self) -> Words:
        """The preset's words in the reader's language: a deal or a hand, fan or points."""
        return Words(self.rulebook)

    def clean(self) -> None:
        super().clean()
        if self.slug.lower() in RESERVED_SLUGS:
            raise ValidationError(
                {
                    "slug": ValidationError(
                        _("“%(slug)s” is taken by a page."),
                        code="reserved_slug",
                        params={"slug": self.slug},
                    )
                }
            )
        self._clean_stage()
        if self.preset not in PRESETS:
            return  # validate_preset says so
        if not isinstance(self.rule_settings, dict):
            raise ValidationError(
                {"rule_settings": _("The rule settings are an object of setting: value.")}
            )
        preset = get_preset(self.preset)
        for name, value in self.rule_settings.items():  # a value refused, in words
            setting = next((item for item in preset.settings if item.name == name), None)
            problem = setting_problem(setting, value) if setting else None
            if problem:
                raise ValidationError(
                    {"rule_settings": ValidationError(problem, code="bad_rule_setting")}
                )
        try:
            preset.configured(self.rule_settings)
        except ValueError as error:
            raise ValidationError(
                {"rule_settings": ValidationError(str(error), code="bad_rule_setting")}
            ) from error

    def _clean_stage(self) -> None:
        """A final stage has both its round and its size, a multiple of four, and comes before
        the last planned round (docs/stages.md)."""
        if self.cut_after_round is None and self.cut_size is None:
            return
        if self.cut_after_round is None:
            raise ValidationError(
                {"cut_after_round": _("Say after which round the cut comes.")}, code="cut_round"
            )
        if self.cut_size is None or self.cut_size < 4 or self.cut_size % 4:
            raise ValidationError(
                {"cut_size": _("The final stage takes a multiple of 4 players, such as 8 or 16.")},
                code="cut_size",
            )
        if self.planned_rounds is not None and self.cut_after_round >= self.planned_rounds:
            raise ValidationError(
                {
                    "cut_after_round": _(
                        "The cut comes before the last of the %(rounds)s planned rounds."
                    )
                    % {"rounds": self.planned_rounds}
                },
                code="cut_round",
            )


#: What a player's key is made of, said once: it names the player in page addresses and in
#: the API (/players/<key>), so it is ASCII letters, digits, "-", "_" and ".", beginning with
#: a letter or a digit, at most PLAYER_KEY_LENGTH characters long.
PLAYER_KEY_PATTERN = r"[A-Za-z0-9][A-Za-z0-9._-]*"
PLAYER_KEY_LENGTH = 20


def validate_player_key(value: str) -> None:
    if not re.fullmatch(PLAYER_KEY_PATTERN, value):
        raise ValidationError(
            _(
                "The key %(value)s cannot be used: a player's key is made of letters (A to Z), "
                "digits, '-', '_' and '.', beginning with a letter or a digit, such as 12 or A-7."
            ),
            code="bad_key",
            params={"value": repr(value[:40])},
        )


class PlayerQuerySet(models.QuerySet["Player"]):
    def playing_in(self, number: int) -> PlayerQuerySet:
        """The players who play round `number`: not withdrawn from it or earlier, and not a late
        arrival who joins after it (`Player.plays_in` says the same of one player). Substitutes
        are among them: which of them fill the tables is `services.rounds.players_to_seat`."""
        return self.filter(
            Q(withdrawn_from_round__isnull=True) | Q(withdrawn_from_round__gt=number),
            Q(joins_from_round__isnull=True) | Q(joins_from_round__lte=number),
        )


class Player(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    key = models.CharField(
        max_length=PLAYER_KEY_LENGTH,
        validators=[validate_player_key],
        help_text=_(
            "Identifies the player within the tournament: a start number. Letters (A to Z), "
            "digits, '-', '_' and '.', beginning with a letter or a digit."
        ),
    )
    name = models.CharField(
        max_length=200, help_text=_("The full name as it is written, such as Anna Berg or 王小明.")
    )
    # The parts of the name, for the EMA results file (tournament/domain/names.py): empty when the
    # name is to be split by its writing.
    family_name = models.CharField(max_length=200, blank=True)
    given_name = models.CharField(max_length=200, blank=True)
    country = models.CharField(
        max_length=100,
        blank=True,
        validators=[validate_country],
        help_text=_("ISO 3166 country code, such as SE or CN."),
    )
    club = models.CharField(max_length=200, blank=True)
    team = models.CharField(max_length=200, blank=True)
    ema_number = models.CharField(
        "EMA number", max_length=20, blank=True, validators=[validate_ema_number]
    )
    substitute = models.BooleanField(default=False, help_text=_("Substitutes are never ranked."))
    withdrawn_from_round = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_("Plays no round from this one on; keeps earlier results."),
    )
    fixed_table = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_("Generated seatings keep the player at this table number (accessibility)."),
    )
    joins_from_round = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_("A late arrival: plays no round before this one."),
    )
    checked_in_at = models.DateTimeField(null=True, blank=True)
    # The player's private link (services/player_links.py): the SHA-256 of its secret, never the
    # secret itself; empty when the player has none. A new link replaces the old one.
    link_digest = models.CharField(max_length=64, blank=True, default="")
    link_issued_at = models.DateTimeField(null=True, blank=True)
    # When the player last opened their link: what changed since is marked there.
    link_seen_at = models.DateTimeField(null=True, blank=True)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["tournament", "key"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "key"],
                name="player_key_unique_in_tournament",
                violation_error_message="Another player of this tournament has this key.",
            ),
            models.UniqueConstraint(
                fields=["tournament", "ema_number"],
                condition=~Q(ema_number=""),
                name="player_ema_number_unique_in_tournament",
                violation_error_message="Another player of this tournament has this EMA number.",
            ),
            models.CheckConstraint(
                condition=Q(withdrawn_from_round__isnull=True) | Q(withdrawn_from_round__gte=1),
                name="player_withdrawn_from_a_real_round",
            ),
            models.CheckConstraint(
                condition=Q(joins_from_round__isnull=True) | Q(joins_from_round__gte=2),
                name="player_joins_from_a_later_round",
            ),
            models.UniqueConstraint(
                fields=["link_digest"],
                condition=~Q(link_digest=""),
                name="player_link_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.key} {self.name}"

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_from_round is not None

    def plays_in(self, number: int) -> bool:
        """Whether the player plays round `number`: not withdrawn from it or an earlier round,
        and not a late arrival who joins after it."""
        return (self.withdrawn_from_round is None or self.withdrawn_from_round > number) and (
            self.joins_from_round is None or self.joins_from_round <= number
        )

    def out_of_round_reason(self, number: int) -> tuple[str, int] | None:
        """Why the player does not play round `number`: ("withdrawn", the round withdrawn
        from) or ("joins_later", the round joined from); None when they play it."""
        if self.withdrawn_from_round is not None and self.withdrawn_from_round <= number:
            return ("withdrawn", self.withdrawn_from_round)
        if self.joins_from_round is not None and self.joins_from_round > number:
            return ("joins_later", self.joins_from_round)
        return None

    @property
    def country_name(self) -> str:
        """The country's name in the current language."""
        return country_name(self.country)


class RoundStatus(models.TextChoices):
    DRAFT = "draft", _("Draft")
    SEATED = "seated", _("Seated")
    PLAYING = "playing", _("Playing")
    FINISHED = "finished", _("Finished")


class Round(models.Model):
    Status = RoundStatus

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    seat_by_standing = models.BooleanField(
        default=False,
        help_text=_("Generated seating puts the top four together, then the next four, and so on."),
    )
    # The round clock (see tournament/reads/clock.py): running since clock_started_at for
    # clock_minutes + clock_extra_minutes, not counting the paused seconds.
    clock_minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    clock_extra_minutes = models.SmallIntegerField(default=0)
    clock_started_at = models.DateTimeField(null=True, blank=True)
    clock_paused_at = models.DateTimeField(null=True, blank=True)
    clock_paused_seconds = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_from_one"),
            models.CheckConstraint(
                condition=Q(status__in=RoundStatus.values),
                name="round_status_known",
            ),
        ]

    def __str__(self) -> str:
        return f"Round {self.number}"


class Table(models.Model):
    """Four seats for one round; the game played there and how it ended."""

    class Sheet(models.TextChoices):
        """Where the game sheet of the table is (derived from when it ended and was confirmed)."""

        OPEN = "open", _("In play")
        SUBMITTED = "submitted", _("Submitted, awaiting confirmation")
        CONFIRMED = "confirmed", _("Confirmed")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="refereed_tables", blank=True
    )
    ended_at = models.DateTimeField(null=True, blank=True)
    ended_by_time = models.BooleanField(
        default=False, help_text=_("Time was called before all hands were played.")
    )
    extra_minutes = models.SmallIntegerField(
        default=0,
        validators=[MinValueValidator(-60), MaxValueValidator(120)],
        help_text=_("Minutes this table plays beyond (or short of) the round's clock."),
    )
    # Ending the game submits its sheet; confirming it makes the game count in the standings.
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_from_one"),
            models.CheckConstraint(
                condition=Q(ended_by_time=False) | Q(ended_at__isnull=False),
                name="table_ended_by_time_only_when_ended",
            ),
            models.CheckConstraint(
                condition=Q(confirmed_at__isnull=True) | Q(ended_at__isnull=False),
                name="table_confirmed_only_when_ended",
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.number}"

    @property
    def sheet(self) -> Table.Sheet:
        """Where the game sheet is: open while the game is played, submitted once the game has
        ended, confirmed once checked (then the game counts in the standings)."""
        if self.confirmed_at is not None:
            return Table.Sheet.CONFIRMED
        return Table.Sheet.SUBMITTED if self.ended_at is not None else Table.Sheet.OPEN

    @property
    def seats_in_order(self) -> list[Seat]:
        """The seats East, South, West, North. For a list of tables, prefetch their `seats`
        (with the players) so that this asks no query."""
        return sorted(self.seats.all(), key=lambda seat: seat.index)


class RefereeAccount(models.Model):
    """A login that the organisers of `tournament` made for one of its referees: they see it
    listed, print its login slip and may give it a new password. An account belongs to the one
    tournament that made it; its rights come only from the tables it is assigned to."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="referee_account"
    )
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="referee_accounts"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "user__username"]

    def __str__(self) -> str:
        return f"{self.user} ({self.tournament})"


class RefereeListing(models.Model):
    """An existing login added to the referees of `tournament` by its organisers, so that its
    tables may be given to it: a referee account that another tournament made (or a plain
    login an administrator made). Only the tournament that made an account (RefereeAccount)
    may give it a new password or deactivate it; a listing only offers it for the tables."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="referee_listings"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="referee_listings"
    )
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "user__username"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"], name="referee_listed_once_per_tournament"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.tournament})"


class SeatQuerySet(models.QuerySet["Seat"]):
    def with_players(self) -> SeatQuerySet:
        """With their players, in seat order at each table: not in the default order, which
        joins each seat's round and tournament to sort by them (for seats prefetched by
        table, a cost for nothing)."""
        return self.select_related("player").order_by("table_id", "starting_wind")


class Seat(models.Model):
    """One player at one table, by the wind of the seat they start the game at.

    The round is stored again here so that "a player sits at one table per round" is a
    database constraint; services always set it to the table's round.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="seats")
    starting_wind = models.CharField(max_length=1, choices=Wind.choices)
    score = models.IntegerField(
        default=0, help_text=_("Game score so far: hand payments and penalties.")
    )

    objects = SeatQuerySet.as_manager()

    class Meta:
        ordering = ["table", "starting_wind"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "starting_wind"],
                name="seat_wind_unique_at_table",
                violation_error_message="This seat of the table is taken.",
            ),
            models.UniqueConstraint(
                fields=["table", "player"],
                name="seat_player_once_at_table",
                violation_error_message="A player can sit only once at a table.",
            ),
            models.UniqueConstraint(
                fields=["round", "player"],
                name="seat_player_one_table_per_round",
                violation_error_message="A player sits at one table per round.",
            ),
            models.CheckConstraint(
                condition=Q(starting_wind__in=Wind.values), name="seat_wind_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} {self.starting_wind}: {self.player}"

    @property
    def index(self) -> int:
        """0..3 for the starting seats East, South, West, North."""
        return WINDS.index(self.starting_wind)


class DealResult(models.TextChoices):
    WIN = "win", _("Win")
    DRAW = "draw", _("Drawn hand")
    FAULTY_OUT = "faulty_out", _("Faulty out")


def seat_list() -> list[str]:
    return []


def submission_constraints(name: str) -> list[models.BaseConstraint]:
    """A submission key names one record of its user at a table, and has its user."""
    return [
        models.UniqueConstraint(
            fields=["table", "submitted_by", "submission"],
            condition=Q(submission__isnull=False),
            name=f"{name}_submission_key_once",
            violation_error_message="This submission key was already used.",
        ),
        models.CheckConstraint(
            condition=Q(submission__isnull=True) | Q(submitted_by__isnull=False),
            name=f"{name}_submission_key_has_its_user",
        ),
    ]


class EnteredResult(models.Model):
    """What a hand and a penalty share: who entered it and when, and the idempotency key of
    the submission that recorded it (with its user and a digest of what was sent)."""

    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    entered_at = models.DateTimeField(default=timezone.now)
    submission = models.UUIDField(
        null=True,
        blank=True,
        help_text=_(
            "The idempotency key of the submission that recorded it: a resubmission "
            "with the same key is recognised and not recorded twice."
        ),
    )
    # Whose key it is (a key belongs to its user and its table; a correction changes
    # `entered_by`, not this), and a digest of what was sent with it: the same key sent again
    # with something else is refused. Empty for records from before the digest was kept.
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    submission_digest = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        abstract = True


class Deal(EnteredResult):
    """One deal of a game (MCR calls it a hand): where it stands in the game, its result and
    the facts of the deal its payments follow from, and what each player paid or received."""

    Result = DealResult

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField()
    # Where the deal stands in its game (`scoring.engine.flow`), set by the services from the
    # deals before it: the prevailing wind, who dealt (by starting seat), and the dealer's
    # extra-hand number.
    prevailing_wind = models.CharField(max_length=1, choices=Wind.choices, default=Wind.EAST)
    dealer = models.CharField(max_length=1, choices=Wind.choices, default=Wind.EAST)
    extra_hands = models.PositiveSmallIntegerField(default=0)
    result = models.CharField(max_length=10, choices=Result.choices)
    winner = models.ForeignKey(
        Seat, on_delete=models.RESTRICT, null=True, blank=True, related_name="+"
    )
    discarder = models.ForeignKey(
        Seat,
        on_delete=models.RESTRICT,
        null=True,
        blank=True,
        related_name="+",
        help_text=_("Empty for a self-drawn win."),
    )
    fan = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("MCR: the winning hand's fan, without flowers.")
    )
    flowers = models.PositiveSmallIntegerField(default=0)
    value = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_(
            "Presets that do not count in fan: the winning hand's value (JT: the final score "
            "F; WA: its points, capped at the limit)."
        ),
    )
    # The facts of the deal, each a list of starting winds (E, S, W, N): riichi declarations
    # and faulty claims (one entry per claim); after a draw, who was ready and whose riichi
    # was faulty.
    riichi = models.JSONField(default=seat_list, blank=True)
    faulty_claims = models.JSONField(default=seat_list, blank=True)
    ready = models.JSONField(default=seat_list, blank=True)
    faulty_riichi = models.JSONField(default=seat_list, blank=True)
    offender = models.ForeignKey(
        Seat,
        on_delete=models.RESTRICT,
        null=True,
        blank=True,
        related_name="+",
        help_text=_("Who made the faulty out that ended the deal."),
    )
    tiles = models.JSONField(
        null=True,
        blank=True,
        help_text=_("The winning hand and its situation, in the case format."),
    )
    # What the players who started at East, South, West and North gained (+) or paid (-).
    east_points = models.IntegerField(default=0)
    south_points = models.IntegerField(default=0)
    west_points = models.IntegerField(default=0)
    north_points = models.IntegerField(default=0)
    # Not stored: True on the hand `correct_last_deal` returns when the correction sent was
    # already recorded (sent twice), so nothing changed.
    unchanged: bool = False

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "number"],
                name="hand_number_unique_at_table",
                violation_error_message="This hand has already been entered.",
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_from_one"),
            models.CheckConstraint(
                condition=Q(
                    result=DealResult.DRAW,
                    winner__isnull=True,
                    discarder__isnull=True,
                    fan__isnull=True,
                    value__isnull=True,
                    offender__isnull=True,
                )
                | Q(result=DealResult.WIN, winner__isnull=False, offender__isnull=True)
                & (Q(fan__isnull=False) | Q(value__isnull=False))
                | Q(
                    result=DealResult.FAULTY_OUT,
                    winner__isnull=True,
                    discarder__isnull=True,
                    fan__isnull=True,
                    value__isnull=True,
                    offender__isnull=False,
                ),
                name="hand_result_has_its_facts",
            ),
            models.CheckConstraint(
                condition=Q(result__in=DealResult.values), name="hand_result_known"
            ),
            models.CheckConstraint(
                condition=Q(prevailing_wind__in=Wind.values, dealer__in=Wind.values),
                name="hand_winds_known",
            ),
            models.CheckConstraint(
                condition=Q(discarder__isnull=True) | ~Q(discarder=F("winner")),
                name="hand_discarder_is_not_winner",
            ),
            models.CheckConstraint(
                condition=Q(
                    east_points=-(F("south_points") + F("west_points") + F("north_points"))
                ),
                name="hand_payments_sum_to_zero",
            ),
            models.CheckConstraint(condition=Q(flowers__lte=8), name="hand_flowers_at_most_8"),
            *submission_constraints("hand"),
        ]

    def __str__(self) -> str:
        return f"Hand {self.number}"

    @property
    def payments(self) -> list[int]:
        """Points by starting seat E, S, W, N."""
        return [self.east_points, self.south_points, self.west_points, self.north_points]

    @property
    def dealer_index(self) -> int:
        """0..3: the starting seat of the player who dealt."""
        return WINDS.index(self.dealer)


class ExtraWin(models.Model):
    """A further winner of a deal on the same discard, where the preset lets several players
    win (WA): the deal's `winner` is the first in turn after the discarder."""

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="extra_wins")
    winner = models.ForeignKey(Seat, on_delete=models.RESTRICT, related_name="+")
    value = models.PositiveSmallIntegerField()
    tiles = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["deal", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["deal", "winner"],
                name="extra_win_once_per_winner",
                violation_error_message="A player wins a deal once.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.deal}: also {self.winner}"


class PenaltyKind(models.TextChoices):
    FALSE_WIN = "false_win", _("False win")
    FALSE_WIN_INVALID_HAND = "false_win_invalid", _("False win (invalid hand)")
    DEDUCTION = "deduction", _("Deduction")
    DISTRIBUTED = "distributed", _("Distributed penalty")


#: Penalties shared by the other three players; a deduction is given to nobody.
DISTRIBUTED_KINDS = [
    PenaltyKind.FALSE_WIN,
    PenaltyKind.FALSE_WIN_INVALID_HAND,
    PenaltyKind.DISTRIBUTED,
]
#: The penalties of a declared win that was not one.
FALSE_WIN_KINDS = [PenaltyKind.FALSE_WIN, PenaltyKind.FALSE_WIN_INVALID_HAND]


def shown_reason(
    reason: str, kind: str, deal_number: int | None, words: Words | None = None
) -> str:
    """A penalty's reason to show: the one typed, or the one written for a false win, said in
    the reader's language with the kind and the deal as the preset says them (`words`)."""
    if not deal_number or reason != Penalty.automatic_reason(kind, deal_number):
        return reason
    names = {"kind": kind_label(kind, words), "number": deal_number}
    if words is None or words.calls_deals_hands:
        return translation.gettext("%(kind)s in hand %(number)s") % names
    return translation.gettext("%(kind)s in deal %(number)s") % names


#: Their names under a preset that calls them faulty outs (`Rulebook.calls_false_win_faulty_out`).
FAULTY_OUT_LABELS = {
    PenaltyKind.FALSE_WIN: _("Faulty out"),
    PenaltyKind.FALSE_WIN_INVALID_HAND: _("Faulty out (invalid hand)"),
}


def kind_label(kind: str, words: Words | None = None) -> str:
    """A penalty's kind in words, as the preset says it (`words`; without them, as MCR): a
    false win under MCR is a faulty out under the other presets."""
    if words is not None and words.rulebook.calls_false_win_faulty_out:
        if kind in FAULTY_OUT_LABELS:
            return str(FAULTY_OUT_LABELS[PenaltyKind(kind)])
    return str(PenaltyKind(kind).label)


class Penalty(EnteredResult):
    """Points a player loses for a false win, a foul or misconduct, with the reason.

    A distributed penalty is paid in equal parts to the other three players (the table stays
    zero-sum); a deduction is given to nobody.
    """

    Kind = PenaltyKind

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="penalties")
    seat = models.ForeignKey(Seat, on_delete=models.RESTRICT, related_name="penalties")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    points = models.PositiveSmallIntegerField(help_text=_("What the player loses."))
    distributed = models.BooleanField()
    reason = models.CharField(max_length=300)
    deal_number = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("Empty for a penalty on the whole game.")
    )

    class Meta:
        ordering = ["table", "entered_at", "pk"]
        verbose_name_plural = "penalties"
        constraints = [
            models.CheckConstraint(condition=Q(points__gt=0), name="penalty_points_positive"),
            models.CheckConstraint(
                condition=Q(distributed=False) | Q(Exact(Mod("points", 3), 0)),
                name="penalty_distributed_in_three_equal_parts",
            ),
            models.CheckConstraint(
                condition=Q(deal_number__isnull=True) | Q(deal_number__gte=1),
                name="penalty_deal_within_game",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=DISTRIBUTED_KINDS) & Q(distributed=True)
                | Q(kind=PenaltyKind.DEDUCTION, distributed=False),
                name="penalty_kind_matches_distribution",
            ),
            *submission_constraints("penalty"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.points}: {self.reason}"

    def kind_label(self, words: Words | None = None) -> str:
        """The penalty's kind in words, as the preset says it (`kind_label`)."""
        return kind_label(self.kind, words)

    def reason_in(self, words: Words | None = None) -> str:
        """`reason_text` with the kind and the deal as the preset says them."""
        return shown_reason(self.reason, self.kind, self.deal_number, words)

    @staticmethod
    def automatic_reason(kind: str, number: int) -> str:
        """The reason stored with a false win, written for it: in English whatever the page's
        language, as data (archives keep it); pages show `reason_text`."""
        with translation.override("en"):
            return f"{PenaltyKind(kind).label} in hand {number}"

    @property
    def reason_text(self) -> str:
        """The reason to show: the one typed, or a false win's written in the reader's
        language (as MCR says it; `reason_in` says it as the tournament's preset does)."""
        return self.reason_in()

    def payments(self, offender_index: int) -> list[int]:
        """Points by starting seat E, S, W, N."""
        return penalty_payments(
            offender=offender_index, points=self.points, distributed=self.distributed
        )


class AuditEntry(models.Model):
    """One change to a result, a seating, a round, the players, the tournament's settings or
    its referee accounts: who made it, when, and the record before and after (an account's
    username and name, never a password). Written by `tournament.services.audit.record`
    only."""

    class Action(models.TextChoices):
        HAND_RECORDED = "hand_recorded", _("Hand recorded")
        HAND_CORRECTED = "hand_corrected", _("Hand corrected")
        HAND_REMOVED = "hand_removed", _("Hand removed")
        PENALTY_RECORDED = "penalty_recorded", _("Penalty recorded")
        PENALTY_CORRECTED = "penalty_corrected", _("Penalty corrected")
        PENALTY_REMOVED = "penalty_removed", _("Penalty removed")
        GAME_ENDED = "game_ended", _("Game ended, sheet submitted")
        GAME_REOPENED = "game_reopened", _("Game reopened")
        GAME_CONFIRMED = "game_confirmed", _("Game sheet confirmed")
        CLOCK = "round_clock", _("Round clock changed")
        TABLE_TIME = "table_time", _("Table's time changed")
        ROUND_STATUS = "round_status", _("Round status changed")
        SEATING_CHANGED = "seating_changed", _("Seating changed")
        ACCOUNT_CREATED = "account_created", _("Referee account created")
        ACCOUNTS_CREATED = "accounts_created", _("Referee accounts created")
        PASSWORD_RESET = "password_reset", _("Password reset")
        ACCOUNT_DEACTIVATED = "account_disabled", _("Referee account deactivated")
        ACCOUNT_REACTIVATED = "account_enabled", _("Referee account reactivated")
        LOGIN_UNLOCKED = "login_unlocked", _("Referee's login unlocked")
        TABLE_REFEREES = "table_referees", _("Table's referees changed")
        REGISTRATION = "registration", _("Registration")
        CHECK_IN = "check_in", _("Check-in")
        ATTENDANCE = "attendance", _("Attendance changed")
        PLAYER_LINK = "player_link", _("Player's private link")
        REFEREE_CALL = "referee_call", _("Referee called")
        REHEARSAL = "rehearsal", _("Dress rehearsal")
        STANDINGS_HIDDEN = "standings_hidden", _("Standings hidden for the prize-giving")
        STANDINGS_REVEALED = "standings_revealed", _("Standings revealed")
        CUT_CONFIRMED = "cut_confirmed", _("Cut to the final stage confirmed")
        CUT_UNDONE = "cut_undone", _("Cut to the final stage undone")
        PLAYER_ADDED = "player_added", _("Player added")
        PLAYER_CHANGED = "player_changed", _("Player changed")
        PLAYER_REMOVED = "player_removed", _("Player removed")
        PLAYERS_IMPORTED = "players_imported", _("Players imported from a list")
        TOURNAMENT_CREATED = "tournament_created", _("Tournament created")
        SETTINGS_CHANGED = "settings_changed", _("Tournament settings changed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="audit")
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, null=True, blank=True, related_name="audit"
    )
    # Empty for what a visitor did without an account: a registration on the public page, a
    # check-in or a referee call from a player's private link.
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    at = models.DateTimeField(default=timezone.now)
    action = models.CharField(max_length=20, choices=Action.choices)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["at", "pk"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.get_action_display()}"


class Cut(models.Model):
    """The cut to a tournament's final stage, as the organiser confirmed it: who went on, in
    order, with what they had after the cut's round. Frozen: a later correction of an earlier
    round does not move it (the cut page warns of it). Settings are copied so that the stage
    reads the same if the tournament's are edited afterwards."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="cut")
    after_round = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])
    size = models.PositiveSmallIntegerField(validators=[MinValueValidator(4)])
    carry_over = models.CharField(max_length=12, validators=[validate_carry_over])
    consolation = models.BooleanField(default=True)
    confirmed_at = models.DateTimeField(default=timezone.now)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(size__gte=4) & Q(Exact(Mod("size", 4), 0)),
                name="cut_size_multiple_of_four",
            ),
        ]

    def __str__(self) -> str:
        return f"Cut to {self.size} after round {self.after_round}"

    @property
    def factor(self) -> Fraction:
        """The carry-over as an exact fraction."""
        try:
            return parse_carry_over(self.carry_over)
        except ValueError:  # refused by its validator; never stored by the services
            return Fraction(1)


class Finalist(models.Model):
    """A player who made the cut: their place in it and their table points (in twelfths, so
    exact: a share among level players is a multiple of 1/12) and score after the cut's round,
    before the carry-over factor."""

    cut = models.ForeignKey(Cut, on_delete=models.CASCADE, related_name="finalists")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="finalist_places")
    position = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])
    table_points_twelfths = models.IntegerField()
    score = models.IntegerField()

    class Meta:
        ordering = ["cut", "position"]
        constraints = [
            models.UniqueConstraint(fields=["cut", "player"], name="finalist_once_per_cut"),
            models.UniqueConstraint(fields=["cut", "position"], name="finalist_position_unique"),
            models.CheckConstraint(condition=Q(position__gte=1), name="finalist_position_from_one"),
        ]

    def __str__(self) -> str:
        return f"{self.position}. {self.player}"

    @property
    def table_points(self) -> Fraction:
        return Fraction(self.table_points_twelfths, 12)


class LiveVersion(models.Model):
    """A number that grows with every change the live pages of a tournament show (results,
    seating, rounds, the clock, players, the tournament's settings): the ETag of those pages is
    built from it, so a poll when nothing changed is answered 304 from this one row. Kept out
    of Tournament so that saving a tournament never writes back an old number, and bumped with
    one upsert (tournament.services.live.note_change)."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="live_version"
    )
    number = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.number}"


class ApiToken(models.Model):
    """A secret that lets a program call the JSON API as a user.

    Only a hash of the secret is stored; the secret itself is shown once, when it is made.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=100, help_text=_("What the token is for."))
    prefix = models.CharField(max_length=8, help_text=_("The first characters, to recognise it."))
    key_hash = models.CharField(max_length=64, unique=True)
    created = models.DateTimeField(default=timezone.now)
    last_used = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["user", "created"]
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"


class TokenFailures(models.Model):
    """Wrong API tokens sent from one address (see `tournament.infra.throttle`): how many since
    `since`, and until when every token from there is refused. Kept in the database so that
    every application server counts the same failures."""

    address = models.CharField(max_length=64, unique=True)
    failures = models.PositiveIntegerField(default=0)
    since = models.DateTimeField(default=timezone.now)
    locked_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "wrong API tokens from an address"
        verbose_name_plural = "wrong API tokens by address"

    def __str__(self) -> str:
        return self.address


class SeatingJob(models.Model):
    """One run of the seating generator for a tournament's draft rounds, with its progress."""

    class Status(models.TextChoices):
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="seating_jobs"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created = models.DateTimeField(default=timezone.now)
    finished = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING)
    seed = models.BigIntegerField(default=0)
    stage = models.CharField(max_length=100, blank=True)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    message = models.TextField(blank=True)
    figures = models.JSONField(null=True, blank=True)
    # Written every few seconds by the process running the job, so that any process can tell
    # a run that died with its process (a restart) from a long one.
    heartbeat = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"Seating run {self.pk} ({self.get_status_display()})"


class Rehearsal(models.Model):
    """A dress rehearsal: `copy` is a private copy of the tournament `original`, played through
    with random results (services/rehearsal.py), for the organisers to look at every page,
    print and export before the day. The copy is never public; deleting the rehearsal deletes
    it, and deleting the original deletes its rehearsals."""

    class Status(models.TextChoices):
        RUNNING = "running", _("Being played")
        DONE = "done", _("Played through")
        FAILED = "failed", _("Stopped")

    original = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rehearsals")
    copy = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="rehearsal")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created = models.DateTimeField(default=timezone.now)
    finished = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING)
    seed = models.BigIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)  # games played so far
    total = models.PositiveIntegerField(default=0)  # games to play
    message = models.TextField(blank=True)
    heartbeat = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"Dress rehearsal {self.pk} of tournament {self.original_id}"


class RegistrationStatus(models.TextChoices):
    PENDING = "pending", _("Awaiting approval")
    ACCEPTED = "accepted", _("In the field")
    WAITING = "waiting", _("On the waiting list")
    REJECTED = "rejected", _("Rejected")
    WITHDRAWN = "withdrawn", _("Withdrawn")


#: The registrations that hold or wait for a place: a duplicate of one of them is refused.
ACTIVE_REGISTRATION = (
    RegistrationStatus.PENDING,
    RegistrationStatus.ACCEPTED,
    RegistrationStatus.WAITING,
)


class Registration(models.Model):
    """One player's registration on the tournament's public page (services/registrations.py).
    An accepted registration is the tournament's player `player`; the waiting list is the
    waiting registrations in order of arrival (`created`, then `pk`)."""

    Status = RegistrationStatus

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )
    created = models.DateTimeField(default=timezone.now)
    changed = models.DateTimeField(default=timezone.now)
    # The name in the player's own order, as they wrote it (CJK names kept whole), and its parts.
    name = models.CharField(max_length=200)
    family_name = models.CharField(max_length=200, blank=True)
    given_name = models.CharField(max_length=200, blank=True)
    country = models.CharField(max_length=100, blank=True, validators=[validate_country])
    club = models.CharField(max_length=200, blank=True)
    team = models.CharField(max_length=200, blank=True)
    ema_number = models.CharField(
        "EMA number", max_length=20, blank=True, validators=[validate_ema_number]
    )
    # For the organiser only: never on a public page, in an export or in the API's public parts.
    contact = models.CharField(max_length=300, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices)
    player = models.OneToOneField(
        Player,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="registration",
    )

    class Meta:
        ordering = ["tournament", "created", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=RegistrationStatus.values),
                name="registration_status_known",
            ),
            models.UniqueConstraint(
                fields=["tournament", "ema_number"],
                condition=~Q(ema_number="") & Q(status__in=ACTIVE_REGISTRATION),
                name="registration_ema_number_unique_in_tournament",
                violation_error_message="Another registration of this tournament has this EMA "
                "number.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_status_display()})"


class RefereeCall(models.Model):
    """A player's call for a referee at their table, from their private link, until someone
    answers it on the organiser's board."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="referee_calls"
    )
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="referee_calls")
    player = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    called_at = models.DateTimeField(default=timezone.now)
    answered_at = models.DateTimeField(null=True, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["called_at", "pk"]
        indexes = [models.Index(fields=["tournament", "answered_at"], name="referee_call_open")]

    def __str__(self) -> str:
        return f"Table {self.table.number} at {self.called_at:%H:%M}"
