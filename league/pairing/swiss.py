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
"""

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from ._matching import Cost, match_sequence

Style = Literal["slide", "adjacent"]


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
) -> SwissRound:
    """Pair one Swiss round. `entrants` must be ordered by current standing (best first)."""
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

    bye = None
    pairings: list[tuple[int, int]] = []
    rematches = 0
    for u, v in match_sequence(len(nodes), allowed, cost):
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
