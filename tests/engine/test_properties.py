"""Hypothesis properties over random games of every preset and variant."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    ENDED,
    PRESETS,
    VARIANTS,
    adjudicate,
    apply,
    auto_action,
    bot_action,
    legal_actions,
    new_hand,
    state_from_dict,
    state_to_dict,
    to_record,
    variant,
    view,
)
from games.engine.tiles import ALL

RULE_SETS = sorted(PRESETS) + sorted(VARIANTS)
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play(rules, seed, scores=None, leader=None, auto_every=0):
    rng = random.Random(seed)
    sides = rules.sides
    if scores is None:
        scores = [rng.randrange(rules.target) for _ in range(sides)]
    state = new_hand(rules, rng=rng, leader=leader, scores_before=scores)
    steps = [state]
    while state.status not in ENDED:
        use_auto = auto_every and len(steps) % auto_every == 0
        action = auto_action(state) if use_auto else bot_action(state, rng)
        assert action.removesuffix("!auto") in legal_actions(state) or use_auto
        state = apply(state, action)[0]
        steps.append(state)
        assert len(steps) < 200
    return steps


games = st.builds(
    lambda name, seed, leader, auto: (variant(name), seed, leader, auto),
    st.sampled_from(RULE_SETS),
    st.integers(0, 2**32),
    st.none() | st.integers(0, 1),
    st.sampled_from([0, 2, 3]),
)


@FAST
@given(games)
def test_tiles_are_conserved_and_games_end(game):
    rules, seed, leader, auto = game
    for state in play(rules, seed, leader=leader, auto_every=auto):
        in_hands = sum(state.hands)
        on_line = sum(1 << t for t, _, _ in state.line)
        left = sum(1 << t for t in state.setup.boneyard[state.drawn :])
        assert sum(h.bit_count() for h in state.hands) + len(state.line) + len(
            state.setup.boneyard[state.drawn :]
        ) == rules.players * rules.tiles_per_hand + len(state.setup.boneyard)
        assert in_hands & on_line == 0 and (in_hands | on_line) & left == 0
        dealt = sum(1 << t for hand in state.setup.deal for t in hand)
        assert in_hands | on_line | left == dealt | sum(1 << t for t in state.setup.boneyard)
        assert in_hands | on_line | left <= ALL


@FAST
@given(games)
def test_record_of_a_played_game_adjudicates_to_its_result(game):
    rules, seed, leader, auto = game
    final = play(rules, seed, leader=leader, auto_every=auto)[-1]
    record = to_record(final)
    ruling = adjudicate(record)
    assert ruling["valid"], ruling["error"]
    assert ruling["ended"] == final.status
    assert ruling["points"] == list(final.points)
    assert [tuple(e.values()) for e in ruling["events"]] == [tuple(e) for e in final.events]
    assert ruling["scores_after"] == [
        a + b for a, b in zip(record["scores_before"], ruling["points"], strict=False)
    ]
    assert ruling["normal_after"] == [
        a + b for a, b in zip(record["normal_before"], ruling["normal_points"], strict=False)
    ]
    assert sum(e["points"] for e in ruling["events"]) == sum(ruling["points"])
    assert state_from_dict(state_to_dict(final)) == final


@FAST
@given(st.integers(0, 2**32), st.none() | st.integers(0, 3))
def test_brazilian_points_are_multiples_of_5(seed, leader):
    final = play(PRESETS["brazilian"], seed, scores=[0, 0], leader=leader)[-1]
    assert all(p % 5 == 0 for p in final.points)
    assert all(e.points % 5 == 0 for e in final.events)


@FAST
@given(
    st.integers(0, 2**32), st.integers(150, 199), st.integers(0, 199), st.none() | st.integers(0, 3)
)
def test_bonuses_never_reach_the_target_under_the_cap(seed, ours, theirs, leader):
    rules = PRESETS["dominican"]
    final = play(rules, seed, scores=[ours, theirs], leader=leader)[-1]
    before = final.setup.scores_before
    for side in range(2):
        bonus = final.points[side] - final.normal[side]
        assert before[side] + bonus <= max(before[side], rules.target - 1)


@FAST
@given(games, st.integers(0, 3))
def test_views_never_show_hidden_tiles(game, seat):
    rules, seed, leader, _ = game
    seat %= rules.players
    for state in play(rules, seed, leader=leader)[:-1]:
        seen = view(state, seat)
        spectator = view(state)
        assert "hands" not in seen and "hands" not in spectator and "hand" not in spectator
        assert "boneyard_tiles" not in seen
        assert len(seen["hand"]) == state.hands[seat].bit_count()
        assert seen["legal_actions"] == (list(legal_actions(state)) if state.turn == seat else [])
    final = play(rules, seed, leader=leader)[-1]
    assert len(view(final, seat)["hands"]) == rules.players
