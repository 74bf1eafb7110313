from collections import Counter
from itertools import combinations

import pytest

from league.pairing import WhistScheduleError, whist_schedule


@pytest.mark.parametrize("count", [4, 5, 8, 9, 12, 13, 16, 17])
def test_whist_design_property(count):
    players = [f"p{i}" for i in range(count)]
    rounds = whist_schedule(players)
    assert len(rounds) == (count - 1 if count % 4 == 0 else count)
    partners, opponents, sat = Counter(), Counter(), Counter()
    for round_ in rounds:
        seated = [p for table in round_.tables for pair in table for p in pair]
        assert sorted(seated + list(round_.sitting_out)) == sorted(players)
        assert len(round_.sitting_out) == count % 4
        sat.update(round_.sitting_out)
        for (a, b), (c, d) in round_.tables:
            partners.update([frozenset((a, b)), frozenset((c, d))])
            opponents.update(frozenset((x, y)) for x in (a, b) for y in (c, d))
    for pair in map(frozenset, combinations(players, 2)):
        assert partners[pair] == 1
        assert opponents[pair] == 2
    assert all(sat[p] == count % 4 for p in players)


@pytest.mark.parametrize("count", [0, 2, 3, 6, 7, 10, 11])
def test_impossible_counts_raise(count):
    with pytest.raises(WhistScheduleError):
        whist_schedule(list(range(count)))


def test_search_budget_exhaustion_raises():
    with pytest.raises(WhistScheduleError):
        whist_schedule(list(range(21)), max_steps=1000)


def test_duplicate_players_rejected():
    with pytest.raises(ValueError):
        whist_schedule([1, 1, 2, 3])
