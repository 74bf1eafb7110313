"""CSV exports of an event: its entries, its results (game by game, with hand points) and its
standings, as the pages show them. Each function gives the heading and the rows; `to_csv`
writes them (UTF-8 with a byte-order mark, so that spreadsheets read the accents)."""

import csv
import io
from collections.abc import Iterable

from django.utils.translation import gettext as _

from ..models import Event, Match, Result
from ..tournaments.services.common import ELIMINATION_FORMATS, TOURNAMENT_FORMATS
from ..tournaments.services.standings import group_tables, individual_table, pairs_standings
from . import standings as league_standings

Rows = tuple[list[str], list[list]]


def to_csv(heading: list[str], rows: Iterable[list]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(heading)
    writer.writerows(["" if v is None else v for v in row] for row in rows)
    return "\ufeff" + out.getvalue()


def entries(event: Event) -> Rows:
    """One row per entry, in the same columns the CSV import reads (and a few more)."""
    heading = [
        "player_1",
        "player_2",
        "club",
        "seed",
        "rating",
        "name",
        "status",
        "checked_in",
        "late",
    ]
    found = event.entries.filter(team__isnull=True).select_related("player_1", "player_2", "club")
    rows = [
        [
            entry.player_1.display_name if entry.player_1 else "",
            entry.player_2.display_name if entry.player_2 else "",
            entry.home_club,
            entry.seed,
            entry.rating,
            entry.name,
            entry.get_status_display(),
            "yes" if entry.checked_in else "",
            "yes" if entry.late else "",
        ]
        for entry in found.order_by("registered", "pk")
    ]
    return heading, rows


def _hand_points(game: dict) -> str:
    """Each recorded hand's points, "A-B", separated by spaces."""
    return " ".join(
        f"{r['points'][0]}-{r['points'][1]}"
        for r in game.get("rulings") or []
        if isinstance(r, dict) and isinstance(r.get("points"), list) and len(r["points"]) == 2
    )


def results(event: Event) -> Rows:
    """One row per game of every confirmed result: the match, its totals, the game's points
    and the points of each recorded hand."""
    heading = [
        "round",
        "table",
        "board",
        "entry_a",
        "entry_b",
        "games_a",
        "games_b",
        "points_a",
        "points_b",
        "shutout",
        "forfeit",
        "game",
        "game_points_a",
        "game_points_b",
        "hand_points",
    ]
    confirmed = (
        Result.objects.filter(match__event=event, status=Result.Status.CONFIRMED)
        .select_related("match__round", "match__entry_a", "match__entry_b", "match__parent")
        .order_by("match__round__number", "match__table", "match__board", "match_id")
    )
    rows = []
    for result in confirmed:
        match = result.match
        common = [
            match.round.number,
            match.table or (match.parent.table if match.parent else None),
            match.board,
            match.entry_a.name,
            match.entry_b.name if match.entry_b else "",
            result.games_a,
            result.games_b,
            result.points_a,
            result.points_b,
            "yes" if result.shutout else "",
            "yes" if result.forfeit else "",
        ]
        games = result.games or [{}]
        for number, game in enumerate(games, start=1):
            rows.append(
                [
                    *common,
                    number if game else "",
                    game.get("points_a"),
                    game.get("points_b"),
                    _hand_points(game),
                ]
            )
    byes = Match.objects.filter(event=event, entry_b__isnull=True, parent__isnull=True)
    for match in byes.select_related("round", "entry_a").order_by("round__number", "pk"):
        rows.append([match.round.number, "", "", match.entry_a.name, _("Bye"), *[""] * 10])
    return heading, rows


def standings(event: Event) -> Rows:
    """The standings the event's page shows: position, entry, the tally and each tiebreak
    (and an elimination's placements: its table is ranked by them; a group stage's tables
    group by group)."""
    labels = dict(Event.Tiebreak.choices)
    tiebreaks = [t for t in event.tiebreaks if t != Event.Tiebreak.LOTS]
    if event.format == Event.Format.INDIVIDUAL:
        heading = ["position", "player", "played", "won", "sat_out", "score", "points_for"]
        heading += ["points_against", "point_difference"]
        rows = [
            [
                r.position,
                str(r.player),
                r.played,
                r.won,
                r.sat_out,
                r.score,
                r.points_for,
                r.points_against,
                r.point_difference,
            ]
            for r in individual_table(event)
        ]
        return heading, rows
    group = event.format == Event.Format.GROUPS_PLAYOFF
    if group:
        tables = [(g, rows) for g, rows in group_tables(event)]
    elif event.format in TOURNAMENT_FORMATS:
        tables = [(None, pairs_standings(event))]
    else:
        tables = [
            (division, league_standings.table(event, division).standings)
            for division in (list(event.divisions.all()) or [None])
        ]
    heading = [("group" if group else "division")] if tables and tables[0][0] is not None else []
    heading += ["position", "entry", "players", "played", "won", "drawn", "lost"]
    heading += ["match_points", "games_won", "points_for", "points_against", "point_difference"]
    heading += [str(labels[t]) for t in tiebreaks if t not in _TALLY_COLUMNS]
    placements = event.format in ELIMINATION_FORMATS
    if placements:
        heading.append("place")
    rows = []
    for division, table in tables:
        for r in table:
            values = getattr(r, "values", None) or {}
            extra = [values.get(t, "") for t in tiebreaks if t not in _TALLY_COLUMNS]
            rows.append(
                ([division.name] if division is not None else [])
                + [
                    r.position,
                    r.entry.name,
                    " / ".join(p.display_name for p in r.entry.players),
                    r.played,
                    r.won,
                    r.drawn,
                    r.lost,
                    r.match_points,
                    r.games_won,
                    r.points_for,
                    r.points_against,
                    r.point_difference,
                    *extra,
                ]
                + ([r.placement] if placements else [])
            )
    return heading, rows


# Tiebreaks whose value is already one of the tally's columns.
_TALLY_COLUMNS = {
    Event.Tiebreak.MATCH_WINS,
    Event.Tiebreak.GAMES_WON,
    Event.Tiebreak.POINT_DIFFERENCE,
    Event.Tiebreak.POINTS_FOR,
    Event.Tiebreak.HEAD_TO_HEAD,
}
