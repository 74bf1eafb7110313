"""The bots' levels and the review of a finished hand (games/engine/bots.py)."""

import itertools
import random
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import (
    ENDED,
    LEVELS,
    PRESETS,
    VARIANTS,
    apply,
    bot_action,
    choose,
    legal_actions,
    new_hand,
    replay,
    review_hand,
    seat_view,
    to_record,
    variant,
)
from games.engine.bots import determinise
from games.engine.exact import numbers_mask
from games.engine.tiles import ALL, tiles_of

RULE_SETS = {**PRESETS, **{name: variant(name) for name in VARIANTS}}
BASE = Path(__file__).resolve().parent.parent.parent


def _hands(count: int, seed: int, levels=("easy", "medium", "medium", "strong"), playouts=4):
    """States met while `count` hands are played, each seat at a random level."""
    rng = random.Random(seed)
    names = sorted(RULE_SETS)
    for h in range(count):
        rules = RULE_SETS[names[h % len(names)]]
        state = new_hand(rules, rng=rng)
        chosen = [rng.choice(levels) for _ in state.hands]
        while state.status not in ENDED:
            yield state, chosen[state.turn], rng
            action = bot_action(state, rng, chosen[state.turn], playouts=playouts)
            state = apply(state, action)[0]  # raises on an illegal action


def test_no_illegal_action_in_ten_thousand_hands():
    """Every level, every rule set and player count; `apply` refuses any illegal action.

    Ten thousand hands of easy and medium seats, and a hundred and fifty of strong ones (a
    few of every rule set) with a small playout budget (the budget changes how well it
    plays, not what it may play)."""
    seen = set()
    for state, _, _ in itertools.chain(
        _hands(10_000, seed=7, levels=("easy", "medium")),
        _hands(150, seed=8, levels=("strong",), playouts=2),
    ):
        seen.add((state.setup.rules.preset, len(state.hands), bool(state.setup.boneyard)))
    assert {n for _, n, _ in seen} == {2, 3, 4}
    assert any(draw for *_, draw in seen)


def _reshuffled(state, seat, rng):
    """The same public hand with every tile `seat` cannot see dealt again among the others."""
    hidden = [s for s in range(len(state.hands)) if s != seat]
    pool = [t for s in hidden for t in tiles_of(state.hands[s])]
    bone = list(state.setup.boneyard[state.drawn :])
    pool += bone
    rng.shuffle(pool)
    hands = list(state.hands)
    for s in hidden:
        k = state.hands[s].bit_count()
        hands[s], pool = sum(1 << t for t in pool[:k]), pool[k:]
    boneyard = state.setup.boneyard[: state.drawn] + tuple(pool)
    return state._replace(hands=tuple(hands), setup=state.setup._replace(boneyard=boneyard))


@pytest.mark.parametrize("level", LEVELS)
def test_the_bot_sees_only_its_seat(level):
    """A view with the other hands removed gives the same move as the full state, and the
    view itself holds no tile the seat cannot see."""
    checked = 0
    for state, _, rng in itertools.islice(_hands(400, seed=11), 0, None, 7):
        if len(legal_actions(state)) < 2:
            continue
        seat = state.turn
        view = seat_view(state, seat)
        assert all(h == 0 for s, h in enumerate(view.state.hands) if s != seat)
        assert all(t == -1 for t in view.state.setup.boneyard[state.drawn :])
        assert view.state.setup.deal == ()
        other = seat_view(_reshuffled(state, seat, random.Random(checked)), seat)
        assert other == view
        seed = rng.random()
        move = choose(view, level, random.Random(seed), playouts=24)
        assert move == bot_action(state, random.Random(seed), level, playouts=24)
        assert move in legal_actions(state)
        checked += 1
        if checked == 25:
            break
    assert checked == 25


