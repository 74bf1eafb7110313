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
floater across each score-group boundary with an odd number of entrants above it), and when
the windowed matching misses one of them the round is matched again in a single window.

Lookahead: given `rounds_left`, the rounds still to be paired after this one, a round is chosen
only if the unplayed pairs that remain still hold that many rounds without a rematch or a second
bye (edge-disjoint perfect matchings, searched exhaustively within a step budget) whenever some
choice of round allows that. So a Swiss as long as a round robin never paints itself into a
corner (two triangles left among six entrants, say) by an early round that was ideal by score.
"""

from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from ._matching import Cost, exact_matching, match_sequence

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
) -> SwissRound:
    """Pair one Swiss round. `entrants` must be ordered by current standing (best first);
    `rounds_left` rounds are still to be paired after this one."""
    count = len(entrants)
    if len({e.id for e in entrants}) != count:
        raise ValueError("entrant ids must be unique")
    banned = {frozenset(pair) for pair in forbidden}
    scores = sorted({e.score for e in entrants}, reverse=True)
    group_index = {score: group for group, score in enumerate(scores)}
    group_of = [group_index[e.score] for e in entrants]

    # Preference sequence: score groups top-down; for "slide" each group is interleaved
    # (1, 5, 2, 6, ...) so that preferred opponents sit next to each other and the
    # windowed matcher sees them as near neighbours.
    members: list[list[int]] = [[] for _ in scores]
    for rank, group in enumerate(group_of):
        members[group].append(rank)
    order: list[int] = []
    position = [0] * count
    target = [1] * len(scores)
    for group, ranks in enumerate(members):
        for place, rank in enumerate(ranks):
            position[rank] = place
        if style == "slide":
            half = len(ranks) // 2
            target[group] = max(1, half)
            top, bottom = ranks[:half], ranks[half : 2 * half]
            ranks = [r for pair in zip(top, bottom, strict=True) for r in pair] + ranks[2 * half :]
        order.extend(ranks)

    bye_node = count if count % 2 else None
    nodes = order + ([bye_node] if bye_node is not None else [])
    anyone_eligible = any(not e.had_bye for e in entrants)

    def valid(a: int, b: int) -> bool:
        if bye_node in (a, b):
            return not entrants[min(a, b)].had_bye or not anyone_eligible
        x, y = entrants[a], entrants[b]
        pair = frozenset((x.id, y.id))
        return y.id not in x.opponents and x.id not in y.opponents and pair not in banned

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

    def solve(avoid: frozenset[frozenset[int]]) -> list[tuple[int, int]]:
        """Optimal pairing (as node pairs), the pairs in `avoid` counted like rematches."""

        def allowed_now(u: int, v: int) -> bool:
            return allowed(u, v) and frozenset((u, v)) not in avoid

        if len(nodes) <= EXACT_FIELD:
            return exact_matching(len(nodes), allowed_now, cost)
        found = match_sequence(len(nodes), allowed_now, cost)
        if _misses_a_bound(found, allowed_now, cost, group_of, nodes, bye_node):
            found = match_sequence(len(nodes), allowed_now, cost, window=len(nodes))
        return found

    chosen = solve(frozenset())
    if rounds_left > 0:
        chosen = _completable(chosen, len(nodes), allowed, rounds_left, solve)

    bye = None
    pairings: list[tuple[int, int]] = []
    rematches = 0
    for u, v in chosen:
        a, b = sorted((nodes[u], nodes[v]))
        rematches += not valid(a, b)
        if b == bye_node:
            bye = entrants[a].id
        else:
            pairings.append((a, b))
    pairings.sort(key=lambda pair: (group_of[pair[0]], pair[0]))
    return SwissRound(
        pairings=tuple((entrants[a].id, entrants[b].id) for a, b in pairings),
        bye=bye,
        rematches=rematches,
    )


def _misses_a_bound(found, allowed, cost, group_of, nodes, bye_node) -> bool:
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


def _completable(chosen, size: int, allowed, rounds_left: int, solve):
    """`chosen`, or the best alternative after which `rounds_left` more rounds can be paired
    without a rematch, if `chosen` leaves no such rounds and another round does."""
    graph = [{v for v in range(size) if v != u and allowed(u, v)} for u in range(size)]
    if _rounds_possible(graph, chosen, rounds_left) is not False:
        return chosen
    rejected = [chosen]
    for _ in range(_LOOKAHEAD_TRIES):
        candidate = solve(frozenset(frozenset(pair) for pairs in rejected for pair in pairs))
        if not all(allowed(u, v) for u, v in candidate):
            break
        if _rounds_possible(graph, candidate, rounds_left) is not False:
            return candidate
        rejected.append(candidate)
    try:
        schedule = _matchings(graph, rounds_left + 1, [_LOOKAHEAD_STEPS])
    except _GiveUp:
        schedule = None
    return schedule[0] if schedule and schedule[0] else chosen


def _rounds_possible(graph, round_, rounds: int) -> bool | None:
    """Whether `rounds` more rematch-free rounds fit in `graph` once `round_` is played; None if
    the search gives up."""
    rest = [set(neighbours) for neighbours in graph]
    for u, v in round_:
        rest[u].discard(v)
        rest[v].discard(u)
    try:
        return _matchings(rest, rounds, [_LOOKAHEAD_STEPS]) is not None
    except _GiveUp:
        return None


class _GiveUp(Exception):
    pass


def _matchings(graph: list[set[int]], count: int, budget: list[int]):
    """`count` edge-disjoint perfect matchings of `graph` (modified in place, restored), or
    None if there are none; raises _GiveUp when `budget` runs out."""
    size = len(graph)
    if count == 0:
        return []
    if any(len(neighbours) < count for neighbours in graph):
        return None
    if min(len(neighbours) for neighbours in graph) >= size / 2 + count - 1:
        # Dirac: a graph this dense has a Hamiltonian cycle, so a perfect matching, and stays
        # that dense after each of the `count` matchings is removed.
        return [[]] * count
    matched = [False] * size
    pairs: list[tuple[int, int]] = []

    def extend():
        free = [v for v in range(size) if not matched[v]]
        if not free:
            for u, v in pairs:
                graph[u].discard(v)
                graph[v].discard(u)
            try:
                later = _matchings(graph, count - 1, budget)
            finally:
                for u, v in pairs:
                    graph[u].add(v)
                    graph[v].add(u)
            return None if later is None else [list(pairs), *later]
        u = min(free, key=lambda x: sum(not matched[y] for y in graph[x]))
        for v in sorted(graph[u]):
            if matched[v]:
                continue
            budget[0] -= 1
            if budget[0] < 0:
                raise _GiveUp
            matched[u] = matched[v] = True
            pairs.append((u, v))
            found = extend()
            if found is not None:
                return found
            pairs.pop()
            matched[u] = matched[v] = False
        return None

    return extend()
