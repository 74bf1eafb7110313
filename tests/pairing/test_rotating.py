from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.pairing import RotatingPlayer, pair_rotating, repeats
from league.pairing.simulation import rotating_event


def seated(round_):
    return [p for table in round_.tables for pair in table for p in pair]


def test_first_round_seats_everyone_by_standing():
    players = [RotatingPlayer(i) for i in range(8)]
    round_ = pair_rotating(players)
    assert round_.tables == (((0, 1), (2, 3)), ((4, 5), (6, 7)))
    assert round_.sitting_out == ()


def test_previous_partners_are_not_repeated():
    players = [RotatingPlayer(0, frozenset({1})), RotatingPlayer(1, frozenset({0}))]
    players += [RotatingPlayer(i) for i in range(2, 4)]
    round_ = pair_rotating(players)
    assert repeats(round_, players).partners == 0
    ((first, second),) = round_.tables
    assert frozenset(first) != frozenset({0, 1})


def test_sit_outs_go_to_those_who_sat_out_least_then_lowest_ranked():
    players = [RotatingPlayer(i, sit_outs=int(i >= 5)) for i in range(7)]
    round_ = pair_rotating(players)
    assert round_.sitting_out == (2, 3, 4)
    assert sorted(seated(round_)) == [0, 1, 5, 6]


def test_sit_out_lots_are_seeded():
    players = [RotatingPlayer(i) for i in range(10)]
    draws = {pair_rotating(players, seed=s).sitting_out for s in range(20)}
    assert len(draws) > 1
    assert pair_rotating(players, seed=3) == pair_rotating(players, seed=3)


def test_too_few_players():
    with pytest.raises(ValueError):
        pair_rotating([RotatingPlayer(i) for i in range(3)])


@settings(max_examples=25, deadline=None)
@given(st.integers(4, 48), st.integers(0, 2**32))
def test_no_repeated_partner_and_fair_sit_outs(count, seed):
    # While the active players' partner history leaves everyone at least half of them as
    # possible new partners (Dirac), a round without a repeated partner exists.
    active = count - count % 4
    rounds = max(1, active // 2 - 1)
    sat = Counter()
    for players, round_ in rotating_event(count, rounds, seed):
        assert sorted(seated(round_) + list(round_.sitting_out)) == list(range(count))
        assert len(round_.sitting_out) == count % 4
        assert repeats(round_, players).partners == 0
        sat.update(round_.sitting_out)
        assert max(sat[i] for i in range(count)) - min(sat[i] for i in range(count)) <= 1


def test_opponents_repeat_rarely_in_a_large_field():
    for players, round_ in rotating_event(200, 8, seed=5):
        assert repeats(round_, players) == (0, 0)
