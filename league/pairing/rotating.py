"""Individual events with rotating partners: each round, partnerships of two at tables of four.

Up to :data:`EXACT_FIELD` players, a round repeats nobody, neither a partner nor an opponent,
whenever some seating (and some fair choice of who sits out) allows that: partners, tables and
sit-outs are chosen together, not one after the other.

The field is seated in standing order, a block of :data:`BLOCK` players at a time (the whole
field when it has at most :data:`SMALL_FIELD` players), each block searched exactly for a
seating with no repeated partner and no repeated opponent, tables closest in the standings
first, so that strong players meet strong players as in a Swiss event. A block with no such
seating grows by a table at a time up to :data:`MAX_BLOCK` players; when the players left
cannot be seated on their own, they are seated together with the block above, then the one
above that. Where the blocks fail, the whole field is searched exactly (:func:`_exact`, an
exact cover over every table without a repeat), with who sits out left open among those who
may. Only when no round without repeats exists (late in an event) or the field is larger
than :data:`EXACT_FIELD` and its blocks fail, is the round built by two global matchings (see
:mod:`._matching`): partnerships (nobody partners twice while a perfect matching without
repeats exists), then tables of two partnerships with the fewest repeated opponent meetings,
then close in the standings; each table still with a repeat is then re-seated together with
its neighbours in the standings where that removes it.

When the count is not a multiple of four, ``count % 4`` of the players who sat out least sit
out, so nobody sits out twice before everyone sat out once. Among those, the lowest ranked
or, with a `seed`, those drawn by lot (deterministically for a given seed) sit out, unless
only another choice among them gives a round without repeats.

The search is bounded and counted in steps (:mod:`._search`), so a caller can run it in a
request and hand it to a worker when it needs more steps than a request may take.
"""

import random
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import NamedTuple

from ._matching import match_sequence
from ._search import Effort

Table = tuple[tuple[Hashable, Hashable], tuple[Hashable, Hashable]]


@dataclass(frozen=True)
class RotatingPlayer:
    """A player before the round; players are passed best-ranked first.

    `opponents` maps each earlier opponent to the number of rounds played against them.
    """

    id: Hashable
    partners: frozenset[Hashable] = frozenset()
    opponents: Mapping[Hashable, int] = field(default_factory=dict)
    sit_outs: int = 0


@dataclass(frozen=True)
class RotatingRound:
    """One round: tables of (partnership, partnership), table 1 first, and who sits out."""

    tables: tuple[Table, ...]
    sitting_out: tuple[Hashable, ...] = ()


class Repeats(NamedTuple):
    partners: int  # partnerships formed before
    opponents: int  # pairs of opposing players who had met before


def pair_rotating(
    players: Sequence[RotatingPlayer], *, seed: int | None = None, effort: Effort | None = None
) -> RotatingRound:
    """Seat one round; `players` ordered by current standing (best first).

    `effort` counts the search's steps (see :mod:`._search`): with `allowed` steps it raises
    :class:`SearchTooLong` rather than search longer, with `progress` it reports how far the
    search has come."""
    if len({p.id for p in players}) != len(players):
        raise ValueError("player ids must be unique")
    if len(players) < 4:
        raise ValueError("a round needs at least four players")
    effort = effort or Effort()
    ranks = range(len(players))
    lot: list[float]
    if seed is None:
        lot = [-rank for rank in ranks]
    else:
        draw = random.Random(seed)
        lot = [draw.random() for _ in ranks]
    by_lot = sorted(ranks, key=lambda r: (players[r].sit_outs, lot[r]))
    sitting = len(players) % 4
    preferred = set(by_lot[:sitting])
    # Who may sit out: everyone who sat out less than the last of `preferred` must, and
    # any of those who sat out as often as that one may.
    level = players[by_lot[sitting - 1]].sit_outs if sitting else -1
    forced = {r for r in ranks if players[r].sit_outs < level}
    tied = [r for r in by_lot if players[r].sit_outs == level]

    def partnered(u: int, v: int) -> bool:
        return players[v].id in players[u].partners or players[u].id in players[v].partners

    def met(u: int, v: int) -> bool:
        return players[u].opponents.get(players[v].id, 0) > 0 or (
            players[v].opponents.get(players[u].id, 0) > 0
        )

    resting = preferred
    active = [r for r in ranks if r not in resting]
    tables = _in_blocks(active, partnered, met, effort)
    if tables is None and len(players) <= EXACT_FIELD:
        found = _exact(
            [r for r in ranks if r not in forced],
            set(tied),
            preferred - forced,
            sitting - len(forced),
            partnered,
            met,
            effort,
            _EXACT_STEPS,
        )
        if found is not None:
            tables, sitters = found
            resting = forced | sitters
    if tables is None:
        tables = _repaired(_proposal(active, players, partnered), partnered, met, effort)
    effort.report(1)

    def ids(pair: tuple[int, int]) -> tuple[Hashable, Hashable]:
        return players[pair[0]].id, players[pair[1]].id

    return RotatingRound(
        tables=tuple((ids(p), ids(q)) for p, q in sorted(tables, key=lambda t: min(t[0]))),
        sitting_out=tuple(players[r].id for r in sorted(resting)),
    )


