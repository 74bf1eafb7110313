"""Fair-play benchmark: the detector over simulated populations at Capicúa's own tables.

Hands at the tournament preset, every seat a bot of some level, seats 0 and 2 playing on
their partner's tiles on a share of their decisions (wherever the exact analysis finds the
partner-informed best move within the detector's horizon). Each hand is checked by the
detector itself (games.engine.fairplay.check_hand, the production budgets) and both
partnerships are measured: honest pairs at easy, medium, strong and mixed (strong with easy;
the honest opponents of the colluders count for their level too), colluding pairs at strong
and medium on every decision and at strong on 30% of them.

Simulated hands are kept in var/benchmarks/fairplay-hands.jsonl (keyed by the rules and the
detector's budgets), so a longer run continues a shorter one; `--processes 2` shares the
simulation out. A pair's history over N matches is drawn hand by hand from its population's
pool (the mean hands a match measured on whole matches) and flagged as the live system
flags it: after any hand, with the minimum of hands and decisions behind it and z at the
threshold. The calibration: on honest pairs, the lowest threshold (for each minimum of
hands) that flags at most 1% of them within 50 matches; the detector's own setting is then
measured on every population, with 95% intervals, and compared with the calibrated one.

Also: the solver's speed by tiles left, and on a whole hand from its first decision; the
detector's CPU cost per hand (every seat a person, over the simulated hands); the analysis
against exact (its best move against the one every consistent deal gives, where the
analysis enumerated the deals and where it sampled them).

    nice -n 10 python benchmarks/fairplay.py --processes 2        # 200 hands a simulation
    python benchmarks/fairplay.py --hands 60 --pairs 400 --speed 3 --decisions 20

The last line, for scripts:
fairplay: honest flagged H%; full colluders X% at 25 matches; 30% colluders Y% at 50
matches; S s per hand; analysis exact A%
"""

import argparse
import json
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from math import sqrt
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bots import wilson  # noqa: E402  (benchmarks/bots.py, beside this script)

from games.engine import (  # noqa: E402
    ENDED,
    PRESETS,
    apply,
    bot_action,
    finish_hand,
    legal_actions,
    new_hand,
    new_match,
    solve,
    start_hand,
)
from games.engine import fairplay as fp  # noqa: E402
from games.engine.exact import value_decision  # noqa: E402

RULES = PRESETS["tournament"]
# Simulations: each seat's level, and the share of seats 0 and 2's decisions played on the
# partner's tiles. Both partnerships of a hand are measured: seats 1 and 3 are always honest.
SIMULATIONS = {
    "easy": (("easy",) * 4, 0.0),
    "medium": (("medium",) * 4, 0.0),
    "strong": (("strong",) * 4, 0.0),
    "mixed": (("strong", "strong", "easy", "easy"), 0.0),  # each pair: strong with easy
    "colluding strong": (("strong",) * 4, 1.0),
    "colluding medium": (("medium",) * 4, 1.0),
    "colluding strong 30%": (("strong",) * 4, 0.3),
}
# The populations of pairs, each from (simulation, partnership) pools.
POPULATIONS = {
    "honest easy": [("easy", 0), ("easy", 1)],
    "honest medium": [("medium", 0), ("medium", 1), ("colluding medium", 1)],
    "honest strong": [
        ("strong", 0),
        ("strong", 1),
        ("colluding strong", 1),
        ("colluding strong 30%", 1),
    ],
    "honest mixed": [("mixed", 0), ("mixed", 1)],
    "colluding strong": [("colluding strong", 0)],
    "colluding medium": [("colluding medium", 0)],
    "colluding strong 30%": [("colluding strong 30%", 0)],
}
HONEST = [name for name in POPULATIONS if name.startswith("honest")]
FULL = ["colluding strong", "colluding medium"]
PARTIAL = "colluding strong 30%"
BUDGET = {
    "samples": fp.SAMPLES,
    "exact_deals": fp.EXACT_DEALS,
    "nodes": fp.NODES,
    "limit": fp.NODES,
}
PROGRAM_MARGINS = (0.0, 0.5, 1.0, 2.0)  # points (beyond two standard errors) a move may lose
CACHE = Path(__file__).resolve().parent.parent / "var" / "benchmarks" / "fairplay-hands.jsonl"
# What a cached hand depends on: the rules, the detector's budgets, the simulated players.
VERSION = json.dumps(
    ["tournament", fp.HORIZON, fp.SAMPLES, fp.EXACT_DEALS, fp.NODES, fp.MIN_GAIN, 3], default=str
)


