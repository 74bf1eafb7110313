"""Elimination brackets (single, double), result propagation, and group-stage play-offs.

A bracket is a flat list of matches with 1-based ids in playable order; every match slot names
its source: a seed, or the winner/loser of an earlier match. A storage layer can persist that
as it is and rebuild the current slots with :func:`advance` from the recorded winners.

Brackets are built on the next power of two with standard seeding (1 v 16, 8 v 9, 4 v 13, ...),
so byes go to the top seeds and are spread over halves, quarters, ...; a match with a bye is not
a match at all: the seed's slot in round 2 names the seed directly. The same elimination is
applied to the losers' bracket of a double elimination, so there are always N - 1 matches in a
single elimination (+1 third-place match) and 2N - 2 in a double (+1 grand-final reset).
"""

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Generic, Literal, TypeVar

from ._matching import min_cost_matching

Stage = Literal["winners", "losers", "third_place", "grand_final", "grand_final_reset"]


@dataclass(frozen=True)
class Source:
    """Where a slot's entrant comes from: seed number `ref`, or winner/loser of match `ref`."""

    kind: Literal["seed", "winner", "loser"]
    ref: int


@dataclass(frozen=True)
class BracketMatch:
    """A match; `round` counts within its stage. A grand-final reset is `if_necessary`:
    played only if the losers'-bracket champion (the away side) wins the grand final."""

    id: int
    stage: Stage
    round: int
    home: Source
    away: Source
    if_necessary: bool = False


@dataclass(frozen=True)
class Bracket:
    entrants: int
    matches: tuple[BracketMatch, ...]

    def match(self, match_id: int) -> BracketMatch:
        return self.matches[match_id - 1]


Id = TypeVar("Id", bound=Hashable)  # an entrant, as the caller names it


@dataclass(frozen=True)
class MatchState(Generic[Id]):
    """Current slots of a match; `needed` is False for a grand-final reset that is not played
    (or not yet known to be)."""

    home: Id | None
    away: Id | None
    winner: Id | None = None
    needed: bool = True

    @property
    def loser(self) -> Id | None:
        if self.winner is None:
            return None
        return self.away if self.winner == self.home else self.home


def seeding_order(size: int) -> list[int]:
    """Seeds in bracket-slot order for a power-of-two `size`: 8 -> [1, 8, 4, 5, 2, 7, 3, 6]."""
    if size < 1 or size & (size - 1):
        raise ValueError("bracket size must be a power of two")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


# A raw source before byes are removed: ("seed", n) or ("winner"/"loser", raw match index).
_Raw = tuple[str, int]


class _Builder:
    """Collects the matches of a full power-of-two bracket, then removes those with byes."""

    def __init__(self, entrants: int) -> None:
        if entrants < 2:
            raise ValueError("an elimination bracket needs at least two entrants")
        self.entrants = entrants
        self.size = 1 << (entrants - 1).bit_length()
        self.raw: list[tuple[Stage, int, _Raw, _Raw, bool]] = []

    def add(
        self, stage: Stage, round_: int, home: _Raw, away: _Raw, if_necessary: bool = False
    ) -> int:
        self.raw.append((stage, round_, home, away, if_necessary))
        return len(self.raw) - 1

    def winners_bracket(self) -> list[list[int]]:
        order = seeding_order(self.size)
        rounds = [
            [
                self.add("winners", 1, ("seed", order[i]), ("seed", order[i + 1]))
                for i in range(0, self.size, 2)
            ]
        ]
        while len(rounds[-1]) > 1:
            previous = rounds[-1]
            rounds.append(
                [
                    self.add("winners", len(rounds) + 1, ("winner", a), ("winner", b))
                    for a, b in zip(previous[::2], previous[1::2], strict=True)
                ]
            )
        return rounds

    def build(self) -> Bracket:
        resolved: dict[int, Source | None] = {}  # raw index -> winner's source if not played
        ids: dict[int, int] = {}
        matches: list[BracketMatch] = []

        def source(raw: _Raw) -> Source | None:
            kind, ref = raw
            if kind == "seed":
                return Source("seed", ref) if ref <= self.entrants else None
            if ref in ids:
                return Source(kind, ids[ref])  # type: ignore[arg-type]
            return resolved[ref] if kind == "winner" else None  # nobody loses a bye

        for index, (stage, round_, home_raw, away_raw, if_necessary) in enumerate(self.raw):
            home, away = source(home_raw), source(away_raw)
            if home is None or away is None:
                resolved[index] = away if home is None else home
                continue
            ids[index] = len(matches) + 1
            matches.append(BracketMatch(ids[index], stage, round_, home, away, if_necessary))
        # Renumber rounds per stage so that rounds emptied by byes disappear.
        renumber = {}
        for stage in {m.stage for m in matches}:
            kept = sorted({m.round for m in matches if m.stage == stage})
            renumber.update({(stage, r): n for n, r in enumerate(kept, start=1)})
        return Bracket(
            entrants=self.entrants,
            matches=tuple(replace(m, round=renumber[m.stage, m.round]) for m in matches),
        )


