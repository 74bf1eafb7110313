"""Turn timers: deadlines stored on the table, fired by countdown tasks and one sweep.

Everything that fires a timer goes through `tables.time_out`, which acts only when the
table is still at the version the timer was set for and its deadline has passed: a timer
is never revoked, it just finds the table moved on, so an overdue turn is played once
whoever gets there first. The one entry point is `sweep()`:

- Celery beat runs it every 2 s in the worker (`games.tasks.sweep_tables`, through
  `sweep_from_worker`), which also keeps the worker's heartbeat;
- every web process runs it in its own sweeper (`start_web_sweeper`, started by the first
  table socket) in the embedded mode, where the in-memory channel layer cannot be reached
  from a worker, and otherwise whenever no worker has swept for TAKEOVER_SECONDS: a table
  goes on while the worker or beat is down. The same sweeper takes the online events' due
  steps then (games/services/autopilot.py), so an event goes on too.

A sweep is single-flight (a PostgreSQL advisory lock; SQLite has one sweeping process), so
the first sweep after a silence (nobody swept for GAP_SECONDS: the whole service was down)
alone decides the grace, extending overdue deadlines by GRACE_SECONDS instead of firing
them in a burst. A countdown task late by more than GAP_SECONDS leaves its table to that
sweep too.

A countdown task is armed only for a deadline that falls before the sweeper looks again:
by the change that sets it when it is that near (`tables.deadline_set`), otherwise by the
sweep before it. Most turns are played long before their deadline, so most never cost a
task. Services queue tasks by name, so that no service imports a task module.
"""

import asyncio
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta

from channels.db import database_sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.utils import timezone

from core.tasks import queue_on_commit
from games.models import Table

from . import autopilot, presence
from .tables import extend_deadline, time_out

logger = logging.getLogger(__name__)

SWEEP_KEY = "games:sweeper-heartbeat"  # the last sweep, by any process
WORKER_KEY = "games:worker-heartbeat"  # the last sweep by the Celery worker
TIME_OUT_TASK = "games.tasks.time_out_table"
# A web process's sweeper looks this often, and sweeps once no worker has for this long.
SWEEP_SECONDS = 1
TAKEOVER_SECONDS = 5
# Nobody swept for longer than this: the service was down; overdue deadlines get GRACE.
GAP_SECONDS = 10
GRACE_SECONDS = 20
# A countdown task not run by then is dropped: the sweeper covers its table.
EXPIRES_SECONDS = 60
_LOCK = (0x7469, 0)  # "ti": the sweep's advisory lock


def timers_in_server() -> bool:
    """True when the server process runs the sweeper (the in-memory channel layer)."""
    return "InMemory" in settings.CHANNEL_LAYERS["default"]["BACKEND"]


def arm_ahead() -> float:
    """How near a deadline must be to get its countdown now: two beats of the sweeper and a
    second, so that a sweep always comes between a farther deadline and its firing."""
    beat = settings.CELERY_BEAT_SCHEDULE["sweep-live-tables"]["schedule"]
    return 2 * float(beat) + 1


def schedule(table_id: int, version: int, deadline: datetime) -> None:
    """Arm the countdown of a new deadline if it is near (with a shared channel layer)."""
    if timers_in_server():
        return
    delay = (deadline - timezone.now()).total_seconds()
    if delay <= arm_ahead():
        _countdown(table_id, version, delay)


def _countdown(table_id: int, version: int, delay: float) -> None:
    delay = max(0.0, delay)
    queue_on_commit(
        TIME_OUT_TASK, table_id, version, countdown=delay + 0.05, expires=delay + EXPIRES_SECONDS
    )


def countdown_due(table_id: int, version: int) -> bool:
    """A countdown task's turn: fire, unless it comes more than GAP_SECONDS late (the worker
    was down), when the sweep decides, with the grace after a silence."""
    late = Table.objects.filter(
        pk=table_id, deadline__lt=timezone.now() - timedelta(seconds=GAP_SECONDS)
    )
    if late.exists():
        return False
    return time_out(table_id, version)


