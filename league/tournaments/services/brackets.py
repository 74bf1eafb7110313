"""Elimination brackets (single, double, and the playoff after a group stage).

The bracket's shape comes from the pure `league.pairing` functions (its kind, number of
seeds and options); `BracketSlot` links a bracket match to the core `Match` that is played.
`sync` creates a match as soon as both of its entrants are known, from the seeds and the
confirmed winners (`league.pairing.advance`); it runs after every confirmed result.

Changing the winner of a match whose dependents were played resets them: the organiser sees
them first (`reset_preview`) and the correction goes through only when they confirm exactly
that list (`correct_result`).
"""

import random
from collections.abc import Collection
from dataclasses import dataclass

from django.db import transaction
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from ...models import Entry, Event, Match, Result, Round
from ...models.events import round_label
from ...pairing import Bracket as Shape
from ...pairing import (
    BracketMatch,
    MatchState,
    advance,
    dependents_to_reset,
    double_elimination,
    single_elimination,
)
from ...ratings.models import Rating
from ...ratings.services import global_pool, pool_of
from ...services import results as core_results
from ...services.audit import audit
from ...services.errors import ServiceError
from ..models import Bracket, BracketSeed, BracketSlot, Tournament
from .common import (
    ELIMINATION_FORMATS,
    confirmed_winners,
    lock_event,
    next_round_number,
    playing_entries,
    start_play,
    tournament_of,
)

# The rounds' names as the database keeps them (`round_label` gives them in the reader's
# language): a bracket's last rounds by their names, the others by stage and number.
STAGE_NAMES = {
    "winners": "Round {n}",
    "losers": "Losers' round {n}",
    "third_place": "Third-place match",
    "grand_final": "Grand final",
    "grand_final_reset": "Grand final reset",
}
LAST_ROUNDS = {
    "single": ("Final", "Semi-finals", "Quarter-finals"),
    "double": ("Winners' final", "Winners' semi-finals"),
}


def shape_of(bracket: Bracket, entrants: int | None = None) -> Shape:
    entrants = entrants or bracket.seeds.count()
    if bracket.kind == Bracket.Kind.SINGLE:
        return single_elimination(entrants, third_place=bracket.third_place)
    return double_elimination(entrants, grand_final_reset=bracket.grand_final_reset)


def round_name(match: BracketMatch, shape: Shape) -> str:
    """ "Final", "Semi-finals", "Round 1", "Losers' round 2"...: the round's name in English,
    as the database keeps it."""
    if match.stage == "winners":
        last = max(m.round for m in shape.matches if m.stage == "winners")
        from_end = last - match.round
        single = shape.matches[-1].stage in ("winners", "third_place")
        names = LAST_ROUNDS["single" if single else "double"]
        if from_end < len(names):
            return names[from_end]
    return STAGE_NAMES[match.stage].format(n=match.round)


def stage_rounds(shape: Shape) -> list[tuple[str, int]]:
    """(stage, round) in the order they are played; a round's core number is its index
    plus the bracket's first round."""
    keys: list[tuple[str, int]] = []
    for match in shape.matches:
        if (match.stage, match.round) not in keys:
            keys.append((match.stage, match.round))
    return keys


def entry_ratings(event: Event, entries: list[Entry]) -> dict[int, float]:
    """Each entry's rating: the mean of its players' ratings in the pool the event feeds
    (else the global ranking); an unrated player counts as a newcomer (0)."""
    pool = pool_of(event) or global_pool()
    ratings = dict(
        Rating.objects.filter(
            pool=pool, player__in=[p for e in entries for p in e.players]
        ).values_list("player_id", "ordinal")
    )
    return {
        e.pk: sum(ratings.get(p.pk, 0.0) for p in e.players) / max(len(e.players), 1)
        for e in entries
    }


def seeded(tournament: Tournament, entries: list[Entry], *, keep_lots: bool = True) -> list[Entry]:
    """Seed order by the event's seeding: rating, registration, or a fresh draw of lots
    (kept as the entries' lots, unless this is only a preview)."""
    if tournament.seeding == Tournament.Seeding.RATING:
        rating = entry_ratings(tournament.event, entries)
        return sorted(entries, key=lambda e: -rating[e.pk])
    if tournament.seeding == Tournament.Seeding.LOT:
        lots = list(range(1, len(entries) + 1))
        random.SystemRandom().shuffle(lots)
        for entry, lot in zip(entries, lots, strict=True):
            entry.lot = lot
        if keep_lots:
            Entry.objects.bulk_update(entries, ["lot"])
        return sorted(entries, key=lambda e: e.lot or 0)
    return entries


