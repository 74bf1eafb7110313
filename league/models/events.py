"""Seasons, events and what is played in them: divisions, entries, rounds and matches.

`Event` is shared by every competition format; per-format data lives in each format's own
models. A `Match` between two team entries is a team fixture whose pair-vs-pair boards are
its child matches (`parent`, `board`).
"""

import re

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.functional import Promise, lazy
from django.utils.translation import gettext_lazy as _

from games.engine import PRESETS

from .organisations import Organisation, Player
from .touched import updated_field

# The engine's presets (docs/rules.md), in its order; only their names for people live here.
_PRESET_LABELS = {
    "dominican": _("Dominican (to 200, lisa counts double)"),
    "brazilian": _("Brazilian"),
    "tournament": _("International tournament (to 100)"),
    "latin": _("Latin American"),
    "vog": _("VOG"),
}
RULE_PRESET_CHOICES = [(name, _PRESET_LABELS[name]) for name in PRESETS]


class Season(models.Model):
    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=80)
    starts = models.DateField(_("starts"), null=True, blank=True)
    ends = models.DateField(_("ends"), null=True, blank=True)

    class Meta:
        ordering = ["-starts", "name"]
        constraints = [
            models.UniqueConstraint(fields=["organisation", "name"], name="unique_season_name")
        ]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")

    def __str__(self) -> str:
        return self.name


