"""Complete whist schedules: everyone partners everyone once and opposes everyone twice.

A whist tournament Wh(v) exists exactly when v = 4n or 4n + 1 (R. D. Baker, "Whist
tournaments", Proc. 6th Southeastern Conference on Combinatorics, Graph Theory and Computing,
Congressus Numerantium 14, 1975; see I. Anderson, *Combinatorial Designs and Tournaments*,
Oxford 1997, and Anderson's chapter "Whist tournaments" in the *Handbook of Combinatorial
Designs*, 2nd ed., 2007). Every schedule here is Z-cyclic or 1-rotational, as in Anderson's
and Finizio's work on Z-cyclic whist: a single *base round* over an abelian group G of order m
whose translates ``+g`` (g in G) are the m rounds.

- v = 4n + 1: m = v; the base round seats every element except 0, who sits out; element g sits
  out round g, so everyone sits out exactly once over the v rounds.
- v = 4n: m = v - 1 plus a fixed point "infinity" that plays every one of the v - 1 rounds
  (1-rotational).

Translation preserves differences, so the schedule has the whist property exactly when, over
the base round, the partner differences ``±(a - c)`` cover every nonzero element once and the
opponent differences cover every nonzero element twice (pairs with infinity take care of
themselves). Base rounds come from:

- primes p = 4n + 1, any size: the classical construction over Z_p (in Anderson's book
  above): with r a primitive root and ω = r^n (so ω² = -1), the tables are
  ``(x, -x) v (ωx, -ωx)`` for x = r^0, ..., r^(n-1). Partner differences are ±2x and opponent
  differences ±x(1 ± ω), each x times a coset of the fourth roots of unity, so they cover every
  nonzero residue once and twice;
- the other counts in :mod:`._whist_rounds` (every 4n and 4n + 1 up to :data:`READY_UP_TO`,
  and any listed in :data:`READY_ABOVE`): base rounds found offline by computer search and
  shipped as data,
  some as Z-cyclic *patterned starter* whist (partners x and -x; Finizio's ZCPS-Wh), the rest
  by simulated annealing on the difference counts, over Z_m, and over Z_3 x Z_3 for 9 players
  (no Z-cyclic Wh(9) exists). The tests check each of them. The search that found the newer
  ones (52, 56, 57, 64) is tools/whist_search.c, over base rounds invariant under a
  multiplier x -> ux (the usual multiplier reduction for cyclic designs), which makes it take
  seconds: for 64 players over Z_63, u = 4 (order 3; a fixed table (inf, 0) v (21, 42) and
  five tables with their images under x4 and x16); for 52, 56 and 57, an involution (u = 16
  mod 51, 21 mod 55, 37 mod 57), with tables such as (a, ua) v (b, ub) and (a, b) v (ua, ub)
  that are their own images, and the points u fixes at tables of their own. Patterned
  starters cannot serve 52, 56, 57, 60 or 64 players: summing the squares of the opponent
  differences of ``(x, -x) v (y, -y)`` tables, (x + y)^2 + (x - y)^2 = 2(x^2 + y^2), forces
  sum(c^2 over the classes ±c) = 0 (4n + 1) or y0^2 (4n, y0 opposing infinity) modulo m,
  which fails for m = 51, 55, 57, 59, 63. For 60 players over Z_59 no multiplier helps
  either (58 = 2 * 29: an orbit of 29 points cannot fill whole tables, and -1 forces the
  patterned form), and annealing stalled; tools/whist_starter_search.c splits the problem:
  the partnerships of the base round are a starter of Z_59 (every difference +-d once, 0
  partnering infinity), taken from annealing whenever its partnerships form one and its
  opponent counts are nearly right, and seating them two by two so that every difference
  opposes exactly twice is an exact cover, solved by depth-first search (minutes).

So no search runs in a request: a schedule is built in milliseconds from its base round.
"""

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from math import prod

from ._whist_rounds import BASE_ROUNDS
from .rotating import RotatingRound

_INFINITY = -1
_BaseTable = tuple[int, int, int, int]  # (a, c) partners against (b, d)


class WhistScheduleError(ValueError):
    """No whist schedule for this player count. `exists` tells whether one exists at all
    (4n or 4n + 1 players) though none is on hand here."""

    def __init__(self, count: int, exists: bool) -> None:
        self.count = count
        self.exists = exists
        reason = "none is on hand" if exists else "a whist schedule needs 4n or 4n + 1 players"
        super().__init__(f"no whist schedule for {count} players: {reason}")


def whist_possible(count: int) -> bool:
    """Whether a whist schedule exists for `count` players at all."""
    return count >= 4 and count % 4 in (0, 1)


def whist_schedule(players: Sequence[Hashable]) -> list[RotatingRound]:
    """Complete whist schedule for 4n or 4n + 1 players (4n - 1 or 4n + 1 rounds).

    Raises WhistScheduleError for any other count, and for a count whose schedule exists but
    is not on hand (above :data:`READY_UP_TO` players and not a prime 4n + 1).
    """
    count = len(players)
    if len(set(players)) != count:
        raise ValueError("player ids must be unique")
    if not whist_possible(count):
        raise WhistScheduleError(count, exists=False)
    found = _base_round(count)
    if found is None:
        raise WhistScheduleError(count, exists=True)
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


def _is_prime(n: int) -> bool:
    return n > 1 and all(n % p for p in range(2, int(n**0.5) + 1))


def _prime_base_round(p: int) -> tuple[_BaseTable, ...]:
    """(x, -x) v (ωx, -ωx) over Z_p, p = 4n + 1 prime (see the module docstring)."""
    n = (p - 1) // 4
    root = next(
        g for g in range(2, p) if all(pow(g, (p - 1) // q, p) != 1 for q in _prime_factors(p - 1))
    )
    omega = pow(root, n, p)
    tables = []
    for i in range(n):
        x = pow(root, i, p)
        tables.append((x, p - x, omega * x % p, (p - omega * x) % p))
    return tuple(tables)


def _prime_factors(n: int) -> set[int]:
    return {q for q in range(2, n + 1) if n % q == 0 and _is_prime(q)}


def _base_round(count: int) -> tuple[_Group, tuple[_BaseTable, ...]] | None:
    if count in BASE_ROUNDS:
        moduli, tables = BASE_ROUNDS[count]
        return _Group(moduli), tables
    if count % 4 == 1 and _is_prime(count):
        return _Group((count,)), _prime_base_round(count)
    return None


READY_UP_TO = next(
    v - 1 for v in range(4, 10**4) if whist_possible(v) and _base_round(v) is None
)  # a schedule is on hand for every 4n and 4n + 1 players up to this count
READY_ABOVE = tuple(sorted(v for v in BASE_ROUNDS if v > READY_UP_TO))  # and for these counts
