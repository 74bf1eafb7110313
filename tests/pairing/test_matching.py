import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from league.pairing import _matching
from league.pairing._matching import (
    exact_matching,
    match_sequence,
    min_cost_matching,
    proven_matching,
)


def test_costs_are_lexicographic():
    # Two cheap-on-tier-1 edges lose against one pair of edges better on tier 0.
    costs = {(0, 1): (1, 0), (2, 3): (1, 0), (0, 2): (0, 50), (1, 3): (0, 50)}
    assert sorted(min_cost_matching(range(4), costs)) == [(0, 2), (1, 3)]


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 20).map(lambda n: 2 * n),
    st.floats(0.0, 0.9),
    st.integers(0, 2**32),
    st.sampled_from([(4, 2, 2), (8, 4, 3), (48, 16, 12)]),
)
def test_windows_find_a_perfect_matching_with_fewest_disallowed_pairs(count, density, seed, cfg):
    window, lookahead, neighbours = cfg

    def allowed(u, v):
        return hash((seed, min(u, v), max(u, v))) % 1000 >= density * 1000

    pairs = match_sequence(
        count,
        allowed,
        lambda u, v: (v - u,),
        window=window,
        lookahead=lookahead,
        neighbours=neighbours,
    )
    assert sorted(x for pair in pairs for x in pair) == list(range(count))
    graph = nx.Graph((u, v) for u in range(count) for v in range(u + 1, count) if allowed(u, v))
    best = len(nx.max_weight_matching(graph, maxcardinality=True))
    assert sum(not allowed(u, v) for u, v in pairs) == count // 2 - best


def test_a_whole_field_reopened_is_matched_over_sparse_candidates(monkeypatch):
    # The last four nodes may only meet the first four: the windows leave them over, and only
    # the whole field reopened matches them. (Reopening it all used to empty the reopened
    # pairs, leaving the last nodes alone, and fell to the complete graph.)
    def allowed(u, v):
        u, v = min(u, v), max(u, v)
        return v < 36 or u < 4

    def no_complete_graph(*args):
        raise AssertionError("the complete graph was solved")

    monkeypatch.setattr(_matching, "exact_matching", no_complete_graph)
    pairs = match_sequence(40, allowed, lambda u, v: (v - u,), window=8, lookahead=2, neighbours=3)
    assert sorted(x for pair in pairs for x in pair) == list(range(40))
    assert all(allowed(u, v) for u, v in pairs)


def tiered_costs(seed):
    def allowed(u, v):
        return hash((seed, min(u, v), max(u, v), "allowed")) % 100 >= 30

    def cost(u, v):
        u, v = min(u, v), max(u, v)
        return (hash((seed, u, v, 0)) % 3, hash((seed, u, v, 1)) % 50)

    return allowed, cost


def total(pairs, allowed, cost):
    tiers = [(0 if allowed(u, v) else 1, *cost(u, v)) for u, v in pairs]
    return tuple(map(sum, zip(*tiers, strict=True)))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 16).map(lambda n: 2 * n), st.integers(0, 2**32), st.booleans())
def test_a_proven_matching_is_the_optimum_over_every_pair(count, seed, with_near):
    allowed, cost = tiered_costs(seed)

    def near(u, limit):  # the contract, by brute force: every v that may cost below `limit`
        return [
            v for v in range(count) if v != u and (0 if allowed(u, v) else 1, *cost(u, v)) < limit
        ]

    pairs = proven_matching(
        count, allowed, cost, (2, 49), neighbours=2, near=near if with_near else None
    )
    assert sorted(x for pair in pairs for x in pair) == list(range(count))
    best = exact_matching(count, allowed, cost)
    assert total(pairs, allowed, cost) == total(best, allowed, cost)
