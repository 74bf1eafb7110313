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
"""

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

Cost = tuple[int, ...]
Pair = tuple[int, int]


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
    costs: dict[Pair, Cost] = {}

    def add(u: int, v: int) -> None:
        edge = (u, v) if u < v else (v, u)
        if edge not in costs and allowed(u, v):
            costs[edge] = cost(*edge)

    for index, u in enumerate(nodes):
        before = len(costs)
        for other in _outward(len(nodes), index):
            add(u, nodes[other])
            if len(costs) - before >= neighbours:
                break
    for u in unmatched:
        for v in nodes:
            if v != u:
                add(u, v)
    return min_cost_matching(nodes, costs)


def match_sequence(
    count: int,
    allowed: Callable[[int, int], bool],
    cost: Callable[[int, int], Cost],
    *,
    window: int = 48,
    lookahead: int = 16,
    neighbours: int = 12,
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
    the disallowed pairs as an extra, dominant cost tier.
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

    span = window
    while pending:
        reopened = accepted[-span:] if span < len(accepted) else accepted
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
