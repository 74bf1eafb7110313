"""Pure pairing, scheduling and ranking core for Capicúa tournaments (no Django).

Plain values in, plain values out: entrants are identified by any hashable id, inputs and
outputs are frozen dataclasses, tuples and dicts of ids.

- :mod:`.roundrobin`  single / double round robin (circle method, balanced home/away)
- :mod:`.swiss`       Swiss pairing for fixed pairs/teams (global weighted matching)
- :mod:`.brackets`    single / double elimination, result propagation, group-stage play-offs
- :mod:`.rotating`    individual events with rotating partners (tables of two partnerships)
- :mod:`.whist`       complete whist schedules for 4n / 4n + 1 players
- :mod:`.tiebreaks`   tiebreak arithmetic and ranking by an ordered list of keys

Pairing searches count their work in steps (:class:`Effort`): a caller may bound them
(:class:`SearchTooLong`) or follow their progress.
"""

from ._search import Effort, SearchTooLong
from .brackets import (
    Bracket,
    BracketMatch,
    MatchState,
    Source,
    advance,
    dependents_to_reset,
    double_elimination,
    playoff_seeds,
    seeding_order,
    single_elimination,
    snake_groups,
)
from .rotating import Repeats, RotatingPlayer, RotatingRound, pair_rotating, repeats
from .roundrobin import Round, round_robin
from .swiss import SwissEntrant, SwissRound, pair_swiss
from .tiebreaks import (
    TIEBREAK_KEYS,
    MatchResult,
    Standing,
    buchholz,
    head_to_head,
    match_wins,
    partner_aware,
    point_difference,
    rank,
    sonneborn_berger,
)
from .whist import WhistScheduleError, whist_schedule

__all__ = [
    "TIEBREAK_KEYS",
    "Bracket",
    "BracketMatch",
    "Effort",
    "MatchResult",
    "MatchState",
    "Repeats",
    "RotatingPlayer",
    "RotatingRound",
    "SearchTooLong",
    "Round",
    "Source",
    "Standing",
    "SwissEntrant",
    "SwissRound",
    "WhistScheduleError",
    "advance",
    "buchholz",
    "dependents_to_reset",
    "double_elimination",
    "head_to_head",
    "match_wins",
    "pair_rotating",
    "pair_swiss",
    "partner_aware",
    "playoff_seeds",
    "point_difference",
    "rank",
    "repeats",
    "round_robin",
    "seeding_order",
    "single_elimination",
    "snake_groups",
    "sonneborn_berger",
    "whist_schedule",
]
