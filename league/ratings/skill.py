"""OpenSkill's Plackett–Luce update for one pair-against-pair match, inlined for speed.

`openskill.models.PlackettLuce().rate` copies its arguments and checks them at every call,
which takes about 70 µs a match; a pool is replayed from scratch in batches of 100,000
matches. `rate_match` performs the same floating-point operations, in the same order, as
`PlackettLuce.rate(teams, ranks=...)` with two teams of two and the model's defaults (no
weights, no balance, no sigma limit), so it gives exactly the same numbers: the tests
compare the two. Only ranks are used, never score margins.

A skill is a (mu, sigma) pair.
"""

import math
from enum import IntEnum

from openskill.models import PlackettLuce

MODEL = PlackettLuce()

Skill = tuple[float, float]


class Outcome(IntEnum):
    A_WINS = 0
    B_WINS = 1
    DRAW = 2

    @property
    def ranks(self) -> list[int]:
        """The ranks to give openskill for teams [A, B]."""
        return {Outcome.A_WINS: [0, 1], Outcome.B_WINS: [1, 0], Outcome.DRAW: [0, 0]}[self]


def initial() -> Skill:
    return (MODEL.mu, MODEL.sigma)


def ordinal(skill: Skill) -> float:
    """The conservative rating that is displayed: openskill's `ordinal()`, mu − 3·sigma."""
    mu, sigma = skill
    return mu - 3.0 * sigma


def outcome_of(games_a: int, games_b: int) -> Outcome:
    if games_a == games_b:
        return Outcome.DRAW
    return Outcome.A_WINS if games_a > games_b else Outcome.B_WINS


_TAU_SQUARED = MODEL.tau * MODEL.tau
_BETA_SQUARED = MODEL.beta**2
_KAPPA = MODEL.kappa


def _team(skills: tuple[Skill, Skill]) -> tuple[list[float], list[float], float, float]:
    mus = [mu for mu, _ in skills]
    sigmas = [math.sqrt(sigma * sigma + _TAU_SQUARED) for _, sigma in skills]
    mu_sum = 0.0
    sigma_squared = 0.0
    for mu, sigma in zip(mus, sigmas, strict=True):
        mu_sum += mu * 1.0
        sigma_squared += (sigma * 1.0) ** 2
    return mus, sigmas, mu_sum, sigma_squared


def _update(
    mus: list[float], sigmas: list[float], sigma_squared: float, omega: float, delta: float
) -> list[Skill]:
    updated = []
    for mu, sigma in zip(mus, sigmas, strict=True):
        share = sigma**2 / sigma_squared
        if omega >= 0:
            new_mu = mu + share * omega * 1.0
            new_sigma = sigma * math.sqrt(max(1 - share * delta * 1.0, _KAPPA))
        else:
            new_mu = mu + share * omega / 1.0
            new_sigma = sigma * math.sqrt(max(1 - share * delta / 1.0, _KAPPA))
        updated.append((new_mu, new_sigma))
    return updated


def rate_match(
    team_a: tuple[Skill, Skill], team_b: tuple[Skill, Skill], outcome: Outcome
) -> tuple[list[Skill], list[Skill]]:
    """The skills of A's two players and of B's two players after the match."""
    # openskill sorts the teams by rank first: the winner (or A, in a draw) comes first.
    first, second = (team_b, team_a) if outcome is Outcome.B_WINS else (team_a, team_b)
    mus_1, sigmas_1, mu_1, s2_1 = _team(first)
    mus_2, sigmas_2, mu_2, s2_2 = _team(second)
    c = math.sqrt(0.0 + (s2_1 + _BETA_SQUARED) + (s2_2 + _BETA_SQUARED))
    e_1 = math.exp(mu_1 / c)
    e_2 = math.exp(mu_2 / c)
    both = 0.0 + e_1 + e_2
    if outcome is Outcome.DRAW:
        # Both teams share rank 0: each is compared with the sum of both, counted twice.
        p_1 = e_1 / both
        p_2 = e_2 / both
        omega_1 = 0.0 + (1 - p_1) / 2 - p_1 / 2
        delta_1 = 0.0 + p_1 * (1 - p_1) / 2 + p_1 * (1 - p_1) / 2
        omega_2 = 0.0 - p_2 / 2 + (1 - p_2) / 2
        delta_2 = 0.0 + p_2 * (1 - p_2) / 2 + p_2 * (1 - p_2) / 2
    else:
        p_1 = e_1 / both
        omega_1 = 0.0 + (1 - p_1) / 1
        delta_1 = 0.0 + p_1 * (1 - p_1) / 1
        p_2 = e_2 / both
        alone = e_2 / (0.0 + e_2)
        omega_2 = 0.0 - p_2 / 1 + (1 - alone) / 1
        delta_2 = 0.0 + p_2 * (1 - p_2) / 1 + alone * (1 - alone) / 1
    new_1 = _update(
        mus_1,
        sigmas_1,
        s2_1,
        omega_1 * (s2_1 / c),
        delta_1 * (s2_1 / c**2) * (math.sqrt(s2_1) / c),
    )
    new_2 = _update(
        mus_2,
        sigmas_2,
        s2_2,
        omega_2 * (s2_2 / c),
        delta_2 * (s2_2 / c**2) * (math.sqrt(s2_2) / c),
    )
    return (new_2, new_1) if outcome is Outcome.B_WINS else (new_1, new_2)
