"""Pairing benchmark: whist schedules, then one Swiss round and one rotating-partner round at
16 to 1,024 entrants, each against a peer measured in the same run.

Run `python benchmarks/pairing.py` (about two minutes on the shared 2-core machine; `--whist`
runs the whist part alone, `--stuck` the stuck Swiss rounds alone, `--exact-up-to N` compares
Swiss with the complete graph up to N entrants, 128 by default: that peer takes seconds at 128
and minutes from 512 on).

- Swiss: the 10th round after 9 simulated rounds (random results, league.pairing.simulation).
  The peer is networkx's blossom algorithm on the complete graph with the same four criteria
  (tests/pairing/test_swiss.py `exact_optimum`); the round must reach its optimum on all four
  ("optimal"). Targets: 1,024 entrants in 0.2 s, no rematch.
- Swiss, stuck: round 6 of 512 and 1,024 entrants whose two smallest score groups have all met
  among themselves (tests/pairing/test_swiss.py `stuck_field`), so that they float more than
  the bound of criterion 3 and the round is matched exactly over every pair, with its proof
  (league.pairing._matching.proven_matching). The peer is the ordinary round 6 of the same
  event (without those meetings); the ratio is stuck / ordinary.
- Rotating partners: the 10th round, and up to 64 players a late one (round (n - 1) // 2,
  the last that any field of n players can play without a repeated opponent, where fresh
  seatings run out). The peer is the two global matchings (partnerships, then tables of
  partnerships; networkx through league.pairing._matching) that seated the rounds before
  issue 32; both rounds' repeats are shown. Target: no repeat while a round without one
  exists (the tests prove that up to 64 players).

Times are CPU seconds, best of 3 (on a shared, loaded machine the CPU time is the fairer
figure: the wall clock also counts the time the process waited for a core), and ratios are
ours / peer's. The last line is one JSON object with every figure.
"""

import json
import os
import sys
import time
from collections import deque
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from league.pairing import (  # noqa: E402
    RotatingRound,
    WhistScheduleError,
    pair_rotating,
    pair_swiss,
    repeats,
    rotating,
    swiss,
    whist_schedule,
)
from league.pairing.simulation import rotating_event, swiss_event  # noqa: E402
from tests.pairing.test_swiss import exact_optimum, stated_cost, stuck_field  # noqa: E402

HISTORY = 9
SIZES = (16, 32, 64, 128, 256, 512, 1024)
STUCK_SIZES = (512, 1024)
WHIST_SIZES = (24, 32, 48, 64)
EXACT_UP_TO = 128


def best_time(call):
    """Best CPU time of three calls, and the call's result."""
    cpu = []
    for _ in range(3):
        started = time.process_time()
        result = call()
        cpu.append(time.process_time() - started)
    return min(cpu), result


def two_matchings(players) -> RotatingRound:
    """The peer: partnerships by one matching, then tables by another."""

    def partnered(u: int, v: int) -> bool:
        return players[v].id in players[u].partners or players[u].id in players[v].partners

    tables = rotating._proposal(list(range(len(players))), players, partnered)
    return RotatingRound(
        tables=tuple(
            ((players[a].id, players[c].id), (players[b].id, players[d].id))
            for (a, c), (b, d) in tables
        )
    )


def whist_figures() -> list[dict]:
    print("Whist schedule (all rounds)\n")
    print(f"{'players':>7} {'cpu (s)':>8} {'rounds':>6}")
    rows = []
    for size in WHIST_SIZES:
        try:
            cpu, rounds = best_time(partial(whist_schedule, list(range(size))))
        except WhistScheduleError:
            print(f"{size:>7} {'none on hand':>15}")
            continue
        print(f"{size:>7} {cpu:>8.4f} {len(rounds):>6}")
        rows.append({"players": size, "cpu": round(cpu, 4), "rounds": len(rounds)})
    return rows


