"""The perfect-information solver: the exact value of a hand whose every tile is known.

Bridge has its double-dummy solver; this is the domino one. Given a full deal (every hand,
and in a draw game the boneyard's order) and the actions so far, `solve` gives the exact
points of the rest of the hand for each legal action of the seat to act, every seat playing
its best from there on: the points its side scores from now to the end of the hand minus the
points the other side scores (under `penalty` scoring, the reverse: points are what a side
avoids). Every scoring rule of the rule set counts: the table count, pass points, galo and
paso corrido, the opening bonus, capicúa, the domino with a double, the bonus cap, and the
hand's points after a domino or a block.

Games without pairs and with three or four seats have no two sides: the seat to act is then
valued against all the others together ("paranoid" search: the points of its own side minus
those of every other side, the others playing to keep that low).

How it is fast: alpha-beta (negamax, fail-soft) over a compact state of ints (a bitmask per
hand, four end codes, whose turn, the passes since the last play, the tiles drawn); a
transposition table keyed on that state with left and right (and up and down) in either
order, since the rules treat them alike; moves that leave the same ends searched once; the
table's best move, a domino, then the heaviest tile searched first; forced passes and draws
followed without branching. Values are whole points.
"""

from collections.abc import Callable
from typing import NamedTuple

from .rules import Rules
from .state import ACTIONS, DECLARE, ENDED, HandState, legal_actions
from .tiles import BIT, DOUBLE, EMPTY, HI, IS_DOUBLE, LO, PIPS, SUIT, pips_of

Ends = tuple[int, int, int, int]  # the line's four ends, as the state codes them
Rooms = tuple[int, ...] | None  # points each side may still score (None: no cap)

_PLAY, _PASS, _DRAW = ACTIONS["5-4"][0], ACTIONS["pass"][0], ACTIONS["draw"][0]

# End codes as the engine's (tiles.py: number, DOUBLE, EMPTY; -1 closed), and one more kind:
# DORMANT + n, an arm of a double spinner opening (number n) that opens once both its sides
# hold a tile. Tables have 40 entries: 0-31 the engine's codes, 32-38 the dormant arms, and
# index -1 (39) a closed end.
DORMANT = 32
_SIZE = 40


def _cover(tile: int, code: int) -> int:
    if code >= DORMANT:
        return -1
    n = code & 7
    outer = HI[tile] if LO[tile] == n else LO[tile] if HI[tile] == n else -1
    return outer | DOUBLE if outer >= 0 and IS_DOUBLE[tile] else outer


_COVER = tuple(tuple(_cover(t, c) for c in range(_SIZE - 1)) + (-1,) for t in range(28))
_FIT = tuple(SUIT[c & 7] if c < DORMANT and c & 7 < 7 else 0 for c in range(_SIZE - 1)) + (0,)
# What an end adds to the table count: a double both halves; an empty or dormant arm nothing.
_END_COUNT = tuple(
    ((c & 7) * 2 if c & DOUBLE else c & 7) if c < DORMANT else 0 for c in range(_SIZE - 1)
) + (0,)
_ARM_COUNT = tuple(0 if c & EMPTY else n for c, n in enumerate(_END_COUNT[:DORMANT])) + (0,) * 8
# The number an end shows (bit n), for the capicúa: open ends only, not dormant arms.
_SHOWS = tuple(1 << (c & 7) if c < DORMANT else 0 for c in range(_SIZE - 1)) + (0,)
_TILE_SHOWS = tuple(1 << LO[t] | 1 << HI[t] for t in range(28))
# The order moves are tried in: the heaviest tile first, a double before a non-double.
_ORDER = sorted(range(28), key=lambda t: (-PIPS[t], -IS_DOUBLE[t], t))
# The tiles of a mask in that order come from its four 7-bit chunks: each chunk's tiles as
# their places in `_ORDER`, sorted together (a hand's few tiles, not the 28 tested one by one).
_CHUNKS = tuple(
    tuple(
        tuple(_ORDER.index(t) for t in range(7 * c, 7 * c + 7) if bits >> (t - 7 * c) & 1)
        for bits in range(128)
    )
    for c in range(4)
)
_ROOM = 10_000  # a side this far below the bonus cap cannot reach it within one hand


class TooLarge(Exception):
    """The position needs more than the search's limit of positions."""


class Solution(NamedTuple):
    """The exact values of a position for the side to act (see the module's docstring)."""

    values: dict[str, int]  # each legal action's value
    best: str  # the first legal action with the highest value
    value: int  # its value
    nodes: int  # positions searched


