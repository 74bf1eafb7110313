"""Standings of the tournament formats, ranked by the event's ordered tiebreak list.

Fixed pairs use the core's tally and ranking, with a bye counted as a win by the event's
forfeit score; a group's table ranks its members on the group's matches only. Individual
events rank players on their tables' results (partners share a result) plus their sit-outs.
"""

from collections import defaultdict
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from ...models import Entry, Event, Match, Round
from ...pairing import MatchResult
from ...pairing import rank as rank_entrants
from ...services.events import rules_of
from ...services.standings import (
    CountedMatch,
    Standing,
    entries_for,
    outcomes_for,
    rank,
    tiebreak_columns,
    tiebreak_names,
)
from ...services.standings import table as league_table
from ..models import Bracket, Group, SitOut, TableResult
from .brackets import bracket_view
from .common import ELIMINATION_FORMATS, tournament_of

# How far an elimination got, by the stage of the match that put it out (rounds count within)
DEPTH = {"winners": 0, "losers": 0, "third_place": 1000, "grand_final": 2000}


def bye_outcomes(event: Event) -> list[CountedMatch]:
    return [
        CountedMatch(number, entry, None, event.forfeit_games, 0, event.forfeit_points, 0, False)
        for number, entry in Match.objects.filter(
            event=event, entry_b__isnull=True, parent__isnull=True
        ).values_list("round__number", "entry_a_id")
    ]


def pairs_table(event: Event) -> list[Standing]:
    """Swiss and elimination events: every entry, best first."""
    outcomes = outcomes_for(event) + bye_outcomes(event)
    return rank(entries_for(event), outcomes, event.tiebreaks, rules_of(event).shutout_multiplier)


def _placement(position: int, shared: int) -> str:
    if shared == 1 and position == 1:
        return str(_("Winner"))
    if shared == 1 and position == 2:
        return str(_("Runner-up"))
    return str(position) if shared == 1 else f"{position}–{position + shared - 1}"


def elimination_table(event: Event, bracket: Bracket) -> list[Standing]:
    """Elimination events: ranked by placement in the bracket (winner, runner-up, third...),
    entries still in first; those put out in the same round share a place, listed by the
    event's tiebreaks."""
    rows = pairs_table(event)
    order = {row.entry.pk: i for i, row in enumerate(rows)}
    out: dict[int, tuple[int, int]] = {}  # entry -> (depth of the match that put it out, id)
    champion = None
    views = bracket_view(bracket)
    final = max((v.round for v in views if v.stage == "winners"), default=0)
    for view in views:
        if view.winner is None or not view.needed or view.home is None or view.away is None:
            continue
        loser = view.away if view.winner.pk == view.home.pk else view.home
        if view.stage in ("grand_final", "grand_final_reset") or (
            view.stage == "winners" and bracket.kind == Bracket.Kind.SINGLE and view.round == final
        ):
            champion = view.winner.pk
            out[loser.pk] = (3000, view.number)
            out.pop(view.winner.pk, None)
        elif view.stage == "third_place":
            out[view.winner.pk], out[loser.pk] = (2500, view.number), (2400, view.number)
        elif bracket.kind == Bracket.Kind.SINGLE or view.stage == "losers":
            out[loser.pk] = (DEPTH[view.stage] + view.round, view.number)
    in_play = [r for r in rows if r.entry.pk not in out]
    if champion is not None:
        in_play.sort(key=lambda r: r.entry.pk != champion)
    gone = sorted(
        (r for r in rows if r.entry.pk in out),
        key=lambda r: (-out[r.entry.pk][0], order[r.entry.pk]),
    )
    ranked, position = [], 1
    for row in in_play:
        row.position = position
        row.in_play = row.entry.pk != champion
        row.placement = str(_("In play")) if row.in_play else _placement(1, 1)
        row.places = None if row.in_play else (1, 1)
        ranked.append(row)
        position += 1
    for depth in sorted({out[r.entry.pk][0] for r in gone}, reverse=True):
        level = [r for r in gone if out[r.entry.pk][0] == depth]
        for row in level:
            row.position = position
            row.in_play = False
            row.placement = _placement(position, len(level))
            row.places = (position, position + len(level) - 1)
            ranked.append(row)
        position += len(level)
    return ranked


def pairs_standings(event: Event) -> list[Standing]:
    """The table a page shows for pairs: by bracket placement once an elimination bracket is
    drawn, else by the event's tiebreaks."""
    bracket = Bracket.objects.filter(event=event).first()
    if event.format in ELIMINATION_FORMATS and bracket is not None:
        return elimination_table(event, bracket)
    return pairs_table(event)


