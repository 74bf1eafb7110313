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


def _team(team: tuple[Skill, Skill]) -> tuple[float, float, float, float, float, float]:
    """Both players' mu and sigma (tau added), the team's mu and sigma squared."""
    (mu_1, sigma_1), (mu_2, sigma_2) = team
    sigma_1 = math.sqrt(sigma_1 * sigma_1 + _TAU_SQUARED)
    sigma_2 = math.sqrt(sigma_2 * sigma_2 + _TAU_SQUARED)
    return mu_1, sigma_1, mu_2, sigma_2, mu_1 + mu_2, sigma_1**2 + sigma_2**2


def _player(mu: float, sigma: float, s2: float, omega: float, delta: float) -> Skill:
    share = sigma**2 / s2
    return mu + share * omega, sigma * math.sqrt(max(1 - share * delta, _KAPPA))


def rate_match(
    team_a: tuple[Skill, Skill], team_b: tuple[Skill, Skill], outcome: MatchOutcome
) -> tuple[list[Skill], list[Skill]]:
    """The skills of A's two players and of B's two players after the match."""
    # openskill sorts the teams by rank first: the winner (or A, in a draw) comes first.
    first, second = (team_b, team_a) if outcome is MatchOutcome.B_WINS else (team_a, team_b)
    m1, s1, n1, t1, mu_1, s2_1 = _team(first)
    m2, s2, n2, t2, mu_2, s2_2 = _team(second)
    c = math.sqrt((s2_1 + _BETA_SQUARED) + (s2_2 + _BETA_SQUARED))
    e_1 = math.exp(mu_1 / c)
    e_2 = math.exp(mu_2 / c)
    both = e_1 + e_2
    p_1 = e_1 / both
    p_2 = e_2 / both
    if outcome is MatchOutcome.DRAW:
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
    omega_1 *= s2_1 / c
    delta_1 = delta_1 * (s2_1 / c**2) * (math.sqrt(s2_1) / c)
    omega_2 *= s2_2 / c
    delta_2 = delta_2 * (s2_2 / c**2) * (math.sqrt(s2_2) / c)
    new_1 = [_player(m1, s1, s2_1, omega_1, delta_1), _player(n1, t1, s2_1, omega_1, delta_1)]
    new_2 = [_player(m2, s2, s2_2, omega_2, delta_2), _player(n2, t2, s2_2, omega_2, delta_2)]
    return (new_2, new_1) if outcome is MatchOutcome.B_WINS else (new_1, new_2)