class _Search:
    """One solver for one hand: its rules, seats, boneyard and transposition table."""

    def __init__(self, state: HandState, root_side: int, limit: int) -> None:
        setup = state.setup
        rules: Rules = setup.rules
        self.n = n = rules.players
        side = setup.side
        if rules.sides == 2:
            team = tuple(side)
        else:  # paranoid: the root's side against every other together
            team = tuple(0 if side[s] == root_side else 1 for s in range(n))
        self.sign = 1 if rules.scoring == "winner" else -1
        self.boneyard = setup.boneyard
        self.table: dict[tuple[int | Rooms, ...], tuple[int, int, int]] = {}
        self.limit = limit
        self.counter = [0]  # positions searched
        team_of_side = [0] * rules.sides
        for s in range(n):
            team_of_side[side[s]] = team[s]
        give = _giver(team_of_side, self.sign)
        hand_points = _hand_points(rules, side, team_of_side)
        self.node, self.play_value = _searcher(self, rules, side, team, give, hand_points)


# The solver's steps are closures over one hand's rules, seats and table (free variables
# are the fastest lookups after locals): `_searcher` makes the search itself, `node`, and
# the steps it takes, each made by a function of its own.


def _giver(
    team_of_side: list[int], sign: int
) -> Callable[[int, int, int, Rooms], tuple[int, Rooms]]:
    """`give`: a bonus scored under the bonus cap (`rooms`)."""

    def give(points: int, to: int, mover_team: int, rooms: Rooms) -> tuple[int, Rooms]:
        """A bonus for side `to`: (its value for the mover's team, the rooms after)."""
        if rooms is not None:
            room = rooms[to]
            points = max(0, min(points, room))
            if points:
                rooms = rooms[:to] + (room - points,) + rooms[to + 1 :]
        return (points if team_of_side[to] == mover_team else -points) * sign, rooms

    return give


def _hand_points(
    rules: Rules, side: tuple[int, ...], team_of_side: list[int]
) -> Callable[[list[int], int, int, int], int]:
    """`hand_points`: the hand's normal points after a domino or a block."""
    n, sides, round_to = rules.players, rules.sides, rules.round_to
    penalty = rules.scoring == "penalty"
    all_hands = rules.domino_points == "all_hands"
    vs_next = rules.block_winner == "blocker_vs_next"
    block_points = rules.block_points

    def hand_points(hands: list[int], domino: int, blocker: int, mover_team: int) -> int:
        """The hand's normal points (never capped) for the mover's team."""
        p = [pips_of(h) for h in hands]
        if domino >= 0:
            win = side[domino]
            won = sum(p) if all_hands else sum(p[s] for s in range(n) if side[s] != win)
        else:
            if vs_next:
                nxt = (blocker + 1) % n
                seat = blocker if p[blocker] <= p[nxt] else nxt
                win = side[seat]
            else:
                sums = [0] * sides
                for s in range(n):
                    sums[side[s]] += p[s]
                low = min(sums)
                if sums.count(low) > 1:
                    return 0
                win = sums.index(low)
                seat = -1
                for k in range(n):
                    s = (blocker + 1 + k) % n
                    if side[s] == win and (seat < 0 or p[s] < p[seat]):
                        seat = s
            if block_points == "all_hands":
                won = sum(p)
            elif block_points == "others":
                won = sum(p) - p[seat]
            else:
                won = sum(p[s] for s in range(n) if side[s] != win)
        if not penalty:
            won -= won % round_to
            return won if team_of_side[win] == mover_team else -won
        total = 0
        for x in range(sides):
            if x != win:
                own = sum(p[s] for s in range(n) if side[s] == x)
                own -= own % round_to
                total += own if team_of_side[x] == mover_team else -own
        return -total

    return hand_points


def _count(left: int, right: int, up: int, down: int) -> int:
    """The table count of the ends."""
    if left & EMPTY and right & EMPTY and left < DORMANT and right < DORMANT:
        return (left & 7) + (right & 7)  # the opening alone: its pips
    return _END_COUNT[left] + _END_COUNT[right] + _ARM_COUNT[up] + _ARM_COUNT[down]


def _after_play(tile: int, end: int, ends: Ends) -> Ends:
    """The ends after `tile` covers end `end`: a dormant spinner's arms open once both its
    sides hold a tile."""
    after = [*ends]
    after[end] = _COVER[tile][ends[end]]
    left, right, up, down = after
    if up >= DORMANT and not (left | right) & EMPTY:
        up = down = (up - DORMANT) | DOUBLE | EMPTY
    return left, right, up, down


