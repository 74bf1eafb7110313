"""OpenSkill's Plackett–Luce update for one pair-against-pair match, inlined for speed.

`openskill.models.PlackettLuce().rate` copies its arguments and checks them at every call,
several times the work of the update itself, and a pool's replay may rate 100,000 matches.
`rate_match` performs the same floating-point operations, in the same order, as
`PlackettLuce.rate(teams, ranks=...)` with two teams of two and the model's defaults (no
weights, no balance, no sigma limit), leaving out only those that cannot change the result
(adding 0.0, multiplying or dividing by a weight of 1.0), so it gives exactly the same
numbers: the tests compare the two on random ratings. Only ranks are used, never score
margins.

A skill is a (mu, sigma) pair.
"""

import math
from enum import IntEnum

from openskill.models import PlackettLuce

MODEL = PlackettLuce()

Skill = tuple[float, float]


class MatchOutcome(IntEnum):
    A_WINS = 0
    B_WINS = 1
    DRAW = 2

    @property
    def ranks(self) -> list[int]:
        """The ranks to give openskill for teams [A, B]."""
        return {
            MatchOutcome.A_WINS: [0, 1],
            MatchOutcome.B_WINS: [1, 0],
            MatchOutcome.DRAW: [0, 0],
        }[self]


def initial() -> Skill:
    return (MODEL.mu, MODEL.sigma)


def ordinal(skill: Skill) -> float:
    """The conservative rating that is displayed: openskill's `ordinal()`, mu − 3·sigma."""
    mu, sigma = skill
    return mu - 3.0 * sigma


def outcome_of(games_a: int, games_b: int) -> MatchOutcome:
    if games_a == games_b:
        return MatchOutcome.DRAW
    return MatchOutcome.A_WINS if games_a > games_b else MatchOutcome.B_WINS


_TAU_SQUARED = MODEL.tau * MODEL.tau
_BETA_SQUARED = MODEL.beta**2
_KAPPA = MODEL.kappa
_sqrt, _exp = math.sqrt, math.exp
_A_WINS, _B_WINS, _DRAW = (outcome.value for outcome in MatchOutcome)


def rate_four(
    a1: Skill, a2: Skill, b1: Skill, b2: Skill, outcome: int
) -> tuple[Skill, Skill, Skill, Skill]:
    """The skills of A's two players and of B's two players after the match (`outcome` a
    `MatchOutcome` or its value), in one function body: a replay calls it for every match.
    (A value used twice is computed once; `max(x, kappa)` is written out.)"""
    # openskill sorts the teams by rank first: the winner (or A, in a draw) comes first.
    if outcome == _B_WINS:
        (m1, s1), (n1, t1), (m2, s2), (n2, t2) = b1, b2, a1, a2
    else:
        (m1, s1), (n1, t1), (m2, s2), (n2, t2) = a1, a2, b1, b2
    # Each player's sigma with tau added, and its square; each team's sigma squared.
    s1 = _sqrt(s1 * s1 + _TAU_SQUARED)
    t1 = _sqrt(t1 * t1 + _TAU_SQUARED)
    s2 = _sqrt(s2 * s2 + _TAU_SQUARED)
    t2 = _sqrt(t2 * t2 + _TAU_SQUARED)
    v1, w1, v2, w2 = s1**2, t1**2, s2**2, t2**2
    q1 = v1 + w1
    q2 = v2 + w2
    c = _sqrt((q1 + _BETA_SQUARED) + (q2 + _BETA_SQUARED))
    e_1 = _exp((m1 + n1) / c)
    e_2 = _exp((m2 + n2) / c)
    both = e_1 + e_2
    p_1 = e_1 / both
    p_2 = e_2 / both
    if outcome == _DRAW:
        # Both teams share rank 0: each is compared with the sum of both, counted twice.
        omega_1 = (1 - p_1) / 2 - p_1 / 2
        delta_1 = p_1 * (1 - p_1) / 2 + p_1 * (1 - p_1) / 2
        omega_2 = -(p_2 / 2) + (1 - p_2) / 2
        delta_2 = p_2 * (1 - p_2) / 2 + p_2 * (1 - p_2) / 2
    else:
        # (The loser's comparison with itself alone adds exactly 0 to its omega and delta.)
        omega_1 = 1 - p_1
        delta_1 = p_1 * (1 - p_1)
        omega_2 = -p_2
        delta_2 = p_2 * (1 - p_2)
    c_squared = c**2
    omega_1 *= q1 / c
    delta_1 = delta_1 * (q1 / c_squared) * (_sqrt(q1) / c)
    omega_2 *= q2 / c
    delta_2 = delta_2 * (q2 / c_squared) * (_sqrt(q2) / c)
    # Each player takes the team's update in proportion to their share of its variance.
    share = v1 / q1
    x = 1 - share * delta_1
    new_m1 = (m1 + share * omega_1, s1 * _sqrt(_KAPPA if x < _KAPPA else x))
    share = w1 / q1
    x = 1 - share * delta_1
    new_n1 = (n1 + share * omega_1, t1 * _sqrt(_KAPPA if x < _KAPPA else x))
    share = v2 / q2
    x = 1 - share * delta_2
    new_m2 = (m2 + share * omega_2, s2 * _sqrt(_KAPPA if x < _KAPPA else x))
    share = w2 / q2
    x = 1 - share * delta_2
    new_n2 = (n2 + share * omega_2, t2 * _sqrt(_KAPPA if x < _KAPPA else x))
    if outcome == _B_WINS:
        return new_m2, new_n2, new_m1, new_n1
    return new_m1, new_n1, new_m2, new_n2


def rate_match(
    team_a: tuple[Skill, Skill], team_b: tuple[Skill, Skill], outcome: MatchOutcome
) -> tuple[list[Skill], list[Skill]]:
    """The skills of A's two players and of B's two players after the match."""
    new_a1, new_a2, new_b1, new_b2 = rate_four(*team_a, *team_b, outcome)
    return [new_a1, new_a2], [new_b1, new_b2]