def _tiles(state) -> int:
    return sum(h.bit_count() for h in state.hands)


def colluding_move(state, rng):
    if _tiles(state) > fp.HORIZON or len(legal_actions(state)) < 2:
        return None
    valued = value_decision(state, rng, partner=True, **BUDGET)
    return None if valued is None else valued.best


def play_hand(levels, share, rng, playouts):
    """One hand: each seat plays its level; seats 0 and 2 play on the partner's tiles on a
    `share` of their decisions (where the detector's horizon lets them find the move)."""
    state = new_hand(RULES, rng=rng)
    while state.status not in ENDED:
        seat = state.turn
        action = None
        if seat % 2 == 0 and share and rng.random() < share:
            action = colluding_move(state, rng)
        if action is None:
            action = bot_action(state, rng, levels[seat], playouts=playouts)
        state = apply(state, action)[0]
    return state


def simulate(job):
    """Play and check one hand of a simulation, every seat a person: the hand's decisions
    as the detector records them, and the CPU seconds of checking it."""
    name, seed, playouts = job
    rng = random.Random(f"{name}:{seed}")
    levels, share = SIMULATIONS[name]
    final = play_hand(levels, share, rng, playouts)
    started = time.process_time()
    checks = fp.check_hand(final, range(len(final.actions)), random.Random(seed))
    seconds = time.process_time() - started
    decisions = [c.as_dict() for c in checks]
    return {"v": VERSION, "sim": name, "seed": seed, "seconds": seconds, "decisions": decisions}


def load_cache() -> dict[tuple[str, int], dict]:
    found = {}
    if CACHE.exists():
        for line in CACHE.read_text().splitlines():
            row = json.loads(line)
            if row["v"] == VERSION:
                found[row["sim"], row["seed"]] = row
    return found


def simulate_all(
    hands: int, playouts: int, processes: int, partial: int | None = None
) -> dict[tuple[str, int], dict]:
    """Every simulation's first `hands` hands (the 30% colluders' first `partial`), from the
    cache where it has them (a run adds the missing ones to it, so a longer run continues a
    shorter one)."""
    cached = load_cache()
    wanted = {name: hands for name in SIMULATIONS} | {PARTIAL: partial or hands}
    jobs = [
        (name, seed, playouts)
        for seed in range(max(wanted.values()))
        for name in SIMULATIONS
        if seed < wanted[name] and (name, seed) not in cached
    ]
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with ProcessPoolExecutor(processes) as pool, CACHE.open("a") as out:
        for done, row in enumerate(pool.map(simulate, jobs, chunksize=1), 1):
            cached[row["sim"], row["seed"]] = row
            out.write(json.dumps(row) + "\n")
            out.flush()
            if done % 50 == 0:
                rate = done / (time.perf_counter() - started)
                print(f"  {done}/{len(jobs)} hands simulated ({rate:.2f} a second)", flush=True)
    return {key: row for key, row in cached.items() if key[1] < wanted[key[0]]}


def hands_per_match(matches, rng):
    counts = []
    for _ in range(matches):
        match, hands = new_match(RULES), 0
        while not match.over:
            state = start_hand(match, rng)
            while state.status not in ENDED:
                state = apply(state, bot_action(state, rng, "medium"))[0]
            match, hands = finish_hand(match, state), hands + 1
        counts.append(hands)
    return statistics.mean(counts)


def pools_of(simulated: dict[tuple[str, int], dict]) -> dict[str, list[list[dict]]]:
    """Each population's pair-hands: the decisions of one partnership in one hand."""
    pools: dict[str, list[list[dict]]] = {name: [] for name in POPULATIONS}
    for name, sources in POPULATIONS.items():
        for sim, pair in sources:
            for (found, _), row in sorted(simulated.items()):
                if found == sim:
                    pools[name].append([d for d in row["decisions"] if d["seat"] % 2 == pair])
    return pools


def advantage(decision: dict) -> float:
    return fp.advantage(decision["action"], decision["own_values"], decision["partner_values"])