def _moves(
    hand: int, playable: int, next_hand: int, ends: Ends, first: int
) -> list[tuple[int, int, Ends]]:
    """The moves (tile, end, ends after) to search from `ends` with the tiles of `hand` that
    fit (`playable`), once for each different result: the table's best move `first`
    (tile * 4 + end, or -1), a domino, then the moves after which the next seat (holding
    `next_hand`) must pass, then the rest, each group the heaviest tile first."""
    fit, bit, cover, order = _FIT, BIT, _COVER, _ORDER  # locals: the fastest
    c0, c1, c2, c3 = _CHUNKS
    left, right, up, down = ends
    moves: list[tuple[int, int, Ends]] = []
    seen = set()
    stuck = 0
    ranked = sorted(
        c0[playable & 127] + c1[playable >> 7 & 127] + c2[playable >> 14 & 127] + c3[playable >> 21]
    )
    for rank in ranked:
        tile = order[rank]
        tc = cover[tile]
        for end in (0, 1, 2, 3):
            code = tc[ends[end]]
            if code < 0:
                continue
            # The ends after it (`_after_play`, inline: this is the search's hottest loop).
            if end == 0:
                a, b, c, d = code, right, up, down
            elif end == 1:
                a, b, c, d = left, code, up, down
            elif end == 2:
                a, b, c, d = left, right, code, down
            else:
                a, b, c, d = left, right, up, code
            if c >= DORMANT and not (a | b) & EMPTY:
                c = d = (c - DORMANT) | DOUBLE | EMPTY
            result = (a, b, c, d)
            low, high = (a, b) if a <= b else (b, a)
            arm_low, arm_high = (c, d) if c <= d else (d, c)
            canon = (tile, low, high, arm_low, arm_high)
            if canon in seen:
                continue
            seen.add(canon)
            if not hand ^ bit[tile]:  # a domino: searched first
                moves.insert(0, (tile, end, result))
                stuck += 1
            elif next_hand & (fit[a] | fit[b] | fit[c] | fit[d]):
                moves.append((tile, end, result))
            else:  # the next seat must pass: next, before the other moves
                moves.insert(stuck, (tile, end, result))
                stuck += 1
    if first >= 0:
        for i, move in enumerate(moves):
            if move[0] * 4 + move[1] == first:
                moves.insert(0, moves.pop(i))
                break
    return moves


def _searcher(
    search: "_Search",
    rules: Rules,
    side: tuple[int, ...],
    team: tuple[int, ...],
    give: Callable[[int, int, int, Rooms], tuple[int, Rooms]],
    hand_points: Callable[[list[int], int, int, int], int],
) -> tuple[Callable[..., int], Callable[..., int]]:
    """`node`, the search (fail-soft alpha-beta with the transposition table), and
    `play_value`, what a play is worth; `node` values a pass with `pass_value`, and both
    go on with `then`."""
    n = rules.players
    boneyard = search.boneyard
    bones = len(boneyard)
    table = search.table
    counter = search.counter
    limit = search.limit
    fit, bit = _FIT, BIT

    def node(
        hands: list[int],
        turn: int,
        passes: int,
        drawn: int,
        left: int,
        right: int,
        up: int,
        down: int,
        rooms: Rooms,
        alpha: int,
        beta: int,
    ) -> int:
        """The value for the team of `turn` (fail-soft alpha-beta)."""
        counter[0] += 1
        if counter[0] > limit:
            raise TooLarge(f"more than {limit} positions")
        hand = hands[turn]
        fits = fit[left] | fit[right] | fit[up] | fit[down]
        took = 0
        while not hand & fits and drawn < bones:  # draws are forced: no choice to make
            tile = boneyard[drawn]
            hand |= bit[tile]
            took |= bit[tile]
            drawn += 1
        hands[turn] = hand
        ends = (left, right, up, down)
        if not hand & fits:
            value = pass_value(hands, turn, passes, drawn, ends, rooms, alpha, beta)
            hands[turn] = hand ^ took
            return value
        lo_end, hi_end = (left, right) if left <= right else (right, left)
        lo_arm, hi_arm = (up, down) if up <= down else (down, up)
        key = (*hands, lo_end, hi_end, lo_arm, hi_arm, turn, passes, drawn, rooms)
        hit = table.get(key)
        low, high, first = -1 << 30, 1 << 30, -1
        if hit is not None:
            low, high, first = hit
            if low >= beta or low == high:
                hands[turn] = hand ^ took
                return low
            if high <= alpha:
                hands[turn] = hand ^ took
                return high
            if low > alpha:
                alpha = low
            if high < beta:
                beta = high
        best = -1 << 30
        best_move = -1
        start_alpha, start_beta = alpha, beta
        for tile, end, result in _moves(hand, hand & fits, hands[(turn + 1) % n], ends, first):
            hands[turn] = hand ^ bit[tile]
            value = play_value(
                hands, turn, passes, drawn, tile, ends, result, rooms, False, alpha, beta
            )
            if value > best:
                best, best_move = value, tile * 4 + end
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        hands[turn] = hand ^ took
        if best <= start_alpha:
            table[key] = (low, best, best_move)
        elif best >= start_beta:
            table[key] = (best, high, best_move)
        else:
            table[key] = (best, best, best_move)
        return best

    then = _then(team, node)
    pass_value, play_value = _values(rules, side, team, give, hand_points, then)
    return node, play_value


