"""`play_out`, the rules loop run by a policy (random play, the bots' playouts), gives exactly
the hands that the public path gives: `apply` of the chosen legal action, one at a time."""

import random

import pytest

from games.engine import (
    CODE_NAME,
    DECLARE,
    ENDED,
    PRESETS,
    VARIANTS,
    IllegalAction,
    apply,
    finish_hand,
    legal_actions,
    new_hand,
    new_match,
    play_out,
    rules_from_spec,
    start_hand,
    variant,
)
from games.engine import state as state_module
from games.engine.bots import playout
from games.engine.state import _CODES, _FIT, _SLOT, ACTIONS, CHOICES, DRAW_CODE, PASS_CODE
from games.engine.tiles import IS_DOUBLE, PIPS, SUIT, tiles_of

RULE_SETS = {**PRESETS, **{name: variant(name) for name in VARIANTS}}


def public_random_play(state, rng):
    """Random legal play through the public API, one action at a time: a choice drawn
    wherever there are two legal actions or more."""
    while state.status not in ENDED:
        legal = legal_actions(state)
        state = apply(state, rng.choice(legal) if len(legal) > 1 else legal[0])[0]
    return state


def unasked(state):
    """The state after the actions that nobody chooses: each the only legal one."""
    while state.status not in ENDED and len(legal := legal_actions(state)) == 1:
        state = apply(state, legal[0])[0]
    return state


def public_heaviest(state, rng):
    """The bots' playout policy as it was written on the public API (before `play_out`)."""
    while state.status not in ENDED:
        if state.status == DECLARE:
            action = "points"
        else:
            actions = legal_actions(state)
            action = actions[0]
            if len(actions) > 1:
                best_key = -1.0
                for candidate in actions:
                    tile = ACTIONS[candidate][1]
                    key = PIPS[tile] + IS_DOUBLE[tile] * 0.5 + rng.random() * 0.25
                    if key > best_key:
                        action, best_key = candidate, key
        state = apply(state, action)[0]
    return state


def match_hands(rules, seed, hands=3):
    """The first hands of a match, each started from the one before (leaders, scores near
    the target and the bonus cap, winner_double openings and their penalties)."""
    rng = random.Random(seed)
    match = new_match(rules)
    for _ in range(hands):
        if match.over:
            return
        state = start_hand(match, rng=random.Random(rng.random()))
        yield state
        match = finish_hand(match, public_random_play(state, rng))


def midway(state, rng):
    """The state some random legal actions into the hand (maybe still the start)."""
    for _ in range(rng.randrange(30)):
        if state.status in ENDED:
            break
        state = apply(state, rng.choice(legal_actions(state)))[0]
    return state


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_random_play_is_the_public_paths(name):
    """Many seeded random hands of every preset and variant: the same final state (actions,
    events, points, result) and the same draws from the generator."""
    rules = RULE_SETS[name]
    for seed in range(100):
        public, fast = random.Random(seed), random.Random(seed)
        expected = public_random_play(new_hand(rules, rng=public), public)
        assert play_out(new_hand(rules, rng=fast), fast.choice) == expected, seed
        assert fast.getstate() == public.getstate()
    for seed in range(25):
        for start in match_hands(rules, seed):
            start = midway(start, random.Random(seed))
            public, fast = random.Random(seed), random.Random(seed)
            assert play_out(start, fast.choice) == public_random_play(start, public)
            assert fast.getstate() == public.getstate()


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_the_bots_playouts_are_the_public_paths(name):
    rules = RULE_SETS[name]
    for seed in range(40):
        for start in match_hands(rules, seed, hands=2):
            start = midway(start, random.Random(seed))
            public, fast = random.Random(seed), random.Random(seed)
            assert playout(start, fast) == public_heaviest(start, public)
            assert fast.getstate() == public.getstate()


def follow(state, rng):
    """A random policy that checks, at every step, that it is offered the legal actions of
    the public path in their order, two or more of them, and keeps the public state in step
    (the actions nobody chose applied too); the codes seen."""
    seen = []

    def policy(legal):
        nonlocal state
        state = unasked(state)
        names = legal if legal == CHOICES else tuple(CODE_NAME[c] for c in legal)
        assert names == legal_actions(state) and len(names) > 1
        seen.extend(legal)
        choice = rng.choice(legal)
        state = apply(state, names[legal.index(choice)])[0]
        return choice

    return policy, lambda: unasked(state), seen