def tallies(pool: list[list[dict]], centre: float = 0.0) -> list[tuple[float, float, int]]:
    """Per pair-hand: the sum of its advantages (less `centre` each), of their squares, and
    how many there are."""
    out = []
    for hand in pool:
        values = [advantage(d) - centre for d in hand]
        out.append((sum(values), sum(v * v for v in values), len(values)))
    return out


def mixture(pools, hands: int, rng: random.Random) -> list[list[dict]]:
    """Pair-hands of a pair that plays on its partner's tiles on 30% of its decisions: as
    many decisions as a hand of the simulated 30% pairs, each one drawn from the colluding
    strong pairs' decisions with a chance of 30%, else from the honest strong pairs'."""
    cheating = [d for hand in pools["colluding strong"] for d in hand]
    honest = [d for hand in pools["honest strong"] for d in hand]
    sizes = [len(hand) for hand in pools[PARTIAL]]
    return [
        [rng.choice(cheating if rng.random() < 0.3 else honest) for _ in range(rng.choice(sizes))]
        for _ in range(hands)
    ]


def running_peaks(tally, pairs, hands, min_hands, seed):
    """For `pairs` pairs drawn from a population (each hand drawn from its pool), the
    highest z reached by each number of hands played, counting only z shown (at least
    `min_hands[k]` hands and MIN_DECISIONS decisions): {min_hands: [per pair: [peak after
    1, 2, ... hands]]}."""
    rng = random.Random(seed)
    peaks = {m: [] for m in min_hands}
    for _ in range(pairs):
        total = square = decisions = 0.0
        best = dict.fromkeys(min_hands, float("-inf"))
        rows = {m: [] for m in min_hands}
        for played in range(1, hands + 1):
            a, b, n = rng.choice(tally)
            total, square, decisions = total + a, square + b, decisions + n
            z = total / sqrt(square) if square else 0.0
            for m in min_hands:
                if played >= m and decisions >= fp.MIN_DECISIONS and z > best[m]:
                    best[m] = z
                rows[m].append(best[m])
        for m in min_hands:
            peaks[m].append(rows[m])
    return peaks


def share_flagged(peaks: list[list[float]], played: int, threshold: float) -> float:
    return sum(p[played - 1] >= threshold for p in peaks) / len(peaks)


def lowest_threshold(honest: list[list[list[float]]], played: int, thresholds) -> float:
    """The lowest of `thresholds` that at most 1% of every honest population's drawn pairs
    (or players) reach within `played` hands; the last one if none is that low."""
    for threshold in thresholds:
        if max(share_flagged(peaks, played, threshold) for peaks in honest) <= 0.01:
            break
    return threshold


def seat_pools(simulated: dict[tuple[str, int], dict]) -> dict[str, list[list[dict]]]:
    """Each level's seat-hands (one seat's decisions in one hand), honest seats only."""
    pools: dict[str, list[list[dict]]] = {}
    for (sim, _), row in sorted(simulated.items()):
        levels, share = SIMULATIONS[sim]
        for seat, level in enumerate(levels):
            if not (share and seat % 2 == 0):
                pools.setdefault(level, []).append(
                    [d for d in row["decisions"] if d["seat"] == seat]
                )
    return pools


def agreement_peaks(pool, margin, players, hands, seed) -> list[list[float]]:
    """For `players` players drawn from a level's pool (hand by hand), the highest share of
    moves within `margin` of the own-information best reached by each number of hands, counted
    once PROGRAM_DECISIONS decisions are behind it (as the live system opens a case)."""
    rng = random.Random(seed)
    tally = [(sum(fp.program_move(d, margin) for d in hand), len(hand)) for hand in pool]
    out = []
    for _ in range(players):
        agreed = decisions = 0
        best, row = float("-inf"), []
        for _ in range(hands):
            a, n = rng.choice(tally)
            agreed, decisions = agreed + a, decisions + n
            if decisions >= fp.PROGRAM_DECISIONS:
                best = max(best, agreed / decisions)
            row.append(best)
        out.append(row)
    return out


