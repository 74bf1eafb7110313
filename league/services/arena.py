"""The arena, an online event's format (docs/online-events.md): for a time window, entries
join and leave when they like, and the server seats them as soon as two pairs are free.

- An entry is a registered pair, or a single player whom the server gives a partner (an
  arena of single players only is an individual arena: each player scores for themself).
- As soon as two pairs are free, they are seated against each other, each against the free
  pair nearest its score, never against the opponents of its last table again.
- A match won scores 2, a match lost 0; after two wins in a row each win scores double
  (4) until a loss: lichess's streak rule.
- At the end no new table opens; matches still playing finish and count. When the last
  has ended the event is finished (league/services/autopilot.py: the podium, ratings).

Every seating and every result is decided under the event's row lock from what is stored,
so racing ticks seat a free pair once and count a result once. Live play (games/services/
autopilot.py) opens a table for each game `seat` makes, in the same transaction.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import combinations

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ..models import ArenaGame, ArenaSpot, Autopilot, Entry, Event
from ..permissions import require
from .entries import register
from .errors import ServiceError
from .events import bump_standings

WIN_POINTS = 2
STREAK_WINS = 2  # wins in a row after which each win scores double, until a loss
DEFAULT_MINUTES = 60
MINUTES = (5, 24 * 60)
NEAREST = 8  # how far down the waiting list a seating looks for the nearest score


def clock_factor() -> float:
    """How much faster than real time the arena's window runs (ARENA_CLOCK_FACTOR)."""
    return max(float(settings.ARENA_CLOCK_FACTOR), 1.0)


def window(pilot: Autopilot) -> timedelta:
    """The arena's window in real time (its minutes, sped up by the clock factor)."""
    return timedelta(minutes=pilot.arena_minutes or DEFAULT_MINUTES) / clock_factor()


def ends(pilot: Autopilot) -> datetime:
    """When the arena ends: its start (when it started, or when it is due) and its window."""
    return pilot.round_deadline or (pilot.started or pilot.starts) + window(pilot)


def started(event: Event) -> bool:
    """Has the arena started (its settings are fixed then)?"""
    return Autopilot.objects.filter(event=event, started__isnull=False).exists()


def check_minutes(minutes) -> int:
    low, high = MINUTES
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not low <= minutes <= high:
        raise ServiceError(
            "bad_arena_minutes",
            _("An arena lasts a whole number of minutes from %(low)s to %(high)s.")
            % {"low": low, "high": high},
        )
    return minutes


def win_points(streak: int) -> int:
    """The points of a win after `streak` wins in a row."""
    return WIN_POINTS * (2 if streak >= STREAK_WINS else 1)


# Joining and leaving --------------------------------------------------------------------


def _locked(event: Event) -> tuple[Event, Autopilot]:
    event = Event.objects.select_for_update(of=("self",)).get(pk=event.pk)
    pilot = Autopilot.objects.filter(event=event).first()
    if event.format != Event.Format.ARENA or pilot is None:
        raise ServiceError("not_arena", _("This event is not an arena."))
    return event, pilot


def _over(event: Event, pilot: Autopilot, now: datetime) -> bool:
    return (
        event.status in (Event.Status.FINISHED, Event.Status.CANCELLED)
        or pilot.finished is not None
        or now >= ends(pilot)
    )


def entry_of(user, event: Event) -> Entry | None:
    """The user's accepted entry in the event (their pair, or themself alone)."""
    if not getattr(user, "is_authenticated", False):
        return None
    return (
        event.entries.filter(status=Entry.Status.ACCEPTED, team__isnull=True)
        .filter(Q(player_1__user=user) | Q(player_2__user=user))
        .first()
    )


@transaction.atomic
def join(user, event: Event) -> ArenaSpot:
    """The user's entry joins the arena (entered as a single player, when it has no entry
    yet): from now it is seated as soon as another pair is free."""
    event, pilot = _locked(event)
    now = timezone.now()
    if _over(event, pilot, now):
        raise ServiceError("arena_over", _("This arena is over: no one can join it now."))
    require(user, "event.enter", event)
    entry = entry_of(user, event)
    if entry is None:
        player = getattr(user, "player", None)
        if player is None:
            raise ServiceError("no_player", _("Your account has no player to enter."))
        entry = register(user, event, player_1=player)
        if entry.status != Entry.Status.ACCEPTED:
            raise ServiceError("arena_full", _("This arena is full."))
    spot, _created = ArenaSpot.objects.get_or_create(entry=entry, defaults={"event": event})
    spot = ArenaSpot.objects.select_for_update().get(pk=spot.pk)
    if spot.present:
        raise ServiceError("already_in", _("You are in the arena already."))
    spot.present = True
    spot.waiting = now if spot.game_id is None else None
    spot.save(update_fields=["present", "waiting"])
    bump_standings(event)
    return spot


