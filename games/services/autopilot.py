"""Online events that run themselves, in live play: each due step of the competition's
autopilot (league/services/autopilot.py) is taken here, and the tables of the round it
starts open in the same transaction, under the event's row lock, with the pairs seated.

Who runs it: Celery beat every second in the worker (`games.tasks.run_autopilots`), a
result confirmed in an autopilot's event at once (`games.tasks.autopilot_tick`), and the
web processes' sweeper while no worker runs (`timers.sweep_from_web`). However many run at
once, a step is taken whole or not at all, and once: each decides from what is stored
after taking the lock, and a worker killed mid-step leaves nothing of it behind.

The organiser's controls that touch tables are here too: extending a round moves its
tables' time limit, withdrawing an entry closes its table, and pairing a round again
(until a move is made at any of its tables) puts new tables in place of the old.
"""

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.dispatch import Signal
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.tasks import queue_on_commit
from games.models import Action, Table
from league.models import ArenaGame, Autopilot, Entry, Event, Match, Result, Round
from league.notifications import notify_each
from league.services import arena, autopilot
from league.services.entries import withdraw
from league.services.errors import ServiceError

from .fixtures import enter_arena_result, fixture_table, seated, to_open
from .tables import NewTable, call_time, extend_match, open_tables

logger = logging.getLogger(__name__)

TICK_TASK = "games.tasks.autopilot_tick"
# Sent in the transaction that opened a round's tables (sender=Event): event, round, tables.
# The API sends its webhooks from it, so that a delivery exists exactly when the round does.
round_opened = Signal()


def running():
    """The autopilots with steps ahead of them."""
    return Autopilot.objects.filter(
        paused__isnull=True,
        finished__isnull=True,
        event__mode=Event.Mode.ONLINE,
        event__status__in=[Event.Status.REGISTRATION, Event.Status.RUNNING],
    ).select_related("event")


def _due(pilot: Autopilot, now: datetime) -> bool:
    """Might a step be due (read without locks; `tick` decides under them)?"""
    if pilot.started is None:
        return now >= pilot.starts
    if pilot.event.format == Event.Format.ARENA:
        return True  # free pairs to seat, or its end
    if pilot.round == 0:
        return True
    if pilot.round_ended is not None:
        return now >= pilot.round_ended + timedelta(seconds=pilot.pause_seconds)
    if pilot.round_deadline is not None and now >= pilot.round_deadline:
        return True
    return autopilot.round_over(pilot.event, pilot) or _abandoned(pilot.event, pilot.round)


def tick_all(now: datetime | None = None) -> int:
    """Take the due steps of every running autopilot; how many events took one."""
    now = now or timezone.now()
    moved = 0
    for pilot in running():
        try:
            if _due(pilot, now):
                moved += bool(tick(pilot.event_id, now))
        except Exception:
            logger.exception("autopilot of event %s failed", pilot.event_id)
    return moved


def tick(event_id: int, now: datetime | None = None) -> list[str]:
    """Every step of the event's autopilot that is due now, and the tables of the round it
    starts; the steps taken."""
    now = now or timezone.now()
    with transaction.atomic():
        event = (
            Event.objects.select_for_update(of=("self",))
            .select_related("organisation")
            .filter(pk=event_id)
            .first()
        )
        pilot = Autopilot.objects.select_for_update().filter(event_id=event_id).first()
        if event is None or pilot is None:
            return []
        if event.format == Event.Format.ARENA:
            count_arena_tables(event)
        for table in _abandoned(event, pilot.round):
            if table.seating is not None:
                autopilot.nobody_played_at(event, table.seating, table.seating_table)
            else:
                autopilot.nobody_played(event, table.fixture)
        ended = pilot.round_ended
        progress = autopilot.advance(event, pilot, now)
        if progress.round is not None:
            open_round(event, progress.round, pilot.round_deadline)
        elif pilot.round_ended is not None and pilot.round_ended != ended:
            # the round ended, its pause began: the next round is due at the pause's end
            pause = pilot.round_ended + timedelta(seconds=pilot.pause_seconds) - now
            queue_tick(event_id, max(0.0, pause.total_seconds()))
        open_arena_games(event, progress.games)
    if pilot.round_deadline is not None and now >= pilot.round_deadline:
        between = round_tables(event, pilot.round).filter(
            status=Table.Status.BETWEEN, ends__lte=now
        )
        for table_id in between.values_list("pk", flat=True):
            call_time(table_id)
    return progress.steps


