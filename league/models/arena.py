"""The arena (an online event's format, docs/online-events.md): for a time window, entries
(pairs, or single players the server gives a partner) join and leave when they like, and
the server seats two free pairs at a table as soon as it can.

`ArenaSpot` is an entry's place in the arena: in it or not, since when it waits for a
table, the game it plays, and its score with its streak (wins in a row). `ArenaGame` is
one match: its two sides (a pair's entry, or two single players), when it started and
ended, who won and the points each entry got. Both are written under the event's row lock
(league/services/arena.py), so that each seating and each result happens once.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from .events import Entry, Event


class ArenaGame(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="arena_games")
    # entry ids of each side: one pair, or two single players (partners)
    side_a = models.JSONField(default=list)
    side_b = models.JSONField(default=list)
    started = models.DateTimeField()
    ended = models.DateTimeField(null=True, blank=True)
    # the side that won (0: a, 1: b); none when it ended with nobody playing it
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    awarded = models.JSONField(default=dict)  # entry id → points it got

    class Meta:
        verbose_name = _("arena game")
        verbose_name_plural = _("arena games")
        indexes = [models.Index(fields=["event", "ended"])]

    def __str__(self) -> str:
        return f"{self.event} #{self.pk}"

    @property
    def entries(self) -> list[int]:
        return [*self.side_a, *self.side_b]


class ArenaSpot(models.Model):
    entry = models.OneToOneField(
        Entry, primary_key=True, on_delete=models.CASCADE, related_name="arena_spot"
    )
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="arena_spots")
    present = models.BooleanField(_("in the arena"), default=False)
    # in the arena and at no table since then (none: playing, or not in the arena)
    waiting = models.DateTimeField(null=True, blank=True)
    game = models.ForeignKey(
        ArenaGame, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    score = models.PositiveIntegerField(_("score"), default=0)
    streak = models.PositiveSmallIntegerField(_("wins in a row"), default=0)
    played = models.PositiveIntegerField(_("played"), default=0)
    won = models.PositiveIntegerField(_("won"), default=0)
    last_opponents = models.JSONField(default=list)  # entry ids it faced at its last table
    last_partner = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        verbose_name = _("arena place")
        verbose_name_plural = _("arena places")
        indexes = [models.Index(fields=["event", "waiting"])]

    def __str__(self) -> str:
        return str(self.entry)
