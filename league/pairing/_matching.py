"""Minimum-cost perfect matching with lexicographic costs, fast enough for 1,000+ nodes.

Every pairing problem in this package (Swiss pairs, partnerships, tables of two partnerships,
play-off seed slots) is a global weighted matching solved with networkx's exact blossom
algorithm. Costs are tuples compared lexicographically (e.g. ``(violations, score gap,
distance)``); they are folded into one integer weight per edge so that an earlier tier always
outweighs any sum of later tiers over a perfect matching.

networkx is pure Python and roughly cubic: ~3 s for 1,024 nodes with only 8 edges each, ~100 s
on the complete graph. Good partners are nearly always close in the preference order (standings)
though, so :func:`match_sequence` solves overlapping windows along that order, each one a global
matching on a sparse candidate graph, and widens to the whole field only when the windows leave
someone unmatched (e.g. the bottom of the standings has already played itself out).

When the optimum over every pair is needed at that size, :func:`proven_matching` matches a
sparse graph with our own blossom algorithm (:mod:`._blossom`, which also gives the LP dual),
prices the other pairs against that dual, and grows the graph until no pair has a negative
slack: that proves the optimum over the complete graph, in about a second at 1,024 nodes.
"""

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

from ._blossom import Matched, max_weight_perfect

Cost = tuple[int, ...]
Pair = tuple[int, int]
Near = Callable[[int, Cost], Iterable[int]]
Allowed = Callable[[int, int], bool]
Exact = Callable[[int, Allowed, Callable[[int, int], Cost], list[Pair]], list[Pair]]
_ADDED = 32  # pairs that join the sparse graph at each node, at most, when priced negative


def min_cost_matching(nodes: Iterable[int], costs: Mapping[Pair, Cost]) -> list[Pair]:
    """Maximum-cardinality matching of least lexicographic total cost over the given edges."""
    import networkx as nx  # a second of a web worker's start-up: loaded on the first pairing

    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    if costs:
        pairs = graph.number_of_nodes() // 2
        combined = dict.fromkeys(costs, 0)
        scale = 1
        for tier in reversed(range(len(next(iter(costs.values()))))):
            for edge, cost in costs.items():
                combined[edge] += cost[tier] * scale
            # Any perfect matching sums at most `pairs` values of this tier: the next tier up
            # must outweigh all of them together.
            scale *= pairs * max(cost[tier] for cost in costs.values()) + 1
        ceiling = max(combined.values()) + 1
        graph.add_weighted_edges_from((u, v, ceiling - c) for (u, v), c in combined.items())
    return [tuple(sorted(pair)) for pair in nx.max_weight_matching(graph, maxcardinality=True)]


def _outward(count: int, index: int) -> Iterator[int]:
    """Indices of a list ordered by distance from `index`: +1, -1, +2, -2, ..."""
    for step in range(1, count):
        if index + step < count:
            yield index + step
        if index - step >= 0:
            yield index - step


def _solve_window(
    nodes: Sequence[int],
    allowed: Callable[[int, int], bool],
    cost: Callable[[int, int], Cost],
    neighbours: int,
    unmatched: Iterable[int] = (),
) -> list[Pair]:
    """Match `nodes` (sorted) over the allowed edges to each node's nearest allowed candidates.

    Nodes in `unmatched` (left over by a previous attempt) get every allowed edge instead.
    """
    edges = _nearest(nodes, allowed, neighbours)
    for u in unmatched:
        for v in nodes:
            if v != u and allowed(u, v):
                edges.setdefault((u, v) if u < v else (v, u))
    return min_cost_matching(nodes, {edge: cost(*edge) for edge in edges})


def _nearest(
    nodes: Sequence[int], allowed: Callable[[int, int], bool], neighbours: int
) -> dict[Pair, None]:
    """The allowed edges from each of `nodes` to its `neighbours` nearest allowed nodes in the
    sequence (and from other nodes to it), in the order found."""
    edges: dict[Pair, None] = {}
    for index, u in enumerate(nodes):
        before = len(edges)
        for other in _outward(len(nodes), index):
            v = nodes[other]
            edge = (u, v) if u < v else (v, u)
            if edge not in edges and allowed(u, v):
                edges[edge] = None
                if len(edges) - before >= neighbours:
                    break
    return edges