def swiss_figures(exact_up_to: int) -> list[dict]:
    print(f"\nSwiss: round {HISTORY + 1} after {HISTORY} simulated rounds\n")
    print(
        f"{'entrants':>8} {'cpu (s)':>8} {'peer (s)':>9} {'ratio':>7} {'rematches':>9}"
        f" {'optimal':>8}"
    )
    rows = []
    for size in SIZES:
        ((entrants, _),) = deque(swiss_event(size, HISTORY + 1, seed=size), maxlen=1)
        cpu, result = best_time(partial(pair_swiss, entrants))
        row = {"entrants": size, "cpu": round(cpu, 4), "rematches": result.rematches}
        if size <= exact_up_to:
            started = time.process_time()
            optimum = exact_optimum(entrants)
            peer = time.process_time() - started
            row |= {
                "peer_cpu": round(peer, 4),
                "ratio": round(cpu / peer, 4),
                "optimal": stated_cost(entrants, result.pairings, result.bye) == optimum,
            }
        print(
            f"{size:>8} {cpu:>8.3f} {row.get('peer_cpu', '-'):>9} {row.get('ratio', '-'):>7}"
            f" {result.rematches:>9} {str(row.get('optimal', '-')):>8}"
        )
        rows.append(row)
    return rows


def swiss_stuck_figures() -> list[dict]:
    print("\nSwiss, stuck: round 6 with the two smallest score groups all met already\n")
    print(f"{'entrants':>8} {'cpu (s)':>8} {'ordinary (s)':>12} {'ratio':>7} {'proven':>6}")
    rows = []
    for size in STUCK_SIZES:
        entrants = stuck_field(size, seed=size)
        ((ordinary, _),) = deque(swiss_event(size, 6, seed=size), maxlen=1)
        cpu, _ = best_time(partial(pair_swiss, entrants))
        peer, _ = best_time(partial(pair_swiss, ordinary))
        proven = takes_the_proof(entrants)
        print(f"{size:>8} {cpu:>8.3f} {peer:>12.3f} {cpu / peer:>7.1f} {proven!s:>6}")
        rows.append(
            {
                "entrants": size,
                "cpu": round(cpu, 4),
                "ordinary_cpu": round(peer, 4),
                "ratio": round(cpu / peer, 2),
                "proven": proven,
            }
        )
    return rows


def takes_the_proof(entrants) -> bool:
    """Whether the round is matched by the exact, proven matching (it was stuck)."""
    calls = []
    real = swiss.proven_matching

    def counted(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    swiss.proven_matching = counted
    try:
        pair_swiss(entrants)
    finally:
        swiss.proven_matching = real
    return bool(calls)


def rotating_figures() -> list[dict]:
    print("\nRotating partners: one round after the rounds before it (simulated)\n")
    print(
        f"{'players':>7} {'round':>5} {'cpu (s)':>8} {'peer (s)':>9} {'ratio':>7}"
        f" {'repeats':>8} {'peer repeats':>12}"
    )
    rows = []
    for size in SIZES:
        for number in (HISTORY + 1, (size - 1) // 2) if size <= 64 else (HISTORY + 1,):
            ((players, _),) = deque(rotating_event(size, number, seed=size), maxlen=1)
            cpu, round_ = best_time(partial(pair_rotating, players))
            peer, peer_round = best_time(partial(two_matchings, players))
            ours, theirs = repeats(round_, players), repeats(peer_round, players)
            print(
                f"{size:>7} {number:>5} {cpu:>8.3f} {peer:>9.3f} {cpu / peer:>7.2f}"
                f" {'/'.join(map(str, ours)):>8} {'/'.join(map(str, theirs)):>12}"
            )
            rows.append(
                {
                    "players": size,
                    "round": number,
                    "cpu": round(cpu, 4),
                    "peer_cpu": round(peer, 4),
                    "ratio": round(cpu / peer, 4),
                    "repeats": list(ours),
                    "peer_repeats": list(theirs),
                }
            )
    print("(repeats: partners/opponents met before)")
    return rows


def main() -> None:
    arguments = sys.argv[1:]
    exact_up_to = EXACT_UP_TO
    if "--exact-up-to" in arguments:
        exact_up_to = int(arguments[arguments.index("--exact-up-to") + 1])
    figures: dict = {"benchmark": "pairing"}
    if "--stuck" in arguments:
        figures["swiss_stuck"] = swiss_stuck_figures()
    else:
        figures["whist"] = whist_figures()
    if not {"--whist", "--stuck"} & set(arguments):
        figures["swiss"] = swiss_figures(exact_up_to)
        figures["swiss_stuck"] = swiss_stuck_figures()
        figures["rotating"] = rotating_figures()
    figures["load"] = round(os.getloadavg()[0], 1)
    print(f"\nload average: {figures['load']}")
    print(json.dumps(figures, separators=(",", ":")))


if __name__ == "__main__":
    main()