def _abandoned(event: Event, number: int) -> list[Table]:
    """The round's tables that every side left for a whole hand: finished, and nobody won
    (games/services/tables.py); their matches have no result."""
    return list(
        round_tables(event, number)
        .filter(status=Table.Status.FINISHED, match__abandoned=True)
        .exclude(fixture__status=Match.Status.CANCELLED)
        .exclude(fixture__results__status=Result.Status.CONFIRMED)
        .select_related("fixture__round", "seating")
    )


def round_tables(event: Event, number: int):
    """The live tables of the event's round `number` (fixtures, or an individual event's
    seatings)."""
    return Table.objects.filter(
        Q(fixture__event=event, fixture__round__number=number, fixture__parent__isnull=True)
        | Q(seating__event=event, seating__number=number)
    )


def open_round(event: Event, round_: Round, ends: datetime | None) -> list[Table]:
    """Open a table for every match (or seating) of the round still to play, its players
    seated, all at once, and tell each where to go."""
    if event.format == Event.Format.INDIVIDUAL:
        new = [seating_table(round_, number, ends) for number in _seatings(round_)]
    else:
        matches = to_open(Match.objects.filter(round=round_, parent__isnull=True))
        new = [fixture_table(match, ends) for match in matches.order_by("table", "pk")]
    opened = open_tables(event.rules_spec, new)
    message = _("%(round)s of %(event)s: go to your table.")
    _tell_seated(opened, new, message, round=round_, event=event)
    round_opened.send(Event, event=event, round=round_, tables=opened)
    return opened


def _tell_seated(opened: list[Table], new: list[NewTable], message, **params) -> None:
    """Notify every player seated at the just opened tables, each with its table's link."""
    links = [
        (user.pk, url)
        for table, item in zip(opened, new, strict=True)
        for url in [reverse("table", args=[table.code])]  # (once a table)
        for user, _name in item.players
        if user is not None
    ]
    notify_each(links, message, **params)


def _seatings(round_: Round) -> list[int]:
    """The tables of an individual round without a live table yet."""
    tables = set(round_.seats.values_list("table", flat=True))
    return sorted(tables - set(round_.live_tables.values_list("seating_table", flat=True)))


def seating_table(round_: Round, number: int, ends: datetime | None) -> NewTable:
    """An individual event's table: its four players in their seats (1 and 3 partners
    against 2 and 4, live seats 0 to 3)."""
    seats = round_.seats.filter(table=number).select_related("player__player_1__user")
    players = [seat.player.player_1 for seat in sorted(seats, key=lambda seat: seat.seat)]
    return NewTable(seated(players), ends, {"seating": (round_, number)})


def open_arena_games(event: Event, games: list[ArenaGame]) -> list[Table]:
    """An arena's matches at live tables: each side's players facing each other across it
    (a pair's two players, or the two single players the server partnered), the first hand
    dealt, and its four players told where to go."""
    if not games:
        return []
    entries = Entry.objects.select_related("player_1__user", "player_2__user").in_bulk(
        [entry_id for game in games for entry_id in game.entries]
    )
    new = []
    for game in games:
        sides = [
            [p for entry_id in side for p in entries[entry_id].players]
            for side in (game.side_a, game.side_b)
        ]
        players = [sides[0][0], sides[1][0], sides[0][1], sides[1][1]]
        ends = None
        if event.match_format == Event.MatchFormat.TIME_LIMIT and event.time_limit:
            ends = game.started + timedelta(minutes=event.time_limit)
        new.append(NewTable(seated(players), ends, {"arena_game": game}))
    opened = open_tables(event.rules_spec, new)
    _tell_seated(opened, new, _("%(event)s: go to your table."), event=event)
    return opened


