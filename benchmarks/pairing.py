"""Pairing benchmark: whist schedules, and one Swiss and one rotating-partner round after 9
rounds of history.

Run `python benchmarks/pairing.py` (about a minute; the exact Swiss optimum at 256 entrants
takes most of it). The history is simulated with the pairers themselves and random results
(league.pairing.simulation); the 10th round's pairing call is then timed on its own (wall
clock, best of 3) and checked for repeats. The Swiss round at 256 entrants is compared with the
exact optimum over every pair (networkx on the complete graph) on the criteria that dominate:
rematches, the bye, score-group integrity (sum of squared score-group distances).
Targets: a whist schedule in under 2 s; 1,024 entrants paired in under 1 s with no rematch
and no repeated partner. `python benchmarks/pairing.py --whist` runs the whist part alone.

Measured on the shared 2-core machine (December 2026, best of 3, wall clock): whist for 24,
32, 48 and 64 players in about 1, 2, 10 and 17 ms (CPU 1, 1, 3 and 6 ms); the schedules are
built from base rounds shipped as data (league/pairing/_whist_rounds.py), so no count takes
longer.
"""

import sys
import time
from collections import deque
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from league.pairing import (  # noqa: E402
    WhistScheduleError,
    pair_rotating,
    pair_swiss,
    repeats,
    swiss,
    whist_schedule,
)
from league.pairing.simulation import rotating_event, swiss_event  # noqa: E402

HISTORY = 9
SIZES = (256, 1024)
WHIST_SIZES = (24, 32, 48, 64)
COMPARED = 256


def best_time(call):
    """Best wall-clock and best CPU time of three calls, and the call's result. On a shared,
    loaded machine the CPU time is the fairer figure: the wall clock also counts the time the
    process waited for a core."""
    times, cpu = [], []
    for _ in range(3):
        start, started = time.perf_counter(), time.process_time()
        result = call()
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - started)
    return min(times), min(cpu), result


def integrity(entrants, result) -> int:
    groups = sorted({e.score for e in entrants}, reverse=True)
    group = {e.id: groups.index(e.score) for e in entrants}
    return sum((group[a] - group[b]) ** 2 for a, b in result.pairings)


def main(whist_only: bool = False) -> None:
    print("Whist schedule (all rounds)\n")
    print(f"{'players':>7} {'time (s)':>9} {'cpu (s)':>8} {'rounds':>6}")
    for size in WHIST_SIZES:
        try:
            seconds, cpu, rounds = best_time(partial(whist_schedule, list(range(size))))
            print(f"{size:>7} {seconds:>9.4f} {cpu:>8.4f} {len(rounds):>6}")
        except WhistScheduleError:
            print(f"{size:>7} {'none on hand':>16}")
    if whist_only:
        return

    print(f"\nOne round after {HISTORY} rounds of simulated history (random results)\n")
    print(
        f"{'system':<9} {'size':>5} {'time (s)':>9} {'cpu (s)':>8} {'rematches':>9}"
        f" {'rep. partners':>13}"
        f" {'rep. opponents':>14}"
    )
    histories = {}
    for size in SIZES:
        ((entrants, _),) = deque(swiss_event(size, HISTORY + 1, seed=size), maxlen=1)
        histories[size] = entrants
        seconds, cpu, result = best_time(partial(pair_swiss, entrants))
        print(
            f"{'swiss':<9} {size:>5} {seconds:>9.3f} {cpu:>8.3f} {result.rematches:>9}"
            f" {'-':>13} {'-':>14}"
        )
    for size in SIZES:
        ((players, round_),) = deque(rotating_event(size, HISTORY + 1, seed=size), maxlen=1)
        seconds, cpu, round_ = best_time(partial(pair_rotating, players))
        partners, opponents = repeats(round_, players)
        print(
            f"{'rotating':<9} {size:>5} {seconds:>9.3f} {cpu:>8.3f} {'-':>9}"
            f" {partners:>13} {opponents:>14}"
        )

    entrants = histories[COMPARED]
    fast = pair_swiss(entrants)
    limit, swiss.EXACT_FIELD = swiss.EXACT_FIELD, 10**6
    try:
        start = time.perf_counter()
        exact = pair_swiss(entrants)
        exact_seconds = time.perf_counter() - start
    finally:
        swiss.EXACT_FIELD = limit
    print(f"\nSwiss at {COMPARED} entrants against the exact optimum ({exact_seconds:.1f} s)\n")
    print(f"{'':<9} {'rematches':>9} {'bye':>5} {'integrity':>9}")
    for name, result in (("paired", fast), ("optimum", exact)):
        print(
            f"{name:<9} {result.rematches:>9} {str(result.bye):>5} {integrity(entrants, result):>9}"
        )


if __name__ == "__main__":
    main(whist_only="--whist" in sys.argv[1:])
