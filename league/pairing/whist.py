"""Complete whist schedules: everyone partners everyone once and opposes everyone twice.

A whist tournament Wh(v) exists for every v = 4n or 4n + 1. This module searches for a
Z-cyclic one (the classical construction, e.g. Anderson & Finizio): a single *base round*
over the integers mod m whose translates ``+0, +1, ..., +(m - 1)`` are the rounds. There is
no Z-cyclic Wh(9), so for prime-power m the search also tries the group (Z_p)^k.

- v = 4n + 1: m = v; the base round seats every point except 0, who sits out; point t sits
  out round t, so everyone sits out exactly once over the v rounds.
- v = 4n: m = v - 1 plus a fixed point "infinity" that plays every one of the v - 1 rounds.

Translation preserves differences, so the schedule has the whist property exactly when, over
the base round, the partner differences ``±(a - c)`` cover every nonzero residue once and the
opponent differences cover every nonzero residue twice (pairs with infinity take care of
themselves). The base round is found by backtracking table by table, always seating the
smallest unseated point, with the difference counts as the pruning constraint. Found base
rounds are cached per size.
"""

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from math import log, prod

from .rotating import RotatingRound

_INFINITY = -1
_BaseTable = tuple[int, int, int, int]  # (a, c) partners against (b, d)


class WhistScheduleError(ValueError):
    """No whist schedule for this player count (not 4n / 4n + 1, or the search gave up)."""


def whist_schedule(
    players: Sequence[Hashable], *, max_steps: int = 2_000_000
) -> list[RotatingRound]:
    """Complete whist schedule for 4n or 4n + 1 players (4n - 1 or 4n + 1 rounds).

    Raises WhistScheduleError when the count does not allow one or when no base round is found
    within `max_steps` backtracking steps: found within a second up to 17 players and in about
    a second for 20; from 21 on the default budget runs out after several seconds.
    """
    count = len(players)
    if len(set(players)) != count:
        raise ValueError("player ids must be unique")
    if count < 4 or count % 4 > 1:
        raise WhistScheduleError(f"a whist schedule needs 4n or 4n + 1 players, not {count}")
    found = _base_round(count, max_steps)
    if found is None:
        raise WhistScheduleError(f"no cyclic whist schedule found for {count} players")
    group, base = found

    def player(point: int, shift: int) -> Hashable:
        return players[-1] if point == _INFINITY else players[group.add(point, shift)]

    return [
        RotatingRound(
            tables=tuple(
                ((player(a, t), player(c, t)), (player(b, t), player(d, t))) for a, c, b, d in base
            ),
            sitting_out=(players[t],) if count % 4 else (),
        )
        for t in range(group.order)
    ]


@dataclass(frozen=True)
class _Group:
    """Abelian group Z_m1 x Z_m2 x ..., elements coded as mixed-radix ints 0..order-1."""

    moduli: tuple[int, ...]

    @property
    def order(self) -> int:
        return prod(self.moduli)

    def _digits(self, x: int) -> list[int]:
        digits = []
        for m in self.moduli:
            x, digit = divmod(x, m)
            digits.append(digit)
        return digits

    def _code(self, digits: Iterable[int]) -> int:
        code, radix = 0, 1
        for digit, m in zip(digits, self.moduli, strict=True):
            code += (digit % m) * radix
            radix *= m
        return code

    def add(self, x: int, y: int) -> int:
        return self._code(a + b for a, b in zip(self._digits(x), self._digits(y), strict=True))

    def sub(self, x: int, y: int) -> int:
        return self._code(a - b for a, b in zip(self._digits(x), self._digits(y), strict=True))


def _groups(order: int) -> list[_Group]:
    """Cyclic group first; also the elementary abelian one for a prime power (no cyclic
    Wh(9) exists, but one over Z_3 x Z_3 does)."""
    groups = [_Group((order,))]
    prime = next(p for p in range(2, order + 1) if order % p == 0)
    power = round(log(order, prime))
    if power > 1 and prime**power == order:
        groups.append(_Group((prime,) * power))
    return groups


class _GiveUp(Exception):
    pass


@cache
def _base_round(count: int, max_steps: int) -> tuple[_Group, tuple[_BaseTable, ...]] | None:
    order = count if count % 4 else count - 1
    for group in _groups(order):
        try:
            return group, _search(group, count % 4 == 0, max_steps)
        except _GiveUp:
            continue
    return None


def _search(group: _Group, infinity: bool, max_steps: int) -> tuple[_BaseTable, ...]:
    order = group.order
    points = [_INFINITY, *range(order)] if infinity else list(range(1, order))
    difference = [[group.sub(x, y) for y in range(order)] for x in range(order)]
    partner_use = [0] * order  # how often each difference is used, by partners...
    opponent_use = [0] * order  # ... and by opponents
    free = set(points)
    tables: list[_BaseTable] = []
    steps = 0

    def shift(x: int, y: int, by: int, use: list[int], limit: int) -> bool:
        """Count the differences ±(x - y) (none with infinity); False if over `limit`."""
        if _INFINITY in (x, y):
            return True
        there, back = difference[x][y], difference[y][x]
        use[there] += by
        use[back] += by
        return use[there] <= limit and use[back] <= limit

    def seat(table: _BaseTable, by: int) -> bool:
        a, c, b, d = table
        fits = shift(a, c, by, partner_use, 1) & shift(b, d, by, partner_use, 1)
        for x in (a, c):
            for y in (b, d):
                fits &= shift(x, y, by, opponent_use, 2)
        return fits

    def search() -> bool:
        nonlocal steps
        if not free:
            return True
        a = min(free)  # infinity (-1) first
        free.remove(a)
        for c in sorted(free):
            free.remove(c)
            rest = sorted(free)
            for i, b in enumerate(rest):
                for d in rest[i + 1 :]:
                    steps += 1
                    if steps > max_steps:
                        raise _GiveUp
                    table = (a, c, b, d)
                    if seat(table, 1):
                        free.difference_update((b, d))
                        tables.append(table)
                        if search():
                            return True
                        tables.pop()
                        free.update((b, d))
                    seat(table, -1)
            free.add(c)
        free.add(a)
        return False

    if not search():
        raise _GiveUp
    return tuple(tables)