def standings_of(event: Event) -> dict:
    """What a page shows of a tournament's standings: players (individual events), each
    group's table, or the pairs' table (by placement once a bracket is drawn), with the
    tiebreaks by name and a column for each."""
    tables: dict = {"tiebreaks": tiebreak_names(event)}
    if event.format == Event.Format.INDIVIDUAL:
        return tables | {"players": individual_table(event)}
    if event.format == Event.Format.GROUPS_PLAYOFF:
        return tables | {"groups": group_tables(event)}
    rows = pairs_standings(event)
    return tables | {
        "table": rows,
        "placements": event.format in ELIMINATION_FORMATS,
        "tiebreak_columns": tiebreak_columns(event, rows),
    }


def group_tables(event: Event) -> list[tuple[Group, list[Standing]]]:
    """Each group's table, from the matches between its members before the playoff."""
    bracket = getattr(event, "bracket", None)
    outcomes = [o for o in outcomes_for(event) if bracket is None or o.round < bracket.first_round]
    multiplier = rules_of(event).shutout_multiplier
    tables = []
    for group in event.groups.prefetch_related("members__entry"):
        members = [m.entry for m in group.members.all()]
        ids = {e.pk for e in members}
        own = [o for o in outcomes if o.a in ids and o.b in ids]
        tables.append((group, rank(members, own, event.tiebreaks, multiplier)))
    return tables


@dataclass
class PlayerStanding:
    player: Entry
    position: int = 0
    played: int = 0
    won: int = 0
    lost: int = 0
    sat_out: int = 0
    score: float = 0
    points_for: int = 0
    points_against: int = 0
    values: dict = field(default_factory=dict)

    @property
    def point_difference(self) -> int:
        return self.points_for - self.points_against


def table_results(event: Event) -> list[MatchResult]:
    """Confirmed table results as the pure core sees them: seat 1 with seat 3 against seat 2
    with seat 4."""
    low_wins = rules_of(event).scoring == "penalty"
    seats: dict[tuple[int, int], dict[int, int]] = defaultdict(dict)
    for round_id, table, seat, player in Round.objects.filter(event=event).values_list(
        "pk", "seats__table", "seats__seat", "seats__player_id"
    ):
        if table is not None:
            seats[round_id, table][seat] = player
    played = []
    for result in TableResult.objects.filter(
        round__event=event, status=TableResult.Status.CONFIRMED
    ):
        s = seats[result.round_id, result.table]
        a_wins = (result.points_a < result.points_b) == low_wins
        played.append(
            MatchResult(
                a=s[1],
                b=s[2],
                partner_a=s[3],
                partner_b=s[4],
                winner=s[1] if a_wins else s[2],
                points_a=result.points_a,
                points_b=result.points_b,
            )
        )
    return played


def individual_table(event: Event) -> list[PlayerStanding]:
    """Individual events: every player, best first."""
    tournament = tournament_of(event)
    players = entries_for(event)
    rows = {p.pk: PlayerStanding(p) for p in players}
    results = table_results(event)
    for r in results:
        for side, own, other in (
            ((r.a, r.partner_a), r.points_a, r.points_b),
            ((r.b, r.partner_b), r.points_b, r.points_a),
        ):
            won = r.winner in side
            for pk in side:
                row = rows[pk]
                row.played += 1
                row.won += won
                row.lost += not won
                row.score += won
                row.points_for += own
                row.points_against += other
    for pk in SitOut.objects.filter(round__event=event).values_list("player_id", flat=True):
        row = rows[pk]
        row.sat_out += 1
        row.score += tournament.sit_out_score
        row.points_for += tournament.sit_out_points
    stats = {
        pk: {
            "score": row.score,
            "match_wins": row.score,
            "points_for": row.points_for,
            "point_difference": row.point_difference,
            "lots": -(row.player.lot or pk),
        }
        for pk, row in rows.items()
    }
    ranked = rank_entrants(list(rows), results, event.tiebreaks, stats=stats)
    table = []
    for standing in ranked:
        row = rows[standing.id]
        row.position, row.values = standing.rank, dict(standing.values)
        table.append(row)
    return table


def summary_table(event: Event) -> list[dict]:
    """The event's standings as the projector and the live page show them, best first:
    position, name, played, won, drawn, lost, score, difference."""
    if event.format == Event.Format.INDIVIDUAL:
        return [
            {"position": r.position, "name": r.player, "played": r.played, "won": r.won}
            | {"drawn": 0, "lost": r.lost, "score": r.score, "difference": r.point_difference}
            for r in individual_table(event)
        ]
    rows = league_table(event).standings if event.format == Event.Format.LEAGUE else None
    return [
        {"position": r.position, "name": r.entry, "played": r.played, "won": r.won}
        | {"drawn": r.drawn, "lost": r.lost}
        | {"score": r.values.get("match_wins", r.match_points), "difference": r.point_difference}
        | {"placement": r.placement, "in_play": r.in_play}
        for r in (rows if rows is not None else pairs_standings(event))
    ]
