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

    def __str__(self) -> str:
        return f"{self.player_id} · {self.match_key} · {self.number}"


# What one hand adds to its player's tallies (`contribution`), column by column.
TALLIED = (
    "hands",
    "hands_won",
    "hands_lost",
    "matches_won",
    "matches_lost",
    "dominoes_won",
    "dominoes_lost",
    "capicuas_won",
    "capicuas_lost",
    "tranques_won",
    "tranques_lost",
    "tranques_tied",
    "awarded_won",
    "awarded_lost",
    "passes_forced",
    "passes_suffered",
    "points_won",
    "opened",
)


class Tally(models.Model):
    """A player's hands added up per rule set, partner and opening tile: what the statistics
    page reads (a few rows per player, whatever the number of hands). Kept in step with the
    `HandStat` rows, in the same transaction, by adding what each new row contributes and
    taking off what each replaced row did."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    rule_set = models.CharField(max_length=40)
    pairs = models.BooleanField()
    partner_key = models.IntegerField(default=0)  # the partner's player id; 0: none known
    opening = models.CharField(max_length=3, blank=True)
    hands = models.IntegerField(default=0)
    hands_won = models.IntegerField(default=0)
    hands_lost = models.IntegerField(default=0)
    matches_won = models.IntegerField(default=0)
    matches_lost = models.IntegerField(default=0)
    dominoes_won = models.IntegerField(default=0)
    dominoes_lost = models.IntegerField(default=0)
    capicuas_won = models.IntegerField(default=0)
    capicuas_lost = models.IntegerField(default=0)
    tranques_won = models.IntegerField(default=0)
    tranques_lost = models.IntegerField(default=0)
    tranques_tied = models.IntegerField(default=0)
    awarded_won = models.IntegerField(default=0)
    awarded_lost = models.IntegerField(default=0)
    passes_forced = models.IntegerField(default=0)
    passes_suffered = models.IntegerField(default=0)
    points_won = models.IntegerField(default=0)
    opened = models.IntegerField(default=0)

    class Meta:
        verbose_name = _("statistics tally")
        verbose_name_plural = _("statistics tallies")
        constraints = [
            models.UniqueConstraint(
                fields=["player", "rule_set", "pairs", "partner_key", "opening"],
                name="one_tally_per_group",
            )
        ]

    def __str__(self) -> str:
        return f"{self.player_id} · {self.rule_set} · {self.partner_key} · {self.opening}"


def contribution(row: HandStat) -> dict[str, int]:
    """What one player's hand adds to each tallied column."""
    won, lost = row.result == 1, row.result == -1
    domino, block, award = row.ended == "domino", row.ended == "block", row.ended == "award"
    return {
        "hands": 1,
        "hands_won": won,
        "hands_lost": lost,
        "matches_won": row.match_result == 1,
        "matches_lost": row.match_result == -1,
        "dominoes_won": domino and won,
        "dominoes_lost": domino and lost,
        "capicuas_won": row.capicua and won,
        "capicuas_lost": row.capicua and lost,
        "tranques_won": block and won,
        "tranques_lost": block and lost,
        "tranques_tied": block and row.result == 0,
        "awarded_won": award and won,
        "awarded_lost": award and lost,
        "passes_forced": row.passes_forced,
        "passes_suffered": row.passes_suffered,
        "points_won": row.points if won else 0,
        "opened": row.opening != "",
    }


def tally_key(row: HandStat) -> tuple[int, str, bool, int, str]:
    return (row.player_id, row.rule_set, row.pairs, row.partner_id or 0, row.opening)
