"""The strong level's first decisions of a hand, against a costly reference valuation.

Positions: the first decision of each seat in hands of medium play at the tournament preset
(the first round of plays, 25 to 28 tiles in the hands), where the seat has a choice. The
reference values each legal action by the mean exact result over `--reference` deals drawn
as the strong level draws them (`exact.value_decision` with `bots.plausibility`, no budget).
Each way of deciding, with its own seed, then chooses a move, and the reference says what
that choice cost: its value below the reference's best, in points, and how often it was the
reference's best move.

- `budget`: the strong level's solving budget (600 playouts' worth of positions), the
  playouts when a deal is too large for it, as `_strong` does;
- `early budget`: the same with `bots.EARLY_BUDGET` times the positions (what the strong
  level now spends on its first decision when no clock is set);
- `playouts`: the playouts alone (the heaviest-tile policy over many deals).

    python benchmarks/early_decisions.py [--hands 30] [--reference 24] [--processes 2]

The last line, for scripts:
`early decisions: loss B at the budget, E at the early budget, P by playouts (points)`
"""

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import (  # noqa: E402
    PRESETS,
    apply,
    bot_action,
    bots,
    exact,
    legal_actions,
    new_match,
    start_hand,
)
from games.engine.bots import SeatView, action_values, plausibility, seat_view  # noqa: E402
from games.engine.state import ENDED, PLAY, HandState  # noqa: E402

PLAYOUTS = 600
WAYS = ("budget", "early budget", "playouts")


def first_decisions(hands: int, seed: int) -> list[HandState]:
    """Each seat's first decision of `hands` hands of medium play, where it has a choice."""
    rng = random.Random(seed)
    found = []
    for _ in range(hands):
        state = start_hand(new_match(PRESETS["tournament"]), rng)
        seen: set[int] = set()
        while state.status not in ENDED and len(seen) < len(state.hands):
            if state.status == PLAY and state.turn not in seen:
                seen.add(state.turn)
                if len(legal_actions(state)) > 1:
                    found.append(state)
            state = apply(state, bot_action(state, rng, "medium"))[0]
    return found


def solved(view: SeatView, rng: random.Random, nodes: int | None, deals: int) -> dict | None:
    valued = exact.value_decision(
        view.state,
        rng,
        counts=view.counts,
        exact_deals=bots.STRONG_DEALS,
        samples=deals,
        nodes=nodes,
        limit=nodes or 10**9,
        prior=plausibility(view),
    )
    return None if valued is None else valued.values


def judge(job: tuple[int, HandState, int]) -> dict:
    """The reference's values of one position and each way's choice."""
    i, state, reference = job
    view = seat_view(state, state.turn)
    started = time.process_time()
    values = solved(view, random.Random(10_000 + i), None, reference)
    assert values is not None
    spent = time.process_time() - started
    budget = PLAYOUTS * bots.NODES_PER_PLAYOUT
    played = action_values(view, random.Random(30_000 + i), PLAYOUTS)
    choices = {}
    for way, nodes, seed in (
        ("budget", budget, 20_000),
        ("early budget", budget * bots.EARLY_BUDGET, 40_000),
    ):
        found = solved(view, random.Random(seed + i), nodes, bots.STRONG_SAMPLES) or played
        choices[way] = max(found, key=found.__getitem__)
    choices["playouts"] = max(played, key=played.__getitem__)
    return {"values": values, "choices": choices, "seconds": spent}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--reference", type=int, default=24, help="deals the reference solves")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=777)
    args = parser.parse_args()
    positions = first_decisions(args.hands, args.seed)
    print(
        f"{len(positions)} first decisions of {args.hands} hands; reference: {args.reference} deals"
    )
    jobs = [(i, state, args.reference) for i, state in enumerate(positions)]
    with ProcessPoolExecutor(args.processes) as pool:
        judged = list(pool.map(judge, jobs, chunksize=1))
    losses = {}
    for way in WAYS:
        lost, best_found = 0.0, 0
        for result in judged:
            values = result["values"]
            best = max(values.values())
            lost += best - values[result["choices"][way]]
            best_found += values[result["choices"][way]] >= best - 1e-9
        losses[way] = lost / len(judged)
        print(
            f"{way:<14} loss {losses[way]:5.2f} points a decision, "
            f"the reference's best move {best_found / len(judged):.1%}"
        )
    seconds = sum(r["seconds"] for r in judged) / len(judged)
    print(f"(the reference took {seconds:.1f} CPU s a position)")
    print(
        f"early decisions: loss {losses['budget']:.2f} at the budget, "
        f"{losses['early budget']:.2f} at the early budget, {losses['playouts']:.2f} by playouts "
        "(points)"
    )


if __name__ == "__main__":
    main()
