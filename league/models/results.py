"""Match results, their confirmation, and the audit trail of every change."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .events import Event, Match
from .touched import updated_field


class ResultStatus(models.TextChoices):
    PROPOSED = "proposed", _("Awaiting confirmation")
    CONFIRMED = "confirmed", _("Confirmed")
    DISPUTED = "disputed", _("Disputed")
    SUPERSEDED = "superseded", _("Superseded")
    REJECTED = "rejected", _("Rejected")


class Result(models.Model):
    """One proposal of a match's outcome. At most one per match is confirmed (and counts)."""

    Status = ResultStatus
    OPEN = (Status.PROPOSED, Status.DISPUTED)
    # a match's current result: the one that counts, or the one waiting to
    CURRENT = (*OPEN, Status.CONFIRMED)

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="results")
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.PROPOSED
    )
    games_a = models.PositiveSmallIntegerField(_("games won by A"))
    games_b = models.PositiveSmallIntegerField(_("games won by B"))
    points_a = models.PositiveIntegerField(_("points of A"))
    points_b = models.PositiveIntegerField(_("points of B"))
    shutout = models.BooleanField(_("shutout"), default=False)
    forfeit = models.BooleanField(_("forfeit"), default=False)
    # [{"points_a": int, "points_b": int, "hands": [record, ...], "rulings": [ruling, ...]}]
    games = models.JSONField(_("games"), default=list, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered = models.DateTimeField(_("entered"), auto_now_add=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed = models.DateTimeField(_("confirmed"), null=True, blank=True)
    updated = updated_field()
    corrects = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="corrections"
    )
    note = models.CharField(_("note"), max_length=300, blank=True)

    class Meta:
        ordering = ["-entered", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["match"],
                condition=Q(status=ResultStatus.CONFIRMED),
                name="one_confirmed_result_per_match",
            ),
            models.UniqueConstraint(
                fields=["match"],
                condition=Q(status__in=[ResultStatus.PROPOSED, ResultStatus.DISPUTED]),
                name="one_open_result_per_match",
            ),
        ]
        verbose_name = _("result")
        verbose_name_plural = _("results")

    def __str__(self) -> str:
        return f"{self.games_a}–{self.games_b} ({self.points_a}–{self.points_b})"

    @property
    def winner(self) -> str | None:
        """ "a", "b", or None for a drawn result."""
        if self.games_a == self.games_b:
            return None
        return "a" if self.games_a > self.games_b else "b"


class AuditEntry(models.Model):
    """Who changed what, when: the state before and after, as JSON."""

    # A deleted draft's entries stay in its organisation's log, with no event.
    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.SET_NULL, related_name="audit"
    )
    # Whose log it is in: the event's organisation, or the one whose webhook, key or deleted
    # event it was.
    organisation = models.ForeignKey(
        "league.Organisation", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(_("action"), max_length=40)
    target = models.CharField(_("target"), max_length=60)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [
            models.Index(fields=["event", "at"]),
            models.Index(fields=["organisation", "at"]),
        ]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.target}"