def test_determinised_deals_respect_what_the_seat_saw():
    rng = random.Random(3)
    for state, _, _ in itertools.islice(_hands(200, seed=5), 0, None, 5):
        seat = state.turn
        view = seat_view(state, seat)
        world = determinise(view, rng)
        assert world.hands[seat] == state.hands[seat]
        assert [h.bit_count() for h in world.hands] == [h.bit_count() for h in state.hands]
        assert len(world.setup.boneyard) == len(state.setup.boneyard)
        dealt = world.hands + tuple(1 << t for t in world.setup.boneyard[state.drawn :])
        played = sum(1 << t for t, _, _ in state.line)
        assert sum(dealt) | played <= ALL and not sum(dealt) & played
        # A seat known not to hold a number is never dealt one (voids cannot conflict
        # without draws, so none is relaxed here).
        if not state.setup.boneyard:
            for s, mask in enumerate(world.hands):
                assert not mask & numbers_mask(view.voids[s])
                assert not state.hands[s] & numbers_mask(view.voids[s])  # the facts are true


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_is_deterministic_under_a_seed(level):
    rules = PRESETS["dominican"]
    runs = []
    for _ in range(2):
        rng = random.Random(99)
        state = new_hand(rules, rng=rng)
        while state.status not in ENDED:
            state = apply(state, bot_action(state, rng, level, playouts=40))[0]
        runs.append(state.actions)
    assert runs[0] == runs[1]


# Seat 0 to play, two tiles left: 4-0 on the left wins the hand in every deal of the
# hidden tiles consistent with what seat 0 has seen, whatever anyone plays next; 4-4 loses
# it in every one. The deal was found by an exhaustive search over random hands.
DEAL = [
    ["4-0", "5-2", "0-0", "4-4", "5-0", "3-2", "5-4"],
    ["3-3", "1-0", "2-0", "3-1", "1-1", "2-2", "6-0"],
    ["4-2", "6-3", "5-3", "4-1", "6-1", "5-1", "2-1"],
    ["6-5", "4-3", "6-2", "3-0", "5-5", "6-4", "6-6"],
]
BEFORE = [
    "6-6",
    "pass",
    "6-0@left",
    "6-3@right",
    "3-0@right",
    "0-0@right",
    "2-0@left",
    "4-2@left",
    "4-3@left",
    "5-0@right",
    "3-3@left",
    "5-1@right",
    "pass",
    "3-2@left",
    "2-2@left",
    "6-1@right",
    "6-5@right",
    "5-2@left",
    "pass",
    "5-3@right",
    "5-5@left",
    "5-4@left",
    "3-1@right",
    "4-1@right",
    "6-4@right",
]
GOOD, BAD = "4-0@left", "4-4@left"


def _results(state, side):
    """Whether `side` wins, over every continuation of the hand."""
    if state.status in ENDED:
        return {state.result.winner_side == side}
    return set().union(*(_results(apply(state, a)[0], side) for a in legal_actions(state)))


def test_the_best_line_is_known_by_construction():
    state = replay(
        {"format": "domino-hand/1", "rules": "dominican", "deal": DEAL, "actions": BEFORE}
    )
    assert state.turn == 0 and set(legal_actions(state)) == {GOOD, BAD}
    view = seat_view(state, 0)
    seen = state.hands[0] | sum(1 << t for t, _, _ in state.line)
    unknown = tiles_of(ALL & ~seen)
    worlds = 0
    for order in itertools.permutations(unknown):
        hands, rest = list(state.hands), list(order)
        for s in (1, 2, 3):
            hands[s] = sum(1 << t for t in rest[: view.counts[s]])
            rest = rest[view.counts[s] :]
        if any(hands[s] & numbers_mask(view.voids[s]) for s in (1, 2, 3)):
            continue
        world = state._replace(hands=tuple(hands))
        assert _results(apply(world, GOOD)[0], 0) == {True}
        assert _results(apply(world, BAD)[0], 0) == {False}
        worlds += 1
    assert worlds >= 2  # the seat cannot tell the deals apart; the move wins in all


