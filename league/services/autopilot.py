"""Online events that run themselves, from check-in to podium (docs/online-events.md).

The organiser sets, once (`configure`): the start, the check-in window before it, the pause
between rounds, the round's time limit, and what becomes of a pair that forfeits two rounds
in a row. From then on `advance` takes every step that is due, in order:

- at the start, entries that did not check in are withdrawn; with too few left the start
  moves by the check-in window once, then the event is cancelled; everyone is told;
- each round is paired by the functions the organiser's pages use (a Swiss round paired and
  published, a bracket drawn and moved on, a group stage drawn, an individual round seated);
- a round ends when its last match has its result; after the pause the next one starts;
- after the last round the event is finished, its podium written down and ratings queued.

Every step is decided from what is stored, under the event's row lock, and written to the
audit log with its reason; so whoever runs it (two beat processes, the worker that takes
over from one killed mid-step, a web process while no worker runs) finds a step taken
whole or not at all. Live play (games/services/autopilot.py) calls `advance` and opens the
tables of the round it starts: this module never sees a table.
"""

from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max, Min, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ..models import ArenaGame, AuditEntry, Autopilot, Entry, Event, Match, Result, Round
from ..notifications import notify
from ..permissions import require
from ..ratings.services import pool_of, request_recalculation
from ..tournaments.models import Bracket, TableResult
from ..tournaments.services import brackets, groups, individual, jobs, swiss
from ..tournaments.services.common import (
    ELIMINATION_FORMATS,
    next_round_number,
    start_play,
    tournament_of,
    unfinished_matches,
)
from ..tournaments.services.standings import elimination_table, individual_table, pairs_table
from . import arena
from .audit import REASONS, audit, local_time
from .entries import withdraw
from .errors import ServiceError
from .events import bump_standings, rules_of, set_status, update_event
from .results import organisers

ONLINE_FORMATS = (
    Event.Format.SWISS,
    Event.Format.SINGLE_ELIMINATION,
    Event.Format.DOUBLE_ELIMINATION,
    Event.Format.GROUPS_PLAYOFF,
    Event.Format.INDIVIDUAL,
    Event.Format.ARENA,
)
# Formats whose rounds the organiser pairs (and may pair again): the others follow a draw.
REPAIRABLE = (Event.Format.SWISS, Event.Format.INDIVIDUAL)
TURNS_PER_HAND = 28  # every tile of the double-six set played, each turn used up
SETTINGS = (
    "starts",
    "check_in_minutes",
    "pause_seconds",
    "round_minutes",
    "two_forfeits",
    "arena_minutes",
)
EVENT_SETTINGS = ("match_format", "time_limit")
MAX_CHECK_IN_MINUTES = 24 * 60
MAX_PAUSE_SECONDS = 60 * 60
MAX_ROUND_MINUTES = 600
MAX_EXTENSION_MINUTES = 120
TURN_SECONDS = (5, 300)


def log(action: str, target, event: Event, reason: str, actor=None, **values: Any) -> None:
    """Write an automatic step (or an organiser's control) to the audit log, with its reason
    (a key of REASONS) and the values the reason names."""
    values = {k: v.isoformat() if isinstance(v, datetime) else v for k, v in values.items()}
    audit(actor, action, target, event=event, after={"reason": reason, **values})


# Settings ------------------------------------------------------------------------------


def hand_seconds(event: Event) -> int:
    """The longest one hand takes at the event's turn time."""
    return TURNS_PER_HAND * rules_of(event).turn_seconds


def round_limit(event: Event, pilot: Autopilot) -> timedelta:
    """A round's time: a time-limited match's own limit, else the autopilot's round limit."""
    if event.match_format == Event.MatchFormat.TIME_LIMIT and event.time_limit:
        return timedelta(minutes=event.time_limit)
    return timedelta(minutes=pilot.round_minutes)


def _whole(value: Any, low: int, high: int, code: str, message) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ServiceError(code, message)
    return value


