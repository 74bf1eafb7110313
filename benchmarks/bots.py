"""Bot benchmark: matches to the target, one pair of a level against another.

Seats 0 and 2 play one level, seats 1 and 3 the other. Prints the first pair's match-win rate
with a 95% Wilson interval, and the mean time per move of each level (CPU time, one core).
The levels are the engine's (easy, medium, strong) and `dominoes`: the `dominoes` package's
`probabilistic_alphabeta` player (it samples the hands the others could hold and runs its
alpha-beta search in each; before `--dominoes-start` moves, where its search takes minutes,
it plays the heaviest tile, the package's `bota_gorda`), which plays the tournament rules:
a pairing with it is played at the tournament preset, the others at `dominican` (`--rules`).

    python benchmarks/bots.py                      # the three pairings, 1,000 matches each
    python benchmarks/bots.py --matches 50 --pairing strong:easy --playouts 300
    python benchmarks/bots.py --matches 40 --pairing strong:dominoes --dominoes-samples 8
    python benchmarks/bots.py --processes 2        # the matches shared out over two cores

Each match has its own seed, so the figures do not depend on how many processes play them.

Targets: strong v easy >= 75%, strong v medium >= 58%, medium v easy >= 65% (issue #21);
strong v dominoes >= 75% at the tournament preset (issue #27).
"""

import argparse
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import dominoes  # noqa: E402

from games.engine import (  # noqa: E402
    ENDED,
    PRESETS,
    apply,
    bot_action,
    finish_hand,
    legal_actions,
    new_match,
    start_hand,
)
from games.engine.state import ACTIONS  # noqa: E402
from games.engine.tiles import HI, LO, TILE_ID, other_half, tiles_of  # noqa: E402

TARGETS = {
    ("strong", "easy"): 0.75,
    ("strong", "medium"): 0.58,
    ("medium", "easy"): 0.65,
    ("strong", "dominoes"): 0.75,
}


def dominoes_action(state, samples: int, start: int) -> str:
    """The `dominoes` package's probabilistic_alphabeta move for the seat to act: the hand
    rebuilt as a `dominoes.Game` (its board, hands and moves, passes included), the player's
    first preferred move named as an engine action."""
    legal = legal_actions(state)
    if len(legal) == 1:
        return legal[0]
    hands = [
        dominoes.Hand([dominoes.Domino(LO[t], HI[t]) for t in tiles_of(h)]) for h in state.hands
    ]
    board, moves, played = dominoes.Board(), [], 0
    for action in state.actions:
        if ACTIONS[action][0] != ACTIONS["5-4"][0]:
            moves.append(None)
            continue
        tile, end, outer = state.line[played]
        played += 1
        if end < 0:
            move = (dominoes.Domino(outer, other_half(tile, outer)), True)
        else:
            move = (dominoes.Domino(LO[tile], HI[tile]), end == 0)
        board.add(*move)
        moves.append(move)
    game = dominoes.Game(board, hands, moves, state.turn, (), state.setup.opener, None)
    if state.line:
        game._update_valid_moves()
    else:
        game.valid_moves = tuple((d, True) for d in hands[state.turn])
    dominoes.players.bota_gorda(game)  # the heaviest first, until the search takes over
    dominoes.players.probabilistic_alphabeta(start_move=start, sample_size=samples)(game)
    domino, left = game.valid_moves[0]
    name = f"{domino.first}-{domino.second}"
    if not state.line:
        return next(a for a in legal if TILE_ID[a] == TILE_ID[name])
    wanted = f"@{'left' if left else 'right'}"
    fits = [a for a in legal if TILE_ID[a.split("@")[0]] == TILE_ID[name]]
    return next((a for a in fits if a.endswith(wanted)), fits[0])


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if not n:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def play_match(levels, rng, playouts, clock, rules="dominican", samples=8, start=4):
    """One match; returns the winning side. `clock[level]` gathers (seconds, moves)."""
    match = new_match(PRESETS[rules])
    while not match.over:
        state = start_hand(match, rng)
        while state.status not in ENDED:
            level = levels[state.turn % 2]
            start_time = time.process_time()
            if level == "dominoes":
                action = dominoes_action(state, samples, start)
            else:
                action = bot_action(state, rng, level, playouts=playouts)
            spent, moves = clock[level]
            clock[level] = (spent + time.process_time() - start_time, moves + 1)
            state = apply(state, action)[0]
        match = finish_hand(match, state)
    return match.winner


