"""A match: hands chained by their opening rules and scores, up to the target."""

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from operator import add
from typing import NamedTuple

from .errors import EngineError
from .rules import Rules
from .state import ENDED, HandState, new_hand


class HandOutcome(NamedTuple):
    scores_after: tuple[int, ...]
    normal_after: tuple[int, ...]
    next_leader: int | None
    match_over: bool
    match_winner: int | None
    shutout: bool


# A HandOutcome from its fields, without NamedTuple's keyword __new__.
_new = tuple.__new__


def match_end(
    rules: Rules, scores: Sequence[int], normal: Sequence[int]
) -> tuple[bool, int | None, bool]:
    """(over, winning side, shutout) for the scores at the end of a hand."""
    if max(scores) < rules.target:
        return False, None, False
    best = max(scores) if rules.scoring == "winner" else min(scores)
    if list(scores).count(best) > 1:
        return False, None, False
    winner = list(scores).index(best)
    return True, winner, all(v == 0 for s, v in enumerate(normal) if s != winner)


def hand_outcome(state: HandState) -> HandOutcome:
    """The match after this hand; an unfinished hand leads nobody and ends nothing."""
    setup = state.setup
    scores = tuple(map(add, setup.scores_before, state.points))
    normal = tuple(map(add, setup.normal_before, state.normal))
    if state.status not in ENDED:
        return _new(HandOutcome, (scores, normal, None, False, None, False))
    assert state.result is not None  # an ended hand has its result
    over = match_end(setup.rules, scores, normal)
    return _new(HandOutcome, (scores, normal, state.result.next_leader, *over))


@dataclass(frozen=True, slots=True)
class Match:
    rules: Rules
    scores: tuple[int, ...]
    normal: tuple[int, ...]
    hand_number: int = 1  # the number of the next hand
    leader: int | None = None  # the seat entitled to open the next hand; None = first-hand rule
    over: bool = False
    winner: int | None = None  # the winning side
    shutout: bool = False
    players: tuple[str, ...] | None = None

    @property
    def wins(self) -> int:
        """How many match wins the winner's result counts."""
        return self.rules.shutout_multiplier if self.shutout else 1


def new_match(rules: Rules, players: Sequence[str] | None = None) -> Match:
    zeros = (0,) * rules.sides
    return Match(rules, zeros, zeros, players=None if players is None else tuple(players))


def start_hand(
    match: Match,
    rng: random.Random | None = None,
    deal: Sequence[Sequence[str]] | None = None,
    boneyard: Sequence[str] | None = None,
) -> HandState:
    """The match's next hand; a shuffled deal (secure unless rng is given) unless one is given."""
    if match.over:
        raise EngineError("after_end", "the match is over")
    return new_hand(
        match.rules,
        deal,
        boneyard=boneyard,
        rng=rng,
        leader=match.leader,
        scores_before=match.scores,
        normal_before=match.normal,
        hand_number=match.hand_number,
        players=match.players,
    )


def time_up(match: Match) -> Match:
    """The match at its time limit, between hands: the side ahead wins (never by a lisa,
    which needs the target); level, it goes on, and the next hand's end decides."""
    if match.over:
        return match
    best = max(match.scores) if match.rules.scoring == "winner" else min(match.scores)
    if match.scores.count(best) > 1:
        return match
    return replace(match, over=True, winner=match.scores.index(best), shutout=False)


def finish_hand(match: Match, state: HandState) -> Match:
    """The match after a finished hand (a redeal keeps the scores and the leader)."""
    if state.status not in ENDED:
        raise EngineError("incomplete", "the hand has not ended")
    out = hand_outcome(state)
    return replace(
        match,
        scores=out.scores_after,
        normal=out.normal_after,
        hand_number=match.hand_number + 1,
        leader=out.next_leader,
        over=out.match_over,
        winner=out.match_winner,
        shutout=out.shutout,
    )
