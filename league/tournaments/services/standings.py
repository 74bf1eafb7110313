"""Standings of the tournament formats, ranked by the event's ordered tiebreak list.

Fixed pairs use the core's tally and ranking, with a bye counted as a win by the event's
forfeit score; a group's table ranks its members on the group's matches only. Individual
events rank players on their tables' results (partners share a result) plus their sit-outs.
"""

from collections import defaultdict
from dataclasses import dataclass, field

from ...models import Entry, Event, Match, Round
from ...pairing import MatchResult
from ...pairing import rank as rank_entrants
from ...services.events import rules_of
from ...services.standings import CountedMatch, Standing, entries_for, outcomes_for, rank
from ..models import Group, SitOut, TableResult
from .common import tournament_of


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
