"""Tiebreak arithmetic and ranking by a published, ordered list of tiebreak keys.

Results are plain :class:`MatchResult` values between two sides; in rotating-partner events a
side is a player and their partner (``partner_a`` / ``partner_b``) and both share the result.
All keys are "higher is better":

``score``            the standings score: ``stats[id]["score"]`` if given (e.g. league points),
                     else ``match_wins``
``match_wins``       match points: a win earns its result's `value` (1, or the shutout
                     multiplier for a shutout, as the main table counts it), a draw half a point
``games_won``        games won (``games_a`` / ``games_b``)
``points_for``       points scored
``point_difference`` points scored minus points conceded
``head_to_head``     ``match_wins`` in the mini-table of the entrants still tied on every
                     earlier key (a shutout counts its `value` there too); if it separates
                     some of them, it is applied again to each group still tied (recursive
                     mini-table) before moving to the next key
``buchholz``         sum of the opponents' scores (``buchholz_cut1``: without the weakest)
``sonneborn_berger`` opponents' scores weighted by the result against them (1, ½, 0)
``partner_aware``    opponents' scores minus partners' scores (individual events: partnering
                     strong players is an advantage, facing them a handicap)
``lots``             a deterministic draw from `seed`, breaking every remaining tie

Any other key is read from `stats` (a league layer can add its own).
"""

import random
from collections import defaultdict
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple


@dataclass(frozen=True)
class MatchResult:
    """A result between sides `a` and `b`; `winner` is `a`, `b`, or None for a draw.

    `value` is what the win is worth in match points: 1, or the event's shutout multiplier
    when the win was a shutout (a draw is worth half a point to each side whatever it is).
    """

    a: Hashable
    b: Hashable
    winner: Hashable | None
    points_a: float = 0
    points_b: float = 0
    games_a: int = 0
    games_b: int = 0
    partner_a: Hashable | None = None
    partner_b: Hashable | None = None
    value: float = 1


@dataclass(frozen=True)
class Standing:
    """`rank` is shared by entrants tied on every key (1, 2, 2, 4, ...); `values` holds the
    key values used (``head_to_head`` as computed in the last mini-table applied)."""

    id: Hashable
    rank: int
    values: Mapping[str, float]


class _Appearance(NamedTuple):  # a tuple: made for every side of every result, many times
    entrant: Hashable
    partners: tuple[Hashable, ...]
    opponents: tuple[Hashable, ...]
    result: float  # 1 win, 0.5 draw, 0 loss
    match_points: float  # the result weighted by the win's value
    points_for: float
    points_against: float
    games_for: int


def _appearances(results: Sequence[MatchResult]) -> list[_Appearance]:
    """Every side's appearance in every result: one for each of its players."""
    seen: list[_Appearance] = []
    for r in results:
        side_a = (r.a,) if r.partner_a is None else (r.a, r.partner_a)
        side_b = (r.b,) if r.partner_b is None else (r.b, r.partner_b)
        if r.winner not in (r.a, r.b, None):
            raise ValueError(f"winner {r.winner!r} is neither {r.a!r} nor {r.b!r}")
        outcome = 0.5 if r.winner is None else float(r.winner == r.a)
        for own, other, result, pf, pa, gf in (
            (side_a, side_b, outcome, r.points_a, r.points_b, r.games_a),
            (side_b, side_a, 1 - outcome, r.points_b, r.points_a, r.games_b),
        ):
            points = result * r.value if result == 1 else result
            for entrant in own:
                partners = tuple(p for p in own if p != entrant) if len(own) > 1 else ()
                seen.append(_Appearance(entrant, partners, other, result, points, pf, pa, gf))
    return seen


def _total(seen: Sequence[_Appearance], values: Iterable[float]) -> dict[Hashable, float]:
    """Each entrant's sum of `values`, one for each appearance in `seen`."""
    totals: dict[Hashable, float] = defaultdict(float)
    for x, value in zip(seen, values, strict=True):
        totals[x.entrant] += value
    return dict(totals)


def _match_points(seen: Sequence[_Appearance]) -> dict[Hashable, float]:
    return _total(seen, [x.match_points for x in seen])


@dataclass
class _Played:
    """The results as the keys read them: each side's appearances (made once for all the
    keys `rank` computes) and the scores their opponents are worth."""

    seen: list[_Appearance]
    scores: Mapping[Hashable, float]

    @cached_property
    def opposition(self) -> list[float]:
        """Each appearance's opponents' scores, summed (Buchholz and the like share it)."""
        get = self.scores.get
        return [sum(get(o, 0) for o in x.opponents) for x in self.seen]


def _buchholz(played: _Played, cut: int = 0) -> dict[Hashable, float]:
    per_match: dict[Hashable, list[float]] = defaultdict(list)
    for x, opposition in zip(played.seen, played.opposition, strict=True):
        per_match[x.entrant].append(opposition)
    return {e: sum(sorted(values)[cut:]) for e, values in per_match.items()}


def _sonneborn_berger(played: _Played) -> dict[Hashable, float]:
    weighted = [x.result * o for x, o in zip(played.seen, played.opposition, strict=True)]
    return _total(played.seen, weighted)


