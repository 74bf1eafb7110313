"""Swiss rounds for fixed pairs: draft, swap and pin by hand, publish, unpair.

A round is first a draft (`DraftPairing` rows) that only organisers see. Pairing it (again)
keeps the pinned tables and pairs everyone else with the pure `league.pairing.pair_swiss`
(global weighted matching: no rematch or forbidden pairing unless unavoidable, the bye to the
lowest-ranked entrant without one, equal scores first, and never a round after which the
event's remaining rounds cannot be paired without a rematch while another round avoids that).
Publishing turns the draft into the
core's `Round` and `Match` rows, table 1 at the top; the latest round can be unpaired as long
as no result was entered in it.
"""

from itertools import combinations

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext_lazy as _

from core.tasks import queue_on_commit

from ...models import Entry, Event, Match, Result, Round
from ...pairing import Effort, SwissEntrant, pair_swiss
from ...services.audit import audit
from ...services.errors import ServiceError
from ...services.events import bump_standings
from ..models import DraftPairing, ForbiddenPairing
from .common import (
    history,
    latest_round,
    lock_event,
    next_round_number,
    playing_entries,
    require_round_complete,
    start_play,
    tournament_of,
)
from .standings import pairs_table

SWISS = Event.Format.SWISS


def club_of(entry: Entry) -> int | None:
    """The entry's club, or the club both its players belong to."""
    if entry.club_id:
        return entry.club_id
    clubs = {p.club_id for p in entry.players}
    return clubs.pop() if len(clubs) == 1 and entry.player_1_id and entry.player_2_id else None


def forbidden_pairs(event: Event, entries: list[Entry]) -> set[frozenset[int]]:
    """Pairings to avoid: the explicit ones, and same-club ones if the event says so."""
    pairs = {
        frozenset(pair)
        for pair in ForbiddenPairing.objects.filter(event=event).values_list("entry_a", "entry_b")
    }
    if tournament_of(event).avoid_same_club:
        pairs |= {
            frozenset((x.pk, y.pk))
            for x, y in combinations(entries, 2)
            if club_of(x) is not None and club_of(x) == club_of(y)
        }
    return pairs


@transaction.atomic
def forbid_pairing(user, event: Event, entry_a: Entry, entry_b: Entry, reason: str = ""):
    event = lock_event(user, event)
    if entry_a.pk == entry_b.pk or {entry_a.event_id, entry_b.event_id} != {event.pk}:
        raise ServiceError("bad_pairing", _("Choose two different entries of this event."))
    low, high = sorted((entry_a, entry_b), key=lambda e: e.pk)
    forbidden, created = ForbiddenPairing.objects.get_or_create(
        event=event, entry_a=low, entry_b=high, defaults={"reason": reason.strip()[:120]}
    )
    if created:
        audit(
            user,
            "tournament.forbid",
            forbidden,
            event=event,
            after={"entries": [low.pk, high.pk], "reason": forbidden.reason},
        )
    return forbidden


@transaction.atomic
def allow_pairing(user, forbidden: ForbiddenPairing) -> None:
    event = lock_event(user, forbidden.event)
    audit(
        user,
        "tournament.allow",
        forbidden,
        event=event,
        before={"entries": [forbidden.entry_a_id, forbidden.entry_b_id]},
    )
    ForbiddenPairing.objects.filter(pk=forbidden.pk).delete()


def draft(event: Event, *, entries: bool = True) -> list[DraftPairing]:
    """The draft round in table order (the byes last), with its `entries` loaded."""
    found = DraftPairing.objects.filter(event=event)
    if entries:
        found = found.select_related("entry_a", "entry_b")
    return list(found.order_by(F("table").asc(nulls_last=True), "pk"))


def _renumber(event: Event, pairings: list[tuple[int, int | None, bool]], number: int) -> None:
    """Store the draft in table order: `pairings` are (entry a, entry b or None, pinned)."""
    DraftPairing.objects.filter(event=event).delete()
    table = 0
    rows = []
    for a, b, pinned in pairings:
        if b is not None:
            table += 1
        rows.append(
            DraftPairing(
                event=event,
                number=number,
                table=table if b else None,
                entry_a_id=a,
                entry_b_id=b,
                pinned=pinned,
            )
        )
    DraftPairing.objects.bulk_create(rows)


