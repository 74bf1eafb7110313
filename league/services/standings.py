"""Standings: only confirmed results count; ranked by the event's ordered tiebreaks.

Aggregation takes a fixed number of queries whatever the event's size (its entries, then its
confirmed results); ranking is done in Python by `league.pairing.rank`. Computed tables are
cached under the event's `results_version`, which every confirmation, correction and
withdrawal bumps.
"""

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.core.cache import cache
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from ..models import Division, Entry, Event, Result
from ..pairing import MatchResult
from ..pairing import rank as rank_entrants
from .events import rules_of

T = Event.Tiebreak
TALLIED = (T.MATCH_WINS, T.GAMES_WON, T.POINT_DIFFERENCE, T.POINTS_FOR, T.LOTS)
# Each tiebreak's column heading: on a wide screen, and abbreviated on a phone (the full
# name is the column's title).
HEADINGS = {
    T.MATCH_WINS: (_("Match wins"), _("Pts")),
    T.GAMES_WON: (_("Games"), _("G")),
    T.POINT_DIFFERENCE: (_("Points +/−"), _("+/−")),
    T.POINTS_FOR: (_("Points for"), _("PF")),
    T.HEAD_TO_HEAD: (_("Head-to-head"), _("H2H")),
    T.BUCHHOLZ: (_("Buchholz"), _("Bch")),
    T.SONNEBORN_BERGER: (_("Sonneborn-Berger"), _("SB")),
    T.PARTNER_AWARE: (_("Opp. − partners"), _("Opp.−P")),
    T.LOTS: (_("Lot"), _("Lot (short)")),
}


@dataclass(frozen=True, slots=True)
class CountedMatch:
    """One counted match (for a team event: a team fixture whose boards are all confirmed)."""

    round: int
    a: int
    b: int
    games_a: int
    games_b: int
    points_a: int
    points_b: int
    shutout: bool


@dataclass(slots=True)
class Standing:
    entry: Entry
    position: int = 0
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    shutouts: int = 0
    match_points: int = 0
    games_won: int = 0
    games_lost: int = 0
    points_for: int = 0
    points_against: int = 0
    tied: bool = False
    form: list[str] = field(default_factory=list)  # "W", "L", "D" in the order played
    # each tiebreak's value, by the event's tiebreak keys (head-to-head only where used)
    values: dict[str, float] = field(default_factory=dict)
    placement: str = ""  # elimination events: "Winner", "Runner-up", "5–8", ...
    in_play: bool = False  # elimination events: not placed yet, still in the bracket

    @property
    def point_difference(self) -> int:
        return self.points_for - self.points_against

    @property
    def active(self) -> bool:
        return self.entry.status == Entry.Status.ACCEPTED


def entries_for(event: Event, division: Division | None = None) -> list[Entry]:
    """The entries that appear in the table (withdrawn ones too, with their results)."""
    entries = event.entries.filter(team__isnull=True).exclude(status=Entry.Status.WAITLISTED)
    if division is not None:
        entries = entries.filter(division=division)
    return list(entries.order_by("pk"))


def outcomes_for(event: Event, division: Division | None = None) -> list[CountedMatch]:
    """Every counted match of the event, from one query."""
    results = Result.objects.filter(status=Result.Status.CONFIRMED, match__event=event).order_by(
        "match__round__number", "match_id"
    )
    if division is not None:
        results = results.filter(match__round__division=division)
    stats = ("games_a", "games_b", "points_a", "points_b", "shutout")
    if event.entry_kind == Event.EntryKind.PAIR:
        rows = results.filter(match__parent__isnull=True).values_list(
            "match__round__number", "match__entry_a_id", "match__entry_b_id", *stats
        )
        return [CountedMatch(*row) for row in rows]
    fixtures: dict[int, list] = {}
    rows = results.filter(match__parent__isnull=False).values_list(
        "match__parent_id",
        "match__round__number",
        "match__parent__entry_a_id",
        "match__parent__entry_b_id",
        *stats,
    )
    for parent, rnd, a, b, games_a, games_b, points_a, points_b, _shutout in rows:
        total = fixtures.setdefault(parent, [rnd, a, b, 0, 0, 0, 0, 0])
        total[3] += games_a > games_b
        total[4] += games_b > games_a
        total[5] += points_a
        total[6] += points_b
        total[7] += 1
    return [
        CountedMatch(rnd, a, b, boards_a, boards_b, points_a, points_b, False)
        for rnd, a, b, boards_a, boards_b, points_a, points_b, boards in fixtures.values()
        if boards == event.boards
    ]


def _tally(entries: Iterable[Entry], outcomes: Iterable[CountedMatch], multiplier: int) -> dict:
    table = {entry.pk: Standing(entry) for entry in entries}
    for o in outcomes:
        for me, gf, ga, pf, pa in (
            (o.a, o.games_a, o.games_b, o.points_a, o.points_b),
            (o.b, o.games_b, o.games_a, o.points_b, o.points_a),
        ):
            row = table.get(me)
            if row is None:
                continue
            row.played += 1
            row.games_won += gf
            row.games_lost += ga
            row.points_for += pf
            row.points_against += pa
            if gf > ga:
                row.won += 1
                row.shutouts += o.shutout
                row.match_points += multiplier if o.shutout else 1
                row.form.append("W")
            elif gf < ga:
                row.lost += 1
                row.form.append("L")
            else:
                row.drawn += 1
                row.form.append("D")
    return table


