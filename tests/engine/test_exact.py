"""Exact analysis: the deals a seat could not tell apart, and the mean of the solver's values.

The reference enumerates deals naively (every way to share the hidden tiles out, kept when
each seat gets its count and no tile of a number it showed it lacks) and solves each.
"""

import itertools
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import ENDED, apply, legal_actions, new_hand, review_hand, variant
from games.engine.exact import knowledge, numbers_mask, value_decision, voids_of
from games.engine.solver import solve
from games.engine.tiles import BIT

CHECKED = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FOUR = ["dominican", "brazilian", "tournament", "latin", "vog", "vog_goat"]


def decision(name: str, seed: int, left: int):
    """A decision (several legal actions) of a random hand once at most `left` tiles are
    in the hands, or None."""
    rng = random.Random(seed)
    state = new_hand(variant(name), rng=rng)
    if state.status != "play":
        state = apply(state, "points")[0]
    while state.status not in ENDED:
        if sum(h.bit_count() for h in state.hands) <= left and len(legal_actions(state)) > 1:
            return state
        state = apply(state, rng.choice(legal_actions(state)))[0]
    return None


def naive_deals(state, seat, partner):
    """Every full set of hands consistent with what `seat` knows, by brute force: the tiles
    it cannot see (in the others' hands, or out of play) shared out in every way."""
    n = len(state.hands)
    known = {seat} | ({(seat + 2) % n} if partner and state.setup.rules.pairs else set())
    hidden = [s for s in range(n) if s not in known]
    seen = sum(state.hands[s] for s in known) | sum(BIT[t] for t, _, _ in state.line)
    voids = voids_of(state)
    out = set()

    def share(i, pool, hands):
        if i == len(hidden):
            out.add(tuple(hands))
            return
        s = hidden[i]
        for chosen in itertools.combinations(pool, state.hands[s].bit_count()):
            mask = sum(BIT[t] for t in chosen)
            if not mask & numbers_mask(voids[s]):
                share(
                    i + 1, [t for t in pool if t not in chosen], hands[:s] + [mask] + hands[s + 1 :]
                )

    share(0, [t for t in range(28) if not seen >> t & 1], list(state.hands))
    return out


@CHECKED
@given(st.sampled_from(FOUR), st.integers(0, 2**32), st.booleans())
def test_an_exact_valuation_is_the_mean_over_every_consistent_deal(name, seed, partner):
    state = decision(name, seed, 7 if not partner else 9)
    if state is None:
        return
    deals = naive_deals(state, state.turn, partner)
    valued = value_decision(state, random.Random(seed), partner)
    assert valued.exact and valued.consistent == valued.deals == len(deals)
    expected = {a: 0.0 for a in legal_actions(state)}
    for hands in deals:
        for action, value in solve(state._replace(hands=hands)).values.items():
            expected[action] += value / len(deals)
    assert valued.values.keys() == expected.keys()
    for action in expected:
        assert abs(valued.values[action] - expected[action]) < 1e-9
    assert valued.values[valued.best] == max(valued.values.values())
    assert state.hands in deals  # the true deal is one of them


def test_many_deals_are_sampled_with_their_error():
    state = decision("tournament", 11, 16)
    valued = value_decision(state, random.Random(1), samples=6, exact_deals=50)
    assert not valued.exact and valued.deals == 6 and valued.consistent > 50
    assert all(valued.errors[a] >= 0 for a in valued.values)
    again = value_decision(state, random.Random(1), samples=6, exact_deals=50)
    assert again.values == valued.values  # seeded


def test_the_partner_tiles_narrow_the_deals():
    state = decision("latin", 5, 14)
    own = knowledge(state, state.turn)
    shared = knowledge(state, state.turn, partner=True)
    assert len(shared.tiles) < len(own.tiles)
    assert shared.hands[(state.turn + 2) % 4] == state.hands[(state.turn + 2) % 4]


def test_a_draw_game_samples_the_boneyard_order():
    rng = random.Random(3)
    state = new_hand(variant("vog_draw_2p"), rng=rng)
    while state.status not in ENDED and (
        len(state.setup.boneyard) - state.drawn < 2
        or len(legal_actions(state)) < 2
        or sum(h.bit_count() for h in state.hands) > 8
    ):
        state = apply(state, rng.choice(legal_actions(state)))[0]
    if state.status in ENDED:
        return
    valued = value_decision(state, random.Random(1), samples=4)
    assert not valued.exact and valued.deals == 4


def test_a_review_says_how_each_verdict_was_reached():
    """The last decisions of a hand are exact (every deal solved), the middle ones sampled
    with their error, and a decision whose one deal outgrows the budget is estimated."""
    rng = random.Random(4)
    state = new_hand(variant("tournament"), rng=rng)
    while state.status not in ENDED:
        state = apply(state, rng.choice(legal_actions(state)))[0]
    review = review_hand(state, random.Random(1), playouts=20, nodes=20_000)
    methods = [m["method"] for m in review["moves"]]
    assert set(methods) <= {"exact", "sampled", "estimated"}
    assert methods[-1] == "exact" and "estimated" in methods
    for move in review["moves"]:
        if move["method"] == "exact":
            assert move["error"] == 0 and move["deals"] >= 1
        if move["method"] == "sampled":
            assert move["deals"] >= 2
        assert move["cost"] >= 0 and move["best"]


@CHECKED
@given(st.sampled_from(FOUR), st.integers(0, 2**32))
def test_a_prior_weighs_every_deal_when_all_are_solved(name, seed):
    """With every consistent deal solved, an action's value is the mean of its values over
    the deals weighted by the prior."""
    state = decision(name, seed, 7)
    if state is None:
        return
    deals = sorted(naive_deals(state, state.turn, False))

    def prior(world):
        return 1.0 + sum(world.hands) % 5  # any positive function of the deal

    valued = value_decision(state, random.Random(seed), prior=prior)
    assert valued.exact and valued.deals == len(deals)
    weights = [prior(state._replace(hands=hands)) for hands in deals]
    expected = {a: 0.0 for a in legal_actions(state)}
    for hands, w in zip(deals, weights, strict=True):
        for action, value in solve(state._replace(hands=hands)).values.items():
            expected[action] += w * value / sum(weights)
    for action in expected:
        assert abs(valued.values[action] - expected[action]) < 1e-9


def test_a_prior_draws_the_sample_by_weight():
    """Too many deals to solve them all: the sample is drawn from a pool by the prior's
    weight, so a prior that only the true deal satisfies values the true deal alone."""
    state = decision("tournament", 1, 10)
    valued = value_decision(state, random.Random(1), samples=6, exact_deals=50)
    assert 50 < valued.consistent < 500 and not valued.exact
    only = value_decision(
        state,
        random.Random(1),
        samples=6,
        exact_deals=50,
        pool=20 * valued.consistent,
        prior=lambda world: float(world.hands == state.hands),
    )
    assert only.deals == 6 and only.values == solve(state).values
    assert only.nodes == solve(state).nodes  # solved once, counted six times