def seeds_for(
    tournament: Tournament, entries: list[Entry], seeds: list[Entry] | None, keep_lots: bool
) -> list[Entry]:
    """The seeds given by hand, which must be every entry that plays, each once; or, without
    them, the event's seeding."""
    if seeds is None:
        return seeded(tournament, entries, keep_lots=keep_lots)
    if sorted(e.pk for e in seeds) != sorted(e.pk for e in entries):
        raise ServiceError(
            "bad_seeds",
            _("Seed every entry that plays exactly once (%(n)s entries).") % {"n": len(entries)},
        )
    return seeds


def _ready_pair(state: MatchState[int]) -> tuple[int, int] | None:
    """The two entries of a match that is to be played with both known."""
    if state.needed and state.home is not None and state.away is not None:
        return state.home, state.away
    return None


def consistent_states(
    shape: Shape, seeds: list[int], results: dict[int, int]
) -> tuple[dict[int, MatchState[int]], set[int]]:
    """The bracket's states from the results that still fit it, and the numbers of the
    matches whose recorded winner no longer does (stale, waiting for a reset)."""
    kept: dict[int, int] = {}
    stale = set()
    for match in shape.matches:
        if match.id not in results:
            continue
        try:
            advance(shape, seeds, {**kept, match.id: results[match.id]})
        except ValueError:
            stale.add(match.id)
        else:
            kept[match.id] = results[match.id]
    return advance(shape, seeds, kept), stale


@dataclass
class SlotView:
    """One bracket match as pages show it."""

    number: int
    stage: str
    round: int
    name: str | Promise  # in the reader's language
    home: Entry | None
    away: Entry | None
    winner: Entry | None
    needed: bool
    match: Match | None
    stale: bool
    points: tuple[int, int] | None = None  # (home, away) of the confirmed result
    fed_by: tuple[int, ...] = ()  # the matches of this stage whose winners come here


def bracket_view(bracket: Bracket) -> list[SlotView]:
    seeds = list(bracket.seeds.select_related("entry"))
    shape = shape_of(bracket, len(seeds))
    slots = {s.number: s.match for s in bracket.slots.select_related("match")}
    winners = confirmed_winners(bracket.event)
    results = {n: winners[m.pk] for n, m in slots.items() if m.pk in winners}
    confirmed = Result.objects.filter(
        match__in=slots.values(), status=Result.Status.CONFIRMED
    ).values_list("match_id", "match__entry_a_id", "points_a", "points_b")
    points = {m: {a: (pa, pb)} for m, a, pa, pb in confirmed}
    return _views(shape, [s.entry for s in seeds], slots, results, points)


def _views(
    shape: Shape,
    seeds: list[Entry],
    slots: dict[int, Match],
    results: dict[int, int],
    points: dict[int, dict],
) -> list[SlotView]:
    """The bracket's matches as pages show them, from its seeds and what was played."""
    entries: dict[int | None, Entry] = {e.pk: e for e in seeds}
    states, stale = consistent_states(shape, [e.pk for e in seeds], results)
    return [
        SlotView(
            m.id,
            m.stage,
            m.round,
            round_label(round_name(m, shape)),
            entries.get(states[m.id].home),
            entries.get(states[m.id].away),
            entries.get(states[m.id].winner),
            states[m.id].needed,
            slots.get(m.id),
            m.id in stale,
            _home_away(points, slots.get(m.id), states[m.id].home),
            tuple(
                source.ref
                for source in (m.home, m.away)
                if source.kind == "winner" and shape.match(source.ref).stage == m.stage
            ),
        )
        for m in shape.matches
    ]


@dataclass(frozen=True)
class Draw:
    """A bracket as drawn, or as it would be drawn: its kind and options, its seeds (best
    first) and its matches."""

    kind: str
    third_place: bool
    grand_final_reset: bool
    first_round: int
    seeds: list[Entry]
    slots: list[SlotView]