@transaction.atomic
def leave(user, event: Event) -> ArenaSpot:
    """The user's entry leaves the arena: it is seated no more (a match it is playing goes
    on and counts); it may join again while the arena lasts."""
    event, _pilot = _locked(event)
    entry = entry_of(user, event)
    spot = (
        ArenaSpot.objects.select_for_update().filter(entry=entry).first()
        if entry is not None
        else None
    )
    if spot is None or not spot.present:
        raise ServiceError("not_in", _("You are not in the arena."))
    spot.present, spot.waiting = False, None
    spot.save(update_fields=["present", "waiting"])
    bump_standings(event)
    return spot


# Seating ---------------------------------------------------------------------------------


def _pair(spot: ArenaSpot) -> bool:
    return spot.entry.player_2_id is not None


def _faced(side: list[ArenaSpot], other: list[ArenaSpot]) -> bool:
    """Did any entry of `side` face exactly `other` at its last table?"""
    ids = sorted(spot.pk for spot in other)
    return any(sorted(spot.last_opponents) == ids for spot in side)


def _score(side: list[ArenaSpot]) -> float:
    return sum(spot.score for spot in side) / len(side)


def _match_sides(units: list[list[ArenaSpot]]) -> list[tuple[list, list]]:
    """Sides (best score first) each against the nearest score below it that it did not
    face last; a side with none waits."""
    games, left = [], list(units)
    while len(left) >= 2:
        first = left.pop(0)
        for index, other in enumerate(left[:NEAREST]):
            if not _faced(first, other) and not _faced(other, first):
                games.append((first, left.pop(index)))
                break
    return games


def _fours(singles: list[ArenaSpot]) -> tuple[list[tuple[list, list]], list[ArenaSpot]]:
    """Tables of four single players, each of the best score left with the three nearest
    it can play with: partners so that nobody faces the opponents of their last table, and
    nobody has the partner of their last table when that can be helped."""
    games, left = [], list(singles)
    while len(left) >= 4:
        first, seated = left[0], None
        for others in combinations(range(1, min(len(left), NEAREST)), 3):
            four = [first, *(left[i] for i in others)]
            seated = _split(four)
            if seated is not None:
                break
        if seated is None:
            left.pop(0)  # waits for someone new
            continue
        games.append(seated)
        left = [spot for spot in left if spot not in seated[0] + seated[1]]
    return games, left


def _split(four: list[ArenaSpot]) -> tuple[list, list] | None:
    """Four players in two sides (best with worst first: balanced sides), or None when
    every split has someone facing their last opponents."""
    a, b, c, d = four
    fallback = None
    for side_a, side_b in (([a, d], [b, c]), ([a, c], [b, d]), ([a, b], [c, d])):
        if _faced(side_a, side_b) or _faced(side_b, side_a):
            continue
        if all(
            spot.last_partner != mate.pk
            for x, y in (side_a, side_b)
            for spot, mate in ((x, y), (y, x))
        ):
            return side_a, side_b
        fallback = fallback or (side_a, side_b)
    return fallback


def pairings(free: list[ArenaSpot]) -> list[tuple[list, list]]:
    """The games to start among the free entries (sorted by score, best first): single
    players four to a table, pairs against the pair nearest their score, and two single
    players left over as a pair against a pair."""
    pairs = [spot for spot in free if _pair(spot)]
    games, singles = _fours([spot for spot in free if not _pair(spot)])
    units = [[spot] for spot in pairs]
    if len(singles) >= 2 and pairs:
        units.append(singles[:2])
        units.sort(key=_score, reverse=True)
    return games + _match_sides(units)


