"""Individual events with rotating partners: each round, partnerships of two at tables of four.

A round is built by two global matchings (see :mod:`._matching`) over the standings:

1. partnerships: nobody partners the same player twice while that can be avoided (then as
   rarely as possible); otherwise partners are close in the standings;
2. tables: partnerships are paired to minimise repeated opponent meetings (each earlier
   meeting of two players who would face each other again counts), then to keep tables close
   in the standings, so strong players meet strong players as in a Swiss event.

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

    tables = sorted(
        match_sequence(len(partnerships), lambda p, q: True, lambda p, q: (meetings(p, q), q - p))
    )

    def ids(partnership: int) -> tuple[Hashable, Hashable]:
        a, b = partnerships[partnership]
        return active[a].id, active[b].id

    return RotatingRound(
        tables=tuple((ids(p), ids(q)) for p, q in tables),
        sitting_out=tuple(players[r].id for r in sorted(resting)),
    )


def repeats(round_: RotatingRound, players: Sequence[RotatingPlayer]) -> Repeats:
    """How much of the round repeats the history carried by `players`."""
    by_id = {p.id: p for p in players}
    partners = opponents = 0
    for (a, b), (c, d) in round_.tables:
        partners += (b in by_id[a].partners) + (d in by_id[c].partners)
        opponents += sum(by_id[x].opponents.get(y, 0) > 0 for x in (a, b) for y in (c, d))
    return Repeats(partners, opponents)
