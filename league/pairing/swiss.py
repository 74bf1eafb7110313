"""Swiss pairing for fixed entrants (pairs of players, teams).

One round is a global minimum-cost perfect matching (see :mod:`._matching`), never a greedy
pair-by-pair choice. Criteria, each one absolutely dominating the next:

1. no rematch and no forbidden pairing (same club, family, ...) unless unavoidable, and then
   as few as possible; a second bye counts like a rematch;
2. the bye (odd field) goes to the lowest-ranked entrant who has not had one yet;
3. score-group integrity: the sum of squared score-group distances is minimal, so as few
   entrants as possible float, each as little as possible;
4. within a score group, the preferred opponent: ``"slide"`` pairs the top half against the
   bottom half (1 v 5, 2 v 6, 3 v 7, 4 v 8, as in the FIDE Dutch system), ``"adjacent"`` pairs
   neighbours in the standings (1 v 2, 3 v 4); floaters meet the closest entrant in the
   standings.

Every round reaches the optimum of these criteria. A field of up to :data:`EXACT_FIELD`
entrants is matched exactly, over every pair (networkx's blossom algorithm). A larger one is
matched in windows along the standings (see :mod:`._matching`); criteria 1-3 have lower bounds
that are cheap to compute (no rematch; the bye on the lowest-ranked entrant without one; one
floater across each score-group boundary with an odd number of entrants above it). A round at
those bounds is then brought to the optimum of criterion 4 by :func:`_improved`: only pairs
that some cycle of swaps gaining on criterion 4 could use are matched again, and exactly (a few
dozen to a few hundred nodes in fields of 100-1,024 entrants). When the windows miss a bound or
leave entrants unmatched (earlier meetings force more floaters than the bound: rare), the round
is matched exactly over every pair by :func:`._matching.proven_matching`, starting from the
windows' pairs: a sparse graph is matched with its LP dual, every other pair that could beat
that dual (see :class:`_Near`) is priced against it, and the graph grows until no pair does,
which proves the optimum of all four criteria over every pair (under a second at 1,024
entrants when two score groups of 32 have all met among themselves; about 15 s when one of
160 has too, more than any real history: each entrant would have met 159 others).

Lookahead: given `rounds_left`, the rounds still to be paired after this one, a round is chosen
only if the unplayed pairs that remain still hold that many rounds without a rematch or a second
bye (edge-disjoint perfect matchings, searched exhaustively within a step budget) whenever some
choice of round allows that. So a Swiss as long as a round robin never paints itself into a
corner (two triangles left among six entrants, say) by an early round that was ideal by score.
"""

import heapq
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from ._matching import (
    Cost,
    Near,
    exact_matching,
    match_sequence,
    min_cost_matching,
    proven_matching,
)
from ._search import Effort

Pairs = list[tuple[int, int]]
CostOf = Callable[[int, int], Cost]
Allowed = Callable[[int, int], bool]
Search = Callable[[list[set[int]], int], list[Pairs] | None]

Style = Literal["slide", "adjacent"]
EXACT_FIELD = 64  # fields up to this size are matched exactly over every pair
_LOOKAHEAD_STEPS = 50_000  # search steps for the rounds left after one candidate round
_LOOKAHEAD_TRIES = 8  # candidate rounds tried, each avoiding the pairs of those rejected


@dataclass(frozen=True)
class SwissEntrant:
    """An entrant as it stands before the round; entrants are passed best-ranked first."""

    id: Hashable
    score: float
    opponents: frozenset[Hashable] = frozenset()
    had_bye: bool = False


@dataclass(frozen=True)
class SwissRound:
    """Pairings in table order (table 1 = top score group), higher-ranked entrant first.

    `rematches` counts pairings that repeat an earlier meeting or a forbidden pairing, plus a
    repeated bye; it is 0 unless no valid round exists.
    """

    pairings: tuple[tuple[Hashable, Hashable], ...]
    bye: Hashable | None
    rematches: int


