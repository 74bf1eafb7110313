"""Standings: only confirmed results count; ranked by the event's ordered tiebreaks.

Aggregation takes a fixed number of queries whatever the event's size (its entries, then its
confirmed results); ranking is done in Python by `league.pairing.rank`. Computed tables are
cached under the event's `results_version`, which every confirmation, correction and
withdrawal bumps.
"""

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import repeat
from operator import itemgetter
from types import MappingProxyType
from typing import NamedTuple, cast

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


class CountedMatch(NamedTuple):
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
    places: tuple[int, int] | None = None  # elimination events: the places shared, or None

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
        return list(map(CountedMatch._make, rows))
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
    _tally_into(table, outcomes, multiplier)
    return table


def _tally_into(
    table: dict[int, Standing], outcomes: Iterable[CountedMatch], multiplier: int
) -> None:
    """Each match into both entries' rows (an entry not in `table` is skipped)."""
    get = table.get
    for _round, a, b, games_a, games_b, points_a, points_b, shutout in outcomes:
        for row, gf, ga, pf, pa in (
            (get(a), games_a, games_b, points_a, points_b),
            (get(b), games_b, games_a, points_b, points_a),
        ):
            if row is None:
                continue
            row.played += 1
            row.games_won += gf
            row.games_lost += ga
            row.points_for += pf
            row.points_against += pa
            if gf > ga:
                row.won += 1
                row.shutouts += shutout
                row.match_points += multiplier if shutout else 1
                row.form.append("W")
            elif gf < ga:
                row.lost += 1
                row.form.append("L")
            else:
                row.drawn += 1
                row.form.append("D")


_KEYS = {t: f"league_{t}" for t in TALLIED}
# Where each tallied key's value sits in `_tallied`'s tuple
_AT = {_KEYS[t]: i for i, t in enumerate(TALLIED)}


def _tallied(table: dict[int, Standing]) -> dict[int, tuple]:
    """Each entry's tallied tiebreak values, in TALLIED's order: match wins (a draw half),
    games won, point difference, points for, and its lot (the lower first)."""
    return {
        pk: (
            row.match_points + row.drawn / 2,
            row.games_won,
            row.points_for - row.points_against,
            row.points_for,
            -(row.entry.lot or 10**9),
        )
        for pk, row in table.items()
    }


def _stats(values: tuple) -> dict[str, float]:
    """An entry's tallied values under the names `rank_entrants` reads from stats.

    "score" is what Buchholz and Sonneborn-Berger add up: shutouts and byes count too.
    """
    return {"score": values[0]} | {key: values[at] for key, at in _AT.items()}


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
    return _ranked_rows(_tally(entries, outcomes, multiplier), outcomes, tiebreaks, multiplier)


def _ranked_rows(
    table: dict[int, Standing], outcomes: list[CountedMatch], tiebreaks: list[str], multiplier: int
) -> list[Standing]:
    """The tallied rows in order, each with its position, whether it shares it, and its
    tiebreak values."""
    tallied = _tallied(table)
    ranked, kept = _order(table, tallied, outcomes, tiebreaks, multiplier)
    shared = Counter(place for _, place, _ in ranked)
    rows = []
    for pk, place, computed in ranked:
        row = table[pk]
        row.position, row.tied = place, shared[place] > 1
        values = {key: tallied[pk][_AT[key]] for key in kept} | dict(computed)
        row.values = {key.removeprefix("league_"): v for key, v in values.items()}
        rows.append(row)
    return rows


Ranked = list[tuple[int, int, Mapping[str, float]]]
_NOTHING: Mapping[str, float] = MappingProxyType({})


def _order(
    table: dict[int, Standing],
    tallied: dict[int, tuple],
    outcomes: list[CountedMatch],
    tiebreaks: list[str],
    multiplier: int,
) -> tuple[Ranked, list[str]]:
    """The tallied rows in order by the tiebreaks: (entry, position, the values computed for
    it), and the tallied keys whose values come before those."""
    order = [_KEYS.get(t, t) for t in tiebreaks]
    if any(t not in TALLIED and t != T.HEAD_TO_HEAD for t in tiebreaks):  # from all results
        counted = [o for o in outcomes if o.a in table and o.b in table]
        stats = {pk: _stats(values) for pk, values in tallied.items()}
        played = _played(counted, multiplier)
        return [
            (cast(int, s.id), s.rank, s.values)
            for s in rank_entrants(list(table), played, order, stats=stats)
        ], []
    return _ranked(tallied, outcomes, order, multiplier), [k for k in order if k != T.HEAD_TO_HEAD]


