"""Capicúa's rules engine: pure Python, standard library only (no Django).

- `Rules`, `PRESETS`, `VARIANTS`, `variant`, `rules_from_spec`, `rules_to_spec`: the rule model.
- `new_hand`, `apply`, `legal_actions`, `declare`: the hand state machine (immutable states).
- `play_out(state, policy)`: the hand played to its end by a policy choosing among the legal
  actions (as action codes, named by `CODE_NAME`), the same state as `apply` one action at a
  time, several times faster: `play_out(new_hand(rules, rng=rng), rng.choice)` is random play.
- `new_match`, `start_hand`, `finish_hand`, `hand_outcome`: hands chained into a match;
  `time_up`: a match ended at its time limit (the side ahead wins).
- `view`: what a seat, a spectator or a referee may see of a state.
- `adjudicate`, `to_record`, `replay`: hand records and rulings (docs/hand-record.md).
- `hand_facts`, `seats_facts`, `rule_set_name`: what a finished hand says about each seat
  (the players' statistics).
- `solve`: the perfect-information solver (solver.py): the exact value of every legal action
  of a hand whose tiles are all known, as bridge's double-dummy solver does for a deal.
- `auto_action`: the timeout action; `bot_action`, `choose`, `seat_view`, `review_hand`: bots
  at three levels (easy, medium, strong) that see only their seat's view, and the review of
  a finished hand.

Persisting a live state: store `state_to_dict(state)` (its `domino-hand/1` record: rules,
deal, boneyard, declarations and actions; plain JSON) and restore it with
`state_from_dict(record)`, which replays the record through `apply`'s rules loop
(tens of microseconds).
"""

from .bot import auto_action
from .bots import LEVELS, SeatView, bot_action, choose, review_hand, seat_view
from .errors import EngineError, IllegalAction, RulesError
from .facts import HandFacts, hand_facts, rule_set_name, seats_facts
from .match import (
    HandOutcome,
    Match,
    finish_hand,
    hand_outcome,
    match_end,
    new_match,
    start_hand,
    time_up,
)
from .record import adjudicate, replay, ruling, state_from_dict, state_to_dict, to_record
from .rules import PRESETS, VARIANTS, Rules, rules_from_spec, rules_to_spec, variant
from .solver import Solution, TooLarge, solve
from .state import (
    CODE_NAME,
    DECLARE,
    ENDED,
    Event,
    HandState,
    Result,
    apply,
    declare,
    is_over,
    legal_actions,
    new_hand,
    play_out,
    table_count,
)
from .views import view

__all__ = [
    "CODE_NAME",
    "DECLARE",
    "LEVELS",
    "SeatView",
    "ENDED",
    "PRESETS",
    "VARIANTS",
    "EngineError",
    "Event",
    "HandState",
    "IllegalAction",
    "Match",
    "HandOutcome",
    "HandFacts",
    "Result",
    "Rules",
    "RulesError",
    "Solution",
    "TooLarge",
    "adjudicate",
    "apply",
    "auto_action",
    "bot_action",
    "choose",
    "declare",
    "finish_hand",
    "hand_facts",
    "hand_outcome",
    "is_over",
    "legal_actions",
    "match_end",
    "new_hand",
    "new_match",
    "play_out",
    "replay",
    "review_hand",
    "rules_from_spec",
    "rules_to_spec",
    "rule_set_name",
    "ruling",
    "seat_view",
    "seats_facts",
    "solve",
    "start_hand",
    "state_from_dict",
    "state_to_dict",
    "table_count",
    "time_up",
    "to_record",
    "variant",
    "view",
]
