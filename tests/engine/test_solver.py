"""The perfect-information solver against brute force over the engine's own rules.

The reference is the engine's public API only: `legal_actions` for what may be played and
`apply` for what each action scores, to the end of the hand. Brute force tries every line;
the solver must give the same value for every legal action, under every rule set.
"""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    DECLARE,
    ENDED,
    PRESETS,
    VARIANTS,
    apply,
    legal_actions,
    new_hand,
    variant,
)
from games.engine.solver import TooLarge, solve

RULE_SETS = sorted(PRESETS) + sorted(VARIANTS)
PAIRS = [name for name in RULE_SETS if variant(name).sides == 2]
CHECKED = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def tiles_left(state) -> int:
    return sum(h.bit_count() for h in state.hands) + len(state.setup.boneyard) - state.drawn


def position(name: str, seed: int, left: int, **options):
    """A hand of `name` played at random until at most `left` tiles are unplayed."""
    rng = random.Random(seed)
    rules = variant(name, **options)
    scores = [rng.randrange(rules.target) for _ in range(rules.sides)]
    state = new_hand(rules, rng=rng, scores_before=scores, leader=rng.choice([None, 0, 1]))
    if state.status == DECLARE:
        state = apply(state, "points")[0]
    while state.status not in ENDED and tiles_left(state) > left:
        state = apply(state, rng.choice(legal_actions(state)))[0]
    return state


def brute(state, side: int, sign: int, before) -> int:
    """Every line, through the engine: the side's points to the end of the hand minus the
    others' (the others playing against it), or the reverse under penalty scoring."""
    if state.status in ENDED:
        gained = [now - was for now, was in zip(state.points, before, strict=True)]
        return sign * (gained[side] - sum(g for s, g in enumerate(gained) if s != side))
    values = [brute(apply(state, a)[0], side, sign, before) for a in legal_actions(state)]
    return max(values) if state.setup.side[state.turn] == side else min(values)


def brute_values(state) -> dict[str, int]:
    side = state.setup.side[state.turn]
    sign = 1 if state.setup.rules.scoring == "winner" else -1
    return {a: brute(apply(state, a)[0], side, sign, state.points) for a in legal_actions(state)}


positions = st.builds(
    position, st.sampled_from(RULE_SETS), st.integers(0, 2**32), st.integers(3, 10)
)


@CHECKED
@given(positions)
def test_every_action_has_the_brute_force_value(state):
    if state.status in ENDED:
        return
    solution = solve(state)
    assert solution.values == brute_values(state)
    assert solution.value == max(solution.values.values())
    assert solution.values[solution.best] == solution.value


@CHECKED
@given(st.integers(0, 2**32), st.integers(3, 9))
def test_every_bonus_on_at_once(seed, left):
    """Tournament rules with every in-hand score switched on, the cap near: each rule's
    points reach the solver the way the engine scores them."""
    state = position(
        "tournament",
        seed,
        left,
        table_points=5,
        pass_points=20,
        galo_points=50,
        paso_corrido_bonus=30,
        capicua_bonus=30,
        double_domino_bonus=20,
        opening_bonus_double=30,
        opening_bonus_other=60,
        bonus_cap=True,
        spinner=bool(seed % 2),
        round_to=5 if seed % 3 else 1,
        block_points=("others", "all_hands", "opponents")[seed % 3],
        block_winner=("blocker_vs_next", "lowest_side")[seed % 2],
    )
    if state.status not in ENDED:
        assert solve(state).values == brute_values(state)


@pytest.mark.parametrize("name", PAIRS)
def test_the_best_line_scores_what_the_solver_said(name):
    """Playing the solver's best action at every turn through the engine, the hand ends
    with the very points difference the solver gave at the start (all scoring rules,
    for two sides, whose values are each other's opposites)."""
    for seed in range(3):
        state = position(name, seed, 14)
        if state.status in ENDED:
            continue
        side = state.setup.side[state.turn]
        sign = 1 if state.setup.rules.scoring == "winner" else -1
        expected, before = solve(state).value, state.points
        while state.status not in ENDED:
            state = apply(state, solve(state).best)[0]
        gained = [now - was for now, was in zip(state.points, before, strict=True)]
        assert sign * (gained[side] - gained[1 - side]) == expected


def test_a_whole_hand_from_the_opening():
    """The opener's choice of salida, valued over the whole hand, agrees with the values
    one move later: each opening's value is the opposite of the next seat's best."""
    state = new_hand(variant("latin", tiles_per_hand=5), seed=7, leader=1)
    solution = solve(state)
    assert set(solution.values) == set(legal_actions(state))
    for action, value in solution.values.items():
        after = apply(state, action)[0]
        assert value == -solve(after).value


def test_a_limit_stops_the_search():
    state = new_hand(PRESETS["tournament"], seed=3)
    with pytest.raises(TooLarge):
        solve(state, limit=500)


def test_only_a_hand_in_play_is_solved():
    state = position("tournament", 1, 0)
    assert state.status in ENDED
    with pytest.raises(ValueError):
        solve(state)
    deal = [
        ["0-0", "1-1", "2-2", "3-3", "4-4", "0-1", "0-2"],
        ["5-5", "0-3", "0-4", "0-5", "0-6", "1-2", "1-3"],
        ["6-6", "1-4", "1-5", "1-6", "2-3", "2-4", "2-5"],
        ["2-6", "3-4", "3-5", "3-6", "4-5", "4-6", "5-6"],
    ]
    five = new_hand(PRESETS["brazilian"], deal)
    assert five.status == DECLARE
    with pytest.raises(ValueError):
        solve(five)
