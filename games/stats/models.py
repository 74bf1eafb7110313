"""Players' statistics: one row per player per finished hand, the hand's facts for that
player's seat (games/engine/facts.py), so that a player's page adds them up in one query."""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models import Hand
from league.models import Match, Player


class HandStat(models.Model):
    """What one finished hand says about one player: from a live table's stored hand
    (`hand`) or from a hand record entered with a league match's result (`league_match`,
    `game`, `number`), as the latest referee's ruling on it left it.

    Rewritten whole (deleted and inserted again) whenever the hand is counted again, so
    counting a hand twice, or after a ruling, leaves the same rows.
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    hand = models.ForeignKey(
        Hand, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    league_match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    game = models.PositiveSmallIntegerField(default=0)  # league hands: the game, from 1
    number = models.PositiveSmallIntegerField(default=0)  # the hand's number in its game
    match_key = models.CharField(max_length=24)  # "t<table>" or "m<league match>"
    played = models.DateTimeField()
    rule_set = models.CharField(max_length=40)  # games.engine.rule_set_name
    seat = models.PositiveSmallIntegerField()
    pairs = models.BooleanField()
    partner = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    ended = models.CharField(max_length=8)  # domino, block, or award (a referee's)
    result = models.SmallIntegerField()  # 1 won, -1 lost, 0 neither (a tied tranque)
    capicua = models.BooleanField(default=False)
    points = models.IntegerField(default=0)  # what the player's side scored in the hand
    passes_forced = models.PositiveSmallIntegerField(default=0)
    passes_suffered = models.PositiveSmallIntegerField(default=0)
    opening = models.CharField(max_length=3, blank=True)  # the tile the player opened with
    # On the hand that ended the match: 1 won, -1 lost; 0 on every other hand.
    match_result = models.SmallIntegerField(default=0)

    class Meta:
        verbose_name = _("hand statistic")
        verbose_name_plural = _("hand statistics")
        constraints = [
            models.UniqueConstraint(
                fields=["player", "hand"], condition=Q(hand__isnull=False), name="one_stat_per_hand"
            ),
            models.UniqueConstraint(
                fields=["player", "league_match", "game", "number"],
                condition=Q(league_match__isnull=False),
                name="one_stat_per_league_hand",
            ),
        ]
        # The page's one query reads the index alone (an index-only scan), not the table.
        indexes = [
            models.Index(
                fields=["player", "rule_set"],
                include=[
                    "pairs",
                    "partner",
                    "opening",
                    "result",
                    "ended",
                    "capicua",
                    "match_result",
                    "points",
                    "passes_forced",
                    "passes_suffered",
                ],
                name="stats_player_figures",
            )
        ]

    def __str__(self) -> str:
        return f"{self.player_id} · {self.match_key} · {self.number}"
