"""Hand-made records for the engine tests, and whole matches the engine plays out."""

import copy
import random
from collections.abc import Callable
from itertools import count
from typing import Any

from games.engine import (
    Match,
    finish_hand,
    new_match,
    play_out,
    rules_from_spec,
    start_hand,
    to_record,
)
from games.engine.tiles import NAME

EXAMPLE = {
    "format": "domino-hand/1",
    "rules": "dominican",
    "players": ["Ana", "Luis", "Carmen", "Marco"],
    "hand_number": 3,
    "leader": 2,
    "scores_before": [120, 85],
    "normal_before": [90, 85],
    "deal": [
        ["3-0", "1-2", "4-6", "0-2", "0-4", "4-4", "3-5"],
        ["5-2", "3-3", "6-1", "6-5", "1-1", "0-6", "2-3"],
        ["4-5", "5-5", "3-4", "3-1", "0-0", "0-5", "1-5"],
        ["2-6", "6-3", "2-2", "6-6", "1-4", "2-4", "1-0"],
    ],
    "actions": [
        "5-5",
        "pass",
        "3-5@right",
        "5-2",
        "3-1",
        "6-2",
        "6-4",
        "1-1",
        "5-4",
        "4-1",
        "0-4",
        "6-5",
        "5-0",
        "6-3",
        "3-0",
        "0-6",
        "5-1",
        "1-0",
        "2-0",
        "6-1",
        "pass",
        "2-2",
        "1-2@left",
        "2-3@left",
        "3-4",
        "4-2@right",
        "4-4",
    ],
}

EXAMPLE_RULING = {
    "format": "domino-ruling/1",
    "valid": True,
    "error": None,
    "ended": "domino",
    "winner": {"seat": 0, "side": 0},
    "blocker": None,
    "opener": 2,
    "points": [48, 0],
    "normal_points": [18, 0],
    "events": [
        {"action": 0, "seat": 2, "side": 0, "kind": "opening_bonus", "points": 30},
        {"action": 26, "seat": 0, "side": 0, "kind": "hand", "points": 18},
    ],
    "scores_after": [168, 85],
    "normal_after": [108, 85],
    "next_leader": 0,
    "match_over": False,
    "match_winner": None,
    "shutout": False,
}


def example(**changes):
    """The docs/hand-record.md example with some fields changed (None removes a field)."""
    record = copy.deepcopy(EXAMPLE)
    for key, value in changes.items():
        if value is None:
            record.pop(key, None)
        else:
            record[key] = value
    return record


def record(rules, deal, actions, **fields):
    """A record; `rules` a preset name or {"preset": ..., overrides}."""
    return {"format": "domino-hand/1", "rules": rules, "deal": deal, "actions": actions, **fields}


def rest_of(deal):
    """The tiles not in `deal`, in set order (a boneyard)."""
    used = {frozenset(t.split("-")) for hand in deal for t in hand}
    return [n for n in NAME if frozenset(n.split("-")) not in used]


def events(ruling):
    return [(e["action"], e["seat"], e["side"], e["kind"], e["points"]) for e in ruling["events"]]


def played_match(rules: Any = "dominican", seed: int = 0) -> tuple[list[dict], Match]:
    """A whole match played out at random by the engine: each hand's record, each starting
    where the one before ended, and the match at its end."""
    rules = rules_from_spec(rules)
    rng = random.Random(seed)
    match, hands = new_match(rules), []
    while not match.over:
        state = play_out(start_hand(match, rng=rng), rng.choice)
        hands.append(to_record(state))
        match = finish_hand(match, state)
    return hands, match


def first_match(
    found: Callable[[Match], bool], rules: Any = "dominican"
) -> tuple[list[dict], Match]:
    """The first seed's match that `found` accepts, as `played_match` gives it."""
    return next(m for m in (played_match(rules, seed) for seed in count()) if found(m[1]))