class Event(models.Model):
    """A competition: a league, or a tournament in one of the other formats."""

    class Format(models.TextChoices):
        LEAGUE = "league", _("League (round robin)")
        SWISS = "swiss", _("Swiss")
        SINGLE_ELIMINATION = "single_elimination", _("Single elimination")
        DOUBLE_ELIMINATION = "double_elimination", _("Double elimination")
        GROUPS_PLAYOFF = "groups_playoff", _("Groups and playoff")
        INDIVIDUAL = "individual", _("Individual (rotating partners)")
        ARENA = "arena", _("Arena")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        REGISTRATION = "registration", _("Registration")
        RUNNING = "running", _("In play")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    class Mode(models.TextChoices):
        OVER_THE_BOARD = "board", _("Over the board")
        ONLINE = "online", _("Live online tables")

    class EntryKind(models.TextChoices):
        PAIR = "pair", _("Fixed pairs")
        TEAM = "team", _("Club teams of several pairs")

    class MatchFormat(models.TextChoices):
        TARGET = "target", _("First to the target")
        BEST_OF = "best_of", _("Best of N games")
        TIME_LIMIT = "time_limit", _("Time limit")

    class Absence(models.TextChoices):
        FORFEIT = "forfeit", _("Forfeit with a set score")
        BYE = "bye", _("Bye (match not played)")

    class Tiebreak(models.TextChoices):
        MATCH_WINS = "match_wins", _("Match wins")
        GAMES_WON = "games_won", _("Games won")
        POINT_DIFFERENCE = "point_difference", _("Point difference")
        POINTS_FOR = "points_for", _("Points for")
        HEAD_TO_HEAD = "head_to_head", _("Head-to-head")
        BUCHHOLZ = "buchholz", _("Buchholz (opponents' scores)")
        SONNEBORN_BERGER = "sonneborn_berger", _("Sonneborn-Berger")
        PARTNER_AWARE = "partner_aware", _("Opponents' minus partners' scores")
        LOTS = "lots", _("Lots")

    organisation = models.ForeignKey(
        Organisation, verbose_name=_("organiser"), on_delete=models.CASCADE, related_name="events"
    )
    season = models.ForeignKey(
        Season,
        verbose_name=_("season"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="events",
    )
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    description = models.TextField(_("description"), blank=True)
    format = models.CharField(
        _("format"), max_length=24, choices=Format.choices, default=Format.LEAGUE
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.DRAFT
    )
    # A cancelled event remembers where it was, to be reopened there.
    cancelled_from = models.CharField(
        _("status before it was cancelled"), max_length=16, choices=Status.choices, blank=True
    )
    mode = models.CharField(
        _("mode of play"), max_length=8, choices=Mode.choices, default=Mode.OVER_THE_BOARD
    )
    entry_kind = models.CharField(
        _("entries"), max_length=8, choices=EntryKind.choices, default=EntryKind.PAIR
    )
    boards = models.PositiveSmallIntegerField(
        _("pairs per team fixture"),
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(12)],
    )
    legs = models.PositiveSmallIntegerField(
        _("round-robin legs"),
        default=1,
        choices=[(1, _("Single round robin")), (2, _("Double round robin"))],
    )
    rule_preset = models.CharField(
        _("rule set"), max_length=16, choices=RULE_PRESET_CHOICES, default="tournament"
    )
    rule_overrides = models.JSONField(_("rule overrides"), default=dict, blank=True)
    match_format = models.CharField(
        _("match format"), max_length=12, choices=MatchFormat.choices, default=MatchFormat.TARGET
    )
    best_of = models.PositiveSmallIntegerField(_("best of (games)"), null=True, blank=True)
    time_limit = models.PositiveSmallIntegerField(_("time limit (minutes)"), null=True, blank=True)
    tiebreaks = models.JSONField(_("tiebreaks"), default=list, blank=True)
    venue = models.CharField(_("venue"), max_length=120, blank=True)
    registration_opens = models.DateTimeField(_("registration opens"), null=True, blank=True)
    registration_closes = models.DateTimeField(_("registration closes"), null=True, blank=True)
    capacity = models.PositiveIntegerField(_("places"), null=True, blank=True)
    absence = models.CharField(
        _("after a withdrawal"), max_length=8, choices=Absence.choices, default=Absence.FORFEIT
    )
    forfeit_games = models.PositiveSmallIntegerField(_("forfeit: games awarded"), default=1)
    forfeit_points = models.PositiveSmallIntegerField(_("forfeit: points awarded"), default=100)
    players_enter_results = models.BooleanField(
        _("players may enter results"),
        default=True,
        help_text=_(
            "A player's entry waits for the other side, an organiser or a referee to confirm it."
            " Organisers' and referees' entries count at once."
        ),
    )
    check_in_open = models.BooleanField(
        _("check-in open"),
        default=True,
        help_text=_("Closed: nobody checks in or undoes a check-in until it is reopened."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = updated_field()
    results_version = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["-created"]
        verbose_name = _("event")
        verbose_name_plural = _("events")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("event", args=[self.slug])

    @property
    def over(self) -> bool:
        """Finished or cancelled: no more entries, check-ins or results."""
        return self.status in (self.Status.FINISHED, self.Status.CANCELLED)

    @property
    def games_per_match(self) -> int:
        """The most games a match has: N in a best-of-N event, else one."""
        return self.best_of if self.match_format == self.MatchFormat.BEST_OF else 1

    @property
    def rules_spec(self) -> dict:
        return {"preset": self.rule_preset, **self.rule_overrides}


class Division(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="divisions")
    name = models.CharField(_("name"), max_length=80)
    order = models.PositiveSmallIntegerField(_("order"), default=0)

    class Meta:
        ordering = ["order", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="unique_division_name")
        ]
        verbose_name = _("division")
        verbose_name_plural = _("divisions")

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A pair, or a club team of pairs, entered in an event."""

    class Status(models.TextChoices):
        ACCEPTED = "accepted", _("Accepted")
        WAITLISTED = "waitlisted", _("Waiting list")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        DISQUALIFIED = "disqualified", _("Disqualified")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    division = models.ForeignKey(
        Division,
        verbose_name=_("division"),
        null=True,
        blank=True,
        on_delete=models.RESTRICT,
        related_name="entries",
    )
    team = models.ForeignKey(
        "self",
        verbose_name=_("team"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="pairs",
    )
    name = models.CharField(_("name"), max_length=120)
    club = models.ForeignKey(
        Organisation,
        verbose_name=_("club"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="entries",
    )
    # The home club as a file wrote it, when it names no club on the site.
    club_name = models.CharField(_("club (as written)"), max_length=120, blank=True)
    player_1 = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    player_2 = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    captain = models.ForeignKey(
        Player,
        verbose_name=_("captain"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="captained_entries",
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.ACCEPTED
    )
    registered = models.DateTimeField(_("registered"), auto_now_add=True)
    late = models.BooleanField(_("late entry"), default=False)
    checked_in = models.DateTimeField(_("checked in"), null=True, blank=True)
    updated = updated_field()
    lot = models.PositiveIntegerField(_("lot"), null=True, blank=True)
    seed = models.PositiveIntegerField(_("seed"), null=True, blank=True)
    rating = models.FloatField(_("rating"), null=True, blank=True)
    left = models.DateTimeField(_("withdrawn or disqualified at"), null=True, blank=True)

    class Meta:
        ordering = ["registered", "pk"]
        indexes = [models.Index(fields=["event", "status"])]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")

    def __str__(self) -> str:
        return self.name

    @property
    def players(self) -> list[Player]:
        return [p for p in (self.player_1, self.player_2) if p is not None]

    @property
    def home_club(self) -> str:
        """The entry's club: one on the site, or the name a file gave."""
        return self.club.name if self.club_id else self.club_name


# The names a bracket gives its rounds. The database keeps them in English (the keys); pages
# show them in the reader's language.
ROUND_NAMES = {
    "Final": _("Final"),
    "Semi-finals": _("Semi-finals"),
    "Quarter-finals": _("Quarter-finals"),
    "Winners' final": _("Winners' final"),
    "Winners' semi-finals": _("Winners' semi-finals"),
    "Third-place match": _("Third-place match"),
    "Grand final": _("Grand final"),
    "Grand final reset": _("Grand final reset"),
}
NUMBERED_ROUND_NAMES = {"Round": _("Round %(n)s"), "Losers' round": _("Losers' round %(n)s")}
_NUMBERED = re.compile(r"^(Round|Losers' round) (\d+)$")


def round_label(name: str) -> str | Promise:
    """A round's stored name in the reader's language (a name an organiser typed stays as
    it is)."""
    if name in ROUND_NAMES:
        return ROUND_NAMES[name]
    numbered = _NUMBERED.match(name)
    if numbered:
        return _numbered(NUMBERED_ROUND_NAMES[numbered[1]], int(numbered[2]))
    return name


_numbered = lazy(lambda template, n: str(template) % {"n": n}, str)


class Round(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    division = models.ForeignKey(
        Division, null=True, blank=True, on_delete=models.CASCADE, related_name="rounds"
    )
    number = models.PositiveSmallIntegerField(_("round"))
    name = models.CharField(_("name"), max_length=80, blank=True)
    date = models.DateField(_("date"), null=True, blank=True)
    updated = updated_field()
    time = models.TimeField(_("time"), null=True, blank=True)

    class Meta:
        ordering = ["number", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "division", "number"], name="unique_division_round_number"
            ),
            models.UniqueConstraint(
                fields=["event", "number"],
                condition=models.Q(division__isnull=True),
                name="unique_event_round_number",
            ),
        ]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")

    def __str__(self) -> str:
        if self.name:
            return str(round_label(self.name))
        return str(_("Round %(number)s") % {"number": self.number})


