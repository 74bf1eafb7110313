"""Fair play: each finished hand's decisions valued on the seat's own information and with
its partner's tiles (games/engine/fairplay.py), and the referees' cases.

Nothing here is ever shown to a player: only the referees' queue reads these rows.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models import Hand


class HandCheck(models.Model):
    """One live hand checked, as the latest referee's ruling left its record (`digest`):
    checked again only when that record changes."""

    class Status(models.TextChoices):
        DONE = "done", _("Checked")
        SKIPPED = "skipped", _("Not checked")
        FAILED = "failed", _("Could not be replayed")

    hand = models.OneToOneField(Hand, on_delete=models.CASCADE, related_name="+")
    digest = models.CharField(max_length=64)
    status = models.CharField(max_length=8, choices=Status.choices)
    reason = models.CharField(max_length=24, blank=True)  # why skipped or failed
    seconds = models.FloatField(default=0)  # CPU seconds the check took
    checked = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.hand} · {self.status}"


class Decision(models.Model):
    """A person's decision in a checked hand (never a bot's, never one made on timeout)."""

    class Picked(models.TextChoices):
        PARTNER = "partner", _("The best move with the partner's tiles")
        OWN = "own", _("The best move on the player's own information")
        OTHER = "other", _("Another move")

    hand_check = models.ForeignKey(HandCheck, on_delete=models.CASCADE, related_name="decisions")
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="+")
    index = models.PositiveSmallIntegerField()  # the action's index in the hand
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    # The partner, when a person sat there for the whole hand (a bot partner: none).
    partner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.CASCADE, related_name="+"
    )
    telling = models.BooleanField()  # the two best moves differ
    picked = models.CharField(max_length=8, choices=Picked.choices)
    think = models.FloatField(null=True)  # seconds since the action before it
    evidence = models.JSONField()  # games.engine.fairplay.DecisionCheck.as_dict()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["hand", "index"], name="one_decision_per_action")
        ]
        indexes = [models.Index(fields=["player", "partner"])]

    def __str__(self) -> str:
        return f"{self.hand} · {self.index}"


class Case(models.Model):
    """A partnership (or, for the softer signal, one player) past the threshold, before the
    referees; they clear it or record a sanction, with a note. Nothing is automatic."""

    class Kind(models.TextChoices):
        PARTNERSHIP = "partners", _("Plays as if it saw the partner's tiles")
        PROGRAM = "program", _("Plays like a program, at an even pace")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        CLEARED = "cleared", _("Cleared")
        SANCTIONED = "sanctioned", _("Sanctioned")

    kind = models.CharField(max_length=8, choices=Kind.choices)
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    partner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN)
    opened = models.DateTimeField(auto_now_add=True)
    statistic = models.JSONField(default=dict)  # the figures when it opened, kept up to date
    # The organisations whose events the hands were played in (their lineage): their
    # referees see the case; site staff see every case.
    organisations = models.JSONField(default=list)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided = models.DateTimeField(null=True, blank=True)
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["-opened", "-pk"]
        # One open case for a partnership, one for a player alone (no partner): two partial
        # indexes, which SQLite has too (it has no NULLS NOT DISTINCT).
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "player", "partner"],
                condition=Q(status="open", partner__isnull=False),
                name="one_open_case",
            ),
            models.UniqueConstraint(
                fields=["kind", "player"],
                condition=Q(status="open", partner__isnull=True),
                name="one_open_case_alone",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} · {self.pk}"
