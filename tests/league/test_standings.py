"""Standings built by hand: tiebreak order, head-to-head among the tied, shutouts, lots."""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league.models import Entry, Result
from league.services import results, standings
from league.services.standings import CountedMatch, positions_over_rounds, rank

from .conftest import build_league, game

T = ["match_wins", "games_won", "point_difference", "points_for", "head_to_head", "lots"]


def entries(n: int) -> list[Entry]:
    return [Entry(pk=i, name=f"E{i}", lot=i, status="accepted") for i in range(1, n + 1)]


def o(a, b, pa, pb, rnd=1, shutout=False):
    return CountedMatch(rnd, a, b, int(pa > pb), int(pb > pa), pa, pb, shutout)


def order(rows):
    return [row.entry.pk for row in rows]


def test_match_wins_then_point_difference_then_points_for():
    outcomes = [o(1, 2, 100, 90), o(3, 4, 100, 20), o(1, 3, 100, 95), o(2, 4, 100, 50)]
    rows = rank(entries(4), outcomes, T, 1)
    # 1: 2 wins; 2 and 3: 1 win each, 3 has the better difference (+75 v +40); 4: none
    assert order(rows) == [1, 3, 2, 4]
    assert [r.position for r in rows] == [1, 2, 3, 4]
    assert rows[1].point_difference == 75


def test_head_to_head_separates_entries_tied_on_everything_before_it():
    # 1 and 2 finish level on wins, games, difference and points for; 2 beat 1.
    outcomes = [
        o(1, 2, 90, 100),
        o(1, 3, 110, 100),
        o(2, 3, 100, 110),
        o(1, 4, 100, 0),
        o(2, 4, 100, 0),
    ]
    rows = {r.entry.pk: r for r in rank(entries(4), outcomes, T, 1)}
    assert (rows[1].match_points, rows[1].point_difference, rows[1].points_for) == (
        rows[2].match_points,
        rows[2].point_difference,
        rows[2].points_for,
    )
    assert rows[2].position < rows[1].position


def test_head_to_head_among_three_tied_uses_the_mini_table():
    # A circle 1>2>3>1 with identical points: head-to-head cannot split them; lots do.
    outcomes = [o(1, 2, 100, 50), o(2, 3, 100, 50), o(3, 1, 100, 50)]
    rows = rank(entries(3), outcomes, T, 1)
    assert order(rows) == [1, 2, 3]  # lots 1, 2, 3
    without_lots = rank(entries(3), outcomes, T[:-1], 1)
    assert [r.position for r in without_lots] == [1, 1, 1]
    assert all(r.tied for r in without_lots)


def test_a_shutout_counts_the_multiplier_in_match_wins():
    outcomes = [o(1, 3, 200, 0, shutout=True), o(2, 3, 200, 190), o(2, 4, 200, 180)]
    dominican = {r.entry.pk: r for r in rank(entries(4), outcomes, ["match_wins", "lots"], 2)}
    assert dominican[1].match_points == 2 and dominican[2].match_points == 2
    assert dominican[1].shutouts == 1
    others = rank(entries(4), outcomes, ["match_wins", "lots"], 1)
    assert order(others)[0] == 2  # two wins beat one shutout when it counts once


def test_head_to_head_counts_a_shutout_the_multiplier_as_the_main_table_does():
    # 1, 2, 3 beat each other in a circle and finish level on 2 match points; 1's win in the
    # circle was a shutout, so in the mini-table 1 has 2 points and the others 1 each.
    outcomes = [
        o(1, 2, 200, 0, shutout=True),
        o(2, 3, 200, 150),
        o(3, 1, 200, 150),
        o(2, 4, 200, 150),
        o(3, 4, 200, 150),
    ]
    tied = entries(4)
    tied[0].lot = 9  # entry 1 would come last of the three by lots
    rows = rank(tied, outcomes, ["match_wins", "head_to_head", "lots"], 2)
    assert [r.match_points for r in rows[:3]] == [2, 2, 2]
    assert order(rows) == [1, 2, 3, 4]


def test_lots_follow_the_numbers_drawn():
    tied = entries(3)
    tied[0].lot, tied[1].lot, tied[2].lot = 3, 1, 2
    assert order(rank(tied, [], ["match_wins", "lots"], 1)) == [2, 3, 1]


@pytest.mark.parametrize(
    "tiebreaks", [T, ["match_wins", "head_to_head", "lots"], ["match_wins", "buchholz", "lots"]]
)
def test_the_positions_after_each_round_are_the_table_of_the_rounds_so_far(tiebreaks):
    # 12 entries, 5 rounds of few distinct scores (many ties, head-to-head in use), a draw,
    # shutouts, a bye and a match against an entry not in the table
    rng = random.Random(7)
    played = []
    for rnd in range(1, 6):
        ids = rng.sample(range(1, 13), 12)
        for a, b in zip(ids[::2], ids[1::2], strict=True):
            pa, pb = rng.choice([(100, 50), (50, 100), (100, 0), (75, 75)])
            played.append(o(a, b, pa, pb, rnd=rnd, shutout=0 in (pa, pb)))
    played += [o(3, None, 100, 0, rnd=2), o(4, 99, 100, 50, rnd=5)]
    played.sort(key=lambda match: match.round)
    table = positions_over_rounds(entries(12), played, tiebreaks, 2)
    assert table.rounds == [1, 2, 3, 4, 5]
    for i, number in enumerate(table.rounds):
        so_far = rank(entries(12), [m for m in played if m.round <= number], tiebreaks, 2)
        assert {pk: places[i] for pk, places in table.positions.items()} == {
            row.entry.pk: row.position for row in so_far
        }
    whole = rank(entries(12), played, tiebreaks, 2)
    assert [(r.entry.pk, r.position, r.tied, r.values, r.form) for r in table.standings] == [
        (r.entry.pk, r.position, r.tied, r.values, r.form) for r in whole
    ]
    if "head_to_head" in tiebreaks:  # the mini-tables were needed
        assert any("head_to_head" in r.values for r in whole)


@pytest.mark.django_db
def test_only_confirmed_results_count_and_the_dominican_lisa_counts_double():
    league = build_league(4, rule_preset="dominican")
    first, second = league.matches(1)
    results.enter_result(league.organiser, first, game(200, 0))
    captain = second.entry_a.player_1.user
    results.enter_result(captain, second, game(200, 150))  # not confirmed
    rows = {r.entry: r for r in standings.table(league.event).standings}
    winner = rows[first.entry_a]
    assert (winner.won, winner.shutouts, winner.match_points) == (1, 1, 2)
    assert rows[second.entry_a].played == 0
    assert Result.objects.get(match=first).shutout


@pytest.mark.django_db
def test_the_number_of_queries_does_not_grow_with_the_event():
    counts = []
    for size in (4, 8):
        league = build_league(size, tag=str(size))
        for number in (1, 2):
            for match in league.matches(number):
                results.enter_result(league.organiser, match, game(100, 30))
        with CaptureQueriesContext(connection) as queries:
            table = standings.compute(league.event)
        counts.append(len(queries))
        assert len(table.standings) == size and table.rounds == [1, 2]
    assert counts[0] == counts[1] <= 3