def _then(team: tuple[int, ...], node: Callable[..., int]) -> Callable[..., int]:
    """`then`: a value already won plus the position after it, as `node` values it for
    the seat to act there."""

    def then(
        value: int,
        me: int,
        hands: list[int],
        nxt: int,
        passes: int,
        drawn: int,
        ends: Ends,
        rooms: Rooms,
        alpha: int,
        beta: int,
    ) -> int:
        """`value` already won by the mover (team `me`) plus the position after it."""
        if team[nxt] == me:
            return value + node(
                hands, nxt, passes, drawn, *ends, rooms, alpha - value, beta - value
            )
        return value - node(hands, nxt, passes, drawn, *ends, rooms, value - beta, value - alpha)

    return then


def _values(
    rules: Rules,
    side: tuple[int, ...],
    team: tuple[int, ...],
    give: Callable[[int, int, int, Rooms], tuple[int, Rooms]],
    hand_points: Callable[[list[int], int, int, int], int],
    then: Callable[..., int],
) -> tuple[Callable[..., int], Callable[..., int]]:
    """`pass_value` and `play_value`: what a pass and a play are worth to the seat that
    makes it."""
    n, pass_points = rules.players, rules.pass_points
    fit, shows, tile_shows, is_double = _FIT, _SHOWS, _TILE_SHOWS, IS_DOUBLE
    table_points = rules.table_points
    again_points = rules.galo_points + rules.paso_corrido_bonus
    galo, paso = rules.galo_points, rules.paso_corrido_bonus
    capicua, double_domino = rules.capicua_bonus, rules.double_domino_bonus
    pairs = rules.pairs

    def pass_value(
        hands: list[int],
        turn: int,
        passes: int,
        drawn: int,
        ends: Ends,
        rooms: Rooms,
        alpha: int,
        beta: int,
    ) -> int:
        """The value of `turn`'s pass for its team: the pass points of the first pass
        after a play (for the side that made it), then the block if every seat has now
        passed, else the position after it."""
        me = team[turn]
        value = 0
        if not passes and pass_points:
            value, rooms = give(pass_points, side[(turn - 1) % n], me, rooms)
        if passes + 1 == n:
            return value + hand_points(hands, -1, turn, me)  # the blocker makes the last pass
        return then(value, me, hands, (turn + 1) % n, passes + 1, drawn, ends, rooms, alpha, beta)

    def play_value(
        hands: list[int],
        turn: int,
        passes: int,
        drawn: int,
        tile: int,
        before: tuple[int, int, int, int],
        after: tuple[int, int, int, int],
        rooms: Rooms,
        opening: bool,
        alpha: int,
        beta: int,
    ) -> int:
        """The value for the mover of `tile` played (hands already updated)."""
        me = team[turn]
        value = 0
        left, right, up, down = after
        if table_points:
            c = _count(left, right, up, down)
            if c and c % 5 == 0:
                v, rooms = give(c, side[turn], me, rooms)
                value += v
        if not opening and passes == n - 1 and again_points:
            if galo:
                v, rooms = give(galo, side[turn], me, rooms)
                value += v
            if paso:
                v, rooms = give(paso, side[turn], me, rooms)
                value += v
        if opening and pairs:
            bonus = rules.opening_bonus_double if is_double[tile] else rules.opening_bonus_other
            fits = fit[left] | fit[right] | fit[up] | fit[down]
            if bonus and not hands[(turn + 1) % n] & fits and hands[(turn + 2) % n] & fits:
                v, rooms = give(bonus, side[turn], me, rooms)
                value += v
        if not hands[turn]:
            if capicua and not is_double[tile]:
                showing = shows[before[0]] | shows[before[1]] | shows[before[2]]
                showing |= shows[before[3]]
                if tile_shows[tile] & showing == tile_shows[tile]:
                    v, rooms = give(capicua, side[turn], me, rooms)
                    value += v
            if double_domino and is_double[tile]:
                v, rooms = give(double_domino, side[turn], me, rooms)
                value += v
            return value + hand_points(hands, turn, -1, me)
        return then(value, me, hands, (turn + 1) % n, 0, drawn, after, rooms, alpha, beta)

    return pass_value, play_value