def _stats(row: Standing) -> dict[str, float]:
    """The entry's value for each tiebreak, under the names `rank_entrants` reads from stats.

    "score" is what Buchholz and Sonneborn-Berger add up: shutouts and byes count too.
    """
    won = row.match_points + row.drawn / 2
    return {
        "score": won,
        f"league_{T.MATCH_WINS}": won,
        f"league_{T.GAMES_WON}": row.games_won,
        f"league_{T.POINT_DIFFERENCE}": row.point_difference,
        f"league_{T.POINTS_FOR}": row.points_for,
        f"league_{T.LOTS}": -(row.entry.lot or 10**9),
    }


def rank(
    entries: list[Entry], outcomes: list[CountedMatch], tiebreaks: list[str], multiplier: int
) -> list[Standing]:
    """The table: positions by the tiebreaks in order; entries still tied share a position.

    Match wins count a shutout `multiplier` times (and a draw half); lots are the numbers
    drawn when the fixtures were made, the lower first. These values are tallied here once and
    handed to `league.pairing.rank` as stats. It gets the results only for what it computes
    itself: for head-to-head, just those between entries level on every tiebreak before it,
    each win worth what it is worth in the table (a shutout `multiplier` times);
    for other keys (Buchholz and the like, used by tournaments), all of them.
    """
    table = _tally(entries, outcomes, multiplier)
    stats = {pk: _stats(row) for pk, row in table.items()}
    order = [f"league_{t}" if t in TALLIED else t for t in tiebreaks]
    counted = [o for o in outcomes if o.a in table and o.b in table]
    computed_from_all = any(t not in TALLIED and t != T.HEAD_TO_HEAD for t in tiebreaks)
    if not computed_from_all:
        before = order[: order.index(T.HEAD_TO_HEAD)] if T.HEAD_TO_HEAD in order else None
        counted = [
            o
            for o in counted
            if before is not None and all(stats[o.a][k] == stats[o.b][k] for k in before)
        ]
    played = [
        MatchResult(
            a=o.a,
            b=o.b,
            winner=None if o.games_a == o.games_b else (o.a if o.games_a > o.games_b else o.b),
            points_a=o.points_a,
            points_b=o.points_b,
            games_a=o.games_a,
            games_b=o.games_b,
            value=multiplier if o.shutout else 1,
        )
        for o in counted
    ]
    ranked = rank_entrants(list(table), played, order, stats=stats)
    shared = Counter(standing.rank for standing in ranked)
    rows = []
    for standing in ranked:
        row = table[standing.id]
        row.position, row.tied = standing.rank, shared[standing.rank] > 1
        row.values = {key.removeprefix("league_"): v for key, v in standing.values.items()}
        rows.append(row)
    return rows


@dataclass(frozen=True)
class Column:
    """A tiebreak's column of the standings."""

    key: str
    heading: str | Promise
    abbreviation: str | Promise
    title: str | Promise


def tiebreak_names(event: Event) -> list[str | Promise]:
    """The event's tiebreaks by name, in order, each once."""
    return [column.title for column in tiebreak_columns(event)]


def tiebreak_columns(event: Event, rows: list[Standing] | None = None) -> list[Column]:
    """A column for each of the event's tiebreaks, in order, each once.

    Given the table's rows, a column that could only repeat another is left out: games won
    where every match is one game between pairs (they are the matches won), head-to-head
    where it separated nobody, lots where none were drawn.
    """
    labels = dict(T.choices)
    columns = []
    for key in dict.fromkeys(event.tiebreaks):
        if rows is not None:
            if key == T.HEAD_TO_HEAD and all(row.values.get(key) is None for row in rows):
                continue
            if key == T.LOTS and all(row.entry.lot is None for row in rows):
                continue
            if (
                key == T.GAMES_WON
                and event.games_per_match == 1
                and event.entry_kind == Event.EntryKind.PAIR
            ):
                continue
        heading, abbreviation = HEADINGS.get(key, (labels.get(key, key),) * 2)
        columns.append(Column(key, heading, abbreviation, labels.get(key, key)))
    return columns


@dataclass
class StandingsTable:
    standings: list[Standing]
    rounds: list[int]
    # entry id -> its position after each round in `rounds`
    positions: dict[int, list[int]]


def compute(event: Event, division: Division | None = None) -> StandingsTable:
    entries = entries_for(event, division)
    outcomes = outcomes_for(event, division)
    multiplier = rules_of(event).shutout_multiplier
    standings = rank(entries, outcomes, event.tiebreaks, multiplier)
    rounds = sorted({o.round for o in outcomes})
    positions: dict[int, list[int]] = defaultdict(list)
    for number in rounds:
        so_far = [o for o in outcomes if o.round <= number]
        for row in rank(entries, so_far, event.tiebreaks, multiplier):
            positions[row.entry.pk].append(row.position)
    return StandingsTable(standings, rounds, dict(positions))


def table(event: Event, division: Division | None = None) -> StandingsTable:
    """The event's standings and positions over the rounds, cached until results change."""
    version = Event.objects.filter(pk=event.pk).values_list("results_version", flat=True).get()
    key = (
        f"standings-table:{event.pk}:{event.created.timestamp()}:"
        f"{division.pk if division else 0}:{version}"
    )
    cached = cache.get(key)
    if cached is None:
        cached = compute(event, division)
        cache.set(key, cached, 60 * 60 * 24)
    return cached
