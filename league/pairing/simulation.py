"""Whole events played with random results: for tests, benchmarks and demo data.

Entrants/players are the ints ``0 .. count - 1``; each winner scores a point (a bye too), and
the standings are by score, then id. Each generator yields, round by round, the input given to
the pairer and what it returned, so a caller can check or time it.
"""

import random
from collections import Counter, defaultdict
from collections.abc import Hashable, Iterator

from .rotating import RotatingPlayer, RotatingRound, pair_rotating
from .swiss import SwissEntrant, SwissRound, pair_swiss


def swiss_event(
    count: int, rounds: int, seed: int = 0, draws: bool = False
) -> Iterator[tuple[list[SwissEntrant], SwissRound]]:
    """With `draws`, a match is won, drawn (half a point each) or lost, one in three each:
    many small score groups, many floaters."""
    rng = random.Random(seed)
    score: defaultdict[Hashable, float] = defaultdict(float)
    opponents: dict[Hashable, set[Hashable]] = {i: set() for i in range(count)}
    byes: set[Hashable] = set()
    for _ in range(rounds):
        order = sorted(range(count), key=lambda i: (-score[i], i))
        entrants = [SwissEntrant(i, score[i], frozenset(opponents[i]), i in byes) for i in order]
        result = pair_swiss(entrants)
        yield entrants, result
        for a, b in result.pairings:
            opponents[a].add(b)
            opponents[b].add(a)
            if draws:
                share = rng.choice((0, 0.5, 1))
                score[a] += share
                score[b] += 1 - share
            else:
                score[rng.choice((a, b))] += 1
        if result.bye is not None:
            byes.add(result.bye)
            score[result.bye] += 1


def rotating_event(
    count: int, rounds: int, seed: int = 0
) -> Iterator[tuple[list[RotatingPlayer], RotatingRound]]:
    """Sit-out lots are drawn with seeds from the same random stream."""
    rng = random.Random(seed)
    score: Counter[Hashable] = Counter()
    partners: dict[Hashable, set[Hashable]] = {i: set() for i in range(count)}
    opponents: dict[Hashable, Counter[Hashable]] = {i: Counter() for i in range(count)}
    sit_outs: Counter[Hashable] = Counter()
    for _ in range(rounds):
        order = sorted(range(count), key=lambda i: (-score[i], i))
        players = [
            RotatingPlayer(i, frozenset(partners[i]), dict(opponents[i]), sit_outs[i])
            for i in order
        ]
        round_ = pair_rotating(players, seed=rng.randrange(2**32))
        yield players, round_
        for (a, b), (c, d) in round_.tables:
            for x, y in ((a, b), (c, d)):
                partners[x].add(y)
                partners[y].add(x)
            for x in (a, b):
                for y in (c, d):
                    opponents[x][y] += 1
                    opponents[y][x] += 1
            score.update(rng.choice(((a, b), (c, d))))
        sit_outs.update(round_.sitting_out)
