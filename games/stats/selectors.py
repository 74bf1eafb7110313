"""A player's statistics, read in one query whatever the number of hands.

One SQL statement adds up the player's tallies (`Tally`: a few rows per player, kept in step
with the hands) three ways at once: per rule set, per rule set and partner, per rule set and
opening tile (plain SQL: PostgreSQL and the embedded SQLite alike). Every figure of the
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


# What each part of the query adds up by: the rule set, its partners, its openings.
_RULE_SET, _PARTNER, _OPENING = 3, 1, 2
_PARTS = (
    (_RULE_SET, "NULL AS pairs, NULL AS partner_key, '' AS opening", "t.rule_set"),
    (_PARTNER, "t.pairs, t.partner_key, '' AS opening", "t.rule_set, t.pairs, t.partner_key"),
    (_OPENING, "NULL AS pairs, NULL AS partner_key, t.opening", "t.rule_set, t.opening"),
)


@cache
def _sql() -> str:
    quote = connection.ops.quote_name
    tally, player = quote(Tally._meta.db_table), quote(Player._meta.db_table)
    names = [f.name for f in fields(Figures)]
    sums = {name: f"SUM(t.{name})" for name in TALLIED}
    sums["matches"] = "SUM(t.matches_won + t.matches_lost)"
    summed = ", ".join(f"{sums[name]} AS {name}" for name in names)
    parts = " UNION ALL ".join(
        f"SELECT t.rule_set, {part} AS grouped, {keys}, {summed} FROM {tally} t"
        f" WHERE t.player_id = %(player)s GROUP BY {by} HAVING SUM(t.hands) > 0"
        for part, keys, by in _PARTS
    )
    # Added up first, named after: the partners' names are looked up once per partner.
    return (
        "SELECT g.rule_set, g.grouped, g.pairs, g.partner_key, p.display_name, g.opening,"
        f" {', '.join(f'g.{n}' for n in names)} FROM ({parts}) g"
        f" LEFT JOIN {player} p ON p.id = g.partner_key ORDER BY g.rule_set, g.grouped"
    )


def statistics(player_id: int) -> Statistics:
    """The player's figures, overall and per rule set, with partners and openings."""
    with connection.cursor() as cursor:
        cursor.execute(_sql(), {"player": player_id})
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
