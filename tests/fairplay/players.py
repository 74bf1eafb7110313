"""Simulated players for the fair-play tests: an honest seat plays a bot level from its own
view; a colluding seat sees its partner's tiles and plays the move that is best with them
(on a share of its decisions, the rest honestly); a seat consulting a program plays the move
best on its own information."""

import random

from games.engine import ENDED, apply, bot_action, legal_actions, new_hand
from games.engine.exact import value_decision


def informed_action(state, rng: random.Random, budget: dict, partner: bool) -> str | None:
    """The move best on the seat's own information (what a program tells it) or, with
    `partner`, with its partner's tiles too; None where it is not cheap to find."""
    if sum(h.bit_count() for h in state.hands) > budget["horizon"] or len(legal_actions(state)) < 2:
        return None
    valued = value_decision(
        state,
        rng,
        partner=partner,
        samples=budget["samples"],
        exact_deals=budget["exact_deals"],
        nodes=budget["nodes"],
        limit=budget["nodes"],
    )
    return None if valued is None else valued.best


def play_hand(
    rules, rng: random.Random, levels, colluders=(), share=1.0, budget=None, programs=(), **hand
):
    """One hand: `levels[seat]` is each seat's bot level; seats in `colluders` play the
    partner-informed best move on a `share` of their decisions, seats in `programs` the best
    move on their own information. Returns the final state."""
    state = new_hand(rules, rng=rng, **hand)
    if state.status != "play":
        state = apply(state, "points")[0]
    while state.status not in ENDED:
        action = None
        if state.turn in colluders and rng.random() < share:
            action = informed_action(state, rng, budget, partner=True)
        elif state.turn in programs:
            action = informed_action(state, rng, budget, partner=False)
        if action is None:
            action = bot_action(state, rng, levels[state.turn], playouts=120)
        state = apply(state, action)[0]
    return state
