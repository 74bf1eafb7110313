"""What a hand record says about one seat: the facts that players' statistics add up.

`hand_facts(record, seat)` replays the record (so the facts can never disagree with the
rules) and reads, for that seat: how the hand ended and whether its side won it, whether the
domino was a capicúa, the points its side scored, the passes it forced on opponents and the
passes it suffered, whether it opened and with which tile, and the end of the match.

Only public facts: nothing here tells what any seat held.
"""

from typing import Any, NamedTuple

from .errors import EngineError
from .match import hand_outcome
from .record import replay
from .rules import PRESETS, VARIANTS, Rules, rules_from_spec
from .state import ACTIONS, BLOCK, DOMINO, HandState, apply, is_capicua
from .tiles import NAME

_PASS_KIND = ACTIONS["pass"][0]
WON, LOST, NEITHER = 1, -1, 0
# Options that change how fast a table plays, not the game: ignored when naming a rule set.
_TIMERS = ("turn_seconds", "five_doubles_seconds")


class HandFacts(NamedTuple):
    seat: int
    side: int
    partner: int | None  # the partner's seat (pairs only)
    rule_set: str  # rule_set_name(the record's rules)
    ended: str  # "domino" or "block"
    result: int  # WON, LOST, or NEITHER (a tied block)
    capicua: bool  # the hand ended in a capicúa (whoever made it)
    points: int  # what the seat's side scored in the hand
    passes_forced: int  # opponents' passes right after this seat's play
    passes_suffered: int  # this seat's passes
    opened: bool
    opening: str  # the tile this seat opened with ("6-4", high half first), else ""
    match_over: bool
    match_result: int  # WON or LOST when the hand ended the match with a winner; else NEITHER


def _without_timers(rules: Rules) -> Rules:
    base = PRESETS[rules.preset]
    return rules.with_options(**{name: getattr(base, name) for name in _TIMERS})


def _named() -> dict[Rules, str]:
    named: dict[Rules, str] = {}
    for name, spec in [*((n, n) for n in PRESETS), *VARIANTS.items()]:
        named.setdefault(_without_timers(rules_from_spec(spec)), name)
    return named


_NAMED = _named()


def rule_set_name(rules: Rules) -> str:
    """The preset or named variant these rules are (timers aside); otherwise their preset,
    with `_2p`/`_3p` for two or three players."""
    found = _NAMED.get(_without_timers(rules))
    if found is not None:
        return found
    return rules.preset if rules.players == 4 else f"{rules.preset}_{rules.players}p"


def _result(side: int | None, mine: int) -> int:
    return NEITHER if side is None else WON if side == mine else LOST


def _walk(record: dict[str, Any]) -> tuple[HandState, HandState, list[tuple[int, int]]] | None:
    """(the final state, the state before the last action, each pass as (passing seat, seat
    of the last play)); None for a faulty record or a hand that was not played out."""
    try:
        final = replay(record)
        state = replay({**record, "actions": []})
    except EngineError:
        return None
    if final.status not in (DOMINO, BLOCK):
        return None  # a redeal or an unfinished hand: nothing was played out
    passes, before = [], state
    for action in final.actions:
        if ACTIONS[action][0] == _PASS_KIND:
            passes.append((state.turn, state.last))
        before, state = state, apply(state, action)[0]
    return final, before, passes


def _seat_facts(
    final: HandState, before: HandState, passes: list[tuple[int, int]], seat: int
) -> HandFacts:
    setup = final.setup
    rules, sides = setup.rules, setup.side
    side = sides[seat]
    result = final.result
    assert result is not None  # the facts are of an ended hand
    outcome = hand_outcome(final)
    opened = setup.opener == seat and bool(final.line)
    last_tile = final.line[-1][0]
    return HandFacts(
        seat=seat,
        side=side,
        partner=(seat + 2) % 4 if rules.pairs else None,
        rule_set=rule_set_name(rules),
        ended=final.status,
        result=_result(result.winner_side, side),
        capicua=final.status == DOMINO and is_capicua(last_tile, before.ends),
        points=final.points[side],
        passes_forced=sum(1 for passer, last in passes if last == seat and sides[passer] != side),
        passes_suffered=sum(1 for passer, _ in passes if passer == seat),
        opened=opened,
        opening=NAME[final.line[0][0]] if opened else "",
        match_over=outcome.match_over,
        match_result=_result(outcome.match_winner, side) if outcome.match_over else NEITHER,
    )


def hand_facts(record: dict[str, Any], seat: int) -> HandFacts | None:
    """The facts of a finished hand for `seat`; None when the record is faulty, the hand was
    redealt or not finished, or there is no such seat."""
    return dict(enumerate(seats_facts(record))).get(seat)


def seats_facts(record: dict[str, Any]) -> list[HandFacts]:
    """`hand_facts` for every seat of the hand, replaying it once ([] when there are none)."""
    walked = _walk(record)
    if walked is None:
        return []
    final, before, passes = walked
    return [_seat_facts(final, before, passes, seat) for seat in range(len(final.hands))]
