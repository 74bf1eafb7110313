"""Engine benchmark: random legal play per preset, adjudication, and the `dominoes` package.

Run `python benchmarks/engine.py`. Each loop runs in several interleaved slices and is timed
in CPU time of this process, so other load on the machine disturbs the ratios little.
"""

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import dominoes  # noqa: E402

from games.engine import (  # noqa: E402
    ENDED,
    PRESETS,
    adjudicate,
    apply,
    legal_actions,
    new_hand,
    to_record,  # noqa: E402
)

SLICE = 0.25  # CPU seconds per slice
ROUNDS = 4


def play_ours(rules, rng):
    state = new_hand(rules, rng=rng)
    while state.status not in ENDED:
        state = apply(state, rng.choice(legal_actions(state)))[0]
    return state


def play_reference(_rules, _rng):
    game = dominoes.Game.new()
    while game.result is None:
        game.make_move(*random.choice(game.valid_moves))
    return game


def rate(loop, *args):
    """Calls per CPU second of loop(*args) over one slice."""
    n, start = 0, time.process_time()
    while (elapsed := time.process_time() - start) < SLICE:
        loop(*args)
        n += 1
    return n, elapsed


def main() -> None:
    rng = random.Random(2024)
    records = [to_record(play_ours(PRESETS["dominican"], rng)) for _ in range(500)]
    records += [to_record(play_ours(PRESETS[p], rng)) for p in PRESETS for _ in range(100)]
    cursor = iter(range(10**12))

    def adjudicate_next(_r, _g):
        ruling = adjudicate(records[next(cursor) % len(records)])
        assert ruling["valid"]

    loops = {f"play {name}": (play_ours, rules) for name, rules in PRESETS.items()}
    loops["play dominoes (reference)"] = (play_reference, None)
    loops["adjudicate records"] = (adjudicate_next, None)
    totals = {name: [0, 0.0] for name in loops}
    for _ in range(ROUNDS):
        for name, (loop, rules) in loops.items():
            n, elapsed = rate(loop, rules, rng)
            totals[name][0] += n
            totals[name][1] += elapsed
    per_second = {name: n / t for name, (n, t) in totals.items()}
    reference = per_second["play dominoes (reference)"]
    print(f"{'loop':32} {'per second':>12} {'vs dominoes':>12}")
    for name, value in per_second.items():
        ratio = f"{value / reference:.2f}x" if name.startswith("play") else ""
        unit = "records" if name.startswith("adjudicate") else "hands"
        print(f"{name:32} {value:>12,.0f} {ratio:>12}  {unit}")
    mean = sum(len(r["actions"]) for r in records) / len(records)
    print(f"(records: {len(records)}, {mean:.1f} actions each on average; CPU time)")


if __name__ == "__main__":
    main()