_Seating = tuple[tuple[int, int], tuple[int, int]]
_Repeats = Callable[[int, int], bool]  # whether two ranks were partners (or opponents)
EXACT_FIELD = 64  # up to this many players, a round without repeats is found if one exists
SMALL_FIELD = 12  # a field this small is searched as a whole, not in blocks
BLOCK = 8  # otherwise the field is seated this many players at a time ...
MAX_BLOCK = 24  # ... a block growing up to this size when it cannot be seated without repeats
_BLOCK_STEPS = 200_000  # search steps for one block
_EXACT_STEPS = 2_000_000  # steps of the exact search before it settles for the matchings
_NEIGHBOURS = (2, 3)  # tables re-seated around one with a repeat, in turn


def _in_blocks(
    seats: list[int], partnered: _Repeats, met: _Repeats, effort: Effort
) -> list[_Seating] | None:
    """`seats` (ranks, best first) seated block by block with no repeat at all, or None where
    that fails even with every block above the last reopened."""

    def fresh(block: list[int]) -> list[_Seating] | None:
        found = _exact(block, set(), set(), 0, partnered, met, effort, _BLOCK_STEPS, False)
        return None if found is None else found[0]

    count = len(seats)
    if count <= SMALL_FIELD:
        return fresh(seats)
    blocks: list[tuple[int, list[_Seating]]] = []  # (first seat, its tables)
    start, size = 0, BLOCK
    while start < count:
        end = count if count - (start + size) < BLOCK else start + size
        found = fresh(seats[start:end])
        if found is not None:
            blocks.append((start, found))
            start, size = end, BLOCK
        elif end < count and end - start < MAX_BLOCK:
            size += 4
        elif blocks and count - blocks[-1][0] <= EXACT_FIELD:
            # The rest cannot be seated alone: seat it with the block above.
            start, _ = blocks.pop()
            size = count - start
        else:
            return None
    return [table for _, tables in blocks for table in tables]


def _proposal(
    active: list[int], players: Sequence[RotatingPlayer], partnered: _Repeats
) -> list[_Seating]:
    """Partnerships by one matching, then tables of partnerships by another (`active`: ranks,
    best first)."""
    partnerships = sorted(
        (
            (active[u], active[v])
            for u, v in match_sequence(
                len(active),
                lambda u, v: not partnered(active[u], active[v]),
                lambda u, v: (v - u,),
            )
        ),
        key=sum,
    )

    def meetings(p: int, q: int) -> int:
        return sum(
            players[x].opponents.get(players[y].id, 0)
            for x in partnerships[p]
            for y in partnerships[q]
        )

    tables = match_sequence(
        len(partnerships), lambda p, q: True, lambda p, q: (meetings(p, q), q - p)
    )
    return [_ordered(partnerships[p], partnerships[q]) for p, q in tables]