def drawn(bracket: Bracket) -> Draw:
    seeds = [s.entry for s in bracket.seeds.select_related("entry")]
    options = (bracket.kind, bracket.third_place, bracket.grand_final_reset, bracket.first_round)
    return Draw(*options, seeds, bracket_view(bracket))


def _planned(event: Event, kind: str, seeds: list[Entry], first_round: int) -> Bracket:
    """The bracket `build` would make (not saved)."""
    if len(seeds) < 2:
        raise ServiceError("too_few_entries", _("A bracket needs at least two entries."))
    tournament = tournament_of(event)
    return Bracket(
        event=event,
        kind=kind,
        third_place=tournament.third_place and len(seeds) >= 4,
        grand_final_reset=tournament.grand_final_reset,
        first_round=first_round,
    )


def preview(event: Event, kind: str, seeds: list[Entry], first_round: int) -> Draw:
    """What `build` would draw, saving nothing: the first matches, and what follows."""
    bracket = _planned(event, kind, seeds, first_round)
    shape = shape_of(bracket, len(seeds))
    views = _views(shape, seeds, {}, {}, {})
    options = (bracket.kind, bracket.third_place, bracket.grand_final_reset, bracket.first_round)
    return Draw(*options, seeds, views)


def _home_away(points: dict, match: Match | None, home: int | None) -> tuple[int, int] | None:
    """The confirmed result's points as (home, away)."""
    if match is None or match.pk not in points:
        return None
    ((a, (pa, pb)),) = points[match.pk].items()
    return (pa, pb) if a == home else (pb, pa)


def sync(bracket: Bracket) -> None:
    """Create the matches whose entrants are known; move or remove unplayed ones that the
    results no longer lead to. Runs inside the caller's transaction."""
    event = bracket.event
    seeds = list(bracket.seeds.values_list("entry_id", flat=True))
    shape = shape_of(bracket, len(seeds))
    slots = {s.number: s for s in bracket.slots.select_related("match")}
    winners = confirmed_winners(event)
    results = {n: winners[s.match_id] for n, s in slots.items() if s.match_id in winners}
    states, _stale = consistent_states(shape, seeds, results)
    numbers = {key: bracket.first_round + i for i, key in enumerate(stage_rounds(shape))}
    for m in shape.matches:
        state, slot = states[m.id], slots.get(m.id)
        pair = _ready_pair(state)
        if slot is None:
            if pair is not None:
                round_, _created = Round.objects.get_or_create(
                    event=event,
                    number=numbers[m.stage, m.round],
                    defaults={"name": round_name(m, shape)},
                )
                table = _free_table(bracket)
                match = Match.objects.create(
                    event=event,
                    round=round_,
                    entry_a_id=pair[0],
                    entry_b_id=pair[1],
                    table=table,
                    venue=event.venue,
                )
                BracketSlot.objects.create(bracket=bracket, number=m.id, match=match)
            continue
        match = slot.match
        if match.pk in winners:
            continue  # played: only a confirmed reset changes it
        if pair is None:
            match.delete()
        elif (match.entry_a_id, match.entry_b_id) != pair:
            match.results.filter(status__in=Result.OPEN).update(status=Result.Status.REJECTED)
            match.entry_a_id, match.entry_b_id = pair
            match.save(update_fields=["entry_a", "entry_b"])
    Round.objects.filter(event=event, number__gte=bracket.first_round, matches=None).delete()


def _free_table(bracket: Bracket) -> int:
    """The lowest table no bracket match still to play sits at: the rounds a bracket plays
    at once (a final and the third-place match, the winners' and the losers' rounds) share
    the room."""
    taken = set(
        Match.objects.filter(
            event=bracket.event,
            round__number__gte=bracket.first_round,
            status__in=(Match.Status.SCHEDULED, Match.Status.POSTPONED),
        ).values_list("table", flat=True)
    )
    return next(n for n in range(1, len(taken) + 2) if n not in taken)


