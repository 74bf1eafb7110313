"""Single and double round-robin schedules (circle method).

Entrant ``i`` of the rotating ``N - 1`` sits on a circle; in round ``r`` the circle is mirrored
about position ``r``: the entrant there meets the fixed last entrant and every other pair
``(r + d, r - d)`` meets. With an odd count the fixed slot is the bye.

Home (first-named) sides alternate with the mirror distance ``d`` and, for the fixed entrant,
with the round. That gives every entrant a home/away difference of at most one and at most one
"break" (two consecutive games on the same side), the minimum possible; with an odd count
sides balance exactly and strictly alternate. The second leg of a
double round robin repeats the first with sides swapped, so the totals balance exactly.
"""

from collections.abc import Hashable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Round:
    """One round: `number` is 1-based; pairings are (home, away)."""

    number: int
    pairings: tuple[tuple[Hashable, Hashable], ...]
    bye: Hashable | None = None


def round_robin(entrants: Sequence[Hashable], *, double: bool = False) -> list[Round]:
    """Every entrant meets every other once (twice, sides swapped, when `double`)."""
    if len(set(entrants)) != len(entrants):
        raise ValueError("entrant ids must be unique")
    if len(entrants) < 2:
        return []
    slots: list[Hashable | None] = list(entrants)
    if len(slots) % 2:
        slots.append(None)  # the fixed slot becomes the bye
    fixed, circle = slots[-1], slots[:-1]
    size = len(circle)
    legs: list[tuple[tuple[Hashable, Hashable], ...]] = []
    byes: list[Hashable | None] = []
    for r in range(size):
        pairs = [(circle[r], fixed) if r % 2 == 0 else (fixed, circle[r])]
        for d in range(1, len(slots) // 2):
            up, down = circle[(r + d) % size], circle[(r - d) % size]
            pairs.append((up, down) if d % 2 else (down, up))
        byes.append(next((b if a is None else a for a, b in pairs if None in (a, b)), None))
        legs.append(tuple((a, b) for a, b in pairs if None not in (a, b)))
    if double:
        legs += [tuple((b, a) for a, b in leg) for leg in legs]
        byes += byes
    return [
        Round(number=n, pairings=leg, bye=bye)
        for n, (leg, bye) in enumerate(zip(legs, byes, strict=True), start=1)
    ]
