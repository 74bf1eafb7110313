"""What a seat, a spectator or a referee may see of a hand."""

from typing import Any

from .match import hand_outcome
from .rules import rules_to_spec
from .state import DECLARE, ENDED, HandState, legal_actions, table_count
from .tiles import DOUBLE, EMPTY, END_NAMES, IS_DOUBLE, NAME, PIPS, other_half, tiles_of


def _tiles(mask: int) -> list[str]:
    return [NAME[t] for t in sorted(tiles_of(mask), key=lambda t: (-PIPS[t], t))]


def _line(state: HandState) -> list[dict[str, Any]]:
    out = []
    spinner = bool(state.line) and state.setup.rules.spinner and IS_DOUBLE[state.line[0][0]]
    for tile, end, outer in state.line:
        piece = {"tile": NAME[tile], "double": IS_DOUBLE[tile]}
        if end < 0:
            right = other_half(tile, outer)
            piece.update(end=None, left=outer, right=right, spinner=spinner)
        else:
            piece.update(end=END_NAMES[end], outer=outer)
        out.append(piece)
    return out


def view(state: HandState, seat: int | None = None, full: bool = False) -> dict[str, Any]:
    """The state as `seat` sees it (None: a spectator); `full` shows every hand (referee).

    Hidden tiles are only shown once the hand has ended, or with `full`.
    """
    setup = state.setup
    ended = state.status in ENDED
    turn = None if ended else state.turn
    out = hand_outcome(state)
    data: dict[str, Any] = {
        "rules": rules_to_spec(setup.rules),
        "hand_number": setup.hand_number,
        "players": None if setup.players is None else list(setup.players),
        "seat": seat,
        "status": state.status,
        "turn": turn,
        "opener": setup.opener if state.line else None,
        "tile_counts": [h.bit_count() for h in state.hands],
        "line": _line(state),
        "ends": [
            {
                "end": END_NAMES[e],
                "shows": c & 7,
                "double": bool(c & DOUBLE),
                "empty": bool(c & EMPTY),
            }
            for e, c in enumerate(state.ends)
            if c >= 0
        ],
        "table_count": table_count(state),
        "boneyard": len(setup.boneyard) - state.drawn,
        "scores_before": list(setup.scores_before),
        "points": list(state.points),
        "scores": list(out.scores_after),
        "events": [e._asdict() for e in state.events],
        "declarations": [{"seat": s, "choice": c} for s, c in state.declarations],
        "actions": list(state.actions),
        "legal_actions": list(legal_actions(state)) if seat is not None and seat == turn else [],
    }
    if state.status == DECLARE:
        data["pending_declaration"] = state.turn
    if seat is not None:
        data["hand"] = _tiles(state.hands[seat])
    if full or ended:
        data["hands"] = [_tiles(h) for h in state.hands]
    if full:
        data["boneyard_tiles"] = [NAME[t] for t in setup.boneyard[state.drawn :]]
    if ended:
        result = state.result
        assert result is not None  # an ended hand has its result
        data["result"] = {
            "ended": state.status,
            "winner": None
            if result.winner_side is None
            else {"seat": result.winner_seat, "side": result.winner_side},
            "blocker": result.blocker,
            "next_leader": out.next_leader,
            "match_over": out.match_over,
            "match_winner": out.match_winner,
            "shutout": out.shutout,
        }
    return data
