"""Pairing benchmark: one Swiss round and one rotating-partner round after 9 rounds of history.

Run `python benchmarks/pairing.py` (about 20 s). The history is simulated with the pairers
themselves and random results (league.pairing.simulation); the 10th round's pairing call is
then timed on its own (wall clock, best of 3) and checked for repeats. Target: 1,024 entrants
in under 2 s with no rematch and no repeated partner.
"""

import sys
import time
from collections import deque
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from league.pairing import pair_rotating, pair_swiss, repeats  # noqa: E402
from league.pairing.simulation import rotating_event, swiss_event  # noqa: E402

HISTORY = 9
SIZES = (64, 256, 1023, 1024)


def best_time(call):
    """Best wall-clock time of three calls, and the call's result."""
    times = []
    for _ in range(3):
        start = time.perf_counter()
        result = call()
        times.append(time.perf_counter() - start)
    return min(times), result


def main() -> None:
    print(f"One round after {HISTORY} rounds of simulated history (random results)\n")
    print(
        f"{'system':<9} {'size':>5} {'time (s)':>9} {'rematches':>9} {'rep. partners':>13}"
        f" {'rep. opponents':>14}"
    )
    for size in SIZES:
        ((entrants, _),) = deque(swiss_event(size, HISTORY + 1, seed=size), maxlen=1)
        seconds, result = best_time(partial(pair_swiss, entrants))
        print(f"{'swiss':<9} {size:>5} {seconds:>9.3f} {result.rematches:>9} {'-':>13} {'-':>14}")
    for size in SIZES:
        ((players, round_),) = deque(rotating_event(size, HISTORY + 1, seed=size), maxlen=1)
        seconds, round_ = best_time(partial(pair_rotating, players))
        partners, opponents = repeats(round_, players)
        print(f"{'rotating':<9} {size:>5} {seconds:>9.3f} {'-':>9} {partners:>13} {opponents:>14}")


if __name__ == "__main__":
    main()