def pair_swiss(
    entrants: Sequence[SwissEntrant],
    forbidden: Iterable[tuple[Hashable, Hashable]] = (),
    *,
    style: Style = "slide",
    rounds_left: int = 0,
    effort: Effort | None = None,
) -> SwissRound:
    """Pair one Swiss round. `entrants` must be ordered by current standing (best first);
    `rounds_left` rounds are still to be paired after this one.

    `effort` counts the work (see :mod:`._search`): with `allowed` steps it raises
    :class:`SearchTooLong` rather than work longer, with `progress` it reports how far the
    round has come."""
    effort = effort or Effort()
    count = len(entrants)
    if len({e.id for e in entrants}) != count:
        raise ValueError("entrant ids must be unique")
    banned = {frozenset(pair) for pair in forbidden}
    scores = sorted({e.score for e in entrants}, reverse=True)
    group_index = {score: group for group, score in enumerate(scores)}
    group_of = [group_index[e.score] for e in entrants]

    members, order, position, target = _preferences(group_of, len(scores), style)

    bye_node = count if count % 2 else None
    nodes = order + ([bye_node] if bye_node is not None else [])
    anyone_eligible = any(not e.had_bye for e in entrants)

    def valid(a: int, b: int) -> bool:
        if bye_node in (a, b):
            return not entrants[min(a, b)].had_bye or not anyone_eligible
        x, y = entrants[a], entrants[b]
        if y.id in x.opponents or x.id in y.opponents:
            return False
        return not banned or frozenset((x.id, y.id)) not in banned

    def allowed(u: int, v: int) -> bool:
        return valid(nodes[u], nodes[v])

    def cost(u: int, v: int) -> Cost:
        a, b = sorted((nodes[u], nodes[v]))
        if b == bye_node:
            return (count - 1 - a, 0, 0)
        group_a, group_b = group_of[a], group_of[b]
        if group_a != group_b:
            return (0, (group_a - group_b) ** 2, abs(a - b))
        return (0, 0, abs(abs(position[a] - position[b]) - target[group_a]))

    # Each tier of `cost` at most: the bye's distance from the bottom, the squared distance
    # of two score groups, a distance in the standings.
    ceiling = (count, (len(scores) - 1) ** 2, count)
    finder = _Near(nodes, bye_node, group_of, members, position, target)
    near, node_of = finder.near, finder.node_of

    def solve(avoid: frozenset[frozenset[int]]) -> list[tuple[int, int]]:
        """Optimal pairing (as node pairs), the pairs in `avoid` counted like rematches."""

        def allowed_now(u: int, v: int) -> bool:
            return allowed(u, v) and frozenset((u, v)) not in avoid

        if len(nodes) <= EXACT_FIELD:
            effort.spend(2 * len(nodes) ** 2)
            return exact_matching(len(nodes), allowed_now, cost)
        effort.spend(8 * len(nodes))
        exact = _Proven(ceiling, near, effort)
        found = match_sequence(len(nodes), allowed_now, cost, exact=exact)
        if exact.used:  # the windows left entrants unmatched: matched exactly from there
            return found
        if _misses_a_bound(found, allowed_now, cost, group_of, nodes, bye_node):
            return exact(len(nodes), allowed_now, cost, found)
        # A better round has the same floaters' boundaries (criterion 3 at its bound).
        crossed = {min(group_of[nodes[u]], group_of[nodes[v]]) for u, v in found if cost(u, v)[1]}
        return _improved(
            found,
            cost,
            lambda u, below: candidates(u, below, crossed),
            len(nodes) - 1 if bye_node else None,
            effort,
        )

    def candidates(u: int, below: int, crossed: set[int]) -> Iterator[int]:
        """The nodes v that u may meet at a criterion-4 cost below `below`: in its score group,
        or across a boundary (one of those `crossed`) in the next group up or down."""
        a = nodes[u]
        if a == bye_node:
            return
        near = {b for b in finder.aimed(a, below) if b != a}
        near.update(finder.crossing(a, below, crossed))
        for b in near:
            v = node_of[b]
            if allowed(u, v) and cost(u, v)[2] < below:
                yield v

    chosen = solve(frozenset())
    if rounds_left > 0:
        chosen = _completable(chosen, len(nodes), allowed, rounds_left, solve, effort)
    effort.report(1)

    ranked = [(min(nodes[u], nodes[v]), max(nodes[u], nodes[v])) for u, v in chosen]
    pairings = sorted(
        (pair for pair in ranked if pair[1] != bye_node),
        key=lambda pair: (group_of[pair[0]], pair[0]),
    )
    return SwissRound(
        pairings=tuple((entrants[a].id, entrants[b].id) for a, b in pairings),
        bye=next((entrants[a].id for a, b in ranked if b == bye_node), None),
        rematches=sum(not valid(a, b) for a, b in ranked),
    )


