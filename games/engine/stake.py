"""What a hand's points are worth to the match: the chance of winning it.

Late in a match a hand's points stop counting one for one: a side a few points short of the
target wins the match with any hand it wins, and a side far behind needs a big hand or none
will do. The strong bot values its moves by this stake rather than by the points alone
(`utility`), so it plays to win the match, not only the hand.

The chance of winning from two sides' scores is computed once per rule set, with each hand
won by either side alike and its points drawn from `HANDS` random hands of the rule set (a
fixed seed): a dynamic programme over the points each side still needs, in steps of `STEP`
points, read between the steps by linear interpolation.
"""

import random
from collections import Counter
from collections.abc import Callable
from functools import lru_cache

from .rules import Rules
from .state import HandState, new_hand, play_out

STEP = 5  # points per step of the table
HANDS = 2000  # random hands that give a hand's points
# A point more or less in the hand itself, wherever the match's chance does not tell the
# moves apart (every move wins the match, say): the bot still prefers the larger score.
TIE_BREAK = 1e-6


@lru_cache(maxsize=16)
def hand_points(rules: Rules) -> tuple[float, ...]:
    """The chance that a hand brings its winning side 0, 1, 2, ... steps of points (from
    random hands of these rules; points both sides score in one hand count net)."""
    rng = random.Random(0)
    steps: Counter[int] = Counter()
    for _ in range(HANDS):
        final = play_out(new_hand(rules, rng=rng), rng.choice)
        steps[round(abs(final.points[0] - final.points[1]) / STEP)] += 1
    return tuple(steps[k] / HANDS for k in range(max(steps) + 1))


@lru_cache(maxsize=16)
def chances(rules: Rules) -> tuple[tuple[float, ...], ...]:
    """`chances(rules)[a][b]`: the chance that a side needing `a` steps to the target wins
    the match against one needing `b` (0 steps: the target is reached)."""
    p = hand_points(rules)
    size = -(-rules.target // STEP) + 1
    won = [[0.0] * size for _ in range(size)]
    won[0] = [1.0] * size
    if p[0] >= 1.0:
        return tuple(map(tuple, won))
    for a in range(1, size):
        row = won[a]
        for b in range(1, size):
            total = 0.0
            for k in range(1, len(p)):
                total += p[k] * (won[max(a - k, 0)][b] + row[max(b - k, 0)])
            row[b] = 0.5 * total / (1.0 - p[0])
    return tuple(map(tuple, won))


def _chance(table: tuple[tuple[float, ...], ...], ours: float, theirs: float) -> float:
    """The chance of winning while each side still needs `ours` and `theirs` points: the
    table read between its steps (bilinear); short of the target by less than a step is a
    step (any hand won reaches it)."""
    if ours <= 0 or theirs <= 0:
        return 1.0 if ours <= 0 else 0.0
    top = len(table) - 1
    a, b = (min(max(needed / STEP, 1.0), top) for needed in (ours, theirs))
    a0, b0 = int(a), int(b)
    a1, b1 = min(a0 + 1, top), min(b0 + 1, top)
    fa, fb = a - a0, b - b0
    low = table[a0][b0] * (1 - fb) + table[a0][b1] * fb
    high = table[a1][b0] * (1 - fb) + table[a1][b1] * fb
    return low * (1 - fa) + high * fa


def utility(state: HandState, seat: int) -> Callable[[float], float] | None:
    """For the side of `seat`: what a result of the rest of the hand (its points minus the
    other side's, as the solver gives it) is worth, as the chance of winning the match. None
    where the match has no such stake: not two sides, no target, lowest score wins."""
    rules = state.setup.rules
    if rules.sides != 2 or rules.target <= 0 or rules.scoring != "winner":
        return None
    table = chances(rules)
    side = state.setup.side[seat]
    scores = [b + p for b, p in zip(state.setup.scores_before, state.points, strict=True)]
    ours, theirs = rules.target - scores[side], rules.target - scores[1 - side]

    def worth(value: float) -> float:
        gained, lost = max(value, 0.0), max(-value, 0.0)
        chance = _chance(table, ours - gained, theirs - lost)
        return chance + TIE_BREAK * value

    return worth
