"""Individual events with rotating partners: each round, partnerships of two at tables of four.

Partners never repeat while a round without a repeated partner exists, and opponents never
repeat while a round without a repeated partner *or* opponent exists: partners and tables are
chosen together for that, not one after the other.

The field is seated in standing order, a block of :data:`BLOCK` players at a time (the
whole field when it has at most :data:`EXACT_FIELD` players), each block searched
exhaustively for a seating with no repeated partner and no repeated opponent: best-ranked
unseated player first, partner and opponents nearest in the standings first, so tables stay
close in the standings and strong players meet strong players as in a Swiss event. A block
with no such seating grows by a table at a time up to :data:`MAX_BLOCK` players. So a field of
up to :data:`EXACT_FIELD` players gets a round without repeats whenever one exists.

Only when that fails (late in a small event) is the round built by two global matchings (see
:mod:`._matching`): partnerships (nobody partners twice while a perfect matching without
repeats exists), then tables of two partnerships with the fewest repeated opponent meetings,
then close in the standings; each table still with a repeat is then re-seated together with
its neighbours in the standings by the same exhaustive search where that removes it.

When the count is not a multiple of four, the ``count % 4`` players who sat out least sit out,
so nobody sits out twice before everyone sat out once; ties go to the lowest ranked or, with a
`seed`, are drawn by lot (deterministically for a given seed).
"""

import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from ._matching import match_sequence

Table = tuple[tuple[Hashable, Hashable], tuple[Hashable, Hashable]]


@dataclass(frozen=True)
class RotatingPlayer:
    """A player before the round; players are passed best-ranked first.

    `opponents` maps each earlier opponent to the number of rounds played against them.
    """

    id: Hashable
    partners: frozenset[Hashable] = frozenset()
    opponents: Mapping[Hashable, int] = field(default_factory=dict)
    sit_outs: int = 0


@dataclass(frozen=True)
class RotatingRound:
    """One round: tables of (partnership, partnership), table 1 first, and who sits out."""

    tables: tuple[Table, ...]
    sitting_out: tuple[Hashable, ...] = ()


class Repeats(NamedTuple):
    partners: int  # partnerships formed before
    opponents: int  # pairs of opposing players who had met before


def pair_rotating(players: Sequence[RotatingPlayer], *, seed: int | None = None) -> RotatingRound:
    """Seat one round; `players` ordered by current standing (best first)."""
    if len({p.id for p in players}) != len(players):
        raise ValueError("player ids must be unique")
    if len(players) < 4:
        raise ValueError("a round needs at least four players")
    ranks = range(len(players))
    if seed is None:
        lot = [-rank for rank in ranks]
    else:
        draw = random.Random(seed)
        lot = [draw.random() for _ in ranks]
    resting = set(sorted(ranks, key=lambda r: (players[r].sit_outs, lot[r]))[: len(players) % 4])
    active = [players[r] for r in ranks if r not in resting]

    def partnered(u: int, v: int) -> bool:
        return active[v].id in active[u].partners or active[u].id in active[v].partners

    def met(u: int, v: int) -> bool:
        return active[u].opponents.get(active[v].id, 0) > 0 or (
            active[v].opponents.get(active[u].id, 0) > 0
        )

    tables = _in_blocks(len(active), partnered, met)
    if tables is None:
        tables = _proposal(active, partnered)
        tables = _repaired(tables, partnered, met)

    def ids(pair: tuple[int, int]) -> tuple[Hashable, Hashable]:
        return active[pair[0]].id, active[pair[1]].id

    return RotatingRound(
        tables=tuple((ids(p), ids(q)) for p, q in sorted(tables, key=lambda t: min(t[0]))),
        sitting_out=tuple(players[r].id for r in sorted(resting)),
    )


_Seating = tuple[tuple[int, int], tuple[int, int]]
EXACT_FIELD = 12  # a field this small is searched as a whole (at most ~83,000 steps)
BLOCK = 8  # otherwise the field is seated this many players at a time ...
MAX_BLOCK = 24  # ... a block growing up to this size when it cannot be seated without repeats
_STEPS = 20_000  # search steps for one block (ten times as many for a whole small field)
_NEIGHBOURS = (2, 3)  # tables re-seated around one with a repeat, in turn


