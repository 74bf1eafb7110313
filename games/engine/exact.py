"""Exact analysis: a decision valued from what the deciding seat knew, with the solver.

The seat knows its own tiles, the line, how many tiles each seat holds, and what the
public passes and draws showed (a seat that passed holds neither open number). Every deal
of the tiles it cannot see that agrees with those facts is equally likely; each is solved
with perfect information (solver.py), and an action's value is its mean over them. With
`partner=True` the partner's tiles count as known too: what a seat would know if its
partner told it (the fair-play detector's second valuation).

While the consistent deals are few (at most `EXACT_DEALS`), every one is solved and the
verdict is exact; otherwise a seeded uniform sample of them is solved and each value comes
with its standard error. In a draw game the boneyard's order is unknown too: it is sampled.
"""

import random
import time
from bisect import bisect
from collections.abc import Callable, Iterator, Mapping, Sequence
from math import factorial, sqrt
from typing import NamedTuple

from .solver import TooLarge, solve
from .state import ACTIONS, DECLARE, ENDED, HandState, legal_actions
from .tiles import ALL, BIT, HI, IS_DOUBLE, LO, SUIT, tiles_of

EXACT_DEALS = 5000  # enumerate every consistent deal up to this many
SAMPLES = 40  # deals solved when there are more
_PLAY, _PASS, _DRAW = ACTIONS["5-4"][0], ACTIONS["pass"][0], ACTIONS["draw"][0]
SOLVE_LIMIT = 400_000  # positions one deal's solve may search before it is given up
POOL = 400  # uniform deals a prior's sample is drawn from


class Knowledge(NamedTuple):
    """What a seat knows of the hidden tiles: who may hold each, and how many each holds."""

    hands: tuple[int, ...]  # the known part of each seat's hand (its own; the partner's)
    holders: tuple[int, ...]  # the seats whose tiles are hidden, then -1 for the rest
    room: tuple[int, ...]  # how many hidden tiles each holder has
    tiles: tuple[int, ...]  # the hidden tiles, the most constrained first
    allowed: tuple[tuple[int, ...], ...]  # per hidden tile: the holders (indices) it may be with
    orders: int  # the boneyard's possible orders (a draw game)


class Valuation(NamedTuple):
    """A decision valued over the deals its seat could not tell apart."""

    values: dict[str, float]  # each legal action's mean value for the seat's side
    errors: dict[str, float]  # each action's standard error of its loss against `best`
    best: str
    deals: int  # deals solved
    consistent: int  # deals consistent with what the seat knew (orders of a boneyard included)
    exact: bool  # every consistent deal was solved
    nodes: int  # positions the solver searched

    def loss(self, action: str) -> float:
        return self.values[self.best] - self.values[action]


def showing(ends: Sequence[int]) -> int:
    """The numbers showing on the open ends, as a mask of bits 0-6."""
    mask = 0
    for code in ends:
        if code >= 0:
            mask |= 1 << (code & 7)
    return mask


def voids_of(state: HandState) -> tuple[int, ...]:
    """The numbers each seat is known not to hold, from the public actions and line alone.

    A pass or a draw shows that the seat held neither open number; tiles drawn on a later
    turn may hold anything, so a seat's earlier voids are dropped when it draws again.
    """
    setup = state.setup
    n = len(state.hands)
    voids = [0] * n
    drew_on = [-1] * n  # the index of the last action with which each seat started drawing
    line = state.line
    # The open ends after each play, replayed from the line the engine recorded.
    nums = [-1, -1, -1, -1]
    spinner = bool(line) and setup.rules.spinner and IS_DOUBLE[line[0][0]]
    covered = [False, False]
    seat, played = setup.opener, 0
    previous = None
    for i, action in enumerate(state.actions):
        kind = ACTIONS[action][0]
        if kind == _PLAY:
            tile, end, outer = line[played]
            played += 1
            if end < 0:
                nums[0], nums[1] = outer, HI[tile] if LO[tile] == outer else LO[tile]
            else:
                nums[end] = outer
                if end < 2:
                    covered[end] = True
                if spinner and nums[2] < 0 and all(covered):
                    nums[2] = nums[3] = LO[line[0][0]]
            seat, previous = (seat + 1) % n, _PLAY
            continue
        if kind == _DRAW and not (previous == _DRAW and drew_on[seat] >= 0):
            voids[seat] = 0  # a new turn of drawing: earlier voids no longer cover every tile
            drew_on[seat] = i
        voids[seat] |= showing(nums)
        previous = kind
        if kind == _PASS:
            seat = (seat + 1) % n
    return tuple(voids)


def numbers_mask(voids: int) -> int:
    """The tiles that show one of the numbers in `voids`."""
    mask = 0
    for number in range(7):
        if voids >> number & 1:
            mask |= SUIT[number]
    return mask