def single_elimination(entrants: int, *, third_place: bool = False) -> Bracket:
    """Single elimination for `entrants` seeds (1 = best); the third-place match needs 4+."""
    builder = _Builder(entrants)
    rounds = builder.winners_bracket()
    if third_place and len(rounds) >= 2:
        semis = rounds[-2]
        builder.add("third_place", 1, ("loser", semis[0]), ("loser", semis[1]))
    return builder.build()


def _drop_order(losers: list[int], drop: int) -> list[int]:
    """Order in which the losers of a winners'-bracket round meet the losers' bracket.

    Drop 1 is reversed, so that a round-2 loser never meets again the entrant they beat in
    round 1; later drops reverse each half (even drops) or swap halves (odd drops), sending
    entrants to the part of the losers' bracket fed by the other side of the winners' bracket.
    In simulations with random results this halves late-round rematches against plain reversal.
    """
    half = len(losers) // 2
    if drop == 1:
        return losers[::-1]
    if drop % 2 == 0:
        return losers[:half][::-1] + losers[half:][::-1]
    return losers[half:] + losers[:half]


def double_elimination(entrants: int, *, grand_final_reset: bool = True) -> Bracket:
    """Double elimination: winners' and losers' brackets, grand final, optional reset."""
    builder = _Builder(entrants)
    rounds = builder.winners_bracket()
    final = rounds[-1][0]
    if len(rounds) == 1:
        champion: _Raw = ("loser", final)
    else:
        first = rounds[0]
        survivors = [
            builder.add("losers", 1, ("loser", a), ("loser", b))
            for a, b in zip(first[::2], first[1::2], strict=True)
        ]
        round_ = 1
        for drop, wb_round in enumerate(rounds[1:], start=1):
            round_ += 1
            dropped = _drop_order(wb_round, drop)
            survivors = [
                builder.add("losers", round_, ("loser", d), ("winner", s))
                for d, s in zip(dropped, survivors, strict=True)
            ]
            if len(survivors) > 1:
                round_ += 1
                survivors = [
                    builder.add("losers", round_, ("winner", a), ("winner", b))
                    for a, b in zip(survivors[::2], survivors[1::2], strict=True)
                ]
        champion = ("winner", survivors[0])
    grand_final = builder.add("grand_final", 1, ("winner", final), champion)
    if grand_final_reset:
        builder.add("grand_final_reset", 1, ("winner", grand_final), ("loser", grand_final), True)
    return builder.build()


def advance(
    bracket: Bracket, seeds: Sequence[Id], results: Mapping[int, Id]
) -> dict[int, MatchState[Id]]:
    """Fill every match's slots from the seeds (seed 1 first) and the recorded winners.

    `results` maps match id to the winning entrant. Raises ValueError for a result whose
    winner is not in that match or a result recorded for a match that cannot be played.
    """
    if len(seeds) != bracket.entrants:
        raise ValueError(f"expected {bracket.entrants} seeds, got {len(seeds)}")
    unknown = set(results).difference(m.id for m in bracket.matches)
    if unknown:
        raise ValueError(f"unknown match ids: {sorted(unknown)}")
    states: dict[int, MatchState[Id]] = {}

    def entrant(source: Source) -> Id | None:
        if source.kind == "seed":
            return seeds[source.ref - 1]
        state = states[source.ref]
        return state.winner if source.kind == "winner" else state.loser

    for match in bracket.matches:
        home, away = entrant(match.home), entrant(match.away)
        needed = True
        if match.if_necessary:
            decider = states[match.home.ref]
            needed = decider.winner is not None and decider.winner == decider.away
        winner = results.get(match.id)
        if winner is not None and (
            not needed or None in (home, away) or winner not in (home, away)
        ):
            raise ValueError(f"match {match.id}: {winner!r} cannot have won it")
        states[match.id] = MatchState(home, away, winner, needed)
    return states


