"""Disputes over a hand, the referees' rulings (an append-only log), appeals and batch checks.

A disputed hand is referred to generically: the league match, the game and hand numbers, a
snapshot of its `domino-hand/1` record and, for a hand played at a live table, the id of the
stored live hand. Engine sides map to the match's entries: side 0 (seats 0 and 2) is entry A.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from league.models import Event, Match, Result, Round


class RefereeSettings(models.Model):
    """An event's refereeing settings (one row per event, created on first use)."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="referee_settings")
    window_hours = models.PositiveSmallIntegerField(
        _("dispute window (hours)"),
        default=24,
        help_text=_("How long after a hand is played a dispute may be opened on it."),
    )
    chief_referee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("chief referee"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    penalty_points = models.PositiveIntegerField(
        _("penalty (points to the other side)"),
        default=25,
        help_text=_("Awarded to the other side when a referee penalises a fault."),
    )

    class Meta:
        verbose_name = _("referee settings")
        verbose_name_plural = _("referee settings")

    def __str__(self) -> str:
        return str(self.event)


class DisputeStatus(models.TextChoices):
    OPEN = "open", _("Awaiting a ruling")
    RULED = "ruled", _("Ruled")
    APPEALED = "appealed", _("Appealed to the chief referee")
    FINAL = "final", _("Decided on appeal")


class Dispute(models.Model):
    Status = DisputeStatus
    PENDING = (Status.OPEN, Status.APPEALED)

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="disputes")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="disputes")
    game = models.PositiveSmallIntegerField(_("game"))
    hand = models.PositiveSmallIntegerField(_("hand"))
    live_hand_id = models.PositiveBigIntegerField(null=True, blank=True)
    record = models.JSONField(_("hand record as disputed"))
    hand_ended = models.BooleanField(default=True)
    played = models.DateTimeField(_("played"))
    reason = models.TextField(_("reason"), max_length=2000)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    opened = models.DateTimeField(_("opened"), auto_now_add=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )

    class Meta:
        ordering = ["-opened", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "game", "hand"],
                condition=models.Q(status__in=[DisputeStatus.OPEN, DisputeStatus.APPEALED]),
                name="one_pending_dispute_per_hand",
            )
        ]
        indexes = [models.Index(fields=["match", "status"])]
        verbose_name = _("dispute")
        verbose_name_plural = _("disputes")

    def __str__(self) -> str:
        return _("Dispute on game %(game)s, hand %(hand)s of %(match)s") % {
            "game": self.game,
            "hand": self.hand,
            "match": self.match,
        }


class AppendOnlyQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise TypeError("rulings are append-only: they are never updated")

    def delete(self):
        raise TypeError("rulings are append-only: they are never deleted")


class Ruling(models.Model):
    """One referee's decision: who, when, what, why, and the record before and after.

    Append-only: a ruling is written once and never changed or removed (`save` refuses an
    existing row, `delete` and the queryset's `update`/`delete` raise).
    """

    class Kind(models.TextChoices):
        UPHOLD = "uphold", _("Uphold the result")
        CORRECT = "correct", _("Correct the record")
        AWARD = "award", _("Award the hand to a side")
        REPLAY = "replay", _("Order the hand replayed")
        PENALTY = "penalty", _("Apply a penalty")

    dispute = models.ForeignKey(Dispute, on_delete=models.PROTECT, related_name="rulings")
    kind = models.CharField(_("ruling"), max_length=10, choices=Kind.choices)
    on_appeal = models.BooleanField(_("on appeal"), default=False)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(_("at"), auto_now_add=True)
    reason = models.TextField(_("reason"), max_length=2000)
    side = models.PositiveSmallIntegerField(_("side"), null=True, blank=True)
    record_before = models.JSONField()
    record_after = models.JSONField()
    points_before = models.JSONField()
    points_after = models.JSONField()
    result = models.ForeignKey(
        Result, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        ordering = ["at", "pk"]
        verbose_name = _("ruling")
        verbose_name_plural = _("rulings")

    def __str__(self) -> str:
        return f"{self.get_kind_display()} · {self.at:%Y-%m-%d %H:%M}"

    def save(self, *args, **kwargs) -> None:
        if self.pk is not None or not self._state.adding:
            raise TypeError("rulings are append-only: they are never updated")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise TypeError("rulings are append-only: they are never deleted")


class Appeal(models.Model):
    """A party's appeal against a ruling, decided once by the event's chief referee."""

    ruling = models.OneToOneField(Ruling, on_delete=models.PROTECT, related_name="appeal")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(_("appealed"), auto_now_add=True)
    reason = models.TextField(_("reason"), max_length=2000)
    decision = models.OneToOneField(
        Ruling, null=True, blank=True, on_delete=models.PROTECT, related_name="decides"
    )

    class Meta:
        verbose_name = _("appeal")
        verbose_name_plural = _("appeals")

    def __str__(self) -> str:
        return str(self.ruling)


class Batch(models.Model):
    """An organiser's upload of a round's hand records (JSON lines), adjudicated by a task."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Checking")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="hand_batches")
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    filename = models.CharField(max_length=200, blank=True)
    lines = models.JSONField(default=list)  # the file's lines, as uploaded
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    total = models.PositiveIntegerField(default=0)
    processed = models.PositiveIntegerField(default=0)
    # [{"line": n, "kind": "fault"|"error"|"valid", ...}]
    report = models.JSONField(default=list)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = _("batch of hand records")
        verbose_name_plural = _("batches of hand records")

    def __str__(self) -> str:
        return self.filename or str(self.pk)

    @property
    def percent(self) -> int:
        return 100 if not self.total else min(100, self.processed * 100 // self.total)