def _played(outcomes: Iterable[CountedMatch], multiplier: int) -> list[MatchResult]:
    return [
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
        for o in outcomes
    ]


def _ranked(
    tallied: dict[int, tuple], outcomes: list[CountedMatch], order: list[str], multiplier: int
) -> Ranked:
    """`rank_entrants` for keys the table tallies (and head-to-head), in one sort: (entry,
    position, its head-to-head value where computed).

    The keys before head-to-head order every entry at once (as `rank_entrants` splits by
    one key after another, keeping the entries' order within a tie); each group still level
    on them goes to `rank_entrants` from head-to-head on, with the results among its members.
    """
    cut = order.index(T.HEAD_TO_HEAD) if T.HEAD_TO_HEAD in order else len(order)
    at = [_AT[key] for key in order[:cut]]
    pick = itemgetter(*at) if at else lambda values: ()
    level = {pk: pick(values) for pk, values in tallied.items()}
    ids = sorted(level, key=level.__getitem__, reverse=True)
    levels = list(map(level.__getitem__, ids))
    # each level's place: where it first comes (the reversed pairs leave the first)
    first = dict(zip(reversed(levels), range(len(levels), 0, -1), strict=True))
    ranked: Ranked = list(zip(ids, map(first.__getitem__, levels), repeat(_NOTHING)))
    if cut == len(order):
        return ranked
    size = Counter(levels)
    tied = [ids[place - 1 : place - 1 + size[key]] for key, place in first.items() if size[key] > 1]
    for group, among in zip(tied, _among(tied, outcomes), strict=True):
        place = first[level[group[0]]] - 1
        stats = {pk: _stats(tallied[pk]) for pk in group}
        played = _played(among, multiplier)
        for i, s in enumerate(rank_entrants(group, played, order[cut:], stats=stats), place):
            ranked[i] = (
                cast(int, s.id),
                place + s.rank,
                {T.HEAD_TO_HEAD: s.values[T.HEAD_TO_HEAD]},
            )
    return ranked


def _among(groups: list[list[int]], outcomes: list[CountedMatch]) -> list[list[CountedMatch]]:
    """For each group, the matches between its members, in the order played (one pass)."""
    if not groups:
        return []
    group_of = {pk: i for i, group in enumerate(groups) for pk in group}
    among: list[list[CountedMatch]] = [[] for _ in groups]
    for o in outcomes:
        i = group_of.get(o.a)
        if i is not None and i == group_of.get(o.b):
            among[i].append(o)
    return among


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
    return positions_over_rounds(
        entries_for(event, division),
        outcomes_for(event, division),
        event.tiebreaks,
        rules_of(event).shutout_multiplier,
    )


def positions_over_rounds(
    entries: list[Entry], outcomes: list[CountedMatch], tiebreaks: list[str], multiplier: int
) -> StandingsTable:
    """The table (as `rank` makes it of `outcomes` in the order played) and each entry's
    position after every round: the running tally ordered again after each round, the last
    of them the table itself."""
    by_round: dict[int, list[CountedMatch]] = defaultdict(list)
    for o in outcomes:
        by_round[o.round].append(o)
    rounds = sorted(by_round)
    positions: dict[int, list[int]] = defaultdict(list)
    running: dict[int, Standing] = _tally(entries, (), multiplier)
    so_far: list[CountedMatch] = []
    for number in rounds:
        _tally_into(running, by_round[number], multiplier)
        so_far += by_round[number]
        if number != rounds[-1]:
            ranked, _kept = _order(running, _tallied(running), so_far, tiebreaks, multiplier)
            for pk, place, _computed in ranked:
                positions[pk].append(place)
    standings = _ranked_rows(running, so_far, tiebreaks, multiplier)
    for row in standings if rounds else ():
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