def test_policies_get_the_legal_actions_in_order():
    """The codes offered are `legal_actions`, in its order, wherever there is a choice; a
    five-doubles choice offers `CHOICES` itself. Passes and draws, never a choice, are
    played unasked."""
    rng = random.Random(4)
    seen, played = set(), set()
    for name in sorted(RULE_SETS):
        for _ in range(20):
            start = new_hand(RULE_SETS[name], rng=rng)
            policy, public, codes = follow(start, rng)
            end = play_out(start, policy)
            assert end == public()
            seen.update(codes)
            played.update(end.actions)
    assert {"pass", "draw"} <= played
    assert not {PASS_CODE, DRAW_CODE} & seen
    # A five-doubles choice (dealt by hand: it is rare in random deals).
    deal = [
        ["0-0", "1-1", "2-2", "3-3", "4-4", "6-5", "6-4"],
        ["5-5", "6-6", "1-0", "2-0", "3-0", "4-0", "5-0"],
        ["6-0", "2-1", "3-1", "4-1", "5-1", "6-1", "3-2"],
        ["4-2", "5-2", "6-2", "4-3", "5-3", "6-3", "5-4"],
    ]
    for seed in range(10):
        start = new_hand(PRESETS["brazilian"], deal)
        assert start.status == DECLARE
        policy, public, codes = follow(start, random.Random(seed))
        assert play_out(start, policy) == public() and codes[:2] == list(CHOICES)


def test_the_legal_play_tables_hold_every_hand():
    """The legal plays on an end come from a tuple indexed by the hand's fitting tiles modulo
    `_SLOT`: every subset of every number's tiles has a slot of its own, holding its plays."""
    for end, by_code in enumerate(_CODES):
        assert by_code[-1][0] == ()  # a closed end: nothing fits
        for code in range(32):
            fitting = SUIT[code & 7] if code & 7 < 7 else 0
            assert _FIT[code] == fitting
            sub = fitting
            while True:  # every subset of the fitting tiles, down to none
                expected = tuple(t | (end + 1) << 5 for t in tiles_of(sub))
                assert by_code[code][sub % _SLOT] == expected
                if not sub:
                    break
                sub = (sub - 1) & fitting


def test_a_policy_that_breaks_the_rules_is_refused():
    state = new_hand(PRESETS["dominican"], rng=random.Random(1))
    with pytest.raises(IllegalAction):
        play_out(state, lambda legal: PASS_CODE)  # the opening cannot be a pass


def test_what_the_rules_loop_scores_inline_is_what_its_steps_score(monkeypatch):
    """`_run` scores ordinary plays and pass points itself (`_inline`), without `_play_scores`
    and `_pass_scores`: seeded hands of every rule set, near the target too (where a bonus
    cap cuts bonuses), end the same when every play and pass goes through those steps."""
    rule_sets = [
        *RULE_SETS.values(),
        rules_from_spec({"preset": "brazilian", "bonus_cap": True}),
        rules_from_spec({"preset": "brazilian", "bonus_cap": True, "pass_points": 50}),
        rules_from_spec({"preset": "dominican", "table_points": 5, "galo_points": 20}),
        rules_from_spec({"preset": "dominican", "pass_points": 10, "galo_points": 20}),
    ]
    rng = random.Random(8)
    starts = []
    for rules in rule_sets:
        for _ in range(30):
            before = [rules.target - rng.randint(1, 60) for _ in range(rules.sides)]
            leader = rng.choice((None, *range(rules.players)))
            starts.append(
                new_hand(rules, rng=rng, leader=leader, scores_before=before, normal_before=before)
            )
    ends = [play_out(start, random.Random(i).choice) for i, start in enumerate(starts)]
    monkeypatch.setattr(state_module, "_inline", lambda rules, n: (0, 0))
    assert [play_out(start, random.Random(i).choice) for i, start in enumerate(starts)] == ends


def test_a_bonus_cap_holds_for_every_table_count():
    """Under a bonus cap, table points scored in the rules loop's fast path are capped as
    every bonus is: no side's bonuses take it past the target less one."""
    rules = rules_from_spec({"preset": "brazilian", "bonus_cap": True})
    rng = random.Random(3)
    capped = 0
    for _ in range(200):
        before = [rules.target - rng.randint(1, 30) for _ in range(rules.sides)]
        start = new_hand(rules, rng=rng, leader=0, scores_before=before, normal_before=before)
        end = play_out(start, rng.choice)
        for side in range(rules.sides):
            bonus = sum(e.points for e in end.events if e.side == side and e.kind != "hand")
            assert before[side] + bonus <= rules.target - 1
        capped += any(e.kind == "table" and e.points % 5 for e in end.events)
    assert capped  # some table count was cut to fit under the cap
