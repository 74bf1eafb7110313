"""Fair play: does a seat play as if it saw its partner's tiles?

Each decision of a finished hand (an action chosen among several that leave different
tables) is valued twice with the exact analysis (exact.py): on what the seat knew, and on
that plus its partner's tiles. Where the two best moves differ, the decision is *telling*
(the evidence a referee reads first).

The statistic is the *advantage* of each decision: how much more the move played is worth
once the partner's tiles are known than the seat's own information promised, against the
same for the average legal move (`advantage`). The own valuation is the mean of the
partner-informed one over every partner's hand the seat could not rule out, so for a seat
that chooses from its own information only, whatever its strength or style, the advantage
averages zero; a seat that knows its partner's tiles steers towards the moves they favour
and its advantage is positive. Per player and per partnership, `z_score` is the sum of the
advantages over its own spread (a self-normalised sequential test): near 0 for honest play
of every strength, growing with the hands for a pair that shares its tiles. The threshold
and the minimum of hands are calibrated on simulated honest play by benchmarks/fairplay.py
(the calibration block below is the one place they are set).

Only the later part of a hand is valued (at most `HORIZON` tiles in the hands): before it,
one deal alone takes the solver longer than a whole hand's budget. The second, softer signal
is how often a seat plays a move (nearly) best on its own information, what a program would
tell it (`program_move`), together with how even its thinking times are (`timing_evenness`).
"""

import random
from collections.abc import Collection, Sequence
from math import erf, sqrt
from typing import Any, NamedTuple

from .exact import value_decision
from .record import replay, to_record
from .state import AUTO, ENDED, PLAY, HandState, apply, legal_actions
from .tiles import NAME, PIPS, tiles_of

HORIZON = 20  # decisions are valued once the hands hold at most this many tiles
SAMPLES = 12  # deals solved per valuation when they are too many to solve every one
EXACT_DEALS = 60  # every deal solved while they are at most this many
NODES = 30_000  # the solver's positions per valuation (a deal too large is not valued)
MIN_GAIN = 1.0  # points the partner's tiles must add to the best move for a telling decision
# Calibration (benchmarks/fairplay.py, on simulated honest pairs of every level; quoted in
# docs/fairplay.md): the z at which a partnership goes to the referees' queue, so that at
# most 1% of honest pairs reach it within 50 matches, and the figures needed before any
# statistic is shown.
THRESHOLD = 3.5
MIN_HANDS = 50  # hands a player or pair must have behind it
MIN_DECISIONS = 60  # valued decisions likewise
# The softer signal (benchmarks/fairplay.py's program block, on the same simulations): a
# player whose moves are within PROGRAM_MARGIN points of the best on its own information on
# at least PROGRAM_AGREEMENT of PROGRAM_DECISIONS or more valued decisions, which at most 1%
# of honest easy and medium players reach within 50 matches, and whose thinking times are at
# least PROGRAM_EVENNESS even (`timing_evenness`; no simulation has thinking times: this one
# is a judgement, see docs/fairplay.md).
PROGRAM_MARGIN = 0.0
PROGRAM_AGREEMENT = 0.96
PROGRAM_DECISIONS = 60
PROGRAM_EVENNESS = 0.75


class DecisionCheck(NamedTuple):
    """One decision valued on the seat's own information and with its partner's tiles."""

    at: int  # the action's index in the hand's actions
    seat: int
    action: str  # what was played
    own_best: str
    partner_best: str
    own_values: dict[str, float]
    partner_values: dict[str, float]
    own_errors: dict[str, float]  # standard errors of the own losses (0: every deal solved)
    exact: bool  # both valuations solved every deal
    partner_tiles: tuple[str, ...]  # what the partner held then (evidence for referees)
    choices: int  # legal actions

    @property
    def gain(self) -> float:
        """What the partner's tiles add to the best move's value."""
        return self.partner_values[self.partner_best] - self.partner_values[self.own_best]

    @property
    def advantage(self) -> float:
        return advantage(self.action, self.own_values, self.partner_values)

    @property
    def telling(self) -> bool:
        return self.own_best != self.partner_best and self.gain >= MIN_GAIN

    @property
    def picked(self) -> str:
        """ "partner" (the move best with the partner's tiles), "own", or "other"."""
        if self.action == self.partner_best or (
            self.partner_values[self.action] == self.partner_values[self.partner_best]
            and self.own_values[self.action] < self.own_values[self.own_best]
        ):
            return "partner"
        if self.own_values[self.action] == self.own_values[self.own_best]:
            return "own"
        return "other"

    def as_dict(self) -> dict[str, Any]:
        return {
            "index": self.at,
            "seat": self.seat,
            "action": self.action,
            "own_best": self.own_best,
            "partner_best": self.partner_best,
            "own_values": {a: round(v, 2) for a, v in self.own_values.items()},
            "partner_values": {a: round(v, 2) for a, v in self.partner_values.items()},
            "own_errors": {a: round(v, 2) for a, v in self.own_errors.items()},
            "exact": self.exact,
            "partner_tiles": list(self.partner_tiles),
            "choices": self.choices,
            "telling": self.telling,
            "picked": self.picked,
            "advantage": round(self.advantage, 2),
        }