def _ends(state: HandState) -> tuple[int, int, int, int]:
    """The state's ends in the solver's codes: a double spinner opening's arms dormant."""
    left, right, up, down = state.ends
    line = state.line
    if line and up < 0 and state.setup.rules.spinner and IS_DOUBLE[line[0][0]]:
        up = down = DORMANT + LO[line[0][0]]
    return left, right, up, down


def _rooms(state: HandState) -> tuple[int, ...] | None:
    setup = state.setup
    rules = setup.rules
    if not rules.bonus_cap:
        return None
    return tuple(
        max(0, min(_ROOM, rules.target - 1 - before - now))
        for before, now in zip(setup.scores_before, state.points, strict=True)
    )


def _mtdf(search: Callable[[int, int], int], guess: int) -> int:
    """The exact value by null-window searches closing in on it (MTD(f)): with the
    transposition table, fewer positions than one search with a wide window."""
    lower, upper = -(1 << 30), 1 << 30
    while lower < upper:
        beta = guess + 1 if guess == lower else guess
        guess = search(beta - 1, beta)
        if guess < beta:
            upper = guess
        else:
            lower = guess
    return guess


def solve(state: HandState, limit: int | None = None) -> Solution:
    """The exact value of each legal action of the seat to act, all tiles known.

    `limit` bounds the positions searched (TooLarge past it). Raises ValueError for a hand
    that has ended or awaits a five-doubles choice.
    """
    if state.status in ENDED or state.status == DECLARE:
        raise ValueError("the solver values a hand in play")
    turn = state.turn
    setup = state.setup
    search = _Search(state, setup.side[turn], 1 << 62 if limit is None else limit)
    hands = list(state.hands)
    ends = _ends(state)
    rooms = _rooms(state)
    values: dict[str, int] = {}
    done: dict[tuple[int, ...], int] = {}
    guess = 0
    for action in legal_actions(state):
        kind, tile, end, _first = ACTIONS[action]
        if kind in (_PASS, _DRAW):
            # The node itself follows a forced pass or draw.
            values[action] = search.node(
                hands, turn, state.passes, state.drawn, *ends, rooms, -(1 << 30), 1 << 30
            )
            continue
        if not state.line:
            flags = DOUBLE | EMPTY if IS_DOUBLE[tile] else EMPTY
            after = (LO[tile] | flags, HI[tile] | flags, -1, -1)
            if state.setup.rules.spinner and IS_DOUBLE[tile]:
                after = (after[0], after[1], DORMANT + LO[tile], DORMANT + LO[tile])
            opening = True
        else:
            if end < 0:  # unnamed: the engine's own choice among equivalent places
                end = next(e for e in (1, 0, 2, 3) if _COVER[tile][ends[e]] >= 0)
            after = _after_play(tile, end, ends)
            opening = False
        a, b, c, d = after
        canon = (tile, min(a, b), max(a, b), min(c, d), max(c, d))
        if canon in done:
            values[action] = done[canon]
            continue
        hands[turn] ^= BIT[tile]

        def window(
            alpha: int, beta: int, tile: int = tile, after: Ends = after, opening: bool = opening
        ) -> int:
            return search.play_value(
                hands,
                turn,
                state.passes,
                state.drawn,
                tile,
                ends,
                after,
                rooms,
                opening,
                alpha,
                beta,
            )

        value = _mtdf(window, guess)
        guess = value
        hands[turn] ^= BIT[tile]
        values[action] = done[canon] = value
    best = max(values, key=values.__getitem__)
    return Solution(values, best, values[best], search.counter[0])


def value(state: HandState) -> int:
    """The exact value of the position for the side to act (its best action's value)."""
    return solve(state).value
