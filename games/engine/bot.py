"""The timeout action of docs/rules.md decision 18 (the bots' levels are in bots.py)."""

from .state import AUTO, DECLARE, PLAY, HandState, legal_actions
from .tiles import DOUBLES, END_ORDER, HI, IS_DOUBLE, NAME, PIPS, SUIT, tiles_of


def _rank(tile: int) -> tuple[int, bool, int]:
    return PIPS[tile], IS_DOUBLE[tile], HI[tile]


def auto_action(state: HandState) -> str:
    """The action made for a seat whose turn timer expired, marked `!auto`.

    The highest pip sum, a double before a non-double of the same sum, then the higher
    half, on the first legal end in the order right, left, up, down; else a draw or pass.
    During a five-doubles choice, no answer keeps the points.
    """
    if state.status == DECLARE:
        return "points"
    if state.status != PLAY:
        raise ValueError("the hand has ended")
    setup = state.setup
    hand = state.hands[state.turn]
    if not state.line:
        if setup.forced >= 0:
            return NAME[setup.forced] + AUTO
        return NAME[max(tiles_of(hand & DOUBLES if setup.need_double else hand), key=_rank)] + AUTO
    fitting = 0
    for c in state.ends:
        if c >= 0:
            fitting |= hand & SUIT[c & 7]
    if not fitting:
        return legal_actions(state)[0] + AUTO
    tile = max(tiles_of(fitting), key=_rank)
    end = next(
        e
        for e in END_ORDER
        if state.ends[e] >= 0 and fitting & SUIT[state.ends[e] & 7] & (1 << tile)
    )
    return f"{NAME[tile]}@{('left', 'right', 'up', 'down')[end]}{AUTO}"