def knowledge(
    state: HandState, seat: int, partner: bool = False, counts: Sequence[int] | None = None
) -> Knowledge:
    """What `seat` knows in `state` (with its partner's tiles when `partner`); `counts`:
    the tiles each seat holds, when `state` is a seat's view with the other hands blank."""
    setup = state.setup
    n = len(state.hands)
    known = [0] * n
    known[seat] = state.hands[seat]
    if partner and setup.rules.pairs:
        known[(seat + 2) % n] = state.hands[(seat + 2) % n]
    seen = sum(known)
    for tile, _, _ in state.line:
        seen |= BIT[tile]
    hidden = ALL & ~seen
    voids = voids_of(state)
    holders = [s for s in range(n) if not known[s]]
    if counts is None:
        counts = [h.bit_count() for h in state.hands]
    room = [counts[s] for s in holders]
    rest = hidden.bit_count() - sum(room)
    forbidden = [numbers_mask(voids[s]) for s in holders]
    if rest:
        holders.append(-1)
        room.append(rest)
        forbidden.append(0)
    allowed = {
        t: tuple(i for i, f in enumerate(forbidden) if not f & BIT[t]) for t in tiles_of(hidden)
    }
    if any(not a for a in allowed.values()):  # facts that cannot all hold: drop the voids
        allowed = {t: tuple(range(len(holders))) for t in allowed}
    tiles = tuple(sorted(allowed, key=lambda t: (len(allowed[t]), t)))
    bones = len(setup.boneyard) - state.drawn
    return Knowledge(
        tuple(known),
        tuple(holders),
        tuple(room),
        tiles,
        tuple(allowed[t] for t in tiles),
        factorial(bones),
    )


# The holders a tile may go to with some room left, each with the room after it, and their
# cumulative ways (`_Deals.step`).
_Step = tuple[list[tuple[int, tuple[int, ...]]], list[int], float]


