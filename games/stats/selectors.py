"""A player's statistics, read in one query whatever the number of hands.

One SQL statement adds up the player's tallies (`Tally`: a few rows per player, kept in step
with the hands) three ways at once (GROUPING SETS): per rule set, per rule set and partner,
per rule set and opening tile. Every figure of the
page and of the API comes from its answer; the totals over all rule sets are sums of the
rule sets' figures (a match is played under one rule set).
"""

from dataclasses import dataclass, field, fields
from functools import cache

from django.db import connection

from league.models import Player

from .models import TALLIED, Tally


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
    tally, player = quote(Tally._meta.db_table), quote(Player._meta.db_table)
    names = [f.name for f in fields(Figures)]
    sums = {name: f"SUM(t.{name})" for name in TALLIED}
    sums["matches"] = "SUM(t.matches_won + t.matches_lost)"
    summed = ", ".join(f"{sums[name]} AS {name}" for name in names)
    # Added up first, named after: the partners' names are looked up once per partner.
    return (
        f"SELECT g.rule_set, g.grouped, g.pairs, g.partner_key, p.display_name, g.opening,"
        f" {', '.join(names)} FROM (SELECT t.rule_set,"
        " GROUPING(t.partner_key, t.opening) AS grouped, t.pairs, t.partner_key, t.opening,"
        f" {summed} FROM {tally} t WHERE t.player_id = %s GROUP BY GROUPING SETS ("
        "(t.rule_set), (t.rule_set, t.pairs, t.partner_key), (t.rule_set, t.opening))"
        f" HAVING SUM(t.hands) > 0) g LEFT JOIN {player} p ON p.id = g.partner_key"
        " ORDER BY g.rule_set"
    )


# GROUPING(partner_key, opening): 3 both added up (the rule set), 1 per partner, 2 per opening
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
    for rule_set, grouped, pairs, partner_key, name, opening, *counts in rows:
        partner_id = partner_key or None
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
