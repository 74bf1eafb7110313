"""Bots at three levels, and the analysis of a finished hand.

A bot never reads the state of the hand: it gets a `SeatView`, the state as one seat saw it
(its own tiles, the line, the actions, how many tiles each seat holds and the boneyard's
size), with every hidden tile blanked out. What the seat may infer is inferred from public
facts only: a seat that passed or drew holds neither open number (until it draws again).

- **easy** plays a uniformly random legal action.
- **medium** scores each legal action with a club player's rules of thumb: shed heavy
  tiles, play doubles early, keep the variety of numbers, keep tiles that follow the ends,
  show the number the next opponent cannot follow, never the one the partner cannot, play
  to the partner's numbers, and take the points a play scores at once.
- **strong** values every legal action over the deals of the hidden tiles consistent with
  what the seat has seen and plays the one with the best mean result for its side: each deal
  solved exactly, as if all tiles were face up (exact.py, solver.py: the analysis's own
  deals), from the hand's first decision on, and each deal's points taken for what they do
  to the side's chance of winning the match (stake.py). Once the deals it cannot tell apart are few
  (`STRONG_DEALS`) it solves every one; before, a sample (up to `STRONG_SAMPLES`), fewer
  early in the hand, where one deal is dearer to solve. The deals are not all equally
  likely: players shed their heavy tiles first, so a deal in which a seat held a heavier
  tile it could have played, and did not, explains its play less well (`plausibility`,
  partner and opponents alike); the sample is drawn by that weight from many uniform deals,
  and with every deal solved each counts by it. The solving is bounded by a budget of the
  solver's positions (`NODES_PER_PLAYOUT` per playout allowed) and by the time budget, when
  given; past either, it plays the best mean of the deals solved so far (at least two). A
  five-doubles choice, or a deal too large for the budget, is valued by playing the hand
  out with a fixed, quick policy instead (determinised Monte Carlo, `action_values`).

Why determinised Monte Carlo rather than information-set MCTS: a domino hand is short (at
most 28 actions) and branches little, so one ply of choice over many complete deals already
captures what matters, and every action is compared on the same deals, which removes most
of the noise between them. Its known weakness, strategy fusion (the search may use
knowledge the seat does not have), is real in the exact solves (each plays as if it saw
every tile), but against opponents who play well, seeing their best replies matters more
than what they could not know: measured against the `dominoes` package's players
(benchmarks/bots.py), solving from the first decision beat playing out before 22 tiles.

Results are deterministic for a given `random.Random` seed and playout budget; a time budget,
when given, only ever stops the search early.
"""

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from . import exact, stake
from .exact import numbers_mask, showing, voids_of
from .record import replay, to_record
from .state import (
    ACTIONS,
    AUTO,
    CHOICES,
    DECLARE,
    ENDED,
    PLAY,
    HandState,
    apply,
    legal_actions,
    play_out,
)
from .tiles import ALL, DOUBLES, HI, IS_DOUBLE, LO, PIPS, SUIT, tiles_of

LEVELS = ("easy", "medium", "strong")
DEFAULT_PLAYOUTS = 600
# The strong level solves every deal it cannot tell apart (exact.py) while they are at most
# STRONG_DEALS, else a sample of up to STRONG_SAMPLES of them drawn by how well they explain
# the others' plays (`plausibility`), within its budget of the solver's positions (so many
# per playout it may make); a deal too large for that budget plays out instead.
STRONG_DEALS = 400
STRONG_SAMPLES = 40
NODES_PER_PLAYOUT = 250
# A seat's first decision of a hand, when no clock is set, gets this many times the budget:
# the hidden hands are then at their largest, the budget solves the fewest deals (two or
# three), and the first plays shape the hand (NOTES.md, "The first round of plays").
EARLY_BUDGET = 4
FALLBACK_SHARE = 0.5  # of the time budget, kept for the playouts when solving fails
_PLAY_KIND, _PASS_KIND, _DRAW_KIND = 0, 1, 2