def program_signal(simulated, checkpoints: dict[int, int], players: int) -> None:
    """The softer signal's calibration: a copier of the strong level (the program) against
    honest players of the other levels. For each margin, the lowest share that at most 1% of
    honest easy and medium players reach within 50 matches, and the copiers reaching it."""
    pools = seat_pools(simulated)
    horizon = checkpoints[50]
    print(
        f"\nthe softer signal: moves within a margin of the own-information best, over at least"
        f" {fp.PROGRAM_DECISIONS} valued decisions, {players} drawn players a level"
    )
    for level, pool in pools.items():
        decisions = [d for hand in pool for d in hand]
        shares = [
            statistics.mean(fp.program_move(d, m) for d in decisions) for m in PROGRAM_MARGINS
        ]
        print(
            f"  {level:<8} {len(decisions):>6} decisions; agreement at margins "
            + ", ".join(f"{m:g}: {s:.1%}" for m, s in zip(PROGRAM_MARGINS, shares, strict=True))
        )
    print(f"{'margin':>8}{'threshold':>10}{'honest max':>11}{'program @25':>12}{'program @50':>12}")
    by_margin = {}
    for margin in sorted({*PROGRAM_MARGINS, fp.PROGRAM_MARGIN}):
        peaks = by_margin[margin] = {
            level: agreement_peaks(pool, margin, players, horizon, 5)
            for level, pool in pools.items()
        }
        honest = [peaks[level] for level in peaks if level != "strong"]
        threshold = lowest_threshold(honest, horizon, [step / 100 for step in range(50, 101)])
        fpos = max(share_flagged(p, horizon, threshold) for p in honest)
        caught = [share_flagged(peaks["strong"], checkpoints[m], threshold) for m in (25, 50)]
        print(f"{margin:>8g}{threshold:>10.2f}{fpos:>11.1%}{caught[0]:>12.0%}{caught[1]:>12.0%}")
    setting = by_margin[fp.PROGRAM_MARGIN]
    honest = max(
        share_flagged(p, horizon, fp.PROGRAM_AGREEMENT)
        for level, p in setting.items()
        if level != "strong"
    )
    print(
        f"the detector's setting (games/engine/fairplay.py): margin {fp.PROGRAM_MARGIN:g},"
        f" agreement >= {fp.PROGRAM_AGREEMENT:.2f}: honest easy and medium players reaching it"
        f" within 50 matches at most {honest:.1%}; copiers of the strong level "
        + ", ".join(
            f"{share_flagged(setting['strong'], played, fp.PROGRAM_AGREEMENT):.0%} within {m}"
            for m, played in checkpoints.items()
        )
        + f" (and thinking times at least {fp.PROGRAM_EVENNESS:.2f} even)"
    )


