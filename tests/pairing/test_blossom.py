import random

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.pairing._blossom import max_weight_perfect


def random_graph(rng, count, density, spread):
    """Random edges with weights in [-spread, spread], plus a random perfect matching (so that
    one exists)."""
    weights = {
        (u, v): rng.randint(-spread, spread)
        for u in range(count)
        for v in range(u + 1, count)
        if rng.random() < density
    }
    order = list(range(count))
    rng.shuffle(order)
    for u, v in zip(order[::2], order[1::2], strict=True):
        weights.setdefault((min(u, v), max(u, v)), rng.randint(-spread, spread))
    return [(u, v, w) for (u, v), w in sorted(weights.items())]


def proven_optimal(count, edges, matched):
    """The dual certificate, checked from its definition: every edge's slack (vertex duals plus
    the duals of the blossoms holding both ends, against the edge's weight) is non-negative,
    zero on the matching; blossom duals are non-negative; each blossom holds a perfect
    matching of all but one of its vertices. Then no perfect matching weighs more."""
    holders = {}
    for v in range(count):
        b, chain = matched.parent[v], []
        while b != -1:
            chain.append(b)
            b = matched.parent[b]
        holders[v] = set(chain)
    blossoms = set().union(*holders.values())
    assert all(matched.dual[b] >= 0 for b in blossoms)
    for u, v, w in edges:
        slack = matched.dual[u] + matched.dual[v] - 4 * w
        slack += sum(2 * matched.dual[b] for b in holders[u] & holders[v])
        assert slack >= 0
        if matched.mate[u] == v:
            assert slack == 0
    for b in blossoms:
        inside = [v for v in range(count) if b in holders[v]]
        assert sum(b in holders[matched.mate[v]] for v in inside) == len(inside) - 1
    return True


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 14).map(lambda n: 2 * n),
    st.floats(0.1, 1.0),
    st.sampled_from([3, 50, 10**6]),
    st.integers(0, 2**32),
)
def test_the_matching_is_perfect_and_as_heavy_as_networkx_finds(count, density, spread, seed):
    edges = random_graph(random.Random(seed), count, density, spread)
    matched = max_weight_perfect(count, edges)
    weight = {(u, v): w for u, v, w in edges}
    assert sorted(x for pair in matched.pairs() for x in pair) == list(range(count))
    graph = nx.Graph()
    graph.add_weighted_edges_from(edges)
    best = nx.max_weight_matching(graph, maxcardinality=True)
    assert sum(weight[pair] for pair in matched.pairs()) == sum(
        weight[min(pair), max(pair)] for pair in best
    )
    assert proven_optimal(count, edges, matched)


def nested_odd_sets(rng, groups):
    """`groups` (even) sets of three triangles: heavy edges in each triangle, lighter ones
    between the triangles of a set, light ones between sets. Every set and triangle is odd,
    so the optimum's dual needs blossoms, nested two deep."""
    weights = {}

    def join(u, v, low, high):
        weights[min(u, v), max(u, v)] = rng.randint(low, high)

    for group in range(groups):
        for triangle in range(3):
            first = 9 * group + 3 * triangle
            join(first, first + 1, 90, 100)
            join(first + 1, first + 2, 90, 100)
            join(first, first + 2, 90, 100)
            for other in range(triangle + 1, 3):
                join(first + rng.randrange(3), 9 * group + 3 * other + rng.randrange(3), 40, 50)
        join(9 * group + rng.randrange(9), 9 * ((group + 1) % groups) + rng.randrange(9), 0, 10)
    for _ in range(groups * 4):
        u, v = rng.sample(range(9 * groups), 2)
        weights.setdefault((min(u, v), max(u, v)), rng.randint(-10, 10))
    return [(u, v, w) for (u, v), w in sorted(weights.items())]


@pytest.mark.parametrize("seed", range(4))
def test_nested_blossoms_come_with_their_proof(seed):
    edges = nested_odd_sets(random.Random(seed), 8)
    matched = max_weight_perfect(72, edges)
    assert any(matched.parent[b] != -1 for b in range(72, 144))  # nested blossoms are left
    assert proven_optimal(72, edges, matched)
    assert all(matched.slack(u, v, w) >= 0 for u, v, w in edges)
    graph = nx.Graph()
    graph.add_weighted_edges_from(edges)
    weight = {(u, v): w for u, v, w in edges}
    best = nx.max_weight_matching(graph, maxcardinality=True)
    assert sum(weight[pair] for pair in matched.pairs()) == sum(
        weight[min(pair), max(pair)] for pair in best
    )


def test_no_perfect_matching_is_an_error():
    with pytest.raises(ValueError, match="no perfect matching"):
        max_weight_perfect(4, [(0, 1, 1), (0, 2, 1), (0, 3, 1)])