def _ordered(first: tuple[int, int], second: tuple[int, int]) -> _Seating:
    """Each partnership best-ranked first; the partnership with the best player first."""
    one, two = _sorted(first), _sorted(second)
    return (one, two) if one < two else (two, one)


def _sorted(pair: tuple[int, int]) -> tuple[int, int]:
    return (pair[0], pair[1]) if pair[0] <= pair[1] else (pair[1], pair[0])


def _exact(
    people: list[int],
    optional: set[int],
    preferred: set[int],
    slots: int,
    partnered: _Repeats,
    met: _Repeats,
    effort: Effort,
    steps: int,
    reports: bool = True,
) -> tuple[list[_Seating], set[int]] | None:
    """A seating of `people` (ranks, best first) at tables with no repeat at all, `slots` of
    the `optional` ones sitting out; None if there is none or the search gives up after
    `steps`. With `reports`, tells `effort` the share of the search done as it goes.

    An exact cover search (Knuth's algorithm X): every table without a repeat is listed, and
    each step seats the player with the fewest tables left (sitting out counts as one more for
    an optional player while a place to sit out is left), trying the tables closest in the
    standings first, and sitting out first for those the lot chose. Sets of tables are bit
    masks, so striking out every table of a seated player is one operation."""
    cover = _Cover(people, partnered, met, effort, optional, preferred)
    found = cover.search(slots, effort, effort.spent + steps, reports)
    if found is None:
        return None
    seated, sitting = found
    return (
        [_ordered((people[a], people[c]), (people[b], people[d])) for a, c, b, d in seated],
        {people[x] for x in sitting},
    )


_SIT = -1  # the option of sitting out


@dataclass
class _Frame:
    """One placed player of the search: its options, how many, tried so far, the option
    applied now, and the tables alive before it."""

    player: int
    options: Iterator[int]
    width: int
    alive: int
    tried: int = 0
    applied: int | None = None