def test_the_review_marks_the_move_that_lost_the_hand():
    state = replay(
        {"format": "domino-hand/1", "rules": "dominican", "deal": DEAL, "actions": BEFORE}
    )
    state = apply(state, BAD)[0]
    while state.status not in ENDED:
        state = apply(state, legal_actions(state)[0])[0]
    assert state.result.winner_side == 1
    steps = []
    review = review_hand(
        state, random.Random(5), playouts=60, progress=lambda d, n: steps.append((d, n))
    )
    move = next(m for m in review["moves"] if m["index"] == len(BEFORE))
    assert move["seat"] == 0 and move["action"] == BAD and move["best"] == GOOD
    # Every deal the seat could imagine was a win with 4-0 and a loss with 4-4: the few
    # deals left are all solved.
    assert move["best_value"] > 0 > move["value"] and move["method"] == "exact"
    # The verdict: the costliest move of the losing side that turned a win into a loss.
    verdict = review["verdict"]
    turning = [
        m
        for m in review["moves"]
        if m["seat"] % 2 == 0 and m["value"] < 0 <= m["best_value"] and m["cost"] >= 2
    ]
    assert verdict == max(turning, key=lambda m: m["cost"])
    assert verdict["index"] in review["costly"]
    assert steps[-1][0] == steps[-1][1] == len(review["moves"])
    assert [m["index"] for m in review["moves"]] == sorted(m["index"] for m in review["moves"])


def test_review_of_a_record_replays_any_valid_hand():
    rng = random.Random(8)
    state = new_hand(PRESETS["brazilian"], rng=rng)
    while state.status not in ENDED:
        state = apply(state, bot_action(state, rng, "medium"))[0]
    review = review_hand(replay(to_record(state)), random.Random(2), playouts=20)
    assert review["moves"] and all(m["cost"] >= 0 for m in review["moves"])