@dataclass(frozen=True, slots=True)
class SeatView:
    """What `seat` knows of a hand: the state with every tile it cannot see blanked."""

    seat: int
    state: HandState  # other seats' hands empty, unseen boneyard tiles -1, no deal
    counts: tuple[int, ...]  # tiles each seat holds
    voids: tuple[int, ...]  # per seat, a mask of the numbers (bit n) it is known not to hold


def seat_view(state: HandState, seat: int) -> SeatView:
    """The hand as `seat` sees it; nothing else reaches a bot."""
    setup = state.setup
    hidden = (-1,) * (len(setup.boneyard) - state.drawn)
    blank = state._replace(
        hands=tuple(h if s == seat else 0 for s, h in enumerate(state.hands)),
        setup=setup._replace(deal=(), boneyard=setup.boneyard[: state.drawn] + hidden),
    )
    return SeatView(
        seat,
        blank,
        tuple(h.bit_count() for h in state.hands),
        voids_of(blank),
    )


def determinise(view: SeatView, rng: random.Random) -> HandState:
    """A full state consistent with everything the seat has seen, hidden tiles dealt at random.

    Seats are dealt their known counts, never a tile of a number they are known not to
    hold; when those facts cannot all be met (they can only conflict through draws), they
    are relaxed rather than refused.
    """
    state = view.state
    setup = state.setup
    seen = state.hands[view.seat]
    for tile, _, _ in state.line:
        seen |= 1 << tile
    unknown = tiles_of(ALL & ~seen)
    others = [s for s in range(len(state.hands)) if s != view.seat]
    known = _known_before_opening(view, unknown, rng)
    unknown = [t for t in unknown if not any(m >> t & 1 for m in known.values())]
    for strict in (True, False):
        hands = _deal_hidden(unknown, others, view, known, rng, strict)
        if hands is not None:
            break
    assert hands is not None, "a deal without the voids always exists"
    rest, assigned = hands
    full = list(state.hands)
    for s, mask in assigned.items():
        full[s] = mask
    bone = tuple(rest[: len(setup.boneyard) - state.drawn])
    return state._replace(
        hands=tuple(full),
        setup=setup._replace(boneyard=setup.boneyard[: state.drawn] + bone),
    )


def _known_before_opening(view: SeatView, unknown: list[int], rng: random.Random) -> dict[int, int]:
    """Before the opening, the seat the rules make open holds what it must open with."""
    state = view.state
    setup = state.setup
    if state.line or setup.opener == view.seat:
        return {}
    if setup.forced >= 0:
        return {setup.opener: 1 << setup.forced}
    if setup.need_double:
        doubles = [t for t in unknown if IS_DOUBLE[t]]
        return {setup.opener: 1 << rng.choice(doubles)} if doubles else {}
    return {}


def _deal_hidden(
    unknown: list[int],
    others: list[int],
    view: SeatView,
    known: dict[int, int],
    rng: random.Random,
    strict: bool,
) -> tuple[list[int], dict[int, int]] | None:
    """Deal `unknown` to the other seats' free places and the rest (boneyard, sleeping
    tiles) at random: a randomised depth-first search, most constrained tile first, so that a
    consistent deal is found whenever one exists (within a bound on the search)."""
    forbidden = {s: numbers_mask(view.voids[s]) if strict else 0 for s in others}
    room = {s: view.counts[s] - known.get(s, 0).bit_count() for s in others}
    room[-1] = len(unknown) - sum(room.values())
    allowed = {
        t: [s for s in others if not forbidden[s] >> t & 1] + ([-1] if room[-1] else [])
        for t in unknown
    }
    order = unknown[:]
    rng.shuffle(order)
    order.sort(key=lambda t: len(allowed[t]))
    assigned = {s: known.get(s, 0) for s in others}
    rest: list[int] = []
    budget = [4000]

    def place(i: int) -> bool:
        if i == len(order):
            return True
        budget[0] -= 1
        if budget[0] < 0:
            return False
        tile = order[i]
        choices = [s for s in allowed[tile] if room[s]]
        if len(choices) > 1:  # (shuffling one seat would draw nothing from rng either)
            rng.shuffle(choices)
            choices.sort(key=lambda s: -room[s])  # fill the roomiest first: fewer dead ends
        for s in choices:
            room[s] -= 1
            if s < 0:
                rest.append(tile)
            else:
                assigned[s] |= 1 << tile
            if place(i + 1):
                return True
            room[s] += 1
            if s < 0:
                rest.pop()
            else:
                assigned[s] ^= 1 << tile
        return False

    if not place(0):
        return None
    rng.shuffle(rest)
    return rest, assigned