def play_one(
    seed: int,
    first: str,
    second: str,
    m: int,
    *,
    playouts: int,
    rules: str,
    samples: int,
    start: int,
) -> tuple[bool, dict]:
    """Match `m` of a pairing: whether the first level's pair won it, and the move clock.
    The pairs change seats every match, so neither level keeps seat 0's luck."""
    rng = random.Random(f"{seed}:{first}:{second}:{m}")
    clock = {first: (0.0, 0), second: (0.0, 0)}
    levels = (first, second) if m % 2 == 0 else (second, first)
    if "dominoes" in levels:
        rules = "tournament"  # the rules the package plays
    winner = play_match(levels, rng, playouts, clock, rules, samples, start)
    return winner == (0 if m % 2 == 0 else 1), clock


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--playouts", type=int, default=600, help="strong's playouts per move")
    parser.add_argument("--pairing", action="append", help="LEVEL:LEVEL (repeatable)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--rules", default="dominican", help="the preset (dominoes: tournament)")
    parser.add_argument(
        "--dominoes-samples", type=int, default=8, help="hands probabilistic_alphabeta samples"
    )
    parser.add_argument(
        "--dominoes-start",
        type=int,
        default=4,
        help="the move from which it searches (before: the heaviest tile, bota_gorda)",
    )
    parser.add_argument(
        "--progress", type=int, default=0, metavar="N", help="also print the rate every N matches"
    )
    args = parser.parse_args()
    pairings = [tuple(p.split(":")) for p in args.pairing] if args.pairing else list(TARGETS)
    print(
        f"{args.rules} preset (tournament against dominoes), {args.matches} matches per "
        f"pairing, strong: {args.playouts} playouts, dominoes: {args.dominoes_samples} samples"
    )
    print(f"{'pairing':<18}{'win rate':>9}  {'95% CI':<15}{'target':>7}  ms/move (first, second)")
    with ProcessPoolExecutor(args.processes) as pool:
        for first, second in pairings:
            clock = {first: [0.0, 0], second: [0.0, 0]}
            wins = 0
            match = partial(
                play_one,
                args.seed,
                first,
                second,
                playouts=args.playouts,
                rules=args.rules,
                samples=args.dominoes_samples,
                start=args.dominoes_start,
            )
            played = pool.map(match, range(args.matches), chunksize=1)
            for m, (won, spent) in enumerate(played, start=1):
                wins += won
                for level, (seconds, moves) in spent.items():
                    clock[level][0] += seconds
                    clock[level][1] += moves
                if args.progress and m % args.progress == 0 and m < args.matches:
                    low, high = wilson(wins, m)
                    so_far = [1000 * s / max(1, n) for s, n in (clock[first], clock[second])]
                    print(
                        f"  after {m}: {wins / m:.1%} [{low:.1%}, {high:.1%}]  "
                        f"ms/move {so_far[0]:.1f}, {so_far[1]:.1f}",
                        flush=True,
                    )
            low, high = wilson(wins, args.matches)
            target = TARGETS.get((first, second))
            per_move = [1000 * s / max(1, n) for s, n in (clock[first], clock[second])]
            print(
                f"{first + ' v ' + second:<18}{wins / args.matches:>8.1%}  "
                f"[{low:.1%}, {high:.1%}]{'' if target is None else f'{target:>7.0%}':>8}  "
                f"{per_move[0]:.1f}, {per_move[1]:.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
