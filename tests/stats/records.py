"""Hand records written out in full for the statistics tests; every figure the tests expect
was counted from these records by hand (the comments say how)."""

import copy

from tests.engine.records import EXAMPLE


def dominican_hand(deal: list[list[str]], actions: list[str]) -> dict:
    """The record of a first hand under the dominican preset."""
    return {
        "format": "domino-hand/1",
        "rules": "dominican",
        "hand_number": 1,
        "deal": deal,
        "actions": actions,
    }


DEAL_B = [
    ["5-3", "6-5", "3-0", "3-3", "1-1", "4-2", "3-1"],
    ["4-1", "2-1", "6-3", "5-0", "1-0", "6-1", "6-6"],
    ["4-3", "6-2", "4-4", "3-2", "6-0", "5-2", "5-5"],
    ["0-0", "5-4", "4-0", "2-0", "5-1", "6-4", "2-2"],
]
# Seat 1 opens 6-6 and dominoes with 4-1 on the ends 1 (the 1-1) and 4: a capicúa, 20
# points + the capicúa bonus of 30 = 50 to side 1. One pass: seat 0 (index 19), right after
# seat 3's play.
CAPICUA = dominican_hand(
    DEAL_B,
    [
        "6-6", "6-0@left", "2-0@left", "6-5@right", "2-1@left", "5-2@right", "2-2@right",
        "3-1@left", "6-3@left", "3-2@right", "6-4@left", "5-3@right", "5-0@right",
        "4-4@left", "0-0@right", "4-2@left", "1-0@right", "6-2@left", "5-1@right", "pass",
        "6-1@left", "5-5@right", "5-4@right", "1-1@left", "4-1@left",
    ],
)  # fmt: skip

DEAL_C = [
    ["6-5", "4-4", "0-0", "5-1", "2-2", "5-5", "4-3"],
    ["3-0", "6-4", "6-2", "6-3", "4-1", "5-2", "3-3"],
    ["3-2", "5-0", "5-4", "2-0", "1-1", "2-1", "5-3"],
    ["3-1", "4-0", "6-0", "6-6", "1-0", "6-1", "4-2"],
]
# Seat 3 opens 6-6; after 13 plays, the last by seat 3 (4-2), all four pass (seats 0, 1, 2,
# 3): seat 3 forced two opponents' passes (seats 0 and 2) and suffered one.
# Dominican: the blocker's side (1) wins the tranque with 68 points.
BLOCK = dominican_hand(
    DEAL_C,
    [
        "6-6", "6-5@left", "6-4@right", "5-4@left", "4-0@left", "4-4@right", "4-1@right",
        "1-1@right", "3-1@right", "4-3@right", "3-0@left", "3-2@left", "4-2@left",
        "pass", "pass", "pass", "pass",
    ],
)  # fmt: skip
# The same hand under tournament rules to 1 point: the lowest side (0) wins the tranque with
# 82 points, and the match.
MATCH_BLOCK = {**copy.deepcopy(BLOCK), "rules": {"preset": "tournament", "target": 1}}

# tests/engine/records.py's example: Carmen (seat 2) opens 5-5, Marco (3) passes at once
# (forced by seat 2), Carmen passes later (index 20, forced by seat 1), and Ana (0) dominoes
# with 4-4: 48 points to side 0 (30 of them the opening bonus).
DOMINO = copy.deepcopy(EXAMPLE)


def with_players(record: dict, names: list[str]) -> dict:
    return {**copy.deepcopy(record), "players": names}