def solver_speed(rng, per_size):
    print("\nsolver speed (tournament, random positions; CPU time)")
    print(f"{'tiles left':>10} {'ms a position':>14} {'positions/s':>12} {'searched':>9}")
    for left in (8, 12, 16, 20, 24):
        times, nodes = [], 0
        while len(times) < per_size:
            state = new_hand(RULES, rng=rng)
            while state.status not in ENDED and _tiles(state) > left:
                state = apply(state, rng.choice(legal_actions(state)))[0]
            if state.status in ENDED:
                continue
            started = time.process_time()
            nodes += solve(state).nodes
            times.append(time.process_time() - started)
        mean, rate = statistics.mean(times), per_size / sum(times)
        print(f"{left:>10} {1000 * mean:>14.1f} {rate:>12.1f} {nodes / per_size:>9.0f}")
    times = []
    for _ in range(max(1, per_size // 3)):
        state = new_hand(RULES, rng=rng)
        state = apply(state, legal_actions(state)[0])[0]  # the forced 6-6: the first choice next
        started = time.process_time()
        solve(state)
        times.append(time.process_time() - started)
    print(
        f"whole hand from its first decision: {statistics.mean(times):.2f} s (mean of {len(times)})"
    )


def analysis_against_exact(rng, decisions):
    """The analysis's best move (production budget) against the exact one, on decisions
    whose consistent deals are few enough to solve them all."""
    agree = {True: [0, 0], False: [0, 0]}
    tried = 0
    while sum(n for _, n in agree.values()) < decisions and tried < decisions * 20:
        tried += 1
        state = new_hand(RULES, rng=rng)
        stop = rng.randrange(10, 21)
        while state.status not in ENDED and (_tiles(state) > stop or len(legal_actions(state)) < 2):
            state = apply(state, rng.choice(legal_actions(state)))[0]
        if state.status in ENDED:
            continue
        truth = value_decision(state, random.Random(1), exact_deals=5000, samples=0, limit=200_000)
        if truth is None or not truth.exact:
            continue
        quick = value_decision(state, random.Random(2), **BUDGET)
        if quick is None:
            continue
        best = truth.values[truth.best]
        ok = truth.values[quick.best] >= best - 1e-9
        agree[quick.exact][0] += ok
        agree[quick.exact][1] += 1
    for exact, (ok, n) in agree.items():
        label = "enumerated" if exact else "sampled"
        share = f"{ok / n:.0%}" if n else "n/a"
        print(f"analysis best move = exact best, where the analysis {label}: {share} ({ok}/{n})")
    ok, n = agree[True]
    return 100.0 * ok / n if n else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="hands per simulation")
    parser.add_argument("--partial-hands", type=int, help="hands of the 30%% colluders")
    parser.add_argument("--pairs", type=int, default=1000, help="pairs drawn per population")
    parser.add_argument("--playouts", type=int, default=200, help="the strong level's playouts")
    parser.add_argument("--speed", type=int, default=6, help="positions per size for the solver")
    parser.add_argument("--decisions", type=int, default=40, help="decisions against exact")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2027)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    simulated = simulate_all(args.hands, args.playouts, args.processes, args.partial_hands)
    pools = pools_of(simulated)
    per_match = hands_per_match(40, rng)
    print(
        f"tournament preset, {per_match:.2f} hands a match (40 whole matches); hands simulated: "
        + ", ".join(f"{n} {sum(k[0] == n for k in simulated)}" for n in SIMULATIONS)
    )
    print(
        f"{'population':<22}{'pair-hands':>11}{'valued/hand':>12}{'telling/hand':>13}"
        f"{'partner-best':>13}  95% interval{'advantage':>11}  95% interval{'program':>9}"
    )
    centres = {}
    for name, pool in pools.items():
        decisions = [d for hand in pool for d in hand]
        picks = [d["picked"] for d in decisions if d["telling"] and d["picked"] != "other"]
        k, n = picks.count("partner"), len(picks)
        low, high = wilson(k, n)
        values = [advantage(d) for d in decisions]
        mean = statistics.mean(values)
        half = 1.96 * statistics.stdev(values) / sqrt(len(values))
        centres[name] = mean
        agree = statistics.mean(
            d["own_values"][d["action"]] >= max(d["own_values"].values()) for d in decisions
        )
        print(
            f"{name:<22}{len(pool):>11}{len(decisions) / len(pool):>12.2f}{n / len(pool):>13.2f}"
            f"{k / n if n else 0:>13.0%}  [{low:.0%}, {high:.0%}]{mean:>11.2f}"
            f"  [{mean - half:.2f}, {mean + half:.2f}]{agree:>9.0%}"
        )
    print(
        "partner-best: the share of telling decisions (one of the two best moves played) won by\n"
        "the move best with the partner's tiles; advantage: points a decision that the partner's\n"
        "tiles add to the move played beyond the average move (zero for any honest play, in\n"
        "theory); program: the share of moves best on the player's own information"
    )

    # The calibration: honest pairs of every population, each drawn hand by hand from its
    # population's pool with the pool's mean advantage taken out (a pool of a few hundred
    # hands has a mean that is off zero by chance, and a pair drawn from it would inherit
    # that for all its 50 matches), flagged as the live system would: after any hand, with
    # the minimum of hands and decisions behind it and z at the threshold.
    checkpoints = {m: max(1, round(m * per_match)) for m in (10, 25, 50)}
    horizon = checkpoints[50]
    minimums = (10, 20, 30, 50)
    honest = {
        h: running_peaks(tallies(pools[h], centres[h]), args.pairs, horizon, minimums, 1)
        for h in HONEST
    }
    cheats = {
        c: running_peaks(tallies(pools[c]), args.pairs, horizon, minimums, 2)
        for c in FULL + [PARTIAL]
    }
    print(
        f"\ncalibration over {args.pairs} drawn pairs per population, {horizon} hands (50 matches);"
        f" at least {fp.MIN_DECISIONS} valued decisions"
    )
    print(f"{'min hands':>9}{'threshold':>10}{'honest max':>11}{'full @25':>9}{'30% @50':>8}")
    best = None
    for m in minimums:
        thresholds = [step / 10 for step in range(20, 81)]
        threshold = lowest_threshold([p[m] for p in honest.values()], horizon, thresholds)
        full = min(share_flagged(cheats[c][m], checkpoints[25], threshold) for c in FULL)
        partial = share_flagged(cheats[PARTIAL][m], horizon, threshold)
        fpos = max(share_flagged(p[m], horizon, threshold) for p in honest.values())
        print(f"{m:>9}{threshold:>10.1f}{fpos:>11.1%}{full:>9.0%}{partial:>8.0%}")
        if best is None or (partial, full) >= best[2:]:  # a tie: the more hands
            best = (m, threshold, partial, full)
    print(
        f"calibrated: {best[0]} hands and z >= {best[1]:.1f}; the detector's setting "
        f"(games/engine/fairplay.py): {fp.MIN_HANDS} hands and z >= {fp.THRESHOLD}"
        + ("" if (best[0], best[1]) == (fp.MIN_HANDS, fp.THRESHOLD) else "  <- differs")
    )

    # Detection at the detector's own setting (what ships).
    chosen = fp.MIN_HANDS if fp.MIN_HANDS in minimums else best[0]
    print(
        f"\nflagged within N matches at the detector's setting (z >= {fp.THRESHOLD}, "
        f"{chosen} hands); 95% intervals over the drawn pairs"
    )
    print(f"{'population':<22}" + "".join(f"{m:>22}" for m in checkpoints))
    rates = {}
    for name, peaks in {**honest, **cheats}.items():
        rates[name] = {}
        cells = []
        for m, played in checkpoints.items():
            share = share_flagged(peaks[chosen], played, fp.THRESHOLD)
            low, high = wilson(round(share * args.pairs), args.pairs)
            rates[name][m] = share
            cells.append(f"{share:>7.1%} [{low:.1%}, {high:.1%}]")
        print(f"{name:<22}" + "".join(f"{c:>22}" for c in cells))
    raw = {h: running_peaks(tallies(pools[h]), args.pairs, horizon, (chosen,), 3) for h in HONEST}
    print(
        "honest pairs drawn from the pools as they are (their chance mean left in): "
        + ", ".join(
            f"{h} {share_flagged(p[chosen], horizon, fp.THRESHOLD):.1%}" for h, p in raw.items()
        )
    )
    flagged = max(rates[h][50] for h in HONEST)
    # The 30% colluders again, from far more hands: each decision drawn from the colluding
    # strong pairs' with a chance of 30%, else from the honest strong pairs' (what a pair
    # that cheats on 30% of its decisions plays, but for the positions its cheating leads to).
    mixed = mixture(pools, args.pairs * 2, random.Random(args.seed + 3))
    peaks = running_peaks(tallies(mixed), args.pairs, horizon, (chosen,), 4)[chosen]
    print(
        "colluding strong 30%, decision by decision from the strong pools: "
        + ", ".join(
            f"{share_flagged(peaks, played, fp.THRESHOLD):.1%} within {m}"
            for m, played in checkpoints.items()
        )
    )
    full = min(rates[f][25] for f in FULL)
    partial = rates[PARTIAL][50]
    program_signal(simulated, checkpoints, args.pairs)

    solver_speed(rng, args.speed)
    costs = [row["seconds"] for row in simulated.values()]
    per_hand = statistics.mean(costs)
    print(
        f"detector cost per hand, every seat a person: {per_hand:.2f} CPU s over {len(costs)} "
        f"hands (max {max(costs):.2f}); one core keeps up with {3600 / per_hand:,.0f} hands an hour"
    )
    exact = analysis_against_exact(random.Random(args.seed + 2), args.decisions)
    print(
        f"fairplay: honest flagged {100 * flagged:.1f}%; full colluders {100 * full:.0f}% at 25 "
        f"matches; 30% colluders {100 * partial:.0f}% at 50 matches; {per_hand:.2f} s per hand; "
        f"analysis exact {exact:.0f}%"
    )


if __name__ == "__main__":
    main()