def _tiles_in_hands(state: HandState) -> int:
    return sum(h.bit_count() for h in state.hands)


def _results(state: HandState) -> int:
    """How many different tables the legal actions leave (several names for one place
    count once)."""
    return len({apply(state, a)[0].ends for a in legal_actions(state)})


def check_hand(
    final: HandState,
    indices: Collection[int],
    rng: random.Random,
    *,
    horizon: int = HORIZON,
    samples: int = SAMPLES,
    exact_deals: int = EXACT_DEALS,
    nodes: int = NODES,
) -> list[DecisionCheck]:
    """The decisions at `indices` (of the hand's actions: those a person made) in a
    finished hand of a partnership game, each valued on the seat's own information and with
    its partner's tiles. Actions made for a seat on timeout (`!auto`) are no decision."""
    if final.status not in ENDED:
        raise ValueError("the hand has not ended")
    if not final.setup.rules.pairs:
        return []
    state = replay({**to_record(final), "actions": []})
    checks = []
    for index, action in enumerate(final.actions):
        seat = state.turn
        if (
            index in indices
            and state.status == PLAY
            and not action.endswith(AUTO)
            and _tiles_in_hands(state) <= horizon
            and len(legal_actions(state)) > 1
            and _results(state) > 1
        ):
            own, shared = (
                value_decision(
                    state,
                    rng,
                    partner=partner,
                    samples=samples,
                    exact_deals=exact_deals,
                    nodes=nodes,
                    limit=nodes,
                )
                for partner in (False, True)
            )
            if own is not None and shared is not None:
                partner = state.hands[(seat + 2) % len(state.hands)]
                tiles = tuple(NAME[t] for t in sorted(tiles_of(partner), key=lambda t: -PIPS[t]))
                checks.append(
                    DecisionCheck(
                        index,
                        seat,
                        action,
                        own.best,
                        shared.best,
                        own.values,
                        shared.values,
                        own.errors,
                        own.exact and shared.exact,
                        tiles,
                        len(legal_actions(state)),
                    )
                )
        state = apply(state, action)[0]
    return checks


def advantage(action: str, own_values: dict[str, float], partner_values: dict[str, float]) -> float:
    """What the partner's tiles add to the move played, beyond what they add to the average
    legal move (points for the seat's side). A seat choosing from its own information alone
    averages zero over its decisions, whatever its play; one that sees its partner's tiles
    does better."""
    added = {a: partner_values[a] - own_values[a] for a in partner_values}
    return added[action] - sum(added.values()) / len(added)


def z_score(advantages: Sequence[float]) -> float:
    """The advantages' sum over its spread: about a standard normal for honest play over
    enough decisions, growing with the decisions for a seat that sees its partner's tiles."""
    spread = sqrt(sum(a * a for a in advantages))
    return sum(advantages) / spread if spread else 0.0


def confidence(z: float) -> float:
    """The chance that an honest seat would show a smaller z (one-sided, normal)."""
    return 0.5 * (1 + erf(z / sqrt(2)))


def program_move(evidence: dict[str, Any], margin: float = PROGRAM_MARGIN) -> bool:
    """Whether the move played (a DecisionCheck's `as_dict()`) is one a program would play:
    its loss against the best on the seat's own information is within `margin` points plus
    twice its standard error. A program values the decision from its own sample of deals, so
    where the analysis sampled too, the two bests differ by chance near a tie."""
    values: dict[str, float] = evidence["own_values"]
    error: float = evidence.get("own_errors", {}).get(evidence["action"], 0.0)
    return values[evidence["own_best"]] - values[evidence["action"]] <= margin + 2 * error


def timing_evenness(seconds: Sequence[float]) -> float | None:
    """How even a seat's thinking times are: 1 minus their coefficient of variation (1:
    every decision took the same time, as a player copying a program's moves would show;
    people answer easy decisions fast and hard ones slowly). None below 10 decisions."""
    if len(seconds) < 10:
        return None
    mean = sum(seconds) / len(seconds)
    if mean <= 0:
        return None
    spread = sqrt(sum((s - mean) ** 2 for s in seconds) / (len(seconds) - 1))
    return max(0.0, 1.0 - spread / mean)