def _check(event: Event, pilot: Autopilot, now: datetime) -> None:
    """Refuse settings an event cannot run by (each refusal with its own code)."""
    if not isinstance(pilot.starts, datetime) or timezone.is_naive(pilot.starts):
        raise ServiceError("bad_start", _("Give the start as a date and time with its zone."))
    if pilot.starts <= now:
        raise ServiceError("start_in_past", _("The start must be in the future."))
    _one_game(event.match_format)
    if event.format == Event.Format.ARENA:  # no check-in, no rounds: its window
        pilot.arena_minutes = arena.check_minutes(pilot.arena_minutes or arena.DEFAULT_MINUTES)
        return
    _whole(
        pilot.check_in_minutes,
        1,
        MAX_CHECK_IN_MINUTES,
        "bad_check_in",
        _("The check-in window is a whole number of minutes from 1 to %(max)s.")
        % {"max": MAX_CHECK_IN_MINUTES},
    )
    if pilot.starts - timedelta(minutes=pilot.check_in_minutes) < now:
        raise ServiceError(
            "check_in_too_long",
            _("The check-in window is longer than the time left before the start."),
        )
    _whole(
        pilot.pause_seconds,
        0,
        MAX_PAUSE_SECONDS,
        "bad_pause",
        _("The pause between rounds is a whole number of seconds from 0 to %(max)s.")
        % {"max": MAX_PAUSE_SECONDS},
    )
    _whole(
        pilot.round_minutes,
        1,
        MAX_ROUND_MINUTES,
        "bad_round_limit",
        _("The round limit is a whole number of minutes from 1 to %(max)s.")
        % {"max": MAX_ROUND_MINUTES},
    )
    if pilot.two_forfeits not in Autopilot.Forfeits.values:
        raise ServiceError("bad_choice", _("Choose what becomes of a pair that forfeits twice."))
    if round_limit(event, pilot).total_seconds() < hand_seconds(event):
        raise ServiceError(
            "round_too_short",
            _("A round must last at least one hand: %(minutes)s minutes at this turn time.")
            % {"minutes": -(-hand_seconds(event) // 60)},
        )


def _one_game(match_format: str) -> None:
    if match_format == Event.MatchFormat.BEST_OF:
        raise ServiceError(
            "best_of_online",
            _("A live table plays one game per match: choose a target or a time limit."),
        )


def check_runnable(event: Event) -> None:
    if event.mode != Event.Mode.ONLINE:
        raise ServiceError("not_online", _("Only an event played at live tables runs itself."))
    if event.format not in ONLINE_FORMATS:
        raise ServiceError("format_not_online", _("This format cannot run itself."))
    if event.entry_kind != Event.EntryKind.PAIR:
        raise ServiceError(
            "teams_not_online", _("Club teams do not play events that run themselves.")
        )
    if event.status in (Event.Status.FINISHED, Event.Status.CANCELLED):
        raise ServiceError("event_closed", _("This event is over."))


@transaction.atomic
def configure(user, event: Event, **fields: Any) -> Autopilot:
    """Set (or change, before the start) how an online event runs itself.

    `fields`: the autopilot's SETTINGS, the event's EVENT_SETTINGS, and `turn_seconds`
    (the rule set's turn timer). Every setting is checked before anything is written.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    require(user, "event.manage", event)
    unknown = set(fields) - set(SETTINGS) - set(EVENT_SETTINGS) - {"turn_seconds"}
    if unknown:
        raise ValueError(f"not autopilot settings: {sorted(unknown)}")
    check_runnable(event)
    pilot = Autopilot.objects.filter(event=event).first()
    if (pilot is not None and pilot.started is not None) or event.status == Event.Status.RUNNING:
        raise ServiceError("autopilot_started", _("The event has started: its settings are fixed."))
    if pilot is None and "starts" not in fields:
        raise ServiceError("bad_start", _("Give the start as a date and time with its zone."))
    pilot = pilot or Autopilot(event=event)
    before = _settings(pilot) if pilot.pk else None
    for name in SETTINGS:
        if name in fields:
            setattr(pilot, name, fields[name])
    changes = {name: fields[name] for name in EVENT_SETTINGS if name in fields}
    _one_game(changes.get("match_format", event.match_format))
    if "turn_seconds" in fields:
        low, high = TURN_SECONDS
        _whole(
            fields["turn_seconds"],
            low,
            high,
            "bad_turn_time",
            _("The turn time is a whole number of seconds from %(low)s to %(high)s.")
            % {"low": low, "high": high},
        )
        changes["rule_overrides"] = event.rule_overrides | {"turn_seconds": fields["turn_seconds"]}
    if changes:
        event = update_event(user, event, **changes)
    _check(event, pilot, timezone.now())
    pilot.save()
    audit(user, "autopilot.configure", event, event=event, before=before, after=_settings(pilot))
    return pilot


def _settings(pilot: Autopilot) -> dict:
    return {
        name: value.isoformat() if isinstance(value, datetime) else value
        for name in SETTINGS
        for value in [getattr(pilot, name)]
    }


# The steps ------------------------------------------------------------------------------


@dataclass
class Progress:
    """What one call of `advance` did: the steps taken, and the round it started (whose
    tables live play opens in the same transaction)."""

    steps: list[str] = field(default_factory=list)
    round: Round | None = None
    games: list[ArenaGame] = field(default_factory=list)  # an arena's, to seat at tables


def advance(event: Event, pilot: Autopilot, now: datetime) -> Progress:
    """Take every step that is due now. The caller holds the event's row lock (and the
    autopilot's) for the transaction, and opens the tables of `Progress.round`. The autopilot
    is written only when a step changed it: a tick with nothing due writes nothing."""
    before = _settings_and_progress(pilot)
    progress = Progress()
    _take_due_steps(event, pilot, now, progress)
    if _settings_and_progress(pilot) != before:
        pilot.save()
    return progress


def _settings_and_progress(pilot: Autopilot) -> tuple:
    return tuple(
        getattr(pilot, field.attname)
        for field in Autopilot._meta.concrete_fields
        if field.name != "updated"
    )


def _take_due_steps(event: Event, pilot: Autopilot, now: datetime, progress: Progress) -> None:
    if pilot.paused is not None or pilot.finished is not None:
        return
    if event.status not in (Event.Status.REGISTRATION, Event.Status.RUNNING):
        return
    if event.format == Event.Format.ARENA:
        _arena(event, pilot, now, progress)
        return
    if pilot.started is None and (now < pilot.starts or not _start(event, pilot, now, progress)):
        return
    if pilot.round == 0:
        _begin_next(event, pilot, now, progress, ("first_round", {"time": pilot.started}))
        return
    if pilot.round_ended is None:
        if not round_over(event, pilot):
            _deadline(event, pilot, now, progress)
            return
        _close_round(event, pilot, now, progress)
    resumes = pilot.round_ended + timedelta(seconds=pilot.pause_seconds)
    if now >= resumes:
        paused = bool(pilot.pause_seconds)
        why = ("pause_over", resumes) if paused else ("last_table_ended", pilot.round_ended)
        _begin_next(event, pilot, now, progress, (why[0], {"round": pilot.round, "time": why[1]}))


def _arena(event: Event, pilot: Autopilot, now: datetime, progress: Progress) -> None:
    """An arena's steps: its start, the free pairs seated while it lasts, and its finish
    when the last match played after its end has ended."""
    if pilot.started is None:
        if now < pilot.starts:
            return
        pilot.started = pilot.round_started = now
        pilot.round = 1
        pilot.round_deadline = now + arena.window(pilot)
        start_play(None, event)
        joined = event.arena_spots.filter(present=True).count()
        log("autopilot.start", event, event, "arena_start", time=pilot.starts, entries=joined)
        progress.steps.append("started")
    if now < pilot.round_deadline:
        progress.games = arena.seat(event, pilot, now)
        if progress.games:
            progress.steps.append(f"{len(progress.games)} seated")
        return
    if pilot.round_ended is None:
        pilot.round_ended = pilot.round_deadline
        log("autopilot.deadline", event, event, "arena_end", time=pilot.round_deadline)
        progress.steps.append("deadline")
    if not arena.playing(event):
        last = event.arena_games.aggregate(at=Max("ended"))["at"]
        pilot.round_ended = max(pilot.round_deadline, last or pilot.round_deadline)
        finish(event, pilot, now, progress, reason="arena_over")


def _everyone(event: Event, statuses=(Entry.Status.ACCEPTED, Entry.Status.WAITLISTED)) -> list:
    users = []
    for entry in event.entries.filter(status__in=statuses).select_related(
        "player_1__user", "player_2__user"
    ):
        users += [p.user for p in entry.players if p.user_id and p.user not in users]
    return users


def _start(event: Event, pilot: Autopilot, now: datetime, progress: Progress) -> bool:
    """The start: withdraw who did not check in, or postpone once, or cancel."""
    accepted = list(
        event.entries.filter(status=Entry.Status.ACCEPTED, team__isnull=True).select_related(
            "player_1__user", "player_2__user"
        )
    )
    present = [e for e in accepted if e.checked_in is not None]
    needed = 4 if event.format == Event.Format.INDIVIDUAL else 2
    if len(present) < needed:
        if not pilot.postponed:
            old = pilot.starts
            pilot.starts = old + timedelta(minutes=pilot.check_in_minutes)
            pilot.postponed = True
            log(
                "autopilot.postpone",
                event,
                event,
                "too_few_postpone",
                entries=len(present),
                time=old,
                new=pilot.starts,
            )
            message = _("%(event)s is postponed to %(time)s: check in to play.")
            for user in _everyone(event):
                notify(
                    user,
                    message,
                    event.get_absolute_url(),
                    event=event,
                    time=local_time(pilot.starts),
                )
            progress.steps.append("postponed")
        else:
            event.status = set_status(None, event, Event.Status.CANCELLED).status
            pilot.finished = now
            log("autopilot.cancel", event, event, "too_few_cancel", entries=len(present))
            message = _("%(event)s is cancelled: too few entries checked in.")
            for user in _everyone(event):
                notify(user, message, event.get_absolute_url(), event=event)
            progress.steps.append("cancelled")
        return False
    for entry in accepted:
        if entry.checked_in is None:
            entry.status, entry.left = Entry.Status.WITHDRAWN, now
            entry.save(update_fields=["status", "left"])
            log("entry.withdraw", entry, event, "not_checked_in")
            message = _("You did not check in for %(event)s: your entry was withdrawn.")
            for player in entry.players:
                if player.user_id:
                    notify(player.user, message, event.get_absolute_url(), event=event)
    pilot.started = now
    log("autopilot.start", event, event, "start_time", time=pilot.starts, entries=len(present))
    progress.steps.append("started")
    return True


def round_over(event: Event, pilot: Autopilot) -> bool:
    """Has every match (table) of the round in play its confirmed result?"""
    if event.format == Event.Format.INDIVIDUAL:
        round_ = event.rounds.filter(number=pilot.round).first()
        if round_ is None:
            return True
        tables = set(round_.seats.values_list("table", flat=True))
        done = round_.table_results.filter(status=TableResult.Status.CONFIRMED)
        return tables <= set(done.values_list("table", flat=True)) | unplayed(round_)
    return not unfinished_matches(event).filter(round__number=pilot.round).exists()


@transaction.atomic
def table_result(
    round_: Round, table: int, points: tuple[int, int], forfeit_side: int | None
) -> TableResult | None:
    """An individual event's live table finished: its result counts at once (the server
    saw every action). A side that forfeited scores nothing and the other the event's
    forfeit points; a table that ended at its time limit counts short of the target. None
    when the table's result was in already."""
    event = round_.event
    if forfeit_side is not None:
        points = (0, event.forfeit_points) if forfeit_side == 0 else (event.forfeit_points, 0)
    try:
        with transaction.atomic():
            result = TableResult.objects.create(
                round=round_,
                table=table,
                points_a=points[0],
                points_b=points[1],
                status=TableResult.Status.CONFIRMED,
            )
    except IntegrityError:
        return None
    bump_standings(event)
    audit(None, "individual.result", result, event=event, after={"table": table, "points": points})
    return result


def _ended_at(event: Event, pilot: Autopilot, now: datetime) -> datetime:
    """When the round's last result came in."""
    if event.format == Event.Format.INDIVIDUAL:
        last = TableResult.objects.filter(round__event=event, round__number=pilot.round).aggregate(
            at=Max("updated")
        )["at"]
    else:
        last = Result.objects.filter(
            match__event=event,
            match__round__number=pilot.round,
            status=Result.Status.CONFIRMED,
        ).aggregate(at=Max("confirmed"))["at"]
    return min(last or now, now)


def _deadline(event: Event, pilot: Autopilot, now: datetime, progress: Progress) -> None:
    """Written down once: the round's deadline came with matches still playing (live play
    ends them after the hand in play)."""
    if pilot.round_deadline is None or now < pilot.round_deadline:
        return
    if event.audit.filter(action="autopilot.deadline", after__round=pilot.round).exists():
        return
    log(
        "autopilot.deadline",
        event,
        event,
        "deadline",
        round=pilot.round,
        time=pilot.round_deadline,
    )
    progress.steps.append("deadline")


def _close_round(event: Event, pilot: Autopilot, now: datetime, progress: Progress) -> None:
    pilot.round_ended = _ended_at(event, pilot, now)
    log(
        "autopilot.round_end",
        event,
        event,
        "last_table_ended",
        round=pilot.round,
        time=pilot.round_ended,
    )
    progress.steps.append(f"round {pilot.round} ended")
    if pilot.two_forfeits == Autopilot.Forfeits.WITHDRAW:
        for entry, first in _forfeited_twice(event, pilot.round):
            _withdraw(event, entry, "two_forfeits", first=first, second=pilot.round)


def nobody_played(event: Event, match: Match) -> None:
    """Every side of the match was absent for a whole hand at its table, which nobody won:
    the match is not played (no side gets its points), and each side forfeited it."""
    if Match.objects.filter(pk=match.pk, status=Match.Status.SCHEDULED).update(
        status=Match.Status.CANCELLED
    ):
        log("autopilot.unplayed", match, event, "both_absent", round=match.round.number)


def nobody_played_at(event: Event, round_: Round, table: int) -> None:
    """An individual event's table every side left for a whole hand: no result, and the
    round goes on without it."""
    if table in unplayed(round_) or round_.table_results.filter(table=table).exists():
        return
    log("autopilot.unplayed", round_, event, "both_absent", round=round_.number, table=table)


def unplayed(round_: Round) -> set[int]:
    """The tables of an individual event's round that nobody played."""
    return {
        after["table"]
        for after in AuditEntry.objects.filter(
            event_id=round_.event_id, action="autopilot.unplayed", target=f"round:{round_.pk}"
        ).values_list("after", flat=True)
    }


def _forfeits(event: Event, number: int) -> set[int]:
    """The entries that lost round `number` by forfeit, or were absent from a match nobody
    played."""
    lost = set()
    unplayed = AuditEntry.objects.filter(
        event=event, action="autopilot.unplayed", after__round=number
    ).values_list("target", flat=True)
    for a, b in Match.objects.filter(
        pk__in=[int(target.partition(":")[2]) for target in unplayed]
    ).values_list("entry_a_id", "entry_b_id"):
        lost |= {a, b}
    for a, b, games_a, games_b in Result.objects.filter(
        match__event=event,
        match__round__number=number,
        match__parent__isnull=True,
        status=Result.Status.CONFIRMED,
        forfeit=True,
    ).values_list("match__entry_a_id", "match__entry_b_id", "games_a", "games_b"):
        lost.add(b if games_a > games_b else a)
    return lost


def _forfeited_twice(event: Event, number: int) -> list[tuple[Entry, int]]:
    """Entries that forfeited round `number` and the round they played before it."""
    found = []
    for entry in Entry.objects.filter(
        pk__in=_forfeits(event, number), status=Entry.Status.ACCEPTED
    ).select_related("player_1__user", "player_2__user"):
        previous = Match.objects.filter(
            Q(entry_a=entry) | Q(entry_b=entry),
            event=event,
            round__number__lt=number,
            parent__isnull=True,
        ).aggregate(n=Max("round__number"))["n"]
        if previous is not None and entry.pk in _forfeits(event, previous):
            found.append((entry, previous))
    return found


def _withdraw(event: Event, entry: Entry, reason: str, **values: Any) -> None:
    """Withdraw an entry by the autopilot's rule, and tell its players why."""
    withdraw(None, entry)
    log("autopilot.withdraw", entry, event, reason, **values)
    message = _("Your entry in %(event)s was withdrawn: %(reason)s.")
    for player in entry.players:
        if player.user_id:
            notify(
                player.user,
                message,
                event.get_absolute_url(),
                event=event,
                reason=REASONS[reason] % values,
            )


def _begin_next(
    event: Event, pilot: Autopilot, now: datetime, progress: Progress, why: tuple[str, dict]
) -> None:
    """Pair the next round, or finish the event when none is left."""
    try:
        with transaction.atomic():
            round_ = next_round(event, pilot)
    except ServiceError as error:
        _blocked(event, pilot, now, error, progress)
        return
    if round_ is None:
        finish(event, pilot, now, progress)
        return
    Match.objects.filter(round=round_, status=Match.Status.SCHEDULED).update(scheduled=now)
    pilot.round = round_.number
    pilot.round_started = now
    pilot.round_deadline = now + round_limit(event, pilot)
    pilot.round_ended = None
    reason, values = why
    log("autopilot.round_start", round_, event, reason, **values)
    progress.steps.append(f"round {round_.number} started")
    progress.round = round_


def _blocked(
    event: Event, pilot: Autopilot, now: datetime, error: ServiceError, progress: Progress
) -> None:
    """A format's rule refused the next step: the autopilot stops until an organiser
    resumes it, and the organisers are told why."""
    pilot.paused = now
    log("autopilot.pause", event, event, "blocked", message=str(error.message))
    message = _("The autopilot of %(event)s stopped: %(reason)s")
    for user in organisers(event):
        notify(user, message, event.get_absolute_url(), event=event, reason=error.message)
    progress.steps.append(f"blocked: {error.code}")


def next_round(event: Event, pilot: Autopilot) -> Round | None:
    """The next round, paired by the format's own functions (the organiser's); None when
    the event has no round left to play."""
    if event.format == Event.Format.SWISS:
        if next_round_number(event) > tournament_of(event).rounds:
            return None
        swiss.pair_round(None, event, read_back=False)
        return swiss.publish(None, event)
    if event.format == Event.Format.INDIVIDUAL:
        if next_round_number(event) > tournament_of(event).rounds:
            return None
        return individual.seat_round(None, event)
    if event.format == Event.Format.GROUPS_PLAYOFF and not event.groups.exists():
        groups.draw_groups(None, event)
    elif event.format in ELIMINATION_FORMATS and not Bracket.objects.filter(event=event).exists():
        brackets.create_bracket(None, event)
    bracket = Bracket.objects.filter(event=event).first()
    if bracket is not None:
        brackets.sync(bracket)
    found = _waiting_round(event)
    if found is None and event.format == Event.Format.GROUPS_PLAYOFF and bracket is None:
        groups.start_playoff(None, event)
        found = _waiting_round(event)
    return found


def _waiting_round(event: Event) -> Round | None:
    """The first round with a match still to play (a draw makes its rounds ahead)."""
    number = unfinished_matches(event).aggregate(first=Min("round__number"))["first"]
    return None if number is None else event.rounds.filter(number=number).first()


def podium(event: Event) -> list[tuple[int, Entry]]:
    """The first three places (shared places included) by the event's standings."""
    if event.format == Event.Format.INDIVIDUAL:
        rows = [(row.position, row.player) for row in individual_table(event)]
    elif event.format == Event.Format.ARENA:
        rows = [(row.position, row.entry) for row in arena.table(event) if row.played]
    else:
        bracket = Bracket.objects.filter(event=event).first()
        table = elimination_table(event, bracket) if bracket else pairs_table(event)
        rows = [(row.position, row.entry) for row in table if row.active]
    return [(position, entry) for position, entry in rows if position <= 3]


def finish(
    event: Event, pilot: Autopilot, now: datetime, progress: Progress, reason: str = "last_round"
) -> None:
    """The last round is over: the event is finished, its podium written down, ratings
    queued, and every player told their place."""
    event.status = set_status(None, event, Event.Status.FINISHED).status
    pilot.finished = now
    places = podium(event)
    log(
        "autopilot.finish",
        event,
        event,
        reason,
        time=pilot.round_ended or now,
        podium=[[position, entry.pk, entry.name] for position, entry in places],
    )
    if pilot.ratings_queued is None:
        pool = pool_of(event)
        if pool is not None:
            request_recalculation(pool.pk, pilot.started or now)
            log("autopilot.ratings", event, event, reason, time=pilot.round_ended or now)
        pilot.ratings_queued = now
    message = _("%(event)s is over: see the podium.")
    for user in _everyone(event, (Entry.Status.ACCEPTED,)):
        notify(user, message, event.get_absolute_url(), event=event)
    progress.steps.append("finished")


# Where the event is ---------------------------------------------------------------------


@dataclass
class Clock:
    """Where the event is: `state` is one of scheduled, check_in, starting, round, pause,
    paused, finished, cancelled (or none: the event does not run itself); `until` is the
    moment the clock counts down to (the start, the round's deadline, the next round)."""

    state: str
    round: int = 0
    until: datetime | None = None
    check_in_opens: datetime | None = None
    starts: datetime | None = None

    def as_json(self) -> dict:
        return asdict(self)


def clock(event: Event, pilot: Autopilot | None, now: datetime | None = None) -> Clock:
    """The event's round clock, from what the autopilot keeps."""
    now = now or timezone.now()
    if pilot is None:
        return Clock("none")
    if event.status == Event.Status.CANCELLED:
        return Clock("cancelled")
    if pilot.finished is not None or event.status == Event.Status.FINISHED:
        return Clock("finished", pilot.round)
    if pilot.paused is not None:
        return Clock("paused", pilot.round)
    if pilot.started is None:
        opens = pilot.starts - timedelta(minutes=pilot.check_in_minutes)
        state = "check_in" if now >= opens else "scheduled"
        return Clock(state, 0, pilot.starts, opens, pilot.starts)
    if pilot.round == 0:
        return Clock("starting")
    if pilot.round_ended is None:
        return Clock("round", pilot.round, pilot.round_deadline)
    return Clock("pause", pilot.round, pilot.round_ended + timedelta(seconds=pilot.pause_seconds))


# The organiser's own changes to the rounds, by their names on the run page (the API's
# actions use the same): each is refused while the event runs itself, and those that change
# the round being paired also while the worker pairs one.
ROUND_CHANGES = frozenset({"pair", "swap", "pin", "publish", "discard", "unpair", "seat", "unseat"})
MANUAL_STEPS = ROUND_CHANGES | {"draw-bracket", "draw-groups", "playoff"}


def require_manual(event: Event, step: str) -> None:
    """Refuse the organiser's `step` (one of MANUAL_STEPS) while the event's autopilot pairs
    and opens every round, and a change to the round while the worker pairs one. (A result
    entered by hand: results.require_by_hand.)"""
    running = Autopilot.objects.filter(event=event, finished__isnull=True)
    if step in MANUAL_STEPS and running.exists():
        raise ServiceError(
            "autopilot_runs",
            _("This event runs itself: the autopilot pairs and starts its rounds."),
        )
    if step in ROUND_CHANGES:
        jobs.require_idle(event)


# The organiser's controls ----------------------------------------------------------------


def locked(user, event: Event) -> tuple[Event, Autopilot]:
    """The event and its autopilot, locked for a control by `user` (an organiser)."""
    event = Event.objects.select_for_update(of=("self",)).get(pk=event.pk)
    require(user, "event.manage", event)
    pilot = Autopilot.objects.select_for_update().filter(event=event).first()
    if pilot is None:
        raise ServiceError("no_autopilot", _("This event does not run itself."))
    if pilot.finished is not None or event.status in (
        Event.Status.FINISHED,
        Event.Status.CANCELLED,
    ):
        raise ServiceError("event_closed", _("This event is over."))
    return event, pilot


@transaction.atomic
def pause(user, event: Event) -> Autopilot:
    """Stop the automatic steps: matches in play go on, nothing new starts."""
    event, pilot = locked(user, event)
    if pilot.paused is not None:
        raise ServiceError("already_paused", _("The autopilot is already paused."))
    pilot.paused = timezone.now()
    pilot.save(update_fields=["paused", "updated"])
    log("autopilot.pause", event, event, "organiser", actor=user)
    return pilot


@transaction.atomic
def resume(user, event: Event) -> Autopilot:
    """The automatic steps go on from where the event is."""
    event, pilot = locked(user, event)
    if pilot.paused is None:
        raise ServiceError("not_paused", _("The autopilot is not paused."))
    pilot.paused = None
    pilot.save(update_fields=["paused", "updated"])
    log("autopilot.resume", event, event, "organiser", actor=user)
    return pilot


def pair_again(user, event: Event, pilot: Autopilot, now: datetime) -> Round:
    """The round in play, unpaired and paired again by the format's own functions (its
    tables closed by the caller, before any move)."""
    number = pilot.round
    if event.format == Event.Format.SWISS:
        swiss.unpair(user, event)
    else:
        individual.unseat_round(user, event)
    round_ = next_round(event, pilot)
    Match.objects.filter(round=round_, status=Match.Status.SCHEDULED).update(scheduled=now)
    pilot.round_started = now
    pilot.save(update_fields=["round_started", "updated"])
    log("autopilot.repair", round_, event, "organiser", actor=user, round=number)
    return round_


def round_in_play(event: Event, pilot: Autopilot) -> Round:
    """The round whose matches are being played now (not in the pause after it)."""
    round_ = event.rounds.filter(number=pilot.round).first()
    if pilot.round == 0 or pilot.round_ended is not None or round_ is None:
        raise ServiceError("no_round_in_play", _("No round is in play now."))
    return round_