def seat(event: Event, pilot: Autopilot, now: datetime) -> list[ArenaGame]:
    """Seat every free pair that can be: the games started (the caller holds the event's
    row lock and opens their tables). None once the arena is over."""
    if now >= ends(pilot):
        return []
    free = list(
        ArenaSpot.objects.select_for_update(of=("self",))
        .filter(event=event, present=True, game__isnull=True, waiting__isnull=False)
        .select_related("entry")
        .order_by("-score", "waiting", "pk")
    )
    if len(free) < 2:
        return []
    started = []
    for side_a, side_b in pairings(free):
        game = ArenaGame.objects.create(
            event=event,
            side_a=[spot.pk for spot in side_a],
            side_b=[spot.pk for spot in side_b],
            started=now,
        )
        for spot in side_a + side_b:
            spot.game, spot.waiting = game, None
        started.append(game)
    ArenaSpot.objects.bulk_update(
        [spot for spot in free if spot.game_id is not None], ["game", "waiting"]
    )
    return started


def playing(event: Event) -> bool:
    """Has the arena a match still in play?"""
    return ArenaGame.objects.filter(event=event, ended__isnull=True).exists()


# Results ---------------------------------------------------------------------------------


@transaction.atomic
def game_result(game_id: int, winner: int | None, absent: tuple[int, ...] = ()) -> bool:
    """A game's table ended: `winner` the side that won (by the score, or the other side's
    forfeit), None when nobody played it. The winners score (the streak rule), the losers'
    streaks end, and everyone still in the arena waits for their next table; the `absent`
    sides (absent for a whole hand) leave the arena. False when counted already."""
    event_id = ArenaGame.objects.filter(pk=game_id).values_list("event_id", flat=True).first()
    if event_id is None:
        return False
    event = Event.objects.select_for_update(of=("self",)).get(pk=event_id)
    game = ArenaGame.objects.select_for_update().get(pk=game_id)
    if game.ended is not None:
        return False
    now = timezone.now()
    spots = {
        spot.pk: spot for spot in ArenaSpot.objects.select_for_update().filter(pk__in=game.entries)
    }
    sides = (game.side_a, game.side_b)
    for number, side in enumerate(sides):
        for entry_id in side:
            spot = spots[entry_id]
            points = 0
            if winner == number:
                points = win_points(spot.streak)
                spot.streak += 1
                spot.won += 1
            else:
                spot.streak = 0
            if winner is not None:
                spot.played += 1
            spot.score += points
            game.awarded[str(entry_id)] = points
            if winner is None or number in absent:
                spot.present = False
            spot.last_opponents = sorted(sides[1 - number])
            mates = [other for other in side if other != entry_id]
            spot.last_partner = mates[0] if mates else None
            if spot.game_id == game.pk:
                spot.game = None
                spot.waiting = now if spot.present else None
    game.ended, game.winner = now, winner
    game.save(update_fields=["ended", "winner", "awarded"])
    ArenaSpot.objects.bulk_update(
        spots.values(),
        ["score", "streak", "won", "played", "present", "last_opponents", "last_partner"]
        + ["game", "waiting"],
    )
    bump_standings(event)
    return True


# Standings -------------------------------------------------------------------------------


@dataclass
class ArenaRow:
    position: int
    entry: Entry
    score: int
    streak: int
    played: int
    won: int
    present: bool
    playing: bool

    @property
    def on_fire(self) -> bool:
        """Its next win scores double."""
        return self.streak >= STREAK_WINS


def table(event: Event) -> list[ArenaRow]:
    """The arena's standings: by score, then wins, then fewer matches; equal scores, wins
    and matches share a place."""
    spots = (
        ArenaSpot.objects.filter(event=event, entry__status=Entry.Status.ACCEPTED)
        .select_related("entry")
        .order_by("-score", "-won", "played", "entry__name", "pk")
    )
    rows: list[ArenaRow] = []
    for index, spot in enumerate(spots):
        key = (spot.score, spot.won, spot.played)
        previous = rows[-1] if rows else None
        same = previous is not None and (previous.score, previous.won, previous.played) == key
        rows.append(
            ArenaRow(
                position=previous.position if same else index + 1,
                entry=spot.entry,
                score=spot.score,
                streak=spot.streak,
                played=spot.played,
                won=spot.won,
                present=spot.present,
                playing=spot.game_id is not None,
            )
        )
    return rows