def _partner_aware(played: _Played) -> dict[Hashable, float]:
    get = played.scores.get
    net = [
        o - sum(get(p, 0) for p in x.partners)
        for x, o in zip(played.seen, played.opposition, strict=True)
    ]
    return _total(played.seen, net)


def _point_difference(played: _Played) -> dict[Hashable, float]:
    return _total(played.seen, [x.points_for - x.points_against for x in played.seen])


_GLOBAL_KEYS: dict[str, Callable[[_Played], dict[Hashable, float]]] = {
    "match_wins": lambda played: _match_points(played.seen),
    "games_won": lambda played: _total(played.seen, [x.games_for for x in played.seen]),
    "points_for": lambda played: _total(played.seen, [x.points_for for x in played.seen]),
    "point_difference": _point_difference,
    "buchholz": _buchholz,
    "buchholz_cut1": lambda played: _buchholz(played, cut=1),
    "sonneborn_berger": _sonneborn_berger,
    "partner_aware": _partner_aware,
}
TIEBREAK_KEYS = ("score", *_GLOBAL_KEYS, "head_to_head", "lots")


def match_wins(results: Sequence[MatchResult]) -> dict[Hashable, float]:
    """Match points: each win counts its `value` (a shutout the multiplier), a draw half."""
    return _match_points(_appearances(results))


def point_difference(results: Sequence[MatchResult]) -> dict[Hashable, float]:
    return _point_difference(_Played(_appearances(results), {}))


def buchholz(
    results: Sequence[MatchResult], scores: Mapping[Hashable, float], *, cut: int = 0
) -> dict[Hashable, float]:
    """Sum of opponents' scores over the matches played, without the `cut` weakest matches."""
    return _buchholz(_Played(_appearances(results), scores), cut)


def sonneborn_berger(
    results: Sequence[MatchResult], scores: Mapping[Hashable, float]
) -> dict[Hashable, float]:
    return _sonneborn_berger(_Played(_appearances(results), scores))


def partner_aware(
    results: Sequence[MatchResult], scores: Mapping[Hashable, float]
) -> dict[Hashable, float]:
    return _partner_aware(_Played(_appearances(results), scores))


def head_to_head(
    group: Collection[Hashable], results: Sequence[MatchResult]
) -> dict[Hashable, float]:
    """``match_wins`` counting only matches in which both sides include members of `group`.

    It counts match points exactly as the main table does: a shutout win counts its `value`
    (the event's shutout multiplier) here too, not once.
    """
    members = set(group)
    among = [r for r in results if members & {r.a, r.partner_a} and members & {r.b, r.partner_b}]
    wins = match_wins(among)
    return {e: wins.get(e, 0.0) for e in group}


def rank(
    entrants: Sequence[Hashable],
    results: Sequence[MatchResult],
    order: Sequence[str],
    *,
    stats: Mapping[Hashable, Mapping[str, float]] | None = None,
    seed: int | str = 0,
) -> list[Standing]:
    """Rank `entrants` by the keys in `order`, best first, with shared ranks for full ties.

    `stats` values (per entrant, per key) take precedence over values computed from
    `results`; keys outside :data:`TIEBREAK_KEYS` must come from `stats`.
    """
    stats = stats or {}
    seen = _appearances(results)
    scores = _match_points(seen)
    scores.update({e: s["score"] for e, s in stats.items() if "score" in s})
    played = _Played(seen, scores)
    values: dict[Hashable, dict[str, float]] = {e: {} for e in entrants}
    for key in order:
        if key == "head_to_head":
            continue
        if key == "score":
            computed: Mapping[Hashable, float] = scores
        elif key == "lots":
            computed = {e: random.Random(f"{seed}:{e!r}").random() for e in entrants}
        elif key in _GLOBAL_KEYS:
            computed = _GLOBAL_KEYS[key](played)
        elif all(key in stats.get(e, {}) for e in entrants):
            computed = {}
        else:
            raise ValueError(f"unknown tiebreak key {key!r} (and not in stats for everyone)")
        for e in entrants:
            values[e][key] = stats.get(e, {}).get(key, computed.get(e, 0.0))

    def classes(group: list[Hashable], value: Callable[[Hashable], float]) -> list[list[Hashable]]:
        by_value: dict[float, list[Hashable]] = defaultdict(list)
        for e in group:
            by_value[value(e)].append(e)
        return [by_value[v] for v in sorted(by_value, reverse=True)]

    def mini_tables(group: list[Hashable]) -> list[list[Hashable]]:
        mini = head_to_head(group, results)
        for e in group:
            values[e]["head_to_head"] = mini[e]
        split = classes(group, mini.__getitem__)
        if len(split) == 1:
            return split
        return [part for tied in split for part in mini_tables(tied)]

    def ordered(group: list[Hashable], depth: int) -> list[list[Hashable]]:
        if len(group) == 1 or depth == len(order):
            return [group]
        key = order[depth]
        if key == "head_to_head":
            split = mini_tables(group)
        else:
            split = classes(group, lambda e: values[e][key])
        return [part for tied in split for part in ordered(tied, depth + 1)]

    standings: list[Standing] = []
    for tied in ordered(list(entrants), 0):
        shared = len(standings) + 1
        standings.extend(Standing(e, shared, values[e]) for e in tied)
    return standings
