"""Tournament state that the competition core does not hold.

- `Tournament`: the format options of an event (one per event).
- `ForbiddenPairing`: two entries that must not meet in a Swiss round (same family, ...).
- `DraftPairing`: the pairings of a Swiss round before it is published; publishing turns
  them into the core's `Round` and `Match` rows, so nobody can play a draft.
- `Bracket`, `BracketSeed`, `BracketSlot`: an elimination bracket. Its structure is rebuilt
  from the pure `league.pairing` functions (kind, size, options); a slot links a bracket
  match to the core `Match` once both entrants are known.
- `Group`, `GroupMember`: the groups of a group stage.
- `Seat`, `SitOut`, `TableResult`: the rounds of an individual event with rotating partners.
- `PairingJob`: a round whose pairing needs longer than a request may take, computed by the
  Celery worker while the organiser's page shows its progress.
"""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from ..models import Entry, Event, Match, Round


class Tournament(models.Model):
    class Seeding(models.TextChoices):
        RATING = "rating", _("By rating")
        REGISTRATION = "registration", _("By order of registration")
        LOT = "lot", _("By lot")

    SIT_OUT_SCORES = [(0.0, _("Nothing")), (0.5, _("Half a win")), (1.0, _("A win"))]

    event = models.OneToOneField(
        Event, primary_key=True, on_delete=models.CASCADE, related_name="tournament"
    )
    rounds = models.PositiveSmallIntegerField(
        _("rounds planned"), default=5, validators=[MinValueValidator(1), MaxValueValidator(30)]
    )
    avoid_same_club = models.BooleanField(
        _("avoid pairing entries of the same club"), default=False
    )
    seeding = models.CharField(
        _("seeding"), max_length=16, choices=Seeding.choices, default=Seeding.REGISTRATION
    )
    third_place = models.BooleanField(_("third-place match"), default=False)
    grand_final_reset = models.BooleanField(_("grand final reset"), default=True)
    groups = models.PositiveSmallIntegerField(
        _("groups"), default=2, validators=[MinValueValidator(1), MaxValueValidator(16)]
    )
    qualifiers_per_group = models.PositiveSmallIntegerField(
        _("qualifiers per group"),
        default=2,
        validators=[MinValueValidator(1), MaxValueValidator(8)],
    )
    playoff_double = models.BooleanField(_("double-elimination playoff"), default=False)
    sit_out_score = models.FloatField(
        _("score for sitting out"), choices=SIT_OUT_SCORES, default=0.5
    )
    sit_out_points = models.PositiveSmallIntegerField(
        _("points for sitting out"), default=0, validators=[MaxValueValidator(1000)]
    )
    whist = models.BooleanField(_("complete whist schedule"), default=False)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return str(self.event)


class ForbiddenPairing(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="forbidden_pairings")
    entry_a = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    entry_b = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(_("reason"), max_length=120, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["entry_a", "entry_b"], name="unique_forbidden_pairing"),
            models.CheckConstraint(
                condition=Q(entry_a__lt=models.F("entry_b")), name="forbidden_pairing_ordered"
            ),
        ]
        verbose_name = _("forbidden pairing")
        verbose_name_plural = _("forbidden pairings")

    def __str__(self) -> str:
        return f"{self.entry_a} ≠ {self.entry_b}"