class _Proven:
    """:func:`proven_matching` for one field, noting whether it was used."""

    def __init__(self, ceiling: Cost, near: Near, effort: Effort) -> None:
        self.ceiling, self.near, self.effort, self.used = ceiling, near, effort, False

    def __call__(self, count: int, allowed: Allowed, cost: CostOf, start: Pairs) -> Pairs:
        self.used = True
        self.effort.spend(2 * count**2)
        return proven_matching(count, allowed, cost, self.ceiling, start, near=self.near)


class _Near:
    """Which nodes (see pair_swiss) may pair with a node below a given cost."""

    def __init__(
        self,
        nodes: list[int],
        bye_node: int | None,
        group_of: list[int],
        members: list[list[int]],
        position: list[int],
        target: list[int],
    ) -> None:
        self.nodes, self.bye_node, self.group_of = nodes, bye_node, group_of
        self.members, self.position, self.target = members, position, target
        self.node_of = {rank: v for v, rank in enumerate(nodes)}

    def near(self, u: int, limit: Cost) -> list[int] | range:
        """Every node v whose pair with node u may cost less than `limit` (with the leading
        tier of disallowed pairs)."""
        a = self.nodes[u]
        if a == self.bye_node or limit[:2] > (0, 0):
            return range(len(self.nodes))  # (a disallowed pair, or one with the bye)
        near = [self.node_of[b] for b in self._ranks(a, limit[2], limit[3])]
        return near + ([len(self.nodes) - 1] if self.bye_node is not None else [])

    def _ranks(self, a: int, spread: int, distance: int) -> Iterator[int]:
        """The ranks b with a pair (a, b) below `spread` in squared score-group distance, or
        at it and below `distance`."""
        group = self.group_of[a]
        for other, ranks in enumerate(self.members):
            squared = (other - group) ** 2
            if squared < spread:
                yield from ranks
            elif squared == spread and other != group:
                yield from self.across(a, other, distance)
            elif squared == spread:
                yield from self.aimed(a, distance)

    def aimed(self, a: int, distance: int) -> Iterator[int]:
        """The ranks of a's score group (a among them) less than `distance` from the places
        a aims at (criterion 4's cost within a group)."""
        group = self.group_of[a]
        ranks, place, aim = self.members[group], self.position[a], self.target[group]
        for centre in (place + aim, place - aim):
            yield from ranks[max(0, centre - distance + 1) : max(0, centre + distance)]

    def crossing(self, a: int, distance: int, crossed: set[int]) -> Iterator[int]:
        """The ranks of the score groups next to a's, across a boundary in `crossed` (the
        lower group's index), less than `distance` from a in the standings."""
        group = self.group_of[a]
        for other in (group - 1, group + 1):
            if 0 <= other < len(self.members) and min(other, group) in crossed:
                yield from self.across(a, other, distance)

    def across(self, a: int, other: int, distance: int) -> list[int]:
        """The ranks of score group `other` less than `distance` from a in the standings."""
        ranks = self.members[other]
        return ranks[bisect_left(ranks, a - distance + 1) : bisect_left(ranks, a + distance)]