@contextmanager
def _single_flight() -> Iterator[bool]:
    """True for the one sweep that may run now (a session advisory lock on PostgreSQL)."""
    if connection.vendor != "postgresql":
        yield True
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", _LOCK)
        mine = cursor.fetchone()[0]
    try:
        yield mine
    finally:
        if mine:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s, %s)", _LOCK)


def sweep(*, arm: bool = True) -> int:
    """Fire every due timer; after a silence extend overdue deadlines instead. Returns how
    many fired (0 when another sweep is running). Drops the presence of sockets whose web
    process stopped refreshing it, first (`presence.expire`).

    An extension is rung to the table's group, so that the players' clocks show it without
    reconnecting. With `arm`, deadlines coming near get their countdown task.
    """
    with _single_flight() as mine:
        if not mine:
            return 0
        presence.expire()  # the sockets of a web process that died are closed
        now = timezone.now()
        last = cache.get(SWEEP_KEY)
        live = Table.objects.filter(status__in=[Table.Status.PLAYING, Table.Status.BETWEEN])
        if last is None or now.timestamp() - last > GAP_SECONDS:
            grace = now + timedelta(seconds=GRACE_SECONDS)
            due = live.filter(deadline__lt=grace).values_list("pk", flat=True)
            extended = sum(extend_deadline(pk, grace) for pk in due)
            if extended:
                logger.info("nobody swept for a while: %d deadlines extended", extended)
            cache.set(SWEEP_KEY, now.timestamp(), timeout=None)
            return 0
        fired = 0
        for pk, version in live.filter(deadline__lte=now).values_list("pk", "version"):
            fired += time_out(pk, version)
        if arm and not timers_in_server():
            near = live.filter(deadline__gt=now, deadline__lte=now + timedelta(seconds=arm_ahead()))
            for pk, version, deadline in near.values_list("pk", "version", "deadline"):
                _countdown(pk, version, (deadline - now).total_seconds())
        cache.set(SWEEP_KEY, timezone.now().timestamp(), timeout=None)
        return fired


def sweep_from_worker() -> int:
    """Celery beat's sweep in the worker: its heartbeat, then the sweep (none in the
    embedded mode, where a worker cannot reach the players: the server sweeps)."""
    cache.set(WORKER_KEY, timezone.now().timestamp(), timeout=None)
    return 0 if timers_in_server() else sweep()


def worker_silent() -> bool:
    """True when no Celery worker has swept for TAKEOVER_SECONDS."""
    last = cache.get(WORKER_KEY)
    return last is None or timezone.now().timestamp() - last > TAKEOVER_SECONDS


def web_sweeps() -> bool:
    """Does a web process sweep now: never with `WEB_SWEEPER` off; otherwise in the embedded
    mode always, and with the Redis layer while no worker does."""
    return settings.WEB_SWEEPER and (timers_in_server() or worker_silent())


def sweep_from_web() -> int:
    """A web process's sweep, when it sweeps (`web_sweeps`), and the online events' steps
    that are due (`autopilot.tick_all`). No countdowns: no worker may be there to run them."""
    if not web_sweeps():
        return 0
    fired = sweep(arm=False)
    autopilot.tick_all()
    return fired


_web_sweeper: asyncio.Task | None = None


def start_web_sweeper() -> None:
    """Start this web process's sweeper once (called on the event loop by table sockets)."""
    global _web_sweeper
    if _web_sweeper is None or _web_sweeper.done():
        _web_sweeper = asyncio.get_running_loop().create_task(_sweep_forever())


async def _sweep_forever() -> None:
    step = database_sync_to_async(sweep_from_web, thread_sensitive=False)
    while True:
        try:
            await step()
        except Exception:
            logger.exception("table sweeper failed")
        await asyncio.sleep(SWEEP_SECONDS)
