"""Bot benchmark: matches to the target under `dominican`, one pair of a level against another.

Seats 0 and 2 play one level, seats 1 and 3 the other. Prints the first pair's match-win rate
with a 95% Wilson interval, and the mean time per move of each level (CPU time, one core).

    python benchmarks/bots.py                      # the three pairings, 1,000 matches each
    python benchmarks/bots.py --matches 50 --pairing strong:easy --playouts 300
    python benchmarks/bots.py --processes 2        # the matches shared out over two cores

Each match has its own seed, so the figures do not depend on how many processes play them.

Targets (issue #21): strong v easy >= 75%, strong v medium >= 58%, medium v easy >= 65%.
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

from games.engine import (  # noqa: E402
    ENDED,
    PRESETS,
    apply,
    bot_action,
    finish_hand,
    new_match,
    start_hand,
)

TARGETS = {("strong", "easy"): 0.75, ("strong", "medium"): 0.58, ("medium", "easy"): 0.65}


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if not n:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def play_match(levels, rng, playouts, clock):
    """One match; returns the winning side. `clock[level]` gathers (seconds, moves)."""
    match = new_match(PRESETS["dominican"])
    while not match.over:
        state = start_hand(match, rng)
        while state.status not in ENDED:
            level = levels[state.turn % 2]
            start = time.process_time()
            action = bot_action(state, rng, level, playouts=playouts)
            spent, moves = clock[level]
            clock[level] = (spent + time.process_time() - start, moves + 1)
            state = apply(state, action)[0]
        match = finish_hand(match, state)
    return match.winner


def play_one(seed: int, first: str, second: str, m: int, *, playouts: int) -> tuple[bool, dict]:
    """Match `m` of a pairing: whether the first level's pair won it, and the move clock.
    The pairs change seats every match, so neither level keeps seat 0's luck."""
    rng = random.Random(f"{seed}:{first}:{second}:{m}")
    clock = {first: (0.0, 0), second: (0.0, 0)}
    levels = (first, second) if m % 2 == 0 else (second, first)
    winner = play_match(levels, rng, playouts, clock)
    return winner == (0 if m % 2 == 0 else 1), clock


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--playouts", type=int, default=600, help="strong's playouts per move")
    parser.add_argument("--pairing", action="append", help="LEVEL:LEVEL (repeatable)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument(
        "--progress", type=int, default=0, metavar="N", help="also print the rate every N matches"
    )
    args = parser.parse_args()
    pairings = [tuple(p.split(":")) for p in args.pairing] if args.pairing else list(TARGETS)
    print(f"dominican preset, {args.matches} matches per pairing, strong: {args.playouts} playouts")
    print(f"{'pairing':<18}{'win rate':>9}  {'95% CI':<15}{'target':>7}  ms/move (first, second)")
    with ProcessPoolExecutor(args.processes) as pool:
        for first, second in pairings:
            clock = {first: [0.0, 0], second: [0.0, 0]}
            wins = 0
            match = partial(play_one, args.seed, first, second, playouts=args.playouts)
            played = pool.map(match, range(args.matches), chunksize=4)
            for m, (won, spent) in enumerate(played, start=1):
                wins += won
                if args.progress and m % args.progress == 0 and m < args.matches:
                    low, high = wilson(wins, m)
                    print(f"  after {m}: {wins / m:.1%} [{low:.1%}, {high:.1%}]", flush=True)
                for level, (seconds, moves) in spent.items():
                    clock[level][0] += seconds
                    clock[level][1] += moves
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
