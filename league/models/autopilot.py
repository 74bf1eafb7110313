"""Online events that run themselves: the organiser's settings, once, and where the event is.

An `Autopilot` belongs to an online event (`mode = online`). Its steps (league/services/
autopilot.py, driven by games/services/autopilot.py) are decided from this row and the
event's rounds and results, each under the event's row lock, so that every step happens
once whoever runs it (two beat processes, a worker that died mid-step, the web sweeper).
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from .events import Event

DEFAULT_CHECK_IN_MINUTES = 15
DEFAULT_PAUSE_SECONDS = 120
DEFAULT_ROUND_MINUTES = 40


class Autopilot(models.Model):
    class Forfeits(models.TextChoices):
        WITHDRAW = "withdraw", _("Withdrawn from the event")
        KEEP = "keep", _("Kept in the event")

    event = models.OneToOneField(
        Event, primary_key=True, on_delete=models.CASCADE, related_name="autopilot"
    )
    starts = models.DateTimeField(_("starts at"))
    check_in_minutes = models.PositiveSmallIntegerField(
        _("check-in opens (minutes before the start)"), default=DEFAULT_CHECK_IN_MINUTES
    )
    pause_seconds = models.PositiveIntegerField(
        _("pause between rounds (seconds)"), default=DEFAULT_PAUSE_SECONDS
    )
    round_minutes = models.PositiveSmallIntegerField(
        _("round time limit (minutes)"),
        default=DEFAULT_ROUND_MINUTES,
        help_text=_("For matches to a target; a time-limited match's limit is its own."),
    )
    two_forfeits = models.CharField(
        _("a pair that forfeits two rounds in a row is"),
        max_length=8,
        choices=Forfeits.choices,
        default=Forfeits.WITHDRAW,
    )
    # An arena's time window, from its start (the round in play is the arena, its deadline
    # the arena's end).
    arena_minutes = models.PositiveSmallIntegerField(
        _("arena length (minutes)"), null=True, blank=True
    )
    paused = models.DateTimeField(_("paused since"), null=True, blank=True)
    postponed = models.BooleanField(_("postponed once"), default=False)
    started = models.DateTimeField(null=True, blank=True)
    # The round in play: its number, when its tables opened, its deadline, and when its
    # last match ended (the pause runs from then).
    round = models.PositiveSmallIntegerField(default=0)
    round_started = models.DateTimeField(null=True, blank=True)
    round_deadline = models.DateTimeField(null=True, blank=True)
    round_ended = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    ratings_queued = models.DateTimeField(null=True, blank=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("autopilot")
        verbose_name_plural = _("autopilots")

    def __str__(self) -> str:
        return str(self.event)
