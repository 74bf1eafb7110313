"""Online events that run themselves: a club, an online event of a format with accounts for
every player, its autopilot, and bots that play every seat through the table services."""

import random
from datetime import timedelta

import pytest
from django.db.models import Q
from django.utils import timezone

from games.engine import ENDED, bot_action
from games.models import Table
from games.services import autopilot as live_autopilot
from games.services import tables
from games.services.messages import hand_state
from league.models import Autopilot, Entry, Event
from league.services import autopilot, entries
from tests.live.conftest import pytest_pyfunc_call  # noqa: F401  each test in its own thread
from tests.tournaments.conftest import build

# one hand decides a match; turns long enough that no bot waiting for its turn at another
# table is timed out (a worker of the session may run the turn timers)
RULES = {"target": 1, "turn_seconds": 60}


def online_event(fmt: str, size: int, tag: str = "", **options):
    """An online event of `fmt` with `size` entries, a match a hand, registration open."""
    data = build(fmt, size, tag=tag or fmt[:3], **options)
    Event.objects.filter(pk=data.event.pk).update(
        mode=Event.Mode.ONLINE, status=Event.Status.REGISTRATION, rule_overrides=RULES
    )
    data.event.refresh_from_db()
    return data


def configure(data, **settings) -> Autopilot:
    """The autopilot set by the organiser, then the clock moved on to its check-in window
    (a minute before the start)."""
    settings = {"check_in_minutes": 5, "pause_seconds": 0, "round_minutes": 30} | settings
    starts = timezone.now() + timedelta(minutes=settings["check_in_minutes"] + 1)
    pilot = autopilot.configure(data.organiser, data.event, starts=starts, **settings)
    Autopilot.objects.filter(pk=pilot.pk).update(starts=timezone.now() + timedelta(minutes=1))
    pilot.refresh_from_db()
    return pilot


def check_in_all(data, skip: int = 0) -> None:
    for entry in data.entries[skip:]:
        entries.check_in(data.organiser, entry)


def after_start(pilot: Autopilot, seconds: float = 1):
    """A moment `seconds` after the autopilot's start."""
    pilot.refresh_from_db()
    return pilot.starts + timedelta(seconds=seconds)


def bot_step(table: Table, rng: random.Random, absent: frozenset[int] = frozenset()) -> None:
    """One step at a table: between hands every player presses "next"; in a hand the seat
    to act plays the engine's easy bot's choice, or, for an `absent` user, lets its turn
    timer run out."""
    if table.status == Table.Status.BETWEEN:
        for seat in table.seats.exclude(user=None):
            if seat.number not in table.ready and seat.user_id not in absent:
                tables.press_next(table.pk, seat.user)
        return
    state = hand_state(table)
    if state is None or state.status in ENDED:
        return
    seat = table.seats.get(number=state.turn)
    if seat.user_id in absent:
        Table.objects.filter(pk=table.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        tables.time_out(table.pk, table.version)
        return
    tables.act(
        table.pk,
        seat.user,
        action=bot_action(state, rng, "easy"),
        version=table.version,
        client_id=f"b{table.pk}-{table.version}",
    )


def play_tables(event: Event, rng: random.Random, absent: tuple[Entry, ...] = ()) -> int:
    """Bots play every open table of the event to its end (the players of the `absent`
    entries let their turns time out); how many tables they finished."""
    away = frozenset(p.user_id for entry in absent for p in entry.players)
    playing = Table.objects.filter(Q(fixture__event=event) | Q(seating__event=event))
    playing = playing.exclude(status=Table.Status.FINISHED)
    finished = 0
    for table in playing.order_by("pk"):
        while table.status in (Table.Status.PLAYING, Table.Status.BETWEEN):
            try:
                bot_step(table, rng, away)
            except tables.TableError as error:
                assert error.code == "stale", error.code  # a timer played first: again
            table.refresh_from_db()
        finished += 1
    return finished


def run_to_the_end(data, rng: random.Random, rounds: int = 30) -> list[list[str]]:
    """Tick the autopilot and let the bots play until the event is over; the steps."""
    pilot = Autopilot.objects.get(event=data.event)
    steps = [live_autopilot.tick(data.event.pk, after_start(pilot))]
    for _ in range(rounds):
        data.event.refresh_from_db()
        if data.event.status != Event.Status.RUNNING:
            break
        play_tables(data.event, rng)
        steps.append(live_autopilot.tick(data.event.pk))
    return steps


@pytest.fixture
def rng() -> random.Random:
    return random.Random(34)


def accepted(event: Event) -> list[Entry]:
    return list(event.entries.filter(status=Entry.Status.ACCEPTED))
