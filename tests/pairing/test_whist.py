import time
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.pairing import WhistScheduleError, whist_schedule
from league.pairing._whist_rounds import BASE_ROUNDS
from league.pairing.whist import READY_UP_TO, whist_possible

POSSIBLE = [v for v in range(4, 65) if whist_possible(v)]
ON_HAND = [v for v in POSSIBLE if v <= READY_UP_TO or v in BASE_ROUNDS or v in (53, 61)]


def assert_whist(players, rounds):
    """Every pair partners exactly once and opposes exactly twice; everyone plays every round
    but one sit-out each when the count is 4n + 1."""
    count = len(players)
    assert len(rounds) == (count - 1 if count % 4 == 0 else count)
    partners, opponents, sat = Counter(), Counter(), Counter()
    for round_ in rounds:
        seated = [p for table in round_.tables for pair in table for p in pair]
        assert sorted(seated + list(round_.sitting_out), key=str) == sorted(players, key=str)
        assert len(round_.sitting_out) == count % 4
        sat.update(round_.sitting_out)
        for (a, b), (c, d) in round_.tables:
            partners.update([frozenset((a, b)), frozenset((c, d))])
            opponents.update(frozenset((x, y)) for x in (a, b) for y in (c, d))
    for pair in map(frozenset, combinations(players, 2)):
        assert partners[pair] == 1
        assert opponents[pair] == 2
    assert all(sat[p] == count % 4 for p in players)


@pytest.mark.parametrize("count", POSSIBLE)
def test_whist_design_property_for_every_count_up_to_64(count):
    players = [f"p{i}" for i in range(count)]
    if count not in ON_HAND:  # not computed yet: refused, saying a schedule exists
        with pytest.raises(WhistScheduleError) as error:
            whist_schedule(players)
        assert error.value.exists is True
        return
    assert_whist(players, whist_schedule(players))


def test_schedules_are_on_hand_for_every_count_up_to_64():
    assert READY_UP_TO >= 64
    assert set(POSSIBLE) <= set(ON_HAND)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(ON_HAND), st.randoms(use_true_random=False))
def test_whist_design_property_whatever_the_player_ids(count, rng):
    players = rng.sample(range(10**6), count)
    assert_whist(players, whist_schedule(players))


@pytest.mark.parametrize("count", [73, 89, 97, 101])
def test_primes_of_the_form_4n_plus_1_are_constructed_at_any_size(count):
    players = list(range(count))
    assert_whist(players, whist_schedule(players))


def test_a_schedule_is_built_quickly_from_its_base_round():
    # Not a timing claim (see benchmarks/pairing.py), a guard against a search creeping back.
    start = time.perf_counter()
    whist_schedule(list(range(max(ON_HAND))))
    assert time.perf_counter() - start < 5


@pytest.mark.parametrize("count", [0, 2, 3, 6, 7, 10, 11, 22, 63])
def test_impossible_counts_raise_saying_no_schedule_exists(count):
    with pytest.raises(WhistScheduleError) as error:
        whist_schedule(list(range(count)))
    assert error.value.exists is False


def test_a_count_with_a_schedule_not_on_hand_says_so():
    count = next(v for v in range(READY_UP_TO + 1, 10**4) if whist_possible(v))
    with pytest.raises(WhistScheduleError) as error:
        whist_schedule(list(range(count)))
    assert error.value.exists is True


def test_duplicate_players_rejected():
    with pytest.raises(ValueError):
        whist_schedule([1, 1, 2, 3])
