from itertools import combinations

import pytest

from league.pairing import round_robin


@pytest.mark.parametrize("count", range(2, 21))
def test_every_pair_meets_once_and_sides_balance(count):
    entrants = [f"e{i}" for i in range(count)]
    rounds = round_robin(entrants)
    assert len(rounds) == (count if count % 2 else count - 1)
    met = [frozenset(pair) for r in rounds for pair in r.pairings]
    assert sorted(met, key=sorted) == sorted(map(frozenset, combinations(entrants, 2)), key=sorted)
    for r in rounds:
        seated = [e for pair in r.pairings for e in pair] + ([r.bye] if r.bye is not None else [])
        assert sorted(seated) == sorted(entrants)
    for entrant in entrants:
        sides = [pair.index(entrant) for r in rounds for pair in r.pairings if entrant in pair]
        assert abs(sides.count(0) - sides.count(1)) <= (count + 1) % 2
        breaks = sum(a == b for a, b in zip(sides, sides[1:], strict=False))
        assert breaks <= (1 if count % 2 == 0 else 0)


def test_odd_count_gives_each_entrant_one_bye():
    rounds = round_robin(range(7))
    assert sorted(r.bye for r in rounds) == list(range(7))


def test_double_round_robin_swaps_sides_and_balances_exactly():
    rounds = round_robin(range(6), double=True)
    assert [r.number for r in rounds] == list(range(1, 11))
    first, second = rounds[:5], rounds[5:]
    for a, b in zip(first, second, strict=True):
        assert b.pairings == tuple((y, x) for x, y in a.pairings)
    for entrant in range(6):
        homes = sum(pair[0] == entrant for r in rounds for pair in r.pairings)
        assert homes == 5


def test_degenerate_counts():
    assert round_robin([]) == []
    assert round_robin(["solo"]) == []
    with pytest.raises(ValueError):
        round_robin(["a", "a"])