def _in_blocks(count: int, partnered, met) -> list[_Seating] | None:
    """The field seated block by block with no repeat at all, or None where that fails."""
    if count <= EXACT_FIELD:
        return _search(list(range(count)), partnered, met, _STEPS * 10)
    tables: list[_Seating] = []
    start, size = 0, BLOCK
    while start < count:
        end = count if count - (start + size) < BLOCK else start + size
        found = _search(list(range(start, end)), partnered, met, _STEPS)
        if found is not None:
            tables += found
            start, size = end, BLOCK
        elif end - start >= MAX_BLOCK or end == count:
            return None
        else:
            size += 4
    return tables


def _proposal(active: Sequence[RotatingPlayer], partnered) -> list[_Seating]:
    """Partnerships by one matching, then tables of partnerships by another."""
    partnerships = sorted(
        match_sequence(len(active), lambda u, v: not partnered(u, v), lambda u, v: (abs(u - v),)),
        key=sum,
    )

    def meetings(p: int, q: int) -> int:
        return sum(
            active[x].opponents.get(active[y].id, 0)
            for x in partnerships[p]
            for y in partnerships[q]
        )

    tables = match_sequence(
        len(partnerships), lambda p, q: True, lambda p, q: (meetings(p, q), q - p)
    )
    return [_ordered(partnerships[p], partnerships[q]) for p, q in tables]


def _ordered(first: tuple[int, int], second: tuple[int, int]) -> _Seating:
    """Each partnership best-ranked first; the partnership with the best player first."""
    one, two = tuple(sorted(first)), tuple(sorted(second))
    return (one, two) if one < two else (two, one)


def _table_repeats(table: _Seating, partnered, met) -> int:
    (a, c), (b, d) = table
    return partnered(a, c) + partnered(b, d) + sum(met(x, y) for x in (a, c) for y in (b, d))


def _repaired(tables: list[_Seating], partnered, met) -> list[_Seating]:
    """Each table with a repeat re-seated with its neighbours where a search finds a seating
    of those players without repeats; tables are taken best-ranked first."""
    tables = sorted(tables, key=lambda t: min(t[0]))
    for span in _NEIGHBOURS:
        for index in range(len(tables)):
            if not _table_repeats(tables[index], partnered, met):
                continue
            low = max(0, min(index - span // 2, len(tables) - span))
            chosen = tables[low : low + span]
            players = sorted(x for table in chosen for pair in table for x in pair)
            found = _search(players, partnered, met, _STEPS)
            if found is not None:
                tables[low : low + span] = found
    return tables


def _search(players: list[int], partnered, met, steps: int) -> list[_Seating] | None:
    """Seat `players` (sorted, best-ranked first) at tables with no repeated partner and no
    repeated opponent, or None if there is none (or the search gives up after `steps`)."""
    free = list(players)
    seated: list[_Seating] = []
    budget = [steps]

    def seat() -> bool:
        if not free:
            return True
        a = free.pop(0)
        for c in list(free):
            if partnered(a, c):
                continue
            free.remove(c)
            rest = list(free)
            for i, b in enumerate(rest):
                if met(a, b) or met(c, b):
                    continue
                for d in rest[i + 1 :]:
                    budget[0] -= 1
                    if budget[0] < 0:
                        raise _GiveUp
                    if met(a, d) or met(c, d) or partnered(b, d):
                        continue
                    free.remove(b)
                    free.remove(d)
                    seated.append(_ordered((a, c), (b, d)))
                    if seat():
                        return True
                    seated.pop()
                    free.extend((b, d))
                    free.sort()
            free.append(c)
            free.sort()
        free.insert(0, a)
        return False

    try:
        return seated if seat() else None
    except _GiveUp:
        return None


class _GiveUp(Exception):
    pass


def repeats(round_: RotatingRound, players: Sequence[RotatingPlayer]) -> Repeats:
    """How much of the round repeats the history carried by `players`."""
    by_id = {p.id: p for p in players}
    partners = opponents = 0
    for (a, b), (c, d) in round_.tables:
        partners += (b in by_id[a].partners) + (d in by_id[c].partners)
        opponents += sum(by_id[x].opponents.get(y, 0) > 0 for x in (a, b) for y in (c, d))
    return Repeats(partners, opponents)