@transaction.atomic
def pair_round(
    user, event: Event, effort: Effort | None = None, *, read_back: bool = True
) -> list[DraftPairing]:
    """Pair the next round as a draft; pinned tables of an existing draft are kept. `effort`
    bounds or follows the search (`services.jobs`). The draft, with its entries, is read back
    for the page that shows it (`read_back`; the autopilot publishes it at once instead)."""
    event = lock_event(user, event, SWISS)
    tournament = tournament_of(event)
    number = next_round_number(event)
    if number > tournament.rounds:
        raise ServiceError(
            "all_rounds_played", _("All %(n)s rounds are paired.") % {"n": tournament.rounds}
        )
    require_round_complete(event)
    entries = playing_entries(event)
    if len(entries) < 2:
        raise ServiceError("too_few_entries", _("A round needs at least two entries."))
    ids = {e.pk for e in entries}
    pinned = [
        p
        for p in DraftPairing.objects.filter(event=event, pinned=True).order_by(
            F("table").asc(nulls_last=True), "pk"
        )
        if p.entry_a_id in ids and (p.entry_b_id is None or p.entry_b_id in ids)
    ]
    taken = {p.entry_a_id for p in pinned} | {p.entry_b_id for p in pinned}
    past = history(event)
    standing = {row.entry.pk: row for row in pairs_table(event)}
    order = sorted(entries, key=lambda e: (standing[e.pk].position, e.lot or 0, e.pk))
    free = [
        SwissEntrant(
            id=e.pk,
            score=standing[e.pk].match_points + standing[e.pk].drawn / 2,
            opponents=frozenset(past.opponents[e.pk]),
            had_bye=e.pk in past.byes,
        )
        for e in order
        if e.pk not in taken
    ]
    if len(free) % 2 and any(p.entry_b_id is None for p in pinned):
        raise ServiceError("two_byes", _("Unpin the bye: only one entry can have it."))
    rounds_left = tournament.rounds - number
    paired = (
        pair_swiss(free, forbidden_pairs(event, entries), rounds_left=rounds_left, effort=effort)
        if free
        else None
    )
    rank_of = {e.pk: i for i, e in enumerate(order)}
    tables = [(p.entry_a_id, p.entry_b_id, True) for p in pinned if p.entry_b_id is not None]
    if paired is not None:
        tables += [(a, b, False) for a, b in paired.pairings]
    tables.sort(key=lambda t: min(rank_of[t[0]], rank_of[t[1]]))
    byes = [(p.entry_a_id, None, True) for p in pinned if p.entry_b_id is None]
    if paired is not None and paired.bye is not None:
        byes.append((paired.bye, None, False))
    _renumber(event, tables + byes, number)
    audit(
        user,
        "swiss.pair",
        event,
        event=event,
        after={"round": number, "tables": [t[:2] for t in tables + byes]},
    )
    return draft(event) if read_back else []


def _draft_or_error(event: Event, *, entries: bool = True) -> list[DraftPairing]:
    pairings = draft(event, entries=entries)
    if not pairings:
        raise ServiceError("no_draft", _("There is no draft round: pair the round first."))
    return pairings