def dependents_to_reset(
    bracket: Bracket, match_id: int, results: Mapping[int, Hashable]
) -> set[int]:
    """Played matches invalidated if the result of `match_id` changes.

    Changing a winner moves both the winner and the loser, so every played match fed by it,
    directly or through other played matches, has to be reset.
    """
    fed_by: dict[int, list[int]] = {m.id: [] for m in bracket.matches}
    for match in bracket.matches:
        for source in (match.home, match.away):
            if source.kind != "seed":
                fed_by[source.ref].append(match.id)
    reset: set[int] = set()
    stack = list(fed_by[match_id])
    while stack:
        current = stack.pop()
        if current in results and current not in reset:
            reset.add(current)
            stack.extend(fed_by[current])
    return reset


def snake_groups(entrants: Sequence[Id], groups: int) -> list[list[Id]]:
    """Split seeded entrants (best first) into groups: A B C D D C B A A B ..."""
    if groups < 1:
        raise ValueError("need at least one group")
    result: list[list[Id]] = [[] for _ in range(groups)]
    for index, entrant in enumerate(entrants):
        lap, offset = divmod(index, groups)
        result[offset if lap % 2 == 0 else groups - 1 - offset].append(entrant)
    return result


def playoff_seeds(
    standings: Sequence[Sequence[Id]],
    per_group: int,
    *,
    best_of_rest: int = 0,
    overall: Sequence[Id] | None = None,
) -> list[Id]:
    """Play-off seed list (seed 1 first) from final group standings (each group best first).

    Qualifiers are the top `per_group` of every group plus the `best_of_rest` best others.
    `overall` is a ranking of all group entrants across groups (e.g. by normalised stats);
    it orders each tier (all group winners, then all runners-up, ...) and picks the best of
    the rest; without it tiers follow group order. Tiers take consecutive seed numbers, so
    group winners get the top seeds (and any byes) and avoid each other until the late
    rounds; within a tier seeds are permuted, by a min-cost assignment, to keep entrants of
    the same group apart: opposite halves where possible, otherwise as late as possible.
    """
    group_of = {e: g for g, members in enumerate(standings) for e in members}
    order = {e: i for i, e in enumerate(overall)} if overall is not None else None
    tiers = []
    for place in range(per_group):
        tier = [members[place] for members in standings if len(members) > place]
        if order is not None:
            tier.sort(key=order.__getitem__)
        tiers.append(tier)
    if best_of_rest:
        if overall is None:
            raise ValueError("best_of_rest needs an overall ranking")
        qualified = {e for tier in tiers for e in tier}
        tiers.append([e for e in overall if e in group_of and e not in qualified][:best_of_rest])
    total = sum(len(tier) for tier in tiers)
    if total < 2:
        raise ValueError("a play-off needs at least two qualifiers")
    size = 1 << (total - 1).bit_length()
    slot = {s: i for i, s in enumerate(seeding_order(size))}
    rounds = size.bit_length() - 1
    seeds: list[Id] = []
    for tier in tiers:
        first = len(seeds) + 1
        costs = {}
        for i, entrant in enumerate(tier):
            mates = [n for n, e in enumerate(seeds, 1) if group_of[e] == group_of[entrant]]
            for j in range(len(tier)):
                # Meeting in round r of `rounds` costs 2**(rounds - r) - 1: 0 in the final.
                clash = sum(
                    2 ** (rounds - (slot[first + j] ^ slot[m]).bit_length()) - 1 for m in mates
                )
                costs[(i, len(tier) + j)] = (clash, abs(i - j))
        placed = sorted(
            (v - len(tier), u) for u, v in min_cost_matching(range(2 * len(tier)), costs)
        )
        seeds.extend(tier[i] for _, i in placed)
    return seeds