def match_sequence(
    count: int,
    allowed: Callable[[int, int], bool],
    cost: Callable[[int, int], Cost],
    *,
    window: int = 48,
    lookahead: int = 16,
    neighbours: int = 12,
    exact: Exact | None = None,
) -> list[Pair]:
    """Perfect matching of ``range(count)`` (count even), nodes given in preference order.

    Pairs that are not `allowed` (rematches, repeated partners, ...) are used only when no
    perfect matching without them exists, and then as few as possible; among the rest the
    lexicographic `cost` is minimised. `cost(u, v)` is called with u < v and must return tuples
    of non-negative ints of one fixed length.

    The order is cut into windows of `window` nodes; each window is matched together with the
    next `lookahead` nodes (so the end of a window can still float down), and pairs lying wholly
    in the look-ahead are discarded and left to the next window. If the last window cannot be
    completed, already accepted pairs above it are reopened, doubling the reopened span, until
    everything is matched; if even the whole field fails with sparse candidates, the unmatched
    nodes get all their allowed edges, and as a last resort the complete graph is solved with
    the disallowed pairs as an extra, dominant cost tier. Given `exact` (called like
    :func:`exact_matching`, and given a perfect matching to start from: the pairs found, and
    the nodes left over paired in order), the windows' leftovers go to it at once instead.
    """
    if count % 2:
        raise ValueError("match_sequence needs an even number of nodes")
    accepted: list[Pair] = []
    used = [False] * count
    pending: list[int] = []
    start = 0
    while start < count:
        core_end = min(count, start + window)
        end = min(count, core_end + lookahead)
        if count - end < window // 2:  # no tiny last window: fold it into this one
            core_end = end = count
        nodes = pending + [v for v in range(start, end) if not used[v]]
        for u, v in _solve_window(nodes, allowed, cost, neighbours):
            if u < core_end or v < core_end:
                accepted.append((u, v))
                used[u] = used[v] = True
        pending = [v for v in nodes if v < core_end and not used[v]]
        start = core_end

    if pending and exact is not None:  # the pairs found so far, and the rest in order
        return exact(count, allowed, cost, accepted + _in_order(pending))
    span = window
    while pending:
        reopened = accepted[-span:] if span < len(accepted) else accepted[:]
        del accepted[len(accepted) - len(reopened) :]
        nodes = sorted(pending + [v for pair in reopened for v in pair])
        found = _solve_window(nodes, allowed, cost, neighbours)
        if len(found) * 2 < len(nodes) and not accepted:
            left = set(nodes).difference(v for pair in found for v in pair)
            found = _solve_window(nodes, allowed, cost, neighbours, unmatched=left)
            if len(found) * 2 < len(nodes):
                return exact_matching(count, allowed, cost)
        accepted.extend(found)
        matched = {v for pair in found for v in pair}
        pending = [v for v in nodes if v not in matched]
        span *= 2
    return accepted


def _in_order(nodes: Sequence[int]) -> list[Pair]:
    return list(zip(nodes[::2], nodes[1::2], strict=True))


def exact_matching(
    count: int, allowed: Callable[[int, int], bool], cost: Callable[[int, int], Cost]
) -> list[Pair]:
    """Exact matching over the complete graph: fewest disallowed pairs first, then cost."""
    costs = {
        (u, v): (0 if allowed(u, v) else 1, *cost(u, v))
        for u in range(count)
        for v in range(u + 1, count)
    }
    return min_cost_matching(range(count), costs)


