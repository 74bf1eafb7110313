"""Hand records (`domino-hand/1`) and rulings (`domino-ruling/1`) of docs/hand-record.md."""

from typing import Any

from .errors import EngineError
from .match import hand_outcome
from .rules import rules_from_spec, rules_to_spec
from .state import DECLARE, ENDED, PLAY, REDEAL, Event, HandState, apply_all, declare, new_hand
from .tiles import NAME

Json = dict[str, Any]

RECORD_FORMAT = "domino-hand/1"
RULING_FORMAT = "domino-ruling/1"


def _fault(code: str, message: str, action: int | None = None, seat: int | None = None) -> Json:
    return {"action": action, "seat": seat, "code": code, "message": message}


def _early_ruling(error: Json, sides: int) -> Json:
    """A fault in the record, the rules, the deal or the boneyard: nothing is scored."""
    zeros = [0] * sides
    return {
        "format": RULING_FORMAT,
        "valid": False,
        "error": error,
        "ended": "incomplete",
        "winner": None,
        "blocker": None,
        "opener": None,
        "points": zeros,
        "normal_points": zeros,
        "events": [],
        "scores_after": zeros,
        "normal_after": zeros,
        "next_leader": None,
        "match_over": False,
        "match_winner": None,
        "shutout": False,
    }


def ruling(state: HandState, error: Json | None = None) -> Json:
    """The ruling for a replayed hand (`error`: the first fault, if any)."""
    ended = state.status in ENDED and (error is None or error["code"] == "after_end")
    out = hand_outcome(state) if ended else hand_outcome(state._replace(status=PLAY))
    result = state.result if ended else None
    winner = None
    if result is not None and result.winner_side is not None:
        winner = {"seat": result.winner_seat, "side": result.winner_side}
    return {
        "format": RULING_FORMAT,
        "valid": error is None,
        "error": error,
        "ended": state.status if ended else "incomplete",
        "winner": winner,
        "blocker": None if result is None else result.blocker,
        "opener": state.setup.opener if state.line else None,
        "points": list(state.points),
        "normal_points": list(state.normal),
        "events": [dict(zip(Event._fields, event, strict=True)) for event in state.events],
        "scores_after": list(out.scores_after),
        "normal_after": list(out.normal_after),
        "next_leader": out.next_leader,
        "match_over": out.match_over,
        "match_winner": out.match_winner,
        "shutout": out.shutout,
    }


def _read_declarations(value: Any) -> list[tuple[int, str]]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(
        isinstance(d, dict) and isinstance(d.get("seat"), int) and isinstance(d.get("choice"), str)
        for d in value
    ):
        raise EngineError("bad_record", "declarations must be a list of {seat, choice} objects")
    return [(d["seat"], d["choice"]) for d in value]


def _start(record: Any) -> tuple[HandState, list[tuple[int, str]], int | None, list[Any]]:
    """Read a record up to its deal: (HandState, declarations, opener, actions)."""
    if not isinstance(record, dict):
        raise EngineError("bad_record", "a hand record must be a JSON object")
    if record.get("format") != RECORD_FORMAT:
        raise EngineError("bad_record", f"format must be {RECORD_FORMAT!r}")
    for field in ("rules", "deal", "actions"):
        if field not in record:
            raise EngineError("bad_record", f"the record has no {field!r}")
    rules = rules_from_spec(record["rules"])
    actions = record["actions"]
    if not isinstance(actions, list):
        raise EngineError("bad_record", "actions must be a list")
    declarations = _read_declarations(record.get("declarations"))
    opener = record.get("opener")
    if opener is not None and (type(opener) is not int or not 0 <= opener < rules.players):
        raise EngineError("bad_record", f"opener must be a seat from 0 to {rules.players - 1}")
    state = new_hand(
        rules,
        record["deal"],
        boneyard=record.get("boneyard"),
        leader=record.get("leader"),
        scores_before=record.get("scores_before"),
        normal_before=record.get("normal_before"),
        hand_number=record.get("hand_number", 1),
        players=record.get("players"),
    )
    return state, declarations, opener, actions


def _sides(record: Any) -> int:
    """The number of sides under a faulty record's rules; 0 if they cannot be read."""
    try:
        return rules_from_spec(record.get("rules")).sides if isinstance(record, dict) else 0
    except EngineError:
        return 0


def _wrong_opener(state: HandState, opener: int | None) -> EngineError | None:
    """The record names a seat that does not open under its rules (a redeal opens nobody,
    so its record's opener is not checked: docs/hand-record.md)."""
    if opener is None or state.status == REDEAL or opener == state.setup.opener:
        return None
    return EngineError(
        "wrong_opener", f"seat {state.setup.opener} opens under these rules, not seat {opener}"
    )


def adjudicate(record: Json) -> Json:
    """Replay a hand record through the state machine and rule on it (docs/hand-record.md)."""
    try:
        state, declarations, opener, actions = _start(record)
    except EngineError as e:
        return _early_ruling(_fault(e.code, e.message), _sides(record))
    try:
        for seat, choice in declarations:
            state = declare(state, seat, choice)[0]
        if state.status == DECLARE:
            state = declare(state, state.turn, "points")[0]
    except EngineError as e:
        return ruling(state, _fault(e.code, e.message, None, seat))
    if (wrong := _wrong_opener(state, opener)) is not None:
        return ruling(state, _fault(wrong.code, wrong.message, None, opener))
    state, done, error = apply_all(state, tuple(actions))
    if error is not None:
        at = None if state.status in ENDED else state.turn
        return ruling(state, _fault(error.code, error.message, done, at))
    return ruling(state)


def replay(record: Json) -> HandState:
    """The state a valid (possibly unfinished) record leads to; EngineError on any fault."""
    state, declarations, opener, actions = _start(record)
    for seat, choice in declarations:
        state = declare(state, seat, choice)[0]
    if (wrong := _wrong_opener(state, opener)) is not None:
        raise wrong
    state, _, error = apply_all(state, tuple(actions))
    if error is not None:
        raise error
    return state


def to_record(state: HandState) -> Json:
    """The `domino-hand/1` record of a hand as played so far."""
    setup = state.setup
    record: dict[str, Any] = {"format": RECORD_FORMAT, "rules": rules_to_spec(setup.rules)}
    if setup.players is not None:
        record["players"] = list(setup.players)
    record["hand_number"] = setup.hand_number
    if setup.leader is not None:
        record["leader"] = setup.leader
    if state.line:
        record["opener"] = setup.opener
    record["scores_before"] = list(setup.scores_before)
    record["normal_before"] = list(setup.normal_before)
    record["deal"] = [[NAME[t] for t in hand] for hand in setup.deal]
    if setup.rules.boneyard:
        record["boneyard"] = [NAME[t] for t in setup.boneyard]
    if state.declarations:
        record["declarations"] = [{"seat": s, "choice": c} for s, c in state.declarations]
    record["actions"] = list(state.actions)
    return record


# A live state persists as its record and is restored by replaying it.
state_to_dict = to_record
state_from_dict = replay