class _Cover:
    """The tables without a repeat among `people` (indices), each player's as a bit mask,
    and who may sit out (`optional`) and does so first (`preferred`)."""

    def __init__(
        self,
        people: list[int],
        partnered: _Repeats,
        met: _Repeats,
        effort: Effort,
        optional: set[int],
        preferred: set[int],
    ) -> None:
        count = self.count = len(people)
        fresh_partners = [0] * count
        fresh_opponents = [0] * count
        for i in range(count):
            for j in range(i + 1, count):
                if not partnered(people[i], people[j]):
                    fresh_partners[i] |= 1 << j
                    fresh_partners[j] |= 1 << i
                if not met(people[i], people[j]):
                    fresh_opponents[i] |= 1 << j
                    fresh_opponents[j] |= 1 << i
        # Each table once: `a` its smallest index, `c` a's partner, b < d the other partnership.
        tables: list[tuple[int, int, int, int]] = []
        for a in range(count):
            above = -1 << (a + 1)
            for c in _bits(fresh_partners[a] & above):
                common = fresh_opponents[a] & fresh_opponents[c] & above
                for b in _bits(common):
                    later = common & fresh_partners[b] & (-1 << (b + 1))
                    tables.extend((a, c, b, d) for d in _bits(later))
            effort.spend(1 + len(tables) // 256)
        tables.sort(key=lambda t: max(t) - t[0])  # closest in the standings first
        rows = [bytearray((len(tables) + 8) // 8) for _ in range(count)]
        for index, table in enumerate(tables):
            byte, bit = index >> 3, 1 << (index & 7)
            for x in table:
                rows[x][byte] |= bit
        self.tables = tables
        self.of = [int.from_bytes(row, "little") for row in rows]  # each player's tables
        self.may_sit = [person in optional for person in people]
        self.sits_first = [person in preferred for person in people]
        self.placed = [False] * count

    def choose(self, alive: int, room: int) -> int | None:
        """The player to place next; None when the rest may all sit out, -1 at a dead end."""
        best, fewest, waiting, unplaced = -1, 0, 0, 0
        placed, may_sit, of = self.placed, self.may_sit, self.of
        for x in range(self.count):
            if placed[x]:
                continue
            unplaced += 1
            waiting += may_sit[x]
            options = (of[x] & alive).bit_count() + (may_sit[x] and room > 0)
            if best < 0 or options < fewest:
                best, fewest = x, options
                if not options:
                    break
        if unplaced == waiting == room:
            return None
        return -1 if waiting < room or not fewest else best

    def frame(self, x: int, alive: int, room: int) -> _Frame:
        mask = self.of[x] & alive
        sit = self.may_sit[x] and room > 0
        first = [_SIT] if sit and self.sits_first[x] else []
        last = [_SIT] if sit and not self.sits_first[x] else []
        return _Frame(x, chain(first, _bits(mask), last), mask.bit_count() + sit, alive)

    def search(
        self, room: int, effort: Effort, end: int, reports: bool
    ) -> tuple[list[tuple[int, int, int, int]], set[int]] | None:
        """The tables seated and the players sitting out, or None (no seating, or past `end`)."""
        tables, of, placed = self.tables, self.of, self.placed
        alive = (1 << len(tables)) - 1
        stack: list[_Frame] = []
        while True:
            x = self.choose(alive, room)
            if x is None:
                sitting = {y for y in range(self.count) if not placed[y]}
                sitting |= {frame.player for frame in stack if frame.applied == _SIT}
                seated = [frame.applied for frame in stack if frame.applied not in (None, _SIT)]
                return [tables[index] for index in seated if index is not None], sitting
            if x >= 0:
                stack.append(self.frame(x, alive, room))
            while stack:
                frame = stack[-1]
                if frame.applied is not None:  # undo it
                    alive = frame.alive
                    if frame.applied == _SIT:
                        room += 1
                        placed[frame.player] = False
                    else:
                        for y in tables[frame.applied]:
                            placed[y] = False
                    frame.applied = None
                option = next(frame.options, None)
                if option is None:
                    stack.pop()
                    continue
                frame.tried += 1
                frame.applied = option
                if option == _SIT:
                    room -= 1
                    placed[frame.player] = True
                    alive &= ~of[frame.player]
                else:
                    struck = 0
                    for y in tables[option]:
                        placed[y] = True
                        struck |= of[y]
                    alive &= ~struck
                if effort.spend() and reports:
                    effort.report(_share(stack))
                if effort.spent > end:
                    return None
                break
            else:
                return None


def _share(stack: list[_Frame]) -> float:
    """How much of the search tree lies before the current branch."""
    share, width = 0.0, 1.0
    for frame in stack:
        width /= frame.width
        share += (frame.tried - 1) * width
    return share


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _table_repeats(table: _Seating, partnered: _Repeats, met: _Repeats) -> int:
    (a, c), (b, d) = table
    return partnered(a, c) + partnered(b, d) + sum(met(x, y) for x in (a, c) for y in (b, d))


def _repaired(
    tables: list[_Seating], partnered: _Repeats, met: _Repeats, effort: Effort
) -> list[_Seating]:
    """Each table with a repeat re-seated with its neighbours where a search finds a seating
    of those players without repeats; tables are taken best-ranked first."""
    tables = sorted(tables, key=lambda t: min(t[0]))
    for span in _NEIGHBOURS:
        for index in range(len(tables)):
            if not _table_repeats(tables[index], partnered, met):
                continue
            low = max(0, min(index - span // 2, len(tables) - span))
            chosen = tables[low : low + span]
            players = sorted(x for table in chosen for pair in table for x in pair)
            found = _exact(players, set(), set(), 0, partnered, met, effort, _BLOCK_STEPS, False)
            if found is not None:
                tables[low : low + span] = found[0]
    return tables


def repeats(round_: RotatingRound, players: Sequence[RotatingPlayer]) -> Repeats:
    """How much of the round repeats the history carried by `players`."""
    by_id = {p.id: p for p in players}
    partners = opponents = 0
    for (a, b), (c, d) in round_.tables:
        partners += (b in by_id[a].partners) + (d in by_id[c].partners)
        opponents += sum(by_id[x].opponents.get(y, 0) > 0 for x in (a, b) for y in (c, d))
    return Repeats(partners, opponents)