@transaction.atomic
def swap(user, event: Event, first: Entry, second: Entry) -> list[DraftPairing]:
    """Exchange two entries' places in the draft; both tables become pinned."""
    event = lock_event(user, event, SWISS)
    pairings = _draft_or_error(event)
    spots = {}
    for pairing in pairings:
        for side in ("entry_a_id", "entry_b_id"):
            if getattr(pairing, side) in (first.pk, second.pk):
                spots[getattr(pairing, side)] = (pairing, side)
    if first.pk == second.pk or len(spots) != 2:
        raise ServiceError("bad_swap", _("Choose two different entries of the draft round."))
    (p1, s1), (p2, s2) = spots[first.pk], spots[second.pk]
    if p1.pk == p2.pk:
        raise ServiceError("same_table", _("These two entries already play each other."))
    rows = [[p.entry_a_id, p.entry_b_id, p.pinned] for p in pairings]
    i1, i2 = pairings.index(p1), pairings.index(p2)
    c1, c2 = (0 if s1 == "entry_a_id" else 1), (0 if s2 == "entry_a_id" else 1)
    rows[i1][c1], rows[i2][c2] = rows[i2][c2], rows[i1][c1]
    rows[i1][2] = rows[i2][2] = True
    tables = [tuple(r) for r in rows if r[1] is not None]
    byes = [tuple(r) for r in rows if r[1] is None]
    _renumber(event, tables + byes, pairings[0].number)
    audit(user, "swiss.swap", event, event=event, after={"entries": [first.pk, second.pk]})
    return draft(event)


@transaction.atomic
def pin(user, pairing: DraftPairing, pinned: bool = True) -> DraftPairing:
    event = lock_event(user, pairing.event, SWISS)
    pairing = DraftPairing.objects.filter(pk=pairing.pk, event=event).first()
    if pairing is None:
        raise ServiceError("stale_draft", _("That draft table no longer exists; reload the page."))
    pairing.pinned = pinned
    pairing.save(update_fields=["pinned"])
    return pairing


@transaction.atomic
def discard_draft(user, event: Event) -> None:
    event = lock_event(user, event, SWISS)
    _draft_or_error(event)
    DraftPairing.objects.filter(event=event).delete()
    audit(user, "swiss.discard", event, event=event)


@transaction.atomic
def publish(user, event: Event) -> Round:
    """The draft becomes the round that everyone sees and plays; every player with an email
    address is told their table, in their language, by the background worker."""
    event = lock_event(user, event, SWISS)
    pairings = _draft_or_error(event, entries=False)  # (only their ids are published)
    number = pairings[0].number
    if number != next_round_number(event):
        raise ServiceError("stale_draft", _("This draft is out of date; pair the round again."))
    require_round_complete(event)
    round_ = Round.objects.create(event=event, number=number)
    Match.objects.bulk_create(
        Match(
            event=event,
            round=round_,
            entry_a_id=p.entry_a_id,
            entry_b_id=p.entry_b_id,
            table=p.table,
            venue=event.venue,
            status=Match.Status.SCHEDULED if p.entry_b_id else Match.Status.BYE,
        )
        for p in pairings
    )
    DraftPairing.objects.filter(event=event).delete()
    start_play(user, event)
    bump_standings(event)
    queue_on_commit("league.tasks.announce_round", round_.pk)
    audit(
        user,
        "swiss.publish",
        round_,
        event=event,
        after={"round": number, "tables": [[p.entry_a_id, p.entry_b_id] for p in pairings]},
    )
    return round_


@transaction.atomic
def unpair(user, event: Event) -> int:
    """Withdraw the latest published round (before any result was entered in it)."""
    event = lock_event(user, event, SWISS)
    round_ = latest_round(event)
    if round_ is None:
        raise ServiceError("no_round", _("No round has been published yet."))
    if Result.objects.filter(match__round=round_).exists():
        raise ServiceError(
            "results_entered", _("Results were entered in this round: it cannot be unpaired.")
        )
    number = round_.number
    DraftPairing.objects.filter(event=event).delete()
    round_.delete()
    bump_standings(event)
    audit(user, "swiss.unpair", event, event=event, before={"round": number})
    return number


def rematches(event: Event, pairings: list[DraftPairing]) -> set[int]:
    """Draft pairing ids that repeat a meeting or a forbidden pairing (shown as warnings)."""
    past = history(event)
    banned = forbidden_pairs(event, playing_entries(event))
    return {
        p.pk
        for p in pairings
        if p.entry_b_id is not None
        and (
            p.entry_b_id in past.opponents[p.entry_a_id]
            or frozenset((p.entry_a_id, p.entry_b_id)) in banned
        )
    }
