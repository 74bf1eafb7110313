"""`apply_all`, the rules loop behind `apply` and replays, agrees with `apply` one by one."""

import contextlib
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import PRESETS, VARIANTS, EngineError, apply, legal_actions, new_hand, variant
from games.engine.state import apply_all

RULE_SETS = sorted(PRESETS) + sorted(VARIANTS)
JUNK = ["pass", "draw", "points", "6-6", "0-0@up", "3-5", "x", None]


def one_by_one(state, actions):
    for done, action in enumerate(actions):
        try:
            state = apply(state, action)[0]
        except EngineError as e:
            return state, done, (type(e), e.code, e.message)
    return state, len(actions), None


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(RULE_SETS), st.integers(0, 10**6))
def test_apply_all_is_apply_in_turn(name, seed):
    rng = random.Random(seed)
    start = new_hand(variant(name), rng=rng)
    state, actions = start, []
    for _ in range(40):  # mostly legal actions, some junk, unnamed ends and declarations
        legal = legal_actions(state)
        action = rng.choice(JUNK) if not legal or rng.random() < 0.1 else rng.choice(legal)
        if isinstance(action, str) and "@" in action and rng.random() < 0.3:
            action = action.split("@")[0]
        actions.append(action)
        with contextlib.suppress(EngineError):
            state = apply(state, action)[0]
    expected, done, fault = one_by_one(start, actions)
    got, got_done, error = apply_all(start, tuple(actions))
    assert (got, got_done) == (expected, done)
    assert (error and (type(error), error.code, error.message)) == fault
