"""The double-six set as small ints, with precomputed tables.

A tile is an int 0..27; a hand is a bitmask of tiles. An open end is coded as an int:
the number showing (bits 0-2), DOUBLE (a double lies there) and EMPTY (an arm of the
opening tile that holds no tile yet); -1 is a closed end.
"""

from collections.abc import Iterable

TILES: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(7) for b in range(a, 7))
LO: tuple[int, ...] = tuple(a for a, _ in TILES)
HI: tuple[int, ...] = tuple(b for _, b in TILES)
PIPS: tuple[int, ...] = tuple(a + b for a, b in TILES)
IS_DOUBLE: tuple[bool, ...] = tuple(a == b for a, b in TILES)
NAME: tuple[str, ...] = tuple(f"{b}-{a}" for a, b in TILES)
BIT: tuple[int, ...] = tuple(1 << t for t in range(28))
ALL = (1 << 28) - 1
SUIT: tuple[int, ...] = tuple(
    sum(BIT[t] for t, (a, b) in enumerate(TILES) if n in (a, b)) for n in range(7)
)
DOUBLES = sum(BIT[t] for t in range(28) if IS_DOUBLE[t])

DOUBLE = 8
EMPTY = 16
END_NAMES = ("left", "right", "up", "down")
END_ORDER = (1, 0, 2, 3)  # right, left, up, down: where an unnamed tile goes

# "a-b" and "b-a" -> (tile, a): a is the half written first (the left end of an opening).
PARSE: dict[str, tuple[int, int]] = {}
for _t, (_a, _b) in enumerate(TILES):
    PARSE[f"{_a}-{_b}"] = (_t, _a)
    PARSE[f"{_b}-{_a}"] = (_t, _b)


# "a-b" and "b-a" -> the tile.
TILE_ID: dict[str, int] = {name: t for name, (t, _) in PARSE.items()}


def tile_id(name: object) -> int | None:
    """The tile named `name` ("5-4" or "4-5"), or None."""
    return TILE_ID.get(name) if isinstance(name, str) else None


def tiles_of(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _chunk_pips(first: int) -> tuple[int, ...]:
    """[m]: the pips of the tiles first .. first + 13 whose bits are set in the 14-bit m."""
    sums = [0]
    for t in range(first, first + 14):
        sums += [s + PIPS[t] for s in sums]
    return tuple(sums)


_LOW_PIPS, _HIGH_PIPS = _chunk_pips(0), _chunk_pips(14)


def pips_of(mask: int) -> int:
    """The pip sum of a hand (two table lookups: hands are scored at every hand's end)."""
    return _LOW_PIPS[mask & 16383] + _HIGH_PIPS[mask >> 14]


def hands_pips(masks: Iterable[int]) -> list[int]:
    """The pip sum of each hand, as `pips_of` gives it, in one call (a hand's end)."""
    return [_LOW_PIPS[m & 16383] + _HIGH_PIPS[m >> 14] for m in masks]


def other_half(tile: int, n: int) -> int:
    return HI[tile] if LO[tile] == n else LO[tile]


def rank(tile: int) -> tuple[int, int, int]:
    """Order for `highest`: pip sum, a double before a non-double, then the higher half."""
    return (PIPS[tile], IS_DOUBLE[tile], HI[tile])