def build(user, event: Event, kind: str, seeds: list[Entry], first_round: int) -> Bracket:
    """Create a bracket for `seeds` (seed 1 first) and its first matches."""
    bracket = _planned(event, kind, seeds, first_round)
    bracket.save()
    BracketSeed.objects.bulk_create(
        BracketSeed(bracket=bracket, number=n, entry=entry) for n, entry in enumerate(seeds, 1)
    )
    sync(bracket)
    start_play(user, event)
    audit(
        user,
        "bracket.create",
        bracket,
        event=event,
        after={"kind": kind, "seeds": [e.pk for e in seeds]},
    )
    return bracket


def _elimination(event: Event, seeds: list[Entry] | None, keep_lots: bool) -> tuple:
    """The kind, seeds and first round of an elimination event's bracket, once it may be
    drawn (`seeds` by hand, or by the event's seeding)."""
    if Bracket.objects.filter(event=event).exists():
        raise ServiceError("bracket_exists", _("The bracket has already been drawn."))
    seeds = seeds_for(tournament_of(event), playing_entries(event), seeds, keep_lots)
    single = event.format == Event.Format.SINGLE_ELIMINATION
    kind = Bracket.Kind.SINGLE if single else Bracket.Kind.DOUBLE
    return kind, seeds, next_round_number(event)


@transaction.atomic
def create_bracket(user, event: Event, seeds: list[Entry] | None = None) -> Bracket:
    """Seed and draw the bracket of a single- or double-elimination event.

    `seeds` (best first) is the organiser's seeding by hand; without it the event's seeding
    option decides.
    """
    event = lock_event(user, event, *ELIMINATION_FORMATS)
    return build(user, event, *_elimination(event, seeds, keep_lots=True))


@transaction.atomic
def preview_bracket(user, event: Event, seeds: list[Entry] | None = None) -> Draw:
    """The bracket `create_bracket` would draw, saving nothing. Seeded by lot, it is one
    draw of lots: give its seeds to `create_bracket` to draw exactly this one."""
    event = lock_event(user, event, *ELIMINATION_FORMATS)
    return preview(event, *_elimination(event, seeds, keep_lots=False))


def reset_preview(match: Match, games) -> list[Match]:
    """The played matches that entering `games` for `match` would reset (empty when its
    winner stays the same)."""
    slot = BracketSlot.objects.select_related("bracket__event").filter(match=match).first()
    if slot is None:
        return []
    new = core_results.score(match.event, games)
    current = match.results.filter(status=Result.Status.CONFIRMED).first()
    if current is None or current.winner == ("a" if new["games_a"] > new["games_b"] else "b"):
        return []
    bracket = slot.bracket
    winners = confirmed_winners(bracket.event)
    slots = {s.number: s.match for s in bracket.slots.select_related("match")}
    results = {n: winners[m.pk] for n, m in slots.items() if m.pk in winners}
    numbers = dependents_to_reset(shape_of(bracket), slot.number, results)
    return sorted((slots[n] for n in numbers), key=lambda m: (m.round.number, m.table or 0))


@transaction.atomic
def correct_result(
    user,
    match: Match,
    games,
    note: str,
    confirm_reset: Collection[int] = (),
    lisa: bool | None = None,
) -> list[Match]:
    """Correct a bracket match's confirmed result; returns the matches that were reset.

    If later matches depend on it, `confirm_reset` must list exactly their ids (the list the
    organiser was shown by `reset_preview`); otherwise nothing changes.
    """
    lock_event(user, match.event)
    match = Match.objects.select_related("event", "round").get(pk=match.pk)
    reset = reset_preview(match, games)
    if {m.pk for m in reset} != set(confirm_reset):
        raise ServiceError(
            "confirm_reset",
            _("This correction resets later matches: review them and confirm.")
            if reset
            else _("The matches to reset have changed: review the correction again."),
        )
    core_results.correct_result(user, match, games, note, lisa)
    for dependent in reset:
        for result in dependent.results.filter(status__in=Result.CURRENT):
            before = result.status
            result.status = Result.Status.SUPERSEDED
            result.save(update_fields=["status"])
            audit(
                user,
                "bracket.reset",
                result,
                event=match.event,
                before={"status": before},
                after={"status": result.status, "because_of": match.pk},
            )
        dependent.status = Match.Status.SCHEDULED
        dependent.save(update_fields=["status"])
    sync(match.bracket_slot.bracket)
    return reset