class _Deals:
    """The deals a Knowledge allows: counted, enumerated and sampled uniformly."""

    def __init__(self, know: Knowledge) -> None:
        self.know = know
        self.memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self.steps: dict[tuple[int, tuple[int, ...]], _Step] = {}

    def ways(self, i: int, room: tuple[int, ...]) -> int:
        """The ways to place the tiles from the i-th on, into holders with `room` left."""
        tiles = self.know.tiles
        if i == len(tiles):
            return 1
        key = (i, room)
        hit = self.memo.get(key)
        if hit is None:
            hit = 0
            for h in self.know.allowed[i]:
                if room[h]:
                    hit += self.ways(i + 1, room[:h] + (room[h] - 1,) + room[h + 1 :])
            self.memo[key] = hit
        return hit

    def count(self) -> int:
        return self.ways(0, self.know.room)

    def step(self, i: int, room: tuple[int, ...]) -> _Step:
        """Where the i-th tile may go with `room` left (a holder with room, and ways to place
        the rest after it), with the room after each and their cumulative ways; kept, so
        that a pool of samples works out each (tile, room left) once."""
        step = self.steps.get((i, room))
        if step is None:
            after, cumulative, ways = [], [], 0
            for h in self.know.allowed[i]:
                if room[h]:
                    rest = room[:h] + (room[h] - 1,) + room[h + 1 :]
                    w = self.ways(i + 1, rest)
                    if w:
                        ways += w
                        after.append((h, rest))
                        cumulative.append(ways)
            step = self.steps[i, room] = (after, cumulative, ways + 0.0)
        return step

    def every(self) -> Iterator[tuple[int, ...]]:
        """Every placement, as the holder index of each tile."""
        tiles = len(self.know.tiles)
        placed = [0] * tiles

        def place(i: int, room: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
            if i == tiles:
                yield tuple(placed)
                return
            for h, after in self.step(i, room)[0]:
                placed[i] = h
                yield from place(i + 1, after)

        yield from place(0, self.know.room)

    def sample(self, rng: random.Random) -> tuple[int, ...]:
        """One placement, every consistent one equally likely: each tile's holder drawn as
        `random.choices` would draw it, by the ways left after it, from one `rng.random()`."""
        room = self.know.room
        placed = []
        for i in range(len(self.know.tiles)):
            after, cumulative, total = self.step(i, room)
            h, room = after[bisect(cumulative, rng.random() * total, 0, len(after) - 1)]
            placed.append(h)
        return tuple(placed)


def _world(
    state: HandState, know: Knowledge, placed: tuple[int, ...], rng: random.Random
) -> HandState:
    """The full state of one placement (the boneyard's order drawn at random)."""
    hands = list(know.hands)
    rest = []
    for tile, h in zip(know.tiles, placed, strict=True):
        seat = know.holders[h]
        if seat < 0:
            rest.append(tile)
        else:
            hands[seat] |= BIT[tile]
    setup = state.setup
    if not setup.rules.boneyard:
        return state._replace(hands=tuple(hands))
    rng.shuffle(rest)
    bone = setup.boneyard[: state.drawn] + tuple(rest)
    return state._replace(hands=tuple(hands), setup=setup._replace(boneyard=bone))


def _by_weight(
    state: HandState,
    know: Knowledge,
    every: list[tuple[int, ...]],
    prior: Callable[[HandState], float],
    rng: random.Random,
) -> tuple[list[tuple[int, ...]], list[float]]:
    """Every placement in an order drawn by weight (without replacement), with its weight."""
    keyed = []
    for placed in every:
        w = prior(_world(state, know, placed, rng))
        keyed.append((rng.random() ** (1.0 / w) if w > 0 else -1.0, w, placed))
    keyed.sort(key=lambda k: -k[0])
    return [p for _, _, p in keyed], [max(w, 1e-300) for _, w, _ in keyed]


def _drawn_by_weight(
    state: HandState,
    know: Knowledge,
    drawn: list[tuple[int, ...]],
    prior: Callable[[HandState], float],
    samples: int,
    rng: random.Random,
) -> list[tuple[int, ...]]:
    """`samples` placements drawn from `drawn` by weight, with replacement (a placement drawn
    twice counts twice); the heaviest come first, so a budget that runs out keeps them."""
    weights = [prior(_world(state, know, placed, rng)) for placed in drawn]
    if not sum(weights) > 0:
        weights = [1.0] * len(drawn)
    chosen = rng.choices(range(len(drawn)), weights, k=samples)
    counts: dict[int, int] = {}
    for i in chosen:
        counts[i] = counts.get(i, 0) + 1
    ranked = sorted(counts, key=lambda i: (-counts[i], chosen.index(i)))
    return [drawn[i] for i in ranked for _ in range(counts[i])]


def value_decision(
    state: HandState,
    rng: random.Random,
    partner: bool = False,
    *,
    counts: Sequence[int] | None = None,
    exact_deals: int = EXACT_DEALS,
    samples: int = SAMPLES,
    nodes: int | None = None,
    limit: int = SOLVE_LIMIT,
    deadline: float | None = None,
    prior: Callable[[HandState], float] | None = None,
    pool: int = POOL,
    utility: Callable[[float], float] | None = None,
) -> Valuation | None:
    """The decision of the seat to act, valued over the deals it could not tell apart.

    `nodes` bounds the positions searched in all (at least two deals are solved); `limit`
    those of one deal; `deadline` (a `time.perf_counter()` time), when given, stops the
    solving too once two deals are solved. None when a deal is too large to solve within
    `limit`, or when the deals are more than `exact_deals` and `samples` is 0.

    `prior`, when given, weighs each deal by how likely it made what the others did (the
    plays a deal explains well count more): every deal is then solved in an order drawn by
    weight and its value counts by weight; when the deals are many, `samples` of them are
    drawn by weight from `pool` uniform ones.

    `utility`, when given, turns each deal's points into what they are worth (stake.py: the
    chance of winning the match) before the mean is taken.
    """
    if state.status in ENDED or state.status == DECLARE:
        raise ValueError("only a decision of a hand in play is valued")
    seat = state.turn
    know = knowledge(state, seat, partner, counts)
    deals = _Deals(know)
    placements = deals.count()
    consistent = placements * know.orders
    weights: list[float] | None = None
    if consistent <= exact_deals and know.orders == 1:
        every = list(deals.every())
        rng.shuffle(every)  # a budget that runs out leaves a uniform sample
        order: Iterator[tuple[int, ...]] | list[tuple[int, ...]] = every
        wanted = len(every)
        if prior is not None:
            order, weights = _by_weight(state, know, every, prior, rng)
    elif not samples:
        return None
    elif prior is not None:
        wanted = samples
        drawn = [deals.sample(rng) for _ in range(max(pool, samples))]
        order = _drawn_by_weight(state, know, drawn, prior, samples, rng)
    else:
        wanted = samples
        order = (deals.sample(rng) for _ in range(samples))
    actions = legal_actions(state)
    per_deal: list[Mapping[str, float]] = []
    searched = 0
    solved: dict[tuple[int, ...], dict[str, int]] = {}
    for placed in order:
        known = solved.get(placed)
        if known is None:
            try:
                solution = solve(_world(state, know, placed, rng), limit)
            except TooLarge:
                return None
            known = solved[placed] = solution.values
            searched += solution.nodes
        per_deal.append(known)
        if len(solved) >= 2 and (
            (nodes is not None and searched > nodes)
            or (deadline is not None and time.perf_counter() > deadline)
        ):
            break
    k = len(per_deal)
    if utility is not None:
        per_deal = [{a: utility(v) for a, v in d.items()} for d in per_deal]
    if weights is not None:
        used = weights[:k]
        total = sum(used)
        values = {
            a: sum(w * d[a] for w, d in zip(used, per_deal, strict=True)) / total for a in actions
        }
    else:
        values = {a: sum(d[a] for d in per_deal) / k for a in actions}
    best = max(actions, key=values.__getitem__)
    errors = {}
    for a in actions:
        if k < 2 or k == consistent:
            errors[a] = 0.0
            continue
        losses = [d[best] - d[a] for d in per_deal]
        mean = sum(losses) / k
        variance = sum((x - mean) ** 2 for x in losses) / (k - 1)
        errors[a] = sqrt(variance / k)
    return Valuation(values, errors, best, k, consistent, k == wanted == consistent, searched)
