"""The match's stake: the chance of winning the match from two scores, and what a hand's
result is worth by it (the strong bot's utility)."""

import random

import pytest

from games.engine import PRESETS, new_hand, stake, variant
from games.engine.exact import value_decision
from games.engine.solver import solve

from .test_exact import decision, naive_deals


@pytest.mark.parametrize("name", ["tournament", "dominican", "brazilian", "vog_draw"])
def test_the_chance_of_winning_is_a_fair_table(name):
    table = stake.chances(variant(name))
    size = len(table)
    assert size == -(-variant(name).target // stake.STEP) + 1
    for a in range(1, size):
        assert table[a][a] == pytest.approx(0.5)
        assert table[0][a] == 1.0 and table[a][0] == 0.0
        for b in range(1, size):
            assert table[a][b] + table[b][a] == pytest.approx(1.0)  # either side alike
            if a + 1 < size:
                assert table[a + 1][b] <= table[a][b] + 1e-12  # needing more is worse
            if b + 1 < size:
                assert table[a][b + 1] >= table[a][b] - 1e-12


def test_the_table_agrees_with_matches_played_out_by_its_model():
    """The dynamic programme against whole matches drawn from the same hands' points."""
    rules = PRESETS["tournament"]
    points = stake.hand_points(rules)
    rng = random.Random(7)
    steps = range(len(points))
    for needed in [(3, 9), (10, 4), (20, 20), (1, 12)]:
        won, matches = 0, 20_000
        for _ in range(matches):
            ours, theirs = needed
            while ours > 0 and theirs > 0:
                gained = rng.choices(steps, points)[0]
                if rng.random() < 0.5:
                    ours -= gained
                else:
                    theirs -= gained
            won += ours <= 0
        expected = stake.chances(rules)[needed[0]][needed[1]]
        spread = (expected * (1 - expected) / matches) ** 0.5
        assert abs(won / matches - expected) <= 4 * spread + 1e-9, needed


def test_a_result_is_worth_the_chance_of_winning_it_leaves():
    rules = PRESETS["tournament"]
    close = stake.utility(new_hand(rules, rng=random.Random(1), scores_before=(95, 60)), 0)
    assert close(5) == pytest.approx(1.0, abs=1e-3)  # reaches the target
    assert close(40) == pytest.approx(1.0, abs=1e-3)  # more points add (almost) nothing
    assert close(40) > close(5)  # but the larger score is still preferred
    assert close(-40) == pytest.approx(0.0, abs=1e-3)  # the other side reaches it
    values = [close(v) for v in range(-60, 61)]
    assert values == sorted(values)  # worth never falls as the result rises
    # Seat 1's side sees the same hand from the other end.
    other = stake.utility(new_hand(rules, rng=random.Random(1), scores_before=(95, 60)), 1)
    for v in (-30, -5, 0, 5, 30):
        assert other(-v) == pytest.approx(1.0 - close(v), abs=1e-3)
    # At the start of a match, a result moves the chance by about as much either way.
    start = stake.utility(new_hand(rules, rng=random.Random(1)), 0)
    assert start(0) == pytest.approx(0.5)
    assert start(20) - 0.5 == pytest.approx(0.5 - start(-20), abs=1e-3)


def test_no_stake_where_the_match_has_none():
    for name in ("vog_3p", "vog_goat"):  # three sides; the lowest score wins
        assert stake.utility(new_hand(variant(name), rng=random.Random(2)), 0) is None


@pytest.mark.parametrize("seed", [3, 6, 13])
def test_a_valuation_takes_the_worth_of_each_deal_before_the_mean(seed):
    """A nonlinear worth gives the mean of the worths, not the worth of the mean."""
    state = decision("tournament", seed, 7)
    late = new_hand(PRESETS["tournament"], rng=random.Random(seed), scores_before=(90, 85))
    worth = stake.utility(late, state.turn)  # near the target: far from linear
    deals = naive_deals(state, state.turn, False)
    valued = value_decision(state, random.Random(seed), utility=worth)
    assert valued.exact and valued.deals == len(deals)
    expected = dict.fromkeys(valued.values, 0.0)
    for hands in deals:
        for action, value in solve(state._replace(hands=hands)).values.items():
            expected[action] += worth(value) / len(deals)
    for action, value in expected.items():
        assert valued.values[action] == pytest.approx(value)