class DraftPairing(models.Model):
    """A table of the next Swiss round, not yet published; `entry_b` empty is the bye."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="draft_pairings")
    number = models.PositiveSmallIntegerField(_("round"))
    table = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    entry_a = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    entry_b = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    pinned = models.BooleanField(_("pinned"), default=False)

    class Meta:
        ordering = ["table", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "table"],
                condition=Q(table__isnull=False),
                name="unique_draft_table",
            ),
            models.UniqueConstraint(fields=["event", "entry_a"], name="unique_draft_entry_a"),
            models.UniqueConstraint(fields=["event", "entry_b"], name="unique_draft_entry_b"),
        ]
        verbose_name = _("draft pairing")
        verbose_name_plural = _("draft pairings")

    def __str__(self) -> str:
        return f"{self.entry_a} – {self.entry_b or '·'}"


class Bracket(models.Model):
    class Kind(models.TextChoices):
        SINGLE = "single", _("Single elimination")
        DOUBLE = "double", _("Double elimination")

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="bracket")
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    third_place = models.BooleanField(_("third-place match"), default=False)
    grand_final_reset = models.BooleanField(_("grand final reset"), default=True)
    first_round = models.PositiveSmallIntegerField(
        _("first round number"), default=1, help_text=_("Rounds before it are a group stage.")
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("bracket")
        verbose_name_plural = _("brackets")

    def __str__(self) -> str:
        return f"{self.event} · {self.get_kind_display()}"


class BracketSeed(models.Model):
    bracket = models.ForeignKey(Bracket, on_delete=models.CASCADE, related_name="seeds")
    number = models.PositiveSmallIntegerField(_("seed"))
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["bracket", "number"], name="unique_seed_number"),
            models.UniqueConstraint(fields=["bracket", "entry"], name="unique_seed_entry"),
        ]
        verbose_name = _("seed")
        verbose_name_plural = _("seeds")

    def __str__(self) -> str:
        return f"{self.number}. {self.entry}"


class BracketSlot(models.Model):
    """Bracket match `number` (of the pure bracket) is played as `match`."""

    bracket = models.ForeignKey(Bracket, on_delete=models.CASCADE, related_name="slots")
    number = models.PositiveSmallIntegerField(_("bracket match"))
    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="bracket_slot")

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["bracket", "number"], name="unique_bracket_slot")
        ]
        verbose_name = _("bracket slot")
        verbose_name_plural = _("bracket slots")

    def __str__(self) -> str:
        return f"{self.bracket} #{self.number}"


class Group(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="groups")
    name = models.CharField(_("name"), max_length=40)
    order = models.PositiveSmallIntegerField(_("order"), default=0)

    class Meta:
        ordering = ["order", "pk"]
        constraints = [models.UniqueConstraint(fields=["event", "name"], name="unique_group_name")]
        verbose_name = _("group")
        verbose_name_plural = _("groups")

    def __str__(self) -> str:
        return self.name


class GroupMember(models.Model):
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="members")
    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="group_member")
    seed = models.PositiveSmallIntegerField(_("seed"))

    class Meta:
        ordering = ["seed"]
        verbose_name = _("group member")
        verbose_name_plural = _("group members")

    def __str__(self) -> str:
        return f"{self.group}: {self.entry}"


class Seat(models.Model):
    """Individual events: who sits where. Seats 1 and 3 are side A, 2 and 4 side B (partners
    sit opposite each other). The player is their individual entry in the event."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    table = models.PositiveSmallIntegerField(_("table"))
    seat = models.PositiveSmallIntegerField(_("seat"), choices=[(n, n) for n in range(1, 5)])
    player = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table", "seat"], name="unique_seat"),
            models.UniqueConstraint(fields=["round", "player"], name="one_seat_per_round"),
        ]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")

    def __str__(self) -> str:
        return f"{self.round} · {self.table}/{self.seat}: {self.player}"

    @property
    def side(self) -> str:
        return "a" if self.seat in (1, 3) else "b"


class SitOut(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="sit_outs")
    player = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="sit_outs")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "player"], name="unique_sit_out")]
        verbose_name = _("sit-out")
        verbose_name_plural = _("sit-outs")

    def __str__(self) -> str:
        return f"{self.round}: {self.player}"


class TableResult(models.Model):
    """The points of both sides at one table of an individual event's round."""

    class Status(models.TextChoices):
        PROPOSED = "proposed", _("Awaiting confirmation")
        CONFIRMED = "confirmed", _("Confirmed")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="table_results")
    table = models.PositiveSmallIntegerField(_("table"))
    points_a = models.PositiveIntegerField(_("points of seats 1 and 3"))
    points_b = models.PositiveIntegerField(_("points of seats 2 and 4"))
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.PROPOSED
    )
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["table"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="unique_table_result")
        ]
        verbose_name = _("table result")
        verbose_name_plural = _("table results")

    def __str__(self) -> str:
        return f"{self.round} · {self.table}: {self.points_a}–{self.points_b}"


class PairingJob(models.Model):
    """A Swiss round's pairing or an individual round's seating computed in the worker.

    Made only when the search needs more than a request may take (`services.jobs`); the
    worker writes its progress (`done` of `total`) as it goes, and what it refused, in the
    language of the organiser who asked."""

    class Kind(models.TextChoices):
        PAIR = "pair", _("Pair the round")
        SEAT = "seat", _("Seat the round")

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Searching")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="pairing_jobs")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    language = models.CharField(max_length=16, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    message = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.event}: {self.kind} · {self.status}"

    @property
    def percent(self) -> int:
        return 0 if not self.total else min(100, self.done * 100 // self.total)