# ---------------------------------------------------------------- values and policies


def _value(state: HandState, side: int, before: Sequence[int]) -> float:
    """The points `side` scores from `before` to the end of the hand, against the best other
    side (under scoring by points against, the points it avoids)."""
    gained = [p - b for p, b in zip(state.points, before, strict=True)]
    others = [g for s, g in enumerate(gained) if s != side]
    if state.setup.rules.scoring == "winner":
        return gained[side] - max(others)
    return min(others) - gained[side]


# A play's weight for the playout policy: its pips, and half a pip more for a double.
_WEIGHT = tuple(PIPS[c & 31] + IS_DOUBLE[c & 31] * 0.5 if c & 31 < 28 else 0.0 for c in range(256))


def _heaviest(rng: random.Random) -> Callable[[tuple[Any, ...]], Any]:
    """The playout policy: the heaviest tile (a double first), ties broken at random; it
    keeps the points of a five-doubles choice.

    It reads only the playing seat's own legal actions, as a player would. A `play_out`
    policy: it gets the legal actions as action codes (state.py) and returns one.
    """
    draw = rng.random

    def policy(legal: tuple[Any, ...]) -> Any:  # `play_out` asks only with a choice
        if legal is CHOICES:
            return "points"
        best, best_key = legal[0], -1.0
        for code in legal:
            key = _WEIGHT[code] + draw() * 0.25
            if key > best_key:
                best, best_key = code, key
        return best

    return policy


def playout(state: HandState, rng: random.Random) -> HandState:
    """The hand played to its end by the playout policy (`_heaviest`), in one run of the
    engine's rules loop (`play_out`)."""
    return play_out(state, _heaviest(rng))


