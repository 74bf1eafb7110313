"""The hand state machine: deal, opening, plays, passes, draws, bonuses and hand scoring.

A state is an immutable HandState (a NamedTuple over ints and tuples); `apply` is pure and
returns the next state with the events the action scored. Every rule of play is decided in
one loop, `_run`: live tables and the adjudicator reach it through `apply` and `apply_all`,
and playouts (random play, the bots' searches) through `play_out`, which lets a policy
choose each action among the legal ones and builds the state once, at the end of the hand.
"""

import itertools
import random
import secrets
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any, NamedTuple

from .errors import EngineError, IllegalAction
from .rules import Rules
from .tiles import (
    BIT,
    DOUBLE,
    DOUBLES,
    EMPTY,
    END_NAMES,
    END_ORDER,
    HI,
    IS_DOUBLE,
    LO,
    NAME,
    PARSE,
    PIPS,
    SUIT,
    TILE_ID,
    hands_pips,
    tiles_of,
)

DECLARE, PLAY, DOMINO, BLOCK, REDEAL = "declare", "play", "domino", "block", "redeal"
ENDED = frozenset((DOMINO, BLOCK, REDEAL))
CHOICES = ("points", "redeal")
AUTO = "!auto"

_PLAY, _PASS, _DRAW = 0, 1, 2  # a play is 0: `if kind` tells a pass or a draw
# Every well-formed action string -> (kind, tile, end, half written first).
ACTIONS: dict[str, tuple[int, int, int, int]] = {}
for _suffix in ("", AUTO):
    ACTIONS["pass" + _suffix] = (_PASS, -1, -1, -1)
    ACTIONS["draw" + _suffix] = (_DRAW, -1, -1, -1)
    for _name, (_tile, _half) in PARSE.items():
        ACTIONS[_name + _suffix] = (_PLAY, _tile, -1, _half)
        for _e, _end in enumerate(END_NAMES):
            ACTIONS[f"{_name}@{_end}{_suffix}"] = (_PLAY, _tile, _e, _half)


def _subsets(mask: int) -> list[int]:
    out, sub = [], mask
    while True:
        out.append(sub)
        if not sub:
            return out
        sub = (sub - 1) & mask


def _cover(tile: int, code: int) -> int:
    n = code & 7
    outer = HI[tile] if LO[tile] == n else LO[tile] if HI[tile] == n else -1
    return outer | DOUBLE if outer >= 0 and IS_DOUBLE[tile] else outer


# _COVER[tile][code]: the end code left when the tile covers an open end with that code, or
# -1 if it does not fit; index -1 (a closed end) is the last entry: nothing fits.
_COVER: tuple[tuple[int, ...], ...] = tuple(
    tuple(_cover(t, c) for c in range(32)) + (-1,) for t in range(28)
)
# The tiles that fit an end code; index -1 (a closed end) is the last entry: nothing fits.
_FIT: tuple[int, ...] = tuple(SUIT[c & 7] if c & 7 < 7 else 0 for c in range(32)) + (0,)


# Action codes, the small ints of the rules loop's policies (`play_out`): a play is
# tile | (end + 1) << 5 (end -1: the opening, named without an end), and PASS_CODE and
# DRAW_CODE the other two. CODE_NAME[code] is the action string, `_DECODE[code]` its
# parsed form (as ACTIONS gives it) and the string.
PASS_CODE, DRAW_CODE = 5 << 5, 5 << 5 | 1
CODE_NAME: tuple[str, ...] = tuple(
    (NAME[c & 31] if c < 32 else f"{NAME[c & 31]}@{END_NAMES[(c >> 5) - 1]}") if c & 31 < 28 else ""
    for c in range(PASS_CODE)
) + ("pass", "draw")
_DECODE = tuple(ACTIONS[name] + (name,) if name else None for name in CODE_NAME)
_PASS_ONLY, _DRAW_ONLY = (PASS_CODE,), (DRAW_CODE,)
_NO_ENDS = (-1, -1, -1, -1)  # the ends before a play that scores nothing (not needed)
_FOREVER = itertools.repeat(None)  # what `play_out` loops over: it stops when the hand ends


# A hand's tiles of one number (hand & SUIT[n]) index a tuple at that mask modulo _SLOT,
# under which the 128 subsets of each number's tiles all differ (tests/engine/test_playout.py);
# a dict keyed by the masks themselves would probe several slots a lookup (they share their
# low bits).
_SLOT = 557


def _plays_on(end: int, names: Sequence[Any]) -> tuple[tuple[tuple[Any, ...], ...], ...]:
    """For each end code (index -1: closed), the plays of fitting tiles on that end, by the
    tiles of that number held (at index mask % _SLOT), each named by `names[action code]`."""
    by_number = []
    for n in range(7):
        slots: list[tuple[Any, ...]] = [()] * _SLOT
        for sub in _subsets(SUIT[n]):
            slots[sub % _SLOT] = tuple(names[t | (end + 1) << 5] for t in tiles_of(sub))
        by_number.append(tuple(slots))
    none = ((),)  # no tile fits a closed end: the index is 0
    return tuple(by_number[c & 7] if c & 7 < 7 else none for c in range(32)) + (none,)


# _CODES[end][code][(hand & _FIT[code]) % _SLOT]: the legal plays of tiles of that hand on
# that end when it has that end code (tiles.py), as action codes; _PLAYS: the same as action
# strings.
_CODES = tuple(_plays_on(end, range(PASS_CODE)) for end in range(4))
_PLAYS = tuple(_plays_on(end, CODE_NAME) for end in range(4))
_SECURE = secrets.SystemRandom()
# _NEXT_SEAT[n][seat]: the seat after `seat` at a table of n; _ROUND[n][seat]: every seat in
# turn order from that one, `seat` last.
_NEXT_SEAT = {n: (*range(1, n), 0) for n in (2, 3, 4)}
_ROUND = {n: tuple((*range(s + 1, n), *range(s + 1)) for s in range(n)) for n in (2, 3, 4)}


class Event(NamedTuple):
    action: int | None  # index in the hand's actions; None before the opening
    seat: int | None
    side: int
    kind: str
    points: int


