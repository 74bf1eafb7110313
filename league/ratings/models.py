"""Ratings: pools, which events feed them, and each player's rating and its history.

A pool is an independent ranking: the global pool of ranked online play, or one
organisation's ranking of its over-the-board events. An event feeds at most one pool
(`EventPool`). Each counted match of a pool has a `RatedMatch` row, whose `played_at` puts
the pool's matches in the order they are rated (see `services.played_at`).
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from league.models import Event, Match, Organisation, Player
from league.models.touched import updated_field


def provisional_below() -> int:
    """A rating is shown as provisional until its player has played this many matches."""
    return getattr(settings, "RATINGS_PROVISIONAL_MATCHES", 10)


class RatingPool(models.Model):
    class Kind(models.TextChoices):
        GLOBAL = "global", _("Global ranking of online play")
        ORGANISATION = "organisation", _("Organisation ranking")

    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    organisation = models.OneToOneField(
        Organisation,
        verbose_name=_("organisation"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="rating_pool",
    )
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    # The earliest `played_at` from which the pool must be replayed; set by every trigger,
    # taken (and moved to `replaying_from`) by the task that replays it.
    dirty_from = models.DateTimeField(null=True, blank=True, editable=False)
    # Set while a replay runs; left set by a replay that failed, so that the next run redoes it.
    replaying_from = models.DateTimeField(null=True, blank=True, editable=False)
    recalculated = models.DateTimeField(_("last recalculated"), null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = updated_field()

    class Meta:
        ordering = ["kind", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["kind"], condition=Q(kind="global"), name="one_global_rating_pool"
            ),
            models.CheckConstraint(
                condition=Q(kind="global", organisation__isnull=True)
                | Q(kind="organisation", organisation__isnull=False),
                name="rating_pool_kind_matches_organisation",
            ),
        ]
        verbose_name = _("rating pool")
        verbose_name_plural = _("rating pools")

    def __str__(self) -> str:
        if self.kind == self.Kind.GLOBAL:
            return str(_("Online ranking"))
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("ratings:leaderboard", args=[self.slug])


class EventPool(models.Model):
    """The pool an event feeds (an event not listed here feeds none)."""

    event = models.OneToOneField(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="rating_pool_link"
    )
    pool = models.ForeignKey(
        RatingPool, verbose_name=_("rating pool"), on_delete=models.CASCADE, related_name="events"
    )

    class Meta:
        verbose_name = _("event's rating pool")
        verbose_name_plural = _("events' rating pools")

    def __str__(self) -> str:
        return f"{self.event} → {self.pool}"


class RatedMatch(models.Model):
    """A rated match and its place in the pool's order: a competition's match with a counted
    result, or a finished ranked table of online play (global pool).

    Derived data like `RatingChange` (see there for its keys without database constraints).
    """

    match = models.OneToOneField(
        Match,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        db_constraint=False,
        related_name="rating_slot",
    )
    table = models.OneToOneField(
        "games.Table",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        db_constraint=False,
        related_name="rating_slot",
    )
    pool = models.ForeignKey(
        RatingPool, on_delete=models.CASCADE, db_index=False, db_constraint=False, related_name="+"
    )
    played_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["pool", "played_at"], name="ratings_slot_order")]
        constraints = [
            models.CheckConstraint(
                condition=Q(match__isnull=False, table__isnull=True)
                | Q(match__isnull=True, table__isnull=False),
                name="rated_match_or_table",
            )
        ]

    def __str__(self) -> str:
        what = f"table {self.table_id}" if self.table_id else self.match_id
        return f"{self.pool} · {what} @ {self.played_at:%Y-%m-%d %H:%M}"


class Rating(models.Model):
    """A player's current rating in a pool (OpenSkill's mu and sigma)."""

    pool = models.ForeignKey(
        RatingPool,
        verbose_name=_("rating pool"),
        on_delete=models.CASCADE,
        db_index=False,
        related_name="+",
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="ratings"
    )
    mu = models.FloatField(_("skill (mu)"))
    sigma = models.FloatField(_("uncertainty (sigma)"))
    # The conservative value that is displayed and ranked: OpenSkill's ordinal, mu − 3·sigma.
    ordinal = models.FloatField(_("rating"))
    matches = models.PositiveIntegerField(_("matches"))
    updated = updated_field()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["pool", "player"], name="one_rating_per_pool")
        ]
        indexes = [models.Index(fields=["pool", "-ordinal"], name="ratings_leaderboard")]
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")

    def __str__(self) -> str:
        return f"{self.player} · {self.pool}: {self.ordinal:.1f}"

    @property
    def provisional(self) -> bool:
        return self.matches < provisional_below()


class RatingChange(models.Model):
    """What one rated match (a competition's match, or a ranked table) did to one player's
    rating.

    Derived data, rewritten by every replay (400,000 rows for 100,000 matches): its foreign
    keys have no database constraint, whose deferred checks would double a replay's time;
    Django's on_delete still removes these rows with their match, table, player or pool.
    """

    pool = models.ForeignKey(
        RatingPool, on_delete=models.CASCADE, db_index=False, db_constraint=False, related_name="+"
    )
    match = models.ForeignKey(
        Match,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        db_index=False,
        db_constraint=False,
        related_name="rating_changes",
    )
    table = models.ForeignKey(
        "games.Table",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        db_index=False,
        db_constraint=False,
        related_name="rating_changes",
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, db_index=False, db_constraint=False, related_name="+"
    )
    played_at = models.DateTimeField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["match", "player", "pool"], name="one_rating_change_per_match"
            ),
            models.UniqueConstraint(
                fields=["table", "player", "pool"],
                condition=Q(table__isnull=False),
                name="one_rating_change_per_table",
            ),
        ]
        indexes = [
            models.Index(fields=["pool", "played_at"], name="ratings_change_order"),
            models.Index(fields=["player", "pool", "played_at"], name="ratings_change_history"),
        ]

    def __str__(self) -> str:
        if self.table_id:
            return f"{self.player_id} · table {self.table_id}"
        return f"{self.player_id} · match {self.match_id}"
