import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from league.pairing._matching import match_sequence, min_cost_matching


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