def proven_matching(
    count: int,
    allowed: Callable[[int, int], bool],
    cost: Callable[[int, int], Cost],
    ceiling: Cost,
    start: Sequence[Pair] = (),
    *,
    near: Near | None = None,
    neighbours: int = 12,
) -> list[Pair]:
    """The optimum of :func:`exact_matching` (fewest disallowed pairs, then least cost, over
    the complete graph), found on a sparse graph and proven over every pair.

    `ceiling` bounds each tier of `cost` over every pair. The sparse graph holds a perfect
    matching (`start`, else neighbours in the sequence), each node's `neighbours` nearest
    allowed nodes in the sequence, and every allowed pair of a node paired against the rules
    in `start`. It is matched exactly with its dual (see :mod:`._blossom`);
    every other pair is then priced against that dual, and if some pair's slack is negative
    the most negative pairs join the graph and it is matched again. When no pair is left with
    a negative slack, the dual is feasible over the complete graph, and the matching is optimal
    over it (LP duality: its cost equals the dual's bound).

    Pricing every pair takes a cost each; `near(u, limit)`, if given, names every node v whose
    pair with u may cost less than `limit` (a cost with the leading tier of disallowed pairs),
    and only those are priced. A pair can have a negative slack only if it costs less than
    half the dual of one of its nodes, which is small but at a few nodes."""
    scales: list[int] = []
    scale = 1
    for most in reversed((1, *ceiling)):
        scales.insert(0, scale)
        scale *= (count // 2) * most + 1

    def weight(u: int, v: int) -> int:
        tiers = (0 if allowed(u, v) else 1, *cost(u, v))
        return -sum(tier * scale for tier, scale in zip(tiers, scales, strict=True))

    def below(limit: int) -> Iterator[int]:  # the folded cost `limit` as tiers
        for scale in scales:
            yield limit // scale
            limit %= scale

    def nodes_near(u: int, limit: int) -> Iterable[int]:
        return range(count) if near is None else near(u, tuple(below(limit)))

    graph = set(_nearest(range(count), allowed, neighbours))
    pairs = start or _in_order(range(count))
    graph.update((min(pair), max(pair)) for pair in pairs)
    for u in {u for pair in pairs if not allowed(*pair) for u in pair}:
        graph.update((min(u, v), max(u, v)) for v in range(count) if v != u and allowed(u, v))
    weights = {edge: weight(*edge) for edge in sorted(graph)}
    while True:
        matched = max_weight_perfect(count, [(u, v, w) for (u, v), w in weights.items()])
        added = _priced(matched, weight, weights, nodes_near, _ADDED)
        if not added:
            return matched.pairs()
        weights.update(added)


def _priced(
    matched: Matched,
    weight: Callable[[int, int], int],
    known: Mapping[Pair, int],
    near: Callable[[int, int], Iterable[int]],
    most: int,
) -> dict[Pair, int]:
    """The pairs outside `known` whose slack under `matched`'s dual is negative, the most
    negative first, each while one of its nodes has fewer than `most` new pairs.

    The slack of (u, v) is at least ``dual[u] + dual[v] + 4 cost``, so it is negative only if
    the cost is below half of ``-dual[u]`` or of ``-dual[v]``: each node asks `near` for the
    nodes under its own half."""
    count = len(matched.mate)
    top = [chain[0] if chain else v for v, chain in enumerate(matched.chains)]
    dual = matched.dual
    negative = {}
    for u in range(count):
        if dual[u] >= 0:
            continue
        for v in near(u, (1 - dual[u]) // 2):
            edge = (u, v) if u < v else (v, u)
            if u == v or edge in known or edge in negative:
                continue
            w = weight(*edge)
            slack = dual[u] + dual[v] - 4 * w
            if slack < 0 and top[u] == top[v]:
                slack = matched.slack(u, v, w)
            if slack < 0:
                negative[edge] = (slack, w)
    taken = [0] * count
    added = {}
    for (u, v), (_, w) in sorted(negative.items(), key=lambda item: (item[1][0], item[0])):
        if taken[u] < most or taken[v] < most:
            taken[u] += 1
            taken[v] += 1
            added[u, v] = w
    return added