def test_benchmark_smoke():
    """The benchmark runs (a smoke test only: the targets are read from its output)."""
    out = subprocess.run(
        [sys.executable, "benchmarks/bots.py", "--matches", "50", "--pairing", "medium:easy"],
        cwd=BASE,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout
    assert "medium v easy" in out and "%" in out


# Tournament rules, seat 3 to play after eight tiles: 20 tiles left in the hands, and the
# hidden ones may lie in 756,756 ways (more than STRONG_DEALS). 2-2 on the left loses
# nothing in the real deal; every other play loses at least 9 points (-38, -44, -9), and
# over 200 sampled deals the next best loses about 14.
SAMPLED = {
    "format": "domino-hand/1",
    "rules": "tournament",
    "hand_number": 1,
    "opener": 3,
    "scores_before": [0, 0],
    "normal_before": [0, 0],
    "deal": [
        ["2-1", "6-3", "6-0", "4-1", "3-0", "5-1", "5-5"],
        ["3-2", "6-4", "1-0", "4-2", "5-4", "6-5", "0-0"],
        ["5-0", "4-3", "6-1", "3-1", "1-1", "4-0", "3-3"],
        ["5-2", "2-0", "6-6", "2-2", "4-4", "6-2", "5-3"],
    ],
    "actions": ["6-6", "6-3@left", "6-4@right", "3-3@left", "4-4@right", "4-1@right"],
}
SAMPLED_TAIL = ["3-2@left", "1-1@right"]


def _spied(monkeypatch):
    """The valuations the strong level asks for; playing out fails the test."""
    from games.engine import bots, exact

    valuations = []
    real = exact.value_decision

    def spy(*args, **kwargs):
        valuations.append(real(*args, **kwargs))
        return valuations[-1]

    monkeypatch.setattr(exact, "value_decision", spy)
    monkeypatch.setattr(bots, "action_values", lambda *a, **k: pytest.fail("played out"))
    return valuations


def test_strong_solves_a_sample_of_deals(monkeypatch):
    """With many deals, the strong level solves a seeded sample of them (not the
    playouts), and its move is the one the solver finds best."""
    from games.engine import bots
    from games.engine.solver import solve

    valuations = _spied(monkeypatch)
    state = replay({**SAMPLED, "actions": SAMPLED["actions"] + SAMPLED_TAIL})
    assert state.turn == 3
    view = seat_view(state, 3)
    move = choose(view, "strong", random.Random(1))
    (valued,) = valuations
    assert valued is not None and not valued.exact and valued.consistent > bots.STRONG_DEALS
    assert valued.deals >= 2 and valued.best == move == "2-2@left"
    assert solve(state).best == move  # and in the real deal too
    assert choose(view, "strong", random.Random(1)) == move  # deterministic under a seed


def test_strong_solves_from_the_first_decision(monkeypatch):
    """Early in the hand (25 tiles in the hands, the third play) it solves deals too, as
    many as its budget allows, and plays the best move of the deals it solved."""
    valuations = _spied(monkeypatch)
    state = replay({**SAMPLED, "actions": SAMPLED["actions"][:3]})
    view = seat_view(state, state.turn)
    assert sum(view.counts) == 25 and len(legal_actions(state)) == 5
    move = choose(view, "strong", random.Random(1))
    (valued,) = valuations
    assert valued is not None and not valued.exact and valued.deals >= 2
    assert valued.best == move


def test_plausibility_counts_a_heavier_tile_not_played_against_a_deal():
    """Seat 1 answered the opening 6-6 and 6-3 with 6-4 (ten pips): a deal where it held
    6-5 (eleven, also fitting) explains that play less well than one where seat 2 held
    6-5 and seat 1 a light tile instead; a deal where it held only lighter tiles that fit
    explains it best."""
    from games.engine.bots import plausibility
    from games.engine.tiles import BIT, TILE_ID

    state = replay({**SAMPLED, "actions": SAMPLED["actions"][:3]})
    prior = plausibility(seat_view(state, state.turn))
    hands = list(state.hands)
    six_five, one_one = BIT[TILE_ID["6-5"]], BIT[TILE_ID["1-1"]]
    assert hands[1] & six_five and hands[2] & one_one
    swapped = hands[:]
    swapped[1] ^= six_five | one_one
    swapped[2] ^= six_five | one_one
    real, other = prior(state), prior(state._replace(hands=tuple(swapped)))
    assert 0 < real < other <= 1
    # A forced opening (the 6-6 of the first hand) tells nothing.
    assert plausibility(seat_view(replay({**SAMPLED, "actions": ["6-6"]}), 1)) is None


def test_strong_keeps_time_for_the_playouts_when_a_deal_is_too_large(monkeypatch):
    """A deal too large for the solver's budget is given up and the move is played out; under
    a time budget, the playouts get at least their share of it, however long the solver
    took (a budget of two playouts lets the solver search 500 positions: too few)."""
    from games.engine import bots

    asked = []
    real = bots.action_values

    def spy(view, rng, playouts, seconds=None, extra=()):
        asked.append(seconds)
        return real(view, rng, playouts, seconds, extra)

    monkeypatch.setattr(bots, "action_values", spy)
    state = replay({**SAMPLED, "actions": SAMPLED["actions"][:3]})
    move = choose(seat_view(state, state.turn), "strong", random.Random(1), playouts=2, seconds=2.0)
    assert move in legal_actions(state)
    assert len(asked) == 1 and asked[0] >= 2.0 * bots.FALLBACK_SHARE


def test_strong_gives_the_first_round_of_plays_a_larger_budget(monkeypatch):
    """A seat's first decision of a hand solves with EARLY_BUDGET times the positions, unless
    a clock is set (live tables): then the clock decides. Later decisions keep the budget."""
    from games.engine import bots, exact

    asked = []
    real = exact.value_decision

    def spy(*args, **kwargs):
        asked.append(kwargs["nodes"])
        return real(*args, **kwargs)

    monkeypatch.setattr(exact, "value_decision", spy)
    budget = 2 * bots.NODES_PER_PLAYOUT
    first_round = replay({**SAMPLED, "actions": SAMPLED["actions"][:3]})
    later = replay({**SAMPLED, "actions": SAMPLED["actions"] + SAMPLED_TAIL})
    for state, seconds, nodes in (
        (first_round, None, budget * bots.EARLY_BUDGET),
        (first_round, 5.0, budget),
        (later, None, budget),
    ):
        move = choose(seat_view(state, state.turn), "strong", random.Random(1), 2, seconds)
        assert move in legal_actions(state)
        assert asked.pop() == nodes