class Result(NamedTuple):
    winner_seat: int | None
    winner_side: int | None
    blocker: int | None
    next_leader: int | None


class Setup(NamedTuple):
    """What a hand starts from; fixed for the whole hand."""

    rules: Rules
    deal: tuple[tuple[int, ...], ...]
    boneyard: tuple[int, ...]  # draw games only, first drawn first
    leader: int | None
    opener: int  # the seat the rules give
    forced: int  # the tile the opening must be, or -1
    need_double: bool  # a winner_double opening
    penalty_sides: tuple[int, ...]  # sides scoring no_double_penalty
    five_seat: int  # the seat entitled to the five-doubles choice, or -1
    scores_before: tuple[int, ...]
    normal_before: tuple[int, ...]
    hand_number: int
    players: tuple[str, ...] | None
    side: tuple[int, ...]  # the side of each seat


class HandState(NamedTuple):
    setup: Setup
    status: str  # DECLARE, PLAY, DOMINO, BLOCK or REDEAL
    turn: int  # the seat to act (or to declare); -1 once the hand has ended
    hands: tuple[int, ...]  # bitmask of tiles per seat
    drawn: int  # boneyard tiles drawn so far
    line: tuple[tuple[int, int, int], ...]  # (tile, end, outer half); the opening: (t, -1, left)
    ends: tuple[int, int, int, int]  # left, right, up, down end codes (tiles.py); -1 closed
    passes: int  # consecutive passes since the last play
    last: int  # the seat of the last play, -1 before the opening
    points: tuple[int, ...]  # per side, this hand
    normal: tuple[int, ...]  # the normal (non-bonus) part of points
    events: tuple[Event, ...]
    actions: tuple[str, ...]
    declarations: tuple[tuple[int, str], ...]
    result: Result | None


# _new(HandState, fields): a state from its 15 fields, without NamedTuple's keyword __new__.
_new = tuple.__new__


# ---------------------------------------------------------------- the deal and the opening


# A deal: the hands (tile ids), their masks, and the boneyard.
Deal = tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]


def _shuffle(rules: Rules, rng: random.Random | None) -> Deal:
    """A uniform deal: the tiles sorted by 28 independent random keys."""
    keys = [*itertools.starmap((rng or _SECURE).random, _DRAWS)]  # 28 draws, at C speed
    tiles = (*sorted(_TILES, key=keys.__getitem__),)
    k, n = rules.tiles_per_hand, rules.players
    cut = _CUTS[n, k]
    hands, masks = cut(tiles), (*map(sum, cut(itemgetter(*tiles)(BIT))),)
    return hands, masks, tiles[n * k :] if rules.boneyard else ()