def _preferences(
    group_of: list[int], groups: int, style: Style
) -> tuple[list[list[int]], list[int], list[int], list[int]]:
    """Each score group's ranks, the preference sequence, each rank's place in its group, and
    each group's distance to the preferred opponent.

    The sequence runs through the score groups top-down; for "slide" each group is interleaved
    (1, 5, 2, 6, ...) so that preferred opponents sit next to each other and the windowed
    matcher sees them as near neighbours."""
    members: list[list[int]] = [[] for _ in range(groups)]
    for rank, group in enumerate(group_of):
        members[group].append(rank)
    order: list[int] = []
    position = [0] * len(group_of)
    target = [1] * groups
    for group, ranks in enumerate(members):
        for place, rank in enumerate(ranks):
            position[rank] = place
        if style == "slide":
            half = len(ranks) // 2
            target[group] = max(1, half)
            top, bottom = ranks[:half], ranks[half : 2 * half]
            ranks = [r for pair in zip(top, bottom, strict=True) for r in pair] + ranks[2 * half :]
        order.extend(ranks)
    return members, order, position, target


def _improved(
    found: Pairs,
    cost: CostOf,
    candidates: Callable[[int, int], Iterable[int]],
    bye_node: int | None,
    effort: Effort,
) -> Pairs:
    """`found`, at the bounds of criteria 1-3, brought to the optimum of criterion 4.

    Any better pairing with the same cost in criteria 1-3 differs from `found` by alternating
    cycles (a pair of `found` out, a new pair in, ...) in which every pair is within a score
    group or across one boundary (one floater to each boundary stays), and the nearest optimum
    by cycles that each gain on criterion 4. Costs are measured against half of each node's
    cheapest pair (which changes no cycle's gain), and a cycle that gains has a starting pair
    from which every prefix gains too (the cycle lemma): so every node of such a cycle is
    reached from a pair of `found` that costs more than its nodes' cheapest, through new pairs
    each costing less than the gain so far. Those nodes and pairs are collected (keeping the
    best gain reached at each node) and matched exactly: the result is optimal."""
    partner: dict[int, int] = {}
    for u, v in found:
        if bye_node not in (u, v):  # the bye stays where criterion 2 put it
            partner[u], partner[v] = v, u

    def cheapest(u: int) -> int:
        below = 1
        while True:
            costs = [cost(u, v)[2] for v in candidates(u, below)]
            if costs or below > len(partner):
                return min(costs, default=0)
            below *= 2

    # Costs are measured over half of each node's cheapest pair: no cycle gains more or less.
    least = {u: cheapest(u) for u in partner}
    most = max(least.values(), default=0)

    def excess(u: int, v: int) -> int:  # twice the cost over the halves of the cheapest
        return 2 * cost(u, v)[2] - least[u] - least[v]

    gain: dict[int, int] = {}
    for u, v in found:
        worth = excess(u, v) if u in partner else 0
        if worth > 0:
            for x in (u, v):
                gain[x] = max(worth, gain.get(x, 0))
    # No simple path gains more than all the pairs of `found` together; past that a walk is
    # going round a cycle that gains.
    ceiling = sum(excess(u, v) for u, v in found if u in partner)
    edges: set[tuple[int, int]] = set()
    waiting = [(-reached, x) for x, reached in gain.items()]  # the greatest gain first
    heapq.heapify(waiting)
    while waiting:
        reached, x = heapq.heappop(waiting)
        effort.spend(3)
        if -reached < gain[x]:
            continue  # reached again with more since
        for y in candidates(x, (gain[x] + least[x] + most) // 2 + 1):
            if y == partner[x] or y not in partner or excess(x, y) >= gain[x]:
                continue
            z = partner[y]
            edges.add((min(x, y), max(x, y)))
            reached = min(ceiling, gain[x] - excess(x, y) + excess(y, z))
            if reached > gain.get(z, 0):
                gain[z] = reached
                heapq.heappush(waiting, (-reached, z))
    if not edges:
        return found
    import networkx as nx  # loaded on the first pairing, not at a web worker's start-up

    graph = nx.Graph(edges)
    graph.add_edges_from((x, partner[x]) for x in list(graph))
    region = set(graph)
    better = []
    for part in nx.connected_components(graph):  # each matched on its own
        pairs = graph.subgraph(part).edges
        effort.spend(2 * len(part) ** 2)
        better += min_cost_matching(sorted(part), {edge: cost(*edge)[1:] for edge in pairs})
    return [pair for pair in found if pair[0] not in region] + better


def _misses_a_bound(
    found: Pairs,
    allowed: Allowed,
    cost: CostOf,
    group_of: Sequence[int],
    nodes: Sequence[int],
    bye_node: int | None,
) -> bool:
    """Whether the pairing `found` is above the lower bound of criterion 1, 2 or 3."""
    if not all(allowed(u, v) for u, v in found):
        return True
    bye_costs = [cost(u, v)[0] for u, v in found if bye_node in (nodes[u], nodes[v])]
    eligible = [
        cost(u, len(nodes) - 1)[0]
        for u in range(len(nodes) - 1)
        if bye_node is not None and allowed(u, len(nodes) - 1)
    ]
    if bye_costs and eligible and bye_costs[0] > min(eligible):
        return True
    # Each boundary between two score groups with an odd number of entrants above it (the bye
    # holder aside) is crossed by at least one pair, and a pair across d boundaries costs
    # d² >= d.
    holder = [min(nodes[u], nodes[v]) for u, v in found if bye_node in (nodes[u], nodes[v])]
    sizes = Counter(group_of)
    if holder:
        sizes[group_of[holder[0]]] -= 1
    above = crossings = 0
    for group in sorted(sizes)[:-1]:
        above += sizes[group]
        crossings += above % 2
    return sum(cost(u, v)[1] for u, v in found) > crossings


def _completable(
    chosen: Pairs,
    size: int,
    allowed: Allowed,
    rounds_left: int,
    solve: Callable[[frozenset[frozenset[int]]], Pairs],
    effort: Effort,
) -> Pairs:
    """`chosen`, or the best alternative after which `rounds_left` more rounds can be paired
    without a rematch, if `chosen` leaves no such rounds and another round does."""
    graph: list[set[int]] = [set() for _ in range(size)]
    for u in range(size):  # (`allowed` is symmetric: each pair asked once)
        for v in range(u + 1, size):
            if allowed(u, v):
                graph[u].add(v)
                graph[v].add(u)
    # The most work this can take, for the share of it done.
    most = (
        effort.spent + (_LOOKAHEAD_TRIES + 2) * _LOOKAHEAD_STEPS + _LOOKAHEAD_TRIES * (2 * size**2)
    )

    def search(graph: list[set[int]], count: int) -> list[list[tuple[int, int]]] | None:
        return _matchings(graph, count, _LOOKAHEAD_STEPS, effort, most)

    if _rounds_possible(graph, chosen, rounds_left, search) is not False:
        return chosen
    rejected = [chosen]
    for _ in range(_LOOKAHEAD_TRIES):
        candidate = solve(frozenset(frozenset(pair) for pairs in rejected for pair in pairs))
        if not all(allowed(u, v) for u, v in candidate):
            break
        if _rounds_possible(graph, candidate, rounds_left, search) is not False:
            return candidate
        rejected.append(candidate)
    try:
        schedule = search(graph, rounds_left + 1)
    except _GiveUp:
        schedule = None
    return schedule[0] if schedule and schedule[0] else chosen


def _rounds_possible(
    graph: list[set[int]], round_: Pairs, rounds: int, search: Search
) -> bool | None:
    """Whether `rounds` more rematch-free rounds fit in `graph` once `round_` is played; None if
    the search gives up."""
    rest = [set(neighbours) for neighbours in graph]
    for u, v in round_:
        rest[u].discard(v)
        rest[v].discard(u)
    try:
        return search(rest, rounds) is not None
    except _GiveUp:
        return None


class _GiveUp(Exception):
    pass


# A matching under way: who is matched, its pairs, the choices left at each vertex chosen
# (the vertex first), and each vertex's number of unmatched neighbours.
_Level = tuple[list[bool], list[tuple[int, int]], list[list[int]], list[int]]


def _next_choice(graph: list[set[int]], level: _Level, spend: Callable[[], None]) -> bool:
    """Give the deepest vertex of `level` with a choice left its next partner, undoing the
    choices passed on the way up; False when no vertex of `level` has one left."""
    matched, pairs, choices, open_ = level
    while choices:
        choice = choices[-1]
        u = choice[0]
        if len(pairs) == len(choices):  # undo this vertex's current partner
            _, v = pairs.pop()
            matched[u] = matched[v] = False
            for x in (u, v):
                for y in graph[x]:
                    open_[y] += 1
        if len(choice) > 1:
            v = choice.pop()
            spend()
            matched[u] = matched[v] = True
            pairs.append((u, v))
            for x in (u, v):
                for y in graph[x]:
                    open_[y] -= 1
            return True
        choices.pop()
    return False


def _matchings(
    graph: list[set[int]], count: int, steps: int, effort: Effort, most: int
) -> list[Pairs] | None:
    """`count` edge-disjoint perfect matchings of `graph` (modified while searching, restored),
    or None if there are none; raises _GiveUp after `steps` steps (each counted by `effort`,
    which reports them as a share of `most`).

    A depth-first search kept on explicit stacks, so no field or number of rounds can exhaust
    Python's recursion limit: one level per matching, each with its choices so far."""
    size = len(graph)
    found: list[list[tuple[int, int]]] = []  # finished matchings, their edges out of `graph`
    levels: list[_Level] = []

    def spend() -> None:
        nonlocal steps
        steps -= 1
        if steps < 0:
            raise _GiveUp
        if effort.spend():
            effort.report(effort.spent / most)

    def restore(pairs: list[tuple[int, int]]) -> None:
        for u, v in pairs:
            graph[u].add(v)
            graph[v].add(u)

    def open_level() -> list[list[tuple[int, int]]] | None:
        """Start the next matching; the answer when none is needed (or Dirac settles the rest),
        else None (after pushing a level, or not when the graph is too sparse for the rest)."""
        left = count - len(found)
        if left == 0:
            return list(found)
        degrees = [len(neighbours) for neighbours in graph]
        if min(degrees) >= size / 2 + left - 1:
            # Dirac: a graph this dense has a Hamiltonian cycle, so a perfect matching, and
            # stays that dense after each of the `left` matchings is removed.
            return [*found, *[[] for _ in range(left)]]
        if min(degrees) >= left:
            levels.append(([False] * size, [], [], degrees))
        return None

    try:
        answer = open_level()
        if answer is not None:
            return answer
        while levels:
            matched, pairs, choices, open_ = levels[-1]
            free = [v for v in range(size) if not matched[v]]
            if not free:
                for u, v in pairs:
                    graph[u].discard(v)
                    graph[v].discard(u)
                found.append(list(pairs))
                answer = open_level()
                if answer is not None:
                    return answer
                if levels[-1][1] is not pairs:
                    continue  # a new level was opened
                restore(found.pop())
            else:
                u = min(free, key=open_.__getitem__)
                choices.append([u, *sorted((v for v in graph[u] if not matched[v]), reverse=True)])
            # Take the next choice of the deepest vertex with one left, undoing as we go up.
            while levels:
                if _next_choice(graph, levels[-1], spend):
                    break
                levels.pop()  # this matching has no way left: back to the one before
                if levels:
                    restore(found.pop())
        return None
    finally:
        for pairs in found:
            restore(pairs)