def action_values(
    view: SeatView,
    rng: random.Random,
    playouts: int = DEFAULT_PLAYOUTS,
    seconds: float | None = None,
    extra: Sequence[str] = (),
) -> dict[str, float]:
    """The mean result for the seat's side of each legal action (and of `extra` actions),
    over deals consistent with what the seat has seen."""
    state = view.state
    candidates = list(dict.fromkeys(tuple(legal_actions(state)) + tuple(extra)))
    side = state.setup.side[view.seat]
    totals = dict.fromkeys(candidates, 0.0)
    if len(candidates) < 2 and not extra:
        return totals
    deals = max(1, playouts // len(candidates))
    deadline = None if seconds is None else time.perf_counter() + seconds
    done = 0
    for _ in range(deals):
        world = determinise(view, rng)
        seed = rng.random()
        for action in candidates:
            after = apply(world, action)[0]
            totals[action] += _value(playout(after, random.Random(seed)), side, state.points)
        done += 1
        if deadline is not None and time.perf_counter() > deadline:
            break
    return {action: total / done for action, total in totals.items()}


# ---------------------------------------------------------------- what the plays suggest

# How strongly a seat is taken to prefer its heaviest tile, by how many tiles it has played
# in the hand before (its first play tells the most: players shed heavy tiles early).
PLAUSIBILITY = (0.6, 0.3, 0.15)


def _plays_seen(view: SeatView) -> list[tuple[int, int, int, int, float]]:
    """Each play by another seat as evidence: (seat, tile, the tiles that could have
    been played instead (a mask: those fitting the ends then; every tile at an opening),
    the tiles the seat played from then on, the preference's strength)."""
    state = view.state
    setup = state.setup
    n = len(state.hands)
    line = state.line
    nums = [-1, -1, -1, -1]
    spinner = bool(line) and setup.rules.spinner and IS_DOUBLE[line[0][0]]
    covered = [False, False]
    seat, played = setup.opener, 0
    plays: list[tuple[int, int, int]] = []  # (seat, tile, the fitting mask)
    for action in state.actions:
        kind = ACTIONS[action][0]
        if kind != _PLAY_KIND:
            if kind == _PASS_KIND:
                seat = (seat + 1) % n
            continue
        tile, end, outer = line[played]
        played += 1
        if end < 0:
            fits = -1 if setup.forced < 0 else 0  # a forced opening tells nothing
            if setup.need_double:
                fits = DOUBLES
            nums[0], nums[1] = outer, HI[tile] if LO[tile] == outer else LO[tile]
        else:
            fits = 0
            for c in nums:
                if c >= 0:
                    fits |= SUIT[c & 7]
            nums[end] = outer
            if end < 2:
                covered[end] = True
            if spinner and nums[2] < 0 and all(covered):
                nums[2] = nums[3] = LO[line[0][0]]
        if seat != view.seat and fits:
            plays.append((seat, tile, fits))
        seat = (seat + 1) % n
    evidence = []
    later = [0] * n
    for seat, tile, fits in reversed(plays):
        later[seat] |= 1 << tile
        evidence.append((seat, tile, fits, later[seat]))
    evidence.reverse()
    count = [0] * n
    out = []
    for seat, tile, fits, after in evidence:
        k = count[seat]
        count[seat] += 1
        out.append((seat, tile, fits, after, PLAUSIBILITY[min(k, len(PLAUSIBILITY) - 1)]))
    return out


def plausibility(view: SeatView) -> Callable[[HandState], float] | None:
    """How likely a full deal made the other seats' plays, each seat taken to prefer its
    heavier tiles (a softmax over the tiles it could have played, by pips, a double half a
    pip more): a deal where a seat held a heavier tile it could have played instead counts
    less. None when the plays tell nothing."""
    evidence = _plays_seen(view)
    if not evidence or not PLAUSIBILITY:
        return None
    scale = [[math.exp(beta * _WEIGHT[t]) for t in range(28)] for beta in PLAUSIBILITY]
    betas = {beta: i for i, beta in enumerate(PLAUSIBILITY)}
    items = [(s, t, fits, after, scale[betas[beta]]) for s, t, fits, after, beta in evidence]

    def prior(world: HandState) -> float:
        hands = world.hands
        p = 1.0
        for seat, tile, fits, after, exp in items:
            could = (hands[seat] | after) & fits
            total = 0.0
            while could:
                low = could & -could
                total += exp[low.bit_length() - 1]
                could ^= low
            p *= exp[tile] / total
        return p

    return prior


# ---------------------------------------------------------------- the levels


def _easy(view: SeatView, rng: random.Random, **_: Any) -> str:
    return rng.choice(legal_actions(view.state))


def _medium_score(view: SeatView, action: str) -> float:
    state = view.state
    seat = view.seat
    n = len(state.hands)
    if action in CHOICES:  # a five-doubles choice: keep the points
        return float(action == "points")
    kind, tile, _, _ = ACTIONS[action]
    if kind != _PLAY_KIND:
        return 0.0
    side = state.setup.side[seat]
    after, _ = apply(state, action)
    if after.status in ENDED:
        return 1000.0 + after.points[side]  # a domino ends the hand in our favour
    hand = after.hands[seat]
    shown = showing(after.ends)
    numbers = {LO[t] for t in tiles_of(hand)} | {HI[t] for t in tiles_of(hand)}
    follow = sum(1 for t in tiles_of(hand) if (1 << LO[t] | 1 << HI[t]) & shown)
    score = PIPS[tile] + (4.0 if IS_DOUBLE[tile] else 0.0)
    score += 1.5 * len(numbers) + 1.0 * follow
    score += 3.0 * (after.points[side] - state.points[side])
    if state.setup.rules.pairs:
        partner, rival = (seat + 2) % n, (seat + 1) % n
        score += 4.0 * (view.voids[rival] & shown).bit_count()
        score -= 3.0 * (view.voids[partner] & shown).bit_count()
        score += 1.5 * (_led_by(state, partner) & shown).bit_count()
    else:
        score += 4.0 * (view.voids[(seat + 1) % n] & shown).bit_count()
    return score


def _led_by(state: HandState, seat: int) -> int:
    """The numbers `seat` has shown by its plays (the outer halves it left open)."""
    n = len(state.hands)
    mask, turn, played = 0, state.setup.opener, 0
    for action in state.actions:
        kind = ACTIONS[action][0]
        if kind == _PLAY_KIND:
            if turn == seat:
                mask |= 1 << state.line[played][2]
            played += 1
        if kind != _DRAW_KIND:
            turn = (turn + 1) % n
    return mask


def _medium_choice(view: SeatView, actions: Sequence[str], rng: random.Random) -> str:
    scored = [(_medium_score(view, a) + rng.random() * 0.01, a) for a in actions]
    return max(scored)[1]


def _medium(view: SeatView, rng: random.Random, **_: Any) -> str:
    state = view.state
    if state.status == DECLARE:
        return "points"
    actions = legal_actions(state)
    return actions[0] if len(actions) == 1 else _medium_choice(view, actions, rng)


def _strong(
    view: SeatView,
    rng: random.Random,
    playouts: int = DEFAULT_PLAYOUTS,
    seconds: float | None = None,
) -> str:
    actions = legal_actions(view.state)
    if len(actions) == 1:
        return actions[0]
    deadline = None if seconds is None else time.perf_counter() + seconds
    values: dict[str, float] | None = None
    if view.state.status == PLAY:  # solved exactly: every deal while few, else a sample
        budget = playouts * NODES_PER_PLAYOUT
        if seconds is None and len(view.state.line) < len(view.state.hands):
            budget *= EARLY_BUDGET
        valued = exact.value_decision(
            view.state,
            rng,
            counts=view.counts,
            exact_deals=STRONG_DEALS,
            samples=STRONG_SAMPLES,
            nodes=budget,
            limit=budget,
            deadline=deadline,
            prior=plausibility(view),
            utility=stake.utility(view.state, view.seat),
        )
        values = None if valued is None else valued.values
    if values is None:  # a five-doubles choice, or a deal too large for the budget
        # A deal given up may have taken the whole time budget: the playouts still get a
        # share of it (early in a hand, where one deal can outgrow the budget, a move may
        # then take up to half as long again).
        left = None
        if seconds is not None and deadline is not None:
            left = max(seconds * FALLBACK_SHARE, deadline - time.perf_counter())
        values = action_values(view, rng, playouts, left)
    best = max(values.values())
    # Among equal values, the medium bot's rules of thumb break the tie.
    tied = [a for a in actions if values[a] >= best - 1e-9]
    return tied[0] if len(tied) == 1 else _medium_choice(view, tied, rng)


_LEVELS: dict[str, Callable[..., str]] = {"easy": _easy, "medium": _medium, "strong": _strong}


def choose(
    view: SeatView,
    level: str,
    rng: random.Random,
    playouts: int = DEFAULT_PLAYOUTS,
    seconds: float | None = None,
) -> str:
    """The action a bot of `level` makes for the seat to act, from that seat's view only."""
    if view.state.status not in (PLAY, DECLARE) or view.state.turn != view.seat:
        raise ValueError("it is not this seat's turn")
    return _LEVELS[level](view, rng, playouts=playouts, seconds=seconds)


def bot_action(state: HandState, rng: random.Random, level: str = "easy", **budget: Any) -> str:
    """The action of a bot of `level` for the seat to act; the bot sees only its seat's view."""
    return choose(seat_view(state, state.turn), level, rng, **budget)


# ---------------------------------------------------------------- analysis of a finished hand


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One decision of a finished hand, valued from what its seat knew then."""

    index: int  # the action's index in the hand's actions
    seat: int
    action: str
    best: str
    value: float  # the expected points of the action for the seat's side
    best_value: float
    exposed: int | None  # a number the action left open that the best action did not
    method: str = "estimated"  # exact (every deal solved), sampled, or estimated (playouts)
    error: float = 0.0  # the standard error of the cost (sampled deals)
    deals: int = 0  # deals solved

    @property
    def cost(self) -> float:
        return max(0.0, self.best_value - self.value)

    def as_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seat": self.seat,
            "action": self.action,
            "best": self.best,
            "value": round(self.value, 2),
            "best_value": round(self.best_value, 2),
            "cost": round(self.cost, 2),
            "exposed": self.exposed,
            "method": self.method,
            "error": round(self.error, 2),
            "deals": self.deals,
        }


COSTLY = 2.0  # expected points: below this, a move is not marked as costly
REVIEW_NODES = 60_000  # the solver's positions per decision of a review (about half a second)


def _ends_after(state: HandState, action: str) -> int:
    return showing(apply(state, action)[0].ends)


def review_hand(
    final: HandState,
    rng: random.Random,
    playouts: int = 300,
    progress: Callable[[int, int], None] | None = None,
    nodes: int = REVIEW_NODES,
) -> dict[str, Any]:
    """Every decision of a finished hand valued against the best available one.

    Each decision (an action chosen among several legal ones, or a five-doubles choice) is
    valued from that seat's view at the time, so a move is judged only on what the seat
    could know: by the solver over every deal the seat could not tell apart (exact.py;
    `nodes` bounds the positions searched per decision, and a budget that runs out leaves
    a uniform sample of the deals), else by `playouts` (a five-doubles choice, or a deal
    too large to solve within the budget). Returns the reviews, the costliest moves (at least
    `COSTLY` expected points lost) and the verdict: the move that lost the hand (the
    costliest that turned the losing side's expected win into a loss, else the costliest),
    or None when no move cost much.
    """
    if final.status not in ENDED:
        raise ValueError("the hand has not ended")
    start = replay({**to_record(final), "declarations": [], "actions": []})
    steps = [choice for _, choice in final.declarations] + list(final.actions)
    decisions = []
    state = start
    for i, action in enumerate(steps):
        legal = legal_actions(state)
        if len(legal) > 1:
            decisions.append((i, state, action))
        state = apply(state, action)[0]
    reviews = []
    for done, (i, before, action) in enumerate(decisions):
        chosen = action.removesuffix(AUTO)
        valued = None
        if before.status == PLAY:
            valued = exact.value_decision(before, rng, nodes=nodes, limit=nodes)
        if valued is not None:
            values, best, error = valued.values, valued.best, valued.errors[chosen]
            method, deals = "exact" if valued.exact else "sampled", valued.deals
        else:  # a five-doubles choice, or a deal too large to solve: playouts
            view = seat_view(before, before.turn)
            values = action_values(view, rng, playouts, extra=(chosen,))
            best = max(legal_actions(before), key=lambda a: values[a])
            method, error, deals = "estimated", 0.0, 0
        exposed = None
        if before.status == PLAY and values[best] - values[chosen] >= COSTLY:
            fresh = _ends_after(before, chosen) & ~_ends_after(before, best)
            exposed = fresh.bit_length() - 1 if fresh else None
        index = i - len(final.declarations)
        reviews.append(
            MoveReview(
                index,
                before.turn,
                chosen,
                best,
                values[chosen],
                values[best],
                exposed,
                method,
                error,
                deals,
            )
        )
        if progress is not None:
            progress(done + 1, len(decisions))
    costly = sorted((r for r in reviews if r.cost >= COSTLY), key=lambda r: -r.cost)
    # Where the hand was lost: the costliest move of the losing side that turned an
    # expected win into an expected loss; else the costliest move of all.
    winner = final.result.winner_side if final.result is not None else None
    turning = [
        r
        for r in costly
        if winner is not None and final.setup.side[r.seat] != winner and r.value < 0 <= r.best_value
    ]
    verdict = next(iter(turning or costly), None)
    return {
        "moves": [r.as_dict() for r in reviews],
        "costly": [r.index for r in costly[:3]],
        "verdict": None if verdict is None else verdict.as_dict(),
    }