# _CUTS[players, tiles_per_hand](tiles): the hands dealt from the shuffled tiles (the first k
# to seat 0, the next k to seat 1...), as slices of them, in one call.
_CUTS = {
    (n, k): itemgetter(*(slice(i, i + k) for i in range(0, n * k, k)))
    for n in (2, 3, 4)
    for k in range(2, 28 // n + 1)
}


def _masks(hands: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    return tuple([sum(map(_BIT_OF, h)) for h in hands])


def new_hand(
    rules: Rules,
    deal: Sequence[Sequence[str]] | None = None,
    *,
    boneyard: Sequence[str] | None = None,
    rng: random.Random | None = None,
    seed: int | None = None,
    leader: int | None = None,
    scores_before: Sequence[int] | None = None,
    normal_before: Sequence[int] | None = None,
    hand_number: int = 1,
    players: Sequence[str] | None = None,
) -> HandState:
    """A new hand: the given deal, or a shuffle (seeded, else `secrets.SystemRandom`).

    Raises EngineError (bad_record, bad_tile, bad_deal) for a faulty deal or argument.
    """
    n, sides = rules.players, rules.sides
    if leader is not None and (not _is_int(leader) or not 0 <= leader < n):
        raise EngineError("bad_record", f"leader must be a seat from 0 to {n - 1}")
    zeros = (0,) * sides
    scores = zeros if scores_before is None else _side_array(scores_before, sides, "scores_before")
    normal = scores if normal_before is None else _side_array(normal_before, sides, "normal_before")
    if type(hand_number) is not int and not _is_int(hand_number) or hand_number < 1:
        raise EngineError("bad_record", "hand_number must be a positive integer")
    if players is not None:
        if (
            not isinstance(players, (list, tuple))
            or len(players) != n
            or not all(isinstance(p, str) for p in players)
        ):
            raise EngineError("bad_record", f"players must list {n} names")
        players = tuple(players)
    if deal is None:
        hands, masks, bone = _shuffle(rules, rng or (None if seed is None else random.Random(seed)))
    else:
        hands, masks, bone = _read_deal(rules, deal, boneyard)
    side = _SIDES[rules.pairs][:n]
    opener, forced, need_double, passed = _opening(rules, masks, leader)
    penalty: tuple[int, ...] = ()
    if passed and rules.no_double_penalty and leader is not None:
        penalty = tuple(x for x in range(sides) if x != side[leader])
    five = -1
    if rules.five_doubles_points:
        for seat, mask in enumerate(masks):
            if (mask & DOUBLES).bit_count() >= 5:
                five = seat
    setup = _new(
        Setup,
        (
            rules,
            hands,
            bone,
            leader,
            opener,
            forced,
            need_double,
            penalty,
            five,
            scores,
            normal,
            hand_number,
            players,
            side,
        ),
    )
    state = _new(
        HandState,
        (
            setup,
            DECLARE if five >= 0 else PLAY,
            five if five >= 0 else opener,
            masks,
            0,
            (),
            _CLOSED,
            0,
            -1,
            zeros,
            zeros,
            (),
            (),
            (),
            None,
        ),
    )
    return _before_opening(state) if penalty and five < 0 else state


_SIDES = {True: (0, 1, 0, 1), False: (0, 1, 2, 3)}
_TILES = range(28)
_DRAWS = ((),) * 28  # `_shuffle` calls `random` once per tile, with no arguments


_BIT_OF = [*BIT].__getitem__  # a list's __getitem__ is called faster than a tuple's


_CLOSED = (-1, -1, -1, -1)


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


_INT = {int}


def _side_array(values: Any, sides: int, what: str) -> tuple[int, ...]:
    if values is None:
        return (0,) * sides
    if type(values) is list and len(values) == sides and {*map(type, values)} == _INT:
        return tuple(values)  # the usual JSON input, checked at C speed
    if (
        not isinstance(values, (list, tuple))
        or len(values) != sides
        or not all(map(_is_int, values))
    ):
        raise EngineError("bad_record", f"{what} must list {sides} integers, one per side")
    return tuple(values)


def _read_tiles(names: Any, seat: int | None) -> tuple[int, ...]:
    """Tile names -> tile ids; `seat` names the hand (None: the boneyard) in errors."""
    if isinstance(names, (list, tuple)):
        try:
            return tuple(map(TILE_ID.__getitem__, names))
        except (KeyError, TypeError):  # not a tile's name, or unhashable junk
            pass
    what = "the boneyard" if seat is None else f"the hand of seat {seat}"
    if not isinstance(names, (list, tuple)) or not all(isinstance(x, str) for x in names):
        raise EngineError("bad_record", f"{what} must be a list of tiles")
    bad = next(x for x in names if x not in TILE_ID)
    raise EngineError("bad_tile", f"{bad!r} in {what} is not a tile of the set")


def _read_deal(rules: Rules, deal: Any, boneyard: Any) -> Deal:
    """A record's deal and boneyard (EngineError: bad_record, bad_tile, bad_deal)."""
    n, k = rules.players, rules.tiles_per_hand
    hands, masks = _read_hands(deal, n, k) or _check_hands(deal, n, k)
    if boneyard is None and rules.boneyard:
        raise EngineError("bad_record", "a draw game needs its boneyard")
    if boneyard is None or (not rules.boneyard and boneyard == []):
        return hands, masks, ()
    bone = _read_tiles(boneyard, None)
    rest = 28 - n * k
    # 28 different tiles in all: their bits add up without a carry.
    if len(bone) != rest or (sum(masks) + sum(map(_BIT_OF, bone))).bit_count() != 28:
        raise EngineError("bad_deal", f"the boneyard must hold exactly the {rest} undealt tiles")
    return hands, masks, bone if rules.boneyard else ()


_LIST = {list}


def _read_hands(
    deal: Any, n: int, k: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]] | None:
    """The hands and masks of the usual JSON deal, n lists of k different tile names (read
    at C speed); None for anything else, which `_check_hands` reads."""
    if type(deal) is not list or len(deal) != n or {*map(type, deal)} != _LIST:
        return None
    if {*map(len, deal)} != {k}:
        return None
    hands, masks = [], []
    try:
        for names in deal:
            tiles = itemgetter(*names)(TILE_ID)
            hands.append(tiles)
            masks.append(sum(itemgetter(*tiles)(BIT)))
    except (KeyError, TypeError):  # not a tile name
        return None
    if sum(masks).bit_count() != n * k:  # a tile dealt twice: the bits carried
        return None
    return tuple(hands), tuple(masks)


def _check_hands(deal: Any, n: int, k: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The hands and masks of any deal, checked one fault after another."""
    if not isinstance(deal, (list, tuple)) or len(deal) != n:
        raise EngineError("bad_record", f"the deal must list {n} hands")
    hands = tuple(map(_read_tiles, deal, range(n)))
    for s, h in enumerate(hands):
        if len(h) != k:
            raise EngineError("bad_deal", f"seat {s} was dealt {len(h)} tiles, not {k}")
    dealt = sum(hands, ())
    if len(set(dealt)) != len(dealt):
        twice = next(t for t in dealt if dealt.count(t) > 1)
        raise EngineError("bad_deal", f"{NAME[twice]} is dealt twice")
    return hands, _masks(hands)


def _holder(masks: tuple[int, ...], tile: int) -> int:
    """The seat dealt `tile` (which was dealt)."""
    bit = BIT[tile]
    seat = 0
    while not masks[seat] & bit:
        seat += 1
    return seat


def _opening(
    rules: Rules, masks: tuple[int, ...], leader: int | None
) -> tuple[int, int, bool, bool]:
    """(opener, forced tile or -1, must open with a double, the opening passed on)."""
    n, dealt = len(masks), sum(masks)
    if leader is not None:
        if rules.next_opener != "winner_double":
            return leader, -1, False, False
        for k in range(n):
            seat = (leader + k) % n
            if masks[seat] & DOUBLES:
                return seat, -1, True, k > 0
        return leader, -1, False, False
    if rules.first_opener == "tile":
        forced = PARSE[rules.opening_tile][0]
        if dealt & BIT[forced]:
            return _holder(masks, forced), forced, False, False
    if rules.first_opener == "tile":
        best = _first(_HIGHEST, dealt & DOUBLES or dealt)
    elif rules.first_opener == "lowest_double":
        best = _first(_LOWEST, dealt & DOUBLES & ~BIT[0] or dealt)  # 0-0 is no double here
    else:
        best = _first(_HIGHEST, dealt)
    return _holder(masks, best), -1, False, False


# The tiles from the highest (pip sum, then higher half) and from the lowest (pip sum, then
# lower half): both orders are strict, so the first tile held is the max or min.
_HIGHEST = sorted(range(28), key=lambda t: (PIPS[t], HI[t]), reverse=True)
_LOWEST = sorted(range(28), key=lambda t: (PIPS[t], LO[t]))


def _first(order: list[int], mask: int) -> int:
    """The first tile of `order` in the (non-empty) mask."""
    return next(t for t in order if mask & BIT[t])


# ---------------------------------------------------------------- scoring

# The points of a hand so far, scored in place: its events, points per side, and their
# normal part (lists while the rules loop runs, tuples in a state).
# After a play or a pass: the status, the turn and the result (None while the hand goes on).
After = tuple[str, int, Result | None]


def _score(
    setup: Setup,
    events: list[Event],
    points: list[int],
    normal: list[int],
    action: int | None,
    seat: int | None,
    side: int,
    kind: str,
    value: int,
) -> None:
    """Score one event; bonuses (every kind but `hand`) are capped under `bonus_cap`.

    `_run` scores an ordinary play's table points and pass points inline where no cap
    applies (`_inline`), as this does: the points to the side, and the event."""
    if kind == "hand":
        normal[side] += value
    elif setup.rules.bonus_cap:
        room = setup.rules.target - 1 - setup.scores_before[side] - points[side]
        value = max(0, min(value, room))
    points[side] += value
    events.append(_new(Event, (action, seat, side, kind, value)))


def _pass_points(
    setup: Setup,
    events: list[Event],
    points: list[int],
    normal: list[int],
    i: int,
    last: int,
) -> None:
    """Pass points (`pass_points`): the first pass after a play scores for the side of the
    seat that made that play."""
    _score(
        setup, events, points, normal, i, last, setup.side[last], "pass", setup.rules.pass_points
    )


def _play_scores(
    setup: Setup,
    events: list[Event],
    points: list[int],
    normal: list[int],
    i: int,
    seat: int,
    tile: int,
    passes: int,
    hands: Sequence[int],
    ends: tuple[int, ...],
    before: tuple[int, ...],
    line: Sequence[tuple[int, int, int]],
    turn: int,
    table: int,
) -> After:
    """What a play scores, one rule family after another (docs/rules.md, section 4): its
    table points (`table`, 0 when it scores none), the galo (the play follows a pass of every
    other seat: `passes`, the passes before it, is one less than the seats), the opening
    bonus, and with the seat's last tile its bonuses and the hand's points (a domino).
    Returns the status, the turn (`turn` while the hand goes on) and the result (`After`).

    `_run` scores an ordinary play's table points itself, where no bonus cap applies."""
    if table:
        _table_points(setup, events, points, normal, i, seat, table)
    if passes == len(hands) - 1:
        _galo_points(setup, events, points, normal, i, seat)
    if len(line) == 1 and setup.rules.pairs:
        _opening_bonus(setup, events, points, normal, i, seat, tile, hands, ends)
    if hands[seat]:
        return PLAY, turn, None
    _domino_bonuses(setup, events, points, normal, i, seat, tile, before)
    return DOMINO, -1, _hand_points(setup, hands, i, events, points, normal, seat, None)


def _table_points(
    setup: Setup,
    events: list[Event],
    points: list[int],
    normal: list[int],
    i: int,
    seat: int,
    count: int,
) -> None:
    """Table points (`table_points`): a play that leaves a table count that is a multiple
    of 5 (`_run` reads it in `_TABLE_POINTS`) scores that count."""
    _score(setup, events, points, normal, i, seat, setup.side[seat], "table", count)


def _galo_points(
    setup: Setup,
    events: list[Event],
    points: list[int],
    normal: list[int],
    i: int,
    seat: int,
) -> None:
    """Galo and paso corrido (`galo_points`, `paso_corrido_bonus`): a seat plays again after
    every other seat passed."""
    rules, side = setup.rules, setup.side[seat]
    if rules.galo_points:
        _score(setup, events, points, normal, i, seat, side, "galo", rules.galo_points)
    if rules.paso_corrido_bonus:
        _score(
            setup, events, points, normal, i, seat, side, "paso_corrido", rules.paso_corrido_bonus
        )


def _opening_bonus(
    setup: Setup,
    events: list[Event],
    points: list[int],
    normal: list[int],
    i: int,
    seat: int,
    tile: int,
    hands: Sequence[int],
    ends: tuple[int, ...],
) -> None:
    """The opening bonus (`opening_bonus_double`, `opening_bonus_other`; pairs only): the
    next seat cannot answer the salida and the opener's partner can."""
    rules = setup.rules
    value = rules.opening_bonus_double if IS_DOUBLE[tile] else rules.opening_bonus_other
    if not value:
        return
    n, fits = len(hands), _fits(ends)
    if not hands[(seat + 1) % n] & fits and hands[(seat + 2) % n] & fits:
        side = setup.side[seat]
        _score(setup, events, points, normal, i, seat, side, "opening_bonus", value)


def is_capicua(tile: int, before: tuple[int, ...]) -> bool:
    """Whether a domino made with `tile` on the open ends `before` is a capicúa: a
    non-double whose two halves match two different open ends (rules.md decision 9)."""
    lo, hi = LO[tile], HI[tile]
    if lo == hi:
        return False
    showing = {c & 7 for c in before if c >= 0}
    return lo in showing and hi in showing


def _domino_bonuses(
    setup: Setup,
    events: list[Event],
    points: list[int],
    normal: list[int],
    i: int,
    seat: int,
    tile: int,
    before: tuple[int, ...],
) -> None:
    """The bonuses of the last tile (`capicua_bonus`, `double_domino_bonus`): a non-double
    that fitted both ends showing before it, or a double."""
    rules, side = setup.rules, setup.side[seat]
    if rules.capicua_bonus and is_capicua(tile, before):
        _score(setup, events, points, normal, i, seat, side, "capicua", rules.capicua_bonus)
    if rules.double_domino_bonus and IS_DOUBLE[tile]:
        _score(
            setup, events, points, normal, i, seat, side, "double_domino", rules.double_domino_bonus
        )


def _before_opening(state: HandState) -> HandState:
    """Score the no-double penalty and hand the turn to the opener."""
    setup = state.setup
    events, points, normal = [*state.events], [*state.points], [*state.normal]
    for side in setup.penalty_sides:
        penalty = setup.rules.no_double_penalty
        _score(setup, events, points, normal, None, None, side, "no_double_penalty", penalty)
    return state._replace(status=PLAY, turn=setup.opener, points=(*points,), events=(*events,))


def declare(state: HandState, seat: int, choice: str) -> tuple[HandState, tuple[Event, ...]]:
    """A five-doubles choice ("points" or "redeal") made before the opening."""
    setup = state.setup
    if not setup.rules.five_doubles_points:
        raise IllegalAction("bad_declaration", "these rules have no five-doubles choice")
    if any(s == seat for s, _ in state.declarations):
        raise IllegalAction("bad_declaration", f"seat {seat} has already declared")
    if state.status != DECLARE or seat != state.turn:
        raise IllegalAction("bad_declaration", f"seat {seat} was not dealt five doubles")
    if choice not in CHOICES:
        raise IllegalAction("bad_declaration", f"{choice!r} is not 'points' or 'redeal'")
    state = state._replace(declarations=state.declarations + ((seat, choice),))
    if choice == "redeal":
        return state._replace(
            status=REDEAL, turn=-1, result=Result(None, None, None, setup.leader)
        ), ()
    value = (state.hands[seat] & DOUBLES).bit_count() * setup.rules.five_doubles_points
    events, points, normal = [*state.events], [*state.points], [*state.normal]
    _score(setup, events, points, normal, None, seat, setup.side[seat], "five_doubles", value)
    new = _before_opening(state._replace(points=(*points,), events=(*events,)))
    return new, new.events[len(state.events) :]


def _fits(ends: tuple[int, ...]) -> int:
    """The mask of tiles that fit some open end."""
    return _FIT[ends[0]] | _FIT[ends[1]] | _FIT[ends[2]] | _FIT[ends[3]]


def _count(ends: tuple[int, ...], line: Sequence[tuple[int, int, int]]) -> int:
    if len(line) == 1:
        return PIPS[line[0][0]]
    return _END_COUNT[ends[0]] + _END_COUNT[ends[1]] + _ARM_COUNT[ends[2]] + _ARM_COUNT[ends[3]]


# _ARMS[tile]: the end code of a spinner's up and down arms after that opening tile, or 0.
_ARMS = tuple(LO[t] | DOUBLE | EMPTY if IS_DOUBLE[t] else 0 for t in range(28))
# What an end code adds to the table count (index -1: a closed end): a double counts both
# halves; an empty spinner arm (up, down) counts nothing.
_END_COUNT = tuple((c & 7) * 2 if c & DOUBLE else c & 7 for c in range(32)) + (0,)
_ARM_COUNT = tuple(0 if c & EMPTY else n for c, n in enumerate(_END_COUNT[:32])) + (0,)
# The same for two ends at once: [left][right] and [up][down] (`_run`'s table count).
_SIDES_COUNT = tuple(tuple(a + b for b in _END_COUNT) for a in _END_COUNT)
_ARMS_COUNT = tuple(tuple(a + b for b in _ARM_COUNT) for a in _ARM_COUNT)
# What a table count of a + b scores (`table_points`): _TABLE_POINTS[a][b] is the count if
# it is a multiple of 5, else 0; `_run` reads it at the two pairs of ends' counts above.
_COUNTS = range(2 * max(_END_COUNT) + 1)  # every count of two ends
_TABLE_POINTS = tuple(tuple(a + b if (a + b) % 5 == 0 else 0 for b in _COUNTS) for a in _COUNTS)


def table_count(state: HandState) -> int:
    """The table count of docs/rules.md section 4 (table_points), whatever the option."""
    return _count(state.ends, state.line) if state.line else 0


def _unnamed_end(state: HandState, tile: int) -> int:
    """Where a tile without @END goes: the first legal end, if the choice does not matter.

    It does not matter when playing it on each legal end leaves the same open ends and
    table count (docs/hand-record.md, "Actions"); a hand's last tile only matters under
    `table_points`.
    """
    before = state.ends
    cover = _COVER[tile]
    places = [e for e in END_ORDER if cover[before[e]] >= 0]
    if not places:
        raise IllegalAction("does_not_fit", f"{NAME[tile]} fits no open end")
    if len(places) > 1 and (state.setup.rules.table_points or state.hands[state.turn] != BIT[tile]):
        keys = set()
        for e in places:
            after = apply(state, f"{NAME[tile]}@{END_NAMES[e]}")[0]
            keys.add((tuple(sorted(c & 15 for c in after.ends if c >= 0)), table_count(after)))
        if len(keys) > 1:
            raise IllegalAction("ambiguous_end", f"{NAME[tile]} fits several ends; name one")
    return places[0]


# ---------------------------------------------------------------- actions


def apply(state: HandState, action: str) -> tuple[HandState, tuple[Event, ...]]:
    """The state after `action` (a record action string) and the events it scored.

    Raises IllegalAction with an error code of docs/hand-record.md.
    """
    if state.status == DECLARE:
        new, _, error = apply_all(state, (action,))
    else:
        new, _, error = _run(state, (action,), None)
    if error is not None:
        raise error
    events = new.events
    return new, () if events is state.events else events[len(state.events) :]


def apply_all(
    state: HandState, actions: tuple[Any, ...]
) -> tuple[HandState, int, EngineError | None]:
    """Apply `actions` in turn, as `apply` does one by one, up to the first fault.

    Returns the state after the actions applied, how many were applied, and the fault (None
    when all were). Every rule of play is decided in `_run`, for live play, replays and
    playouts alike; the state lives in local variables and is built once, at the end, so
    that replaying a whole record costs a fraction of one `apply` per action.
    """
    if state.status == DECLARE and actions:
        try:
            state = _declare_action(state, actions[0])
        except EngineError as e:
            return state, 0, e
        state, done, error = apply_all(state, actions[1:])
        return state, done + 1, error
    return _run(state, actions, None)


def play_out(state: HandState, policy: Callable[[tuple[Any, ...]], Any]) -> HandState:
    """The hand played to its end, each action chosen by `policy`: the state that applying
    those actions one by one gives (`apply`), computed in one run of the rules loop.

    `policy` gets the legal actions as action codes (`CODE_NAME` names them), in the order
    of `legal_actions`, and returns one of them; during a five-doubles choice it gets
    `CHOICES` and returns one of those. It is asked only where there is a choice: a seat
    with one legal action (a pass, a draw, the one tile that fits) plays it unasked. So
    `play_out(state, rng.choice)` is random legal play: the same hand, and the same draws
    from `rng`, as choosing `rng.choice(legal_actions(state))` wherever there are two legal
    actions or more, and `apply` of each action, until the hand ends.
    """
    if state.status == DECLARE:
        state = declare(state, state.turn, policy(CHOICES))[0]
    state, _, error = _run(state, (), policy)
    if error is not None:
        raise error  # the policy chose an action it was not offered
    return state


def _inline(rules: Rules, n: int) -> tuple[int, int]:
    """What `_run` scores itself, as `_score` would, where no bonus cap applies. First: a play
    (not the opening, not the last tile) after fewer passes than this is ordinary, and
    scores its table points at most, without `_play_scores` (after n - 1 passes the seat
    plays again: a galo). Second: the pass points of a first pass, scored without
    `_pass_scores` (0: none, or capped)."""
    capped = rules.bonus_cap
    return 0 if capped and rules.table_points else n - 1, 0 if capped else rules.pass_points


def _run(
    state: HandState,
    actions: tuple[Any, ...],
    policy: Callable[[tuple[Any, ...]], Any] | None,
    # Tables bound once as locals (the fastest lookups): the plays a policy may choose, by
    # end (at the fitting tiles modulo `slot`); the tiles fitting an end; what a tile leaves
    # on an end; the table count.
    on_left: tuple[tuple[tuple[int, ...], ...], ...] = _CODES[0],
    on_right: tuple[tuple[tuple[int, ...], ...], ...] = _CODES[1],
    on_up: tuple[tuple[tuple[int, ...], ...], ...] = _CODES[2],
    on_down: tuple[tuple[tuple[int, ...], ...], ...] = _CODES[3],
    fit: tuple[int, ...] = _FIT,
    slot: int = _SLOT,
    cover: tuple[tuple[int, ...], ...] = _COVER,
    sides_count: tuple[tuple[int, ...], ...] = _SIDES_COUNT,
    arms_count: tuple[tuple[int, ...], ...] = _ARMS_COUNT,
    scores: tuple[tuple[int, ...], ...] = _TABLE_POINTS,
    bits: tuple[int, ...] = BIT,
    decode: tuple[Any, ...] = _DECODE,  # None for a code that names no action
) -> tuple[HandState, int, EngineError | None]:
    """The rules loop: `actions` applied in turn (apply_all), or, given a `policy`, the
    actions it chooses among the legal ones until the hand ends (play_out).

    The loop keeps what every action does inline (it is the engine's hot path); what only
    some do is a step of its own: the policy's options when it has no tile to play
    (`_no_play`), what a pass scores (`_pass_scores`), a draw (`_draw`), the opening
    (`_open_line`), an unnamed end (`_unnamed_end`), what a play scores and whether it ends
    the hand (`_play_scores`), and each fault's reason (`_unplayable`, `_illegal_pass`,
    `_illegal_play`). An ordinary play scores its table points at most, and skips
    `_play_scores`; where no bonus cap applies, those and pass points are scored inline
    (`_inline`).
    """
    (
        setup,
        status,
        turn,
        dealt,
        drawn,
        line_so_far,
        (left, right, up, down),
        passes,
        last,
        points_before,
        normal_before,
        events_before,
        played,
        declarations,
        result,
    ) = state
    # The tally, scored in place (see `_score`): the new events, the points per side.
    events: list[Event] = []
    points, normal = [*points_before], [*normal_before]
    rules, n = setup.rules, len(dealt)
    spinner, table_points, pass_points = rules.spinner, rules.table_points, rules.pass_points
    side_of = setup.side
    ordinary, pass_inline = _inline(rules, n)
    # The end code a double spinner opening's up and down arms open with once both its sides
    # hold a tile; 0 when no arms are to open.
    arms = _ARMS[line_so_far[0][0]] if spinner and line_so_far and up < 0 else 0
    bones = len(setup.boneyard)
    after = _NEXT_SEAT[n]
    hands = [*dealt]  # changed in place, a tuple again at the end
    line = [*line_so_far]  # grows in place, a tuple again at the end
    chosen: list[str] = []  # the actions `policy` chose
    error, done = None, 0
    try:
        for done, parsed in enumerate(_FOREVER if policy else _parse(actions)):
            hand = hands[turn]
            if policy is None:
                if parsed is None or status != PLAY:
                    raise _unplayable(status, actions[done])
                kind, tile, end, first = parsed
            else:
                if status != PLAY:
                    break
                legal = (
                    on_left[left][(hand & fit[left]) % slot]
                    + on_right[right][(hand & fit[right]) % slot]
                )
                if up >= 0:
                    legal += (
                        on_up[up][(hand & fit[up]) % slot]
                        + on_down[down][(hand & fit[down]) % slot]
                    )
                legal = legal or _no_play(setup, hand, line, drawn < bones)
                # The policy chooses only where there is a choice (see `play_out`).
                kind, tile, end, first, name = decode[
                    legal[0] if len(legal) == 1 else policy(legal)
                ]
                chosen.append(name)
            if kind:  # a draw or a pass
                if kind == _DRAW:
                    hands[turn] = _draw(setup, hand, line, (left, right, up, down), drawn, turn)
                    drawn += 1
                    continue
                fits = fit[left] | fit[right] | fit[up] | fit[down]
                if not line or hand & fits or drawn < bones:
                    raise _illegal_pass(line, hand & fits, turn)
                passes += 1
                turn = after[turn]
                if passes == 1 and pass_inline:  # its pass points, `_score` inline
                    points[side_of[last]] += pass_inline
                    events.append(
                        _new(Event, (len(played) + done, last, side_of[last], "pass", pass_inline))
                    )
                elif passes == 1 and pass_points or passes == n:  # it scores (capped), or blocks
                    status, turn, result = _pass_scores(
                        setup, hands, passes, turn, last, len(played) + done, events, points, normal
                    )
                continue
            # A play: every check comes before any change, so a fault leaves the state whole.
            bit = bits[tile]
            if end < 0 and line and hand & bit:  # unnamed: where it goes, if that matters not
                now = _new(
                    HandState,
                    (
                        setup,
                        status,
                        turn,
                        (*hands,),
                        drawn,
                        (*line,),
                        (left, right, up, down),
                        passes,
                        last,
                        (*points,),
                        (*normal,),
                        events_before + (*events,),
                        played + actions[:done],
                        declarations,
                        result,
                    ),
                )
                end = _unnamed_end(now, tile)
            # The end code the tile leaves where it goes: -1 where it does not fit, and on every
            # end before the opening (all closed).
            code = cover[tile][
                left if end == 0 else right if end == 1 else up if end == 2 else down
            ]
            if code >= 0 and hand & bit:  # a tile of the hand on an open end
                hand ^= bit
                before = _NO_ENDS if hand else (left, right, up, down)  # a domino's bonuses
                # The ends with the one it covers changed.
                if end == 0:
                    left = code
                elif end == 1:
                    right = code
                elif end == 2:
                    up = code
                else:
                    down = code
                if arms and not (left | right) & EMPTY:  # a double opening's arms open
                    up = down = arms
                    arms = 0
                line.append((tile, end, code & 7))
                # The table points of the count `_count` gives, when the rules score them.
                table = table_points and scores[sides_count[left][right]][arms_count[up][down]]
                plain = hand and passes < ordinary  # an ordinary play (see above)
            else:  # the opening, or a fault (`_open_line` tells them apart)
                plain, before = False, (left, right, up, down)
                left, right, up, down = _open_line(setup, line, hand, tile, first, turn)
                arms = _ARMS[tile] if spinner else 0
                hand ^= bit
                line.append((tile, -1, first))
                table = table_points and scores[PIPS[tile]][0]
            hands[turn] = hand
            last = turn
            turn = after[turn]
            if plain:
                passes = 0
                if table:  # its table points, `_score` inline
                    points[side_of[last]] += table
                    events.append(
                        _new(Event, (len(played) + done, last, side_of[last], "table", table))
                    )
                continue
            status, turn, result = _play_scores(
                setup,
                events,
                points,
                normal,
                len(played) + done,
                last,
                tile,
                passes,
                hands,
                (left, right, up, down),
                before,
                line,
                turn,
                table,
            )
            passes = 0
    except EngineError as e:
        error, actions = e, actions[:done]
    applied = actions if policy is None else tuple(chosen)  # given, or chosen by the policy
    return (
        _new(
            HandState,
            (
                setup,
                status,
                turn,
                (*hands,),
                drawn,
                tuple(line),
                (left, right, up, down),
                passes,
                last,
                (*points,) if events else points_before,  # points change with events only
                (*normal,) if events else normal_before,
                events_before + (*events,) if events else events_before,
                played + applied,
                declarations,
                result,
            ),
        ),
        len(applied),
        error,
    )


def _parse(actions: tuple[Any, ...]) -> list[tuple[int, int, int, int] | None]:
    """Each action's parsed form (`ACTIONS`), or None for what is no action string."""
    try:
        return [*map(ACTIONS.get, actions)]
    except TypeError:  # unhashable junk among them
        return [ACTIONS.get(a) if isinstance(a, str) else None for a in actions]


def _unplayable(status: str, action: Any) -> IllegalAction:
    """Why an action cannot be applied at all: the hand has ended, or it is no action."""
    if status != PLAY:
        return IllegalAction("after_end", "the hand has already ended")
    return IllegalAction("bad_tile", f"{action!r} is not a tile, 'pass' or 'draw'")


def _no_play(setup: Setup, hand: int, line: Sequence[Any], can_draw: bool) -> tuple[int, ...]:
    """The legal actions, as action codes, of a seat with no tile to play on the line: the
    tiles it may open with, else a draw while the boneyard lasts, else a pass."""
    if line:
        return _DRAW_ONLY if can_draw else _PASS_ONLY
    if setup.forced >= 0:
        return (setup.forced,)
    return tuple(tiles_of(hand & DOUBLES if setup.need_double else hand))


def _illegal_pass(line: Sequence[Any], fitting: int, turn: int) -> IllegalAction:
    """Why a pass is not allowed (docs/rules.md section 3): before the opening, while the
    seat holds a tile that fits (`fitting`), or while it can still draw."""
    if not line:
        return IllegalAction("illegal_pass", "the opening cannot be a pass")
    if fitting:
        return IllegalAction("illegal_pass", f"seat {turn} holds a tile that fits")
    return IllegalAction("illegal_pass", f"seat {turn} must draw from the boneyard")


def _pass_scores(
    setup: Setup,
    hands: Sequence[int],
    passes: int,
    turn: int,
    last: int,
    i: int,
    events: list[Event],
    points: list[int],
    normal: list[int],
) -> After:
    """What pass `i` scores, the `passes`-th in a row: the first after a play scores pass
    points (`pass_points`) for the side of the seat that made it; the last of every seat
    blocks the hand, scored by `_hand_points`. Returns the status, the turn and the result
    (`After`)."""
    if passes == 1 and setup.rules.pass_points:
        _pass_points(setup, events, points, normal, i, last)
    if passes < len(hands):
        return PLAY, turn, None
    return BLOCK, -1, _hand_points(setup, hands, i, events, points, normal, None, last)


def _illegal_play(held: int, tile: int, turn: int) -> IllegalAction:
    """Why a tile cannot be played there: the seat does not hold it (`held` is 0), or it
    does not fit that end."""
    if not held:
        return IllegalAction("not_in_hand", f"seat {turn} does not hold {NAME[tile]}")
    return IllegalAction("does_not_fit", f"{NAME[tile]} does not fit that end")


def _draw(
    setup: Setup,
    hand: int,
    line: Sequence[Any],
    ends: tuple[int, int, int, int],
    drawn: int,
    turn: int,
) -> int:
    """The hand of `turn` after it draws (docs/rules.md section 3): legal in a draw game after the
    opening, from a boneyard that still holds tiles, by a seat holding no tile that fits;
    the boneyard's next tile joins the hand."""
    if not setup.rules.boneyard:
        raise IllegalAction("illegal_draw", "these rules have no boneyard")
    if not line:
        raise IllegalAction("illegal_draw", "the opening cannot be a draw")
    if drawn >= len(setup.boneyard):
        raise IllegalAction("illegal_draw", "the boneyard is empty")
    if hand & _fits(ends):
        raise IllegalAction("illegal_draw", f"seat {turn} holds a tile that fits")
    return hand | BIT[setup.boneyard[drawn]]


def _open_line(
    setup: Setup, line: Sequence[Any], hand: int, tile: int, first: int, turn: int
) -> tuple[int, int, int, int]:
    """The ends after `turn` opens with `tile`, its half `first` on the left: a tile of its
    `hand`, the one the rules force if any, a double if the previous hand's winner must
    open with one. On a `line` already open, the tile is not held or does not fit there:
    the fault is raised (`_illegal_play`)."""
    if line:
        raise _illegal_play(hand & BIT[tile], tile, turn)
    if not hand & BIT[tile]:
        raise IllegalAction("not_in_hand", f"seat {turn} does not hold {NAME[tile]}")
    if setup.forced >= 0 and tile != setup.forced:
        raise IllegalAction("wrong_opening_tile", f"the hand must open with {NAME[setup.forced]}")
    if setup.need_double and not IS_DOUBLE[tile]:
        raise IllegalAction("wrong_opening_tile", "the winner must open with a double")
    flags = DOUBLE | EMPTY if IS_DOUBLE[tile] else EMPTY
    return first | flags, _COVER[tile][first] & 7 | flags, -1, -1


def _declare_action(state: HandState, action: Any) -> HandState:
    """An action while the five-doubles choice is pending: the choice, maybe `!auto`."""
    choice = action.removesuffix(AUTO) if isinstance(action, str) else action
    if choice not in CHOICES:
        raise IllegalAction(
            "bad_declaration", f"seat {state.turn} must first choose points or redeal"
        )
    return declare(state, state.turn, choice)[0]


def _hand_points(
    setup: Setup,
    hands: Sequence[int],
    i: int,
    events: list[Event],
    points: list[int],
    normal: list[int],
    domino: int | None,
    blocker: int | None,
) -> Result:
    """The hand's normal points, last of all, and its result (winner, next leader): who won
    a domino or a block, then what the hand scores."""
    pips = hands_pips(hands)
    shown: int | None
    if domino is not None:
        shown, win, leader, won = _domino_winner(setup, pips, domino)
    else:
        assert blocker is not None  # a hand ends in a domino or a block
        decided = _block_winner(setup, pips, blocker)
        if decided is None:  # tied sides: nobody scores
            opener = {"previous_opener": setup.opener, "blocker": blocker}
            tie_leader = opener.get(setup.rules.after_tie_opener)
            return _new(Result, (None, None, blocker, tie_leader))
        shown, win, leader, won = decided
    _hand_score(setup, events, points, normal, i, pips, shown, win, won)
    return _new(Result, (shown, win, blocker, leader))


def _domino_winner(setup: Setup, pips: list[int], seat: int) -> tuple[int, int, int | None, int]:
    """A domino (`domino_points`, `next_opener`): (winning seat, its side, the next hand's
    leader, the pips won: the opponents' or every other hand's)."""
    rules, side = setup.rules, setup.side
    win = side[seat]
    leader = None if rules.next_opener == "first_rule" else seat
    if rules.domino_points == "all_hands":
        won = sum(pips) - pips[seat]
    else:
        won = _opponents_pips(pips, side, win)
    return seat, win, leader, won


def _block_winner(
    setup: Setup, pips: list[int], blocker: int
) -> tuple[int | None, int, int | None, int] | None:
    """A block (`block_winner`, `block_points`, `after_block_opener`): (the seat shown as
    winner, the winning side, the next hand's leader, the pips won), or None for tied sides."""
    rules, side = setup.rules, setup.side
    order = _ROUND[len(pips)][blocker]
    shown: int | None
    if rules.block_winner == "blocker_vs_next":
        seat = shown = blocker if pips[blocker] <= pips[order[0]] else order[0]
        win = side[seat]
    else:
        sums = [0] * rules.sides
        for s, p in enumerate(pips):
            sums[side[s]] += p
        low = min(sums)
        if sums.count(low) > 1:
            return None
        win = sums.index(low)
        seat = min([s for s in order if side[s] == win], key=pips.__getitem__)  # first of equals
        shown = None if rules.pairs else seat
    leader = {"winner": seat, "blocker": blocker}.get(rules.after_block_opener)
    if rules.block_points == "all_hands":
        won = sum(pips)
    elif rules.block_points == "others":
        won = sum(pips) - pips[seat]
    else:
        won = _opponents_pips(pips, side, win)
    return shown, win, leader, won


def _opponents_pips(pips: list[int], side: tuple[int, ...], win: int) -> int:
    """The pips of the seats of every side but `win`."""
    won = 0
    for s, p in enumerate(pips):
        if side[s] != win:
            won += p
    return won


def _hand_score(
    setup: Setup,
    events: list[Event],
    points: list[int],
    normal: list[int],
    i: int,
    pips: list[int],
    shown: int | None,
    win: int,
    won: int,
) -> None:
    """The hand's points (`scoring`, `round_to`): the winner scores the pips won, or under
    penalty scoring every other side scores its own pips; rounded down to `round_to`."""
    rules, side = setup.rules, setup.side
    if rules.scoring == "winner":
        _score(setup, events, points, normal, i, shown, win, "hand", won - won % rules.round_to)
        return
    for x in range(rules.sides):
        if x != win:
            own = sum(p for s, p in enumerate(pips) if side[s] == x)
            _score(setup, events, points, normal, i, None, x, "hand", own - own % rules.round_to)


# ---------------------------------------------------------------- queries


def legal_actions(state: HandState) -> tuple[str, ...]:
    """The legal actions of the seat to act (`state.turn`), as record action strings."""
    status = state.status
    if status != PLAY:
        return CHOICES if status == DECLARE else ()
    setup = state.setup
    hand = state.hands[state.turn]
    if not state.line:
        if setup.forced >= 0:
            return (NAME[setup.forced],)
        return tuple(NAME[t] for t in tiles_of(hand & DOUBLES if setup.need_double else hand))
    left, right, up, down = state.ends
    out = (
        _PLAYS[0][left][(hand & _FIT[left]) % _SLOT]
        + _PLAYS[1][right][(hand & _FIT[right]) % _SLOT]
    )
    if up >= 0:
        out += (
            _PLAYS[2][up][(hand & _FIT[up]) % _SLOT] + _PLAYS[3][down][(hand & _FIT[down]) % _SLOT]
        )
    if out:
        return out
    return ("draw",) if state.drawn < len(setup.boneyard) else ("pass",)


def is_over(state: HandState) -> bool:
    return state.status in ENDED
