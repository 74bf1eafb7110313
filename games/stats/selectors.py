"""A player's statistics, read in one query whatever the number of hands.

One SQL statement adds up the player's `HandStat` rows three ways at once (GROUPING SETS):
per rule set, per rule set and partner, per rule set and opening tile. Every figure of the
page and of the API comes from its answer; the totals over all rule sets are sums of the
rule sets' figures (a match is played under one rule set).
"""

from dataclasses import dataclass, field, fields
from functools import cache

from django.db import connection

from league.models import Player

from .models import HandStat

# The counted columns of the query, in order; each is a field of `Figures`.
_COUNTS = {
    "hands": "COUNT(*)",
    "hands_won": "COUNT(*) FILTER (WHERE s.result = 1)",
    "hands_lost": "COUNT(*) FILTER (WHERE s.result = -1)",
    "matches": "COUNT(*) FILTER (WHERE s.match_result <> 0)",
    "matches_won": "COUNT(*) FILTER (WHERE s.match_result = 1)",
    "matches_lost": "COUNT(*) FILTER (WHERE s.match_result = -1)",
    "dominoes_won": "COUNT(*) FILTER (WHERE s.ended = 'domino' AND s.result = 1)",
    "dominoes_lost": "COUNT(*) FILTER (WHERE s.ended = 'domino' AND s.result = -1)",
    "capicuas_won": "COUNT(*) FILTER (WHERE s.capicua AND s.result = 1)",
    "capicuas_lost": "COUNT(*) FILTER (WHERE s.capicua AND s.result = -1)",
    "tranques_won": "COUNT(*) FILTER (WHERE s.ended = 'block' AND s.result = 1)",
    "tranques_lost": "COUNT(*) FILTER (WHERE s.ended = 'block' AND s.result = -1)",
    "tranques_tied": "COUNT(*) FILTER (WHERE s.ended = 'block' AND s.result = 0)",
    "awarded_won": "COUNT(*) FILTER (WHERE s.ended = 'award' AND s.result = 1)",
    "awarded_lost": "COUNT(*) FILTER (WHERE s.ended = 'award' AND s.result = -1)",
    "passes_forced": "COALESCE(SUM(s.passes_forced), 0)",
    "passes_suffered": "COALESCE(SUM(s.passes_suffered), 0)",
    "points_won": "COALESCE(SUM(s.points) FILTER (WHERE s.result = 1), 0)",
    "opened": "COUNT(*) FILTER (WHERE s.opening <> '')",
}


@dataclass
class Figures:
    """Counts over a set of hands; the rates are derived."""

    hands: int = 0
    hands_won: int = 0
    hands_lost: int = 0
    matches: int = 0
    matches_won: int = 0
    matches_lost: int = 0
    dominoes_won: int = 0
    dominoes_lost: int = 0
    capicuas_won: int = 0
    capicuas_lost: int = 0
    tranques_won: int = 0
    tranques_lost: int = 0
    tranques_tied: int = 0
    awarded_won: int = 0
    awarded_lost: int = 0
    passes_forced: int = 0
    passes_suffered: int = 0
    points_won: int = 0
    opened: int = 0

    def add(self, other: "Figures") -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def as_dict(self) -> dict[str, int | float | None]:
        counts = {f.name: getattr(self, f.name) for f in fields(self)}
        return counts | {
            "hand_win_rate": self.hand_win_rate,
            "match_win_rate": self.match_win_rate,
            "points_per_hand_won": self.points_per_hand_won,
            "opening_rate": self.opening_rate,
        }

    @staticmethod
    def _ratio(part: int, whole: int, digits: int = 3) -> float | None:
        return round(part / whole, digits) if whole else None

    @property
    def hand_win_rate(self) -> float | None:
        return self._ratio(self.hands_won, self.hands)

    @property
    def match_win_rate(self) -> float | None:
        return self._ratio(self.matches_won, self.matches)

    @property
    def points_per_hand_won(self) -> float | None:
        return self._ratio(self.points_won, self.hands_won, 1)

    @property
    def opening_rate(self) -> float | None:
        return self._ratio(self.opened, self.hands)


@dataclass
class Partner:
    player_id: int | None  # None: bots and players without a profile
    name: str
    figures: Figures


@dataclass
class Opening:
    tile: str
    figures: Figures


@dataclass
class RuleSetStats:
    rule_set: str
    figures: Figures = field(default_factory=Figures)
    partners: list[Partner] = field(default_factory=list)
    openings: list[Opening] = field(default_factory=list)


@dataclass
class Statistics:
    overall: RuleSetStats
    rule_sets: list[RuleSetStats]

    def of(self, rule_set: str | None) -> RuleSetStats | None:
        """The figures of one rule set (all of them for None)."""
        if rule_set is None:
            return self.overall
        return next((r for r in self.rule_sets if r.rule_set == rule_set), None)


@cache
def _sql() -> str:
    quote = connection.ops.quote_name
    stat, player = quote(HandStat._meta.db_table), quote(Player._meta.db_table)
    counts = ", ".join(_COUNTS.values())
    return (
        "SELECT s.rule_set, GROUPING(s.partner_id, s.opening) AS grouped, s.pairs,"
        " s.partner_id, p.display_name, s.opening, "
        f"{counts} FROM {stat} s LEFT JOIN {player} p ON p.id = s.partner_id"
        " WHERE s.player_id = %s GROUP BY GROUPING SETS ("
        "(s.rule_set), (s.rule_set, s.pairs, s.partner_id, p.display_name),"
        " (s.rule_set, s.opening)) ORDER BY s.rule_set"
    )


# GROUPING(partner_id, opening): 3 both aggregated (the rule set), 1 per partner, 2 per opening
_RULE_SET, _PARTNER, _OPENING = 3, 1, 2


def statistics(player_id: int) -> Statistics:
    """The player's figures, overall and per rule set, with partners and openings."""
    with connection.cursor() as cursor:
        cursor.execute(_sql(), [player_id])
        rows = cursor.fetchall()
    by_rule_set: dict[str, RuleSetStats] = {}
    overall = RuleSetStats("")
    partners: dict[int | None, Partner] = {}
    openings: dict[str, Opening] = {}
    for rule_set, grouped, pairs, partner_id, name, opening, *counts in rows:
        figures = Figures(*counts)
        stats = by_rule_set.setdefault(rule_set, RuleSetStats(rule_set))
        if grouped == _RULE_SET:
            stats.figures = figures
            overall.figures.add(figures)
        elif grouped == _PARTNER and pairs:
            stats.partners.append(Partner(partner_id, name or "", figures))
            total = partners.setdefault(partner_id, Partner(partner_id, name or "", Figures()))
            total.figures.add(figures)
        elif grouped == _OPENING and opening:
            stats.openings.append(Opening(opening, figures))
            openings.setdefault(opening, Opening(opening, Figures())).figures.add(figures)
    overall.partners = list(partners.values())
    overall.openings = list(openings.values())
    ordered = sorted(by_rule_set.values(), key=lambda r: -r.figures.hands)
    for stats in [overall, *ordered]:
        stats.partners.sort(key=lambda p: (-p.figures.hands, p.player_id is None, p.name))
        stats.openings.sort(key=lambda o: (-o.figures.hands, o.tile))
    return Statistics(overall, ordered)