class Match(models.Model):
    """Two entries meeting in a round; `entry_b` empty is a bye."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        POSTPONED = "postponed", _("Postponed")
        PLAYED = "played", _("Played")
        BYE = "bye", _("Bye")
        CANCELLED = "cancelled", _("Cancelled")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="matches")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="boards"
    )
    board = models.PositiveSmallIntegerField(_("board"), null=True, blank=True)
    entry_a = models.ForeignKey(Entry, on_delete=models.RESTRICT, related_name="matches_a")
    entry_b = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.RESTRICT, related_name="matches_b"
    )
    table = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=120, blank=True)
    scheduled = models.DateTimeField(_("scheduled for"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.SCHEDULED
    )
    updated = updated_field()

    class Meta:
        ordering = ["round__number", "table", "pk"]
        indexes = [models.Index(fields=["event", "status"])]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "table"],
                condition=models.Q(parent__isnull=True, table__isnull=False),
                name="unique_table_in_round",
            ),
        ]
        verbose_name = _("match")
        verbose_name_plural = _("matches")

    def __str__(self) -> str:
        if self.entry_b_id is None:
            return _("%(a)s (bye)") % {"a": self.entry_a}
        return _("%(a)s v %(b)s") % {"a": self.entry_a, "b": self.entry_b}

    def get_absolute_url(self) -> str:
        return reverse("match", args=[self.pk])