def count_arena_tables(event: Event) -> None:
    """The arena's finished tables whose result is not in yet: a table nobody played (every
    side absent for a whole hand sends no result), or one whose result a lost worker never
    entered. Each counts once (league/services/arena.py)."""
    for table in Table.objects.filter(
        arena_game__event=event, arena_game__ended__isnull=True, status=Table.Status.FINISHED
    ):
        enter_arena_result(table)


def queue_tick(event_id: int, after: float | None = None) -> None:
    """Take the event's due steps soon (`after` seconds), in the live queue's worker, once
    the current transaction commits."""
    queue_on_commit(TICK_TASK, event_id, countdown=after)


# The organiser's controls that touch tables --------------------------------------------


@transaction.atomic
def extend_round(user, event: Event, minutes: int) -> Autopilot:
    """Give the round in play `minutes` more, before its deadline comes."""
    event, pilot = autopilot.locked(user, event)
    if (
        isinstance(minutes, bool)
        or not isinstance(minutes, int)
        or not 1 <= minutes <= autopilot.MAX_EXTENSION_MINUTES
    ):
        raise ServiceError(
            "bad_minutes",
            _("Extend a round by a whole number of minutes from 1 to %(max)s.")
            % {"max": autopilot.MAX_EXTENSION_MINUTES},
        )
    if event.format == Event.Format.ARENA:
        return _extend_arena(user, event, pilot, minutes)
    round_ = autopilot.round_in_play(event, pilot)
    if timezone.now() >= pilot.round_deadline:
        raise ServiceError(
            "deadline_passed", _("The round's deadline has passed: it can no longer be extended.")
        )
    pilot.round_deadline += timedelta(minutes=minutes)
    pilot.save(update_fields=["round_deadline", "updated"])
    playing = round_tables(event, round_.number).exclude(status=Table.Status.FINISHED)
    for table_id in playing.values_list("pk", flat=True):
        extend_match(table_id, pilot.round_deadline)
    autopilot.log(
        "autopilot.extend",
        round_,
        event,
        "organiser",
        actor=user,
        round=round_.number,
        minutes=minutes,
        deadline=pilot.round_deadline,
    )
    return pilot


def _extend_arena(user, event: Event, pilot: Autopilot, minutes: int) -> Autopilot:
    """Give an arena in play `minutes` more of its window (at its clock's speed): free pairs
    go on being seated until the new end."""
    deadline = pilot.round_deadline
    if pilot.started is None or deadline is None or timezone.now() >= deadline:
        raise ServiceError(
            "not_in_play", _("The arena is not in play: only a running arena can be extended.")
        )
    pilot.round_deadline = deadline + timedelta(minutes=minutes) / arena.clock_factor()
    pilot.save(update_fields=["round_deadline", "updated"])
    autopilot.log(
        "autopilot.extend_arena",
        event,
        event,
        "organiser",
        actor=user,
        minutes=minutes,
        deadline=pilot.round_deadline,
    )
    return pilot


@transaction.atomic
def withdraw_entry(user, entry: Entry) -> Entry:
    """An organiser withdraws an entry from an event that runs itself: its matches still to
    play are forfeited (as the event says) and its table in play closes, forfeited by its
    side (fixtures.forfeit_tables_of, on `entry_left`)."""
    autopilot.locked(user, entry.event)
    return withdraw(user, entry)


@transaction.atomic
def repair_round(user, event: Event) -> Round:
    """Pair the round in play again, until a move is made at any of its tables: its tables
    close and the new round's open."""
    event, pilot = autopilot.locked(user, event)
    if event.format not in autopilot.REPAIRABLE:
        raise ServiceError("not_repairable", _("A draw decides this format's rounds."))
    round_ = autopilot.round_in_play(event, pilot)
    tables = round_tables(event, round_.number)
    if (
        Action.objects.filter(table__in=tables).exists()
        or round_.matches.filter(results__isnull=False).exists()
        or round_.table_results.exists()
    ):
        raise ServiceError(
            "round_started",
            _("A table of this round has started: the round can no longer be paired again."),
        )
    list(tables.select_for_update(of=("self",)))
    tables.delete()
    round_ = autopilot.pair_again(user, event, pilot, timezone.now())
    open_round(event, round_, pilot.round_deadline)
    return round_
