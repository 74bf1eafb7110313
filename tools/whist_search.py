"""Offline search for whist base rounds (league/pairing/_whist_rounds.py).

Run `nice -n 19 python tools/whist_search.py 52 56 57 60 64` (seconds each; `--seed` picks
another search path). It prints each base round in the form that file keeps, after checking it
with the same difference test the schedule relies on (tests/pairing/test_whist.py then checks
the whole schedule built from it).

The search looks for a Z-cyclic *patterned starter* whist tournament (ZCPS-Wh, in the sense of
Anderson and Finizio): over Z_m, m odd, every table is ``(x, -x) v (y, -y)``, and for 4n players
(m = 4n - 1) one table is ``(inf, 0) v (y0, -y0)``. Partner differences are then ±2x, which
cover every nonzero residue once by themselves because 2 is a unit modulo m. The opponent
differences of ``(x, -x) v (y, -y)`` are the classes ±(x - y) and ±(x + y), twice each, and
those of the infinity table are ±y0 twice. So a base round is a matching of the classes
{±x} into pairs {x, y} (leaving y0 unmatched for 4n players) such that the classes ±(x - y) and
±(x + y) over all pairs, with ±y0, are every class exactly once. The program finds such a
matching by randomised depth-first search with restarts.
"""

import argparse
import random
import sys
from collections import Counter


def normalise(x: int, m: int) -> int:
    """The class {x, -x} of a nonzero residue, as its smaller member."""
    x %= m
    return min(x, m - x)


def patterned_base_round(
    count: int, seed: int = 0, budget: int = 200_000
) -> tuple[tuple[int, int, int, int], ...] | None:
    """Tables (a, c, b, d) over Z_m for `count` players, or None when the budget runs out."""
    m = count - 1 if count % 4 == 0 else count
    classes = list(range(1, (m - 1) // 2 + 1))
    rng = random.Random(seed)
    while True:
        rng.shuffle(classes)
        for y0 in classes if count % 4 == 0 else [None]:
            used = set() if y0 is None else {y0}  # opponent classes covered
            left = [c for c in classes if c != y0]  # partner classes not yet seated
            steps = [0]
            pairs: list[tuple[int, int]] = []
            if _extend(left, used, pairs, m, rng, steps, budget):
                tables = [(x, m - x, y, m - y) for x, y in pairs]
                if y0 is not None:
                    tables.insert(0, (-1, 0, y0, m - y0))
                return tuple(tables)
            budget -= steps[0]
            if budget <= 0:
                return None


def _extend(left, used, pairs, m, rng, steps, budget) -> bool:
    if not left:
        return True
    steps[0] += 1
    if steps[0] > budget // 20:  # restart rather than dig one tree too deep
        return False
    x, rest = left[0], left[1:]
    options = rest[:]
    rng.shuffle(options)
    for y in options:
        plus, minus = normalise(x + y, m), normalise(x - y, m)
        if plus == minus or plus in used or minus in used:
            continue
        used |= {plus, minus}
        pairs.append((x, y))
        if _extend([c for c in rest if c != y], used, pairs, m, rng, steps, budget):
            return True
        pairs.pop()
        used -= {plus, minus}
    return False


def check(count: int, tables) -> None:
    """Partner differences cover every nonzero residue once, opponent differences twice, and
    every point is seated once (0 sits out when the count is 4n + 1)."""
    m = count - 1 if count % 4 == 0 else count
    seated = sorted(p for table in tables for p in table)
    expected = sorted(([-1] if count % 4 == 0 else []) + list(range(0 if count % 4 == 0 else 1, m)))
    assert seated == expected, "every point seated once"
    partners, opponents = Counter(), Counter()
    for a, c, b, d in tables:
        for u, v in ((a, c), (b, d)):
            if -1 not in (u, v):
                partners.update([(u - v) % m, (v - u) % m])
        for u in (a, c):
            for v in (b, d):
                if -1 not in (u, v):
                    opponents.update([(u - v) % m, (v - u) % m])
    assert all(partners[d] == 1 for d in range(1, m)), "partners once"
    assert all(opponents[d] == 2 for d in range(1, m)), "opponents twice"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("counts", type=int, nargs="+")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for count in args.counts:
        tables = patterned_base_round(count, args.seed)
        if tables is None:
            print(f"{count}: nothing found within the budget", file=sys.stderr)
            continue
        check(count, tables)
        m = count - 1 if count % 4 == 0 else count
        print(f"    {count}: (\n        ({m},),\n        (")
        for table in tables:
            print(f"            {table},")
        print("        ),\n    ),")


if __name__ == "__main__":
    main()
