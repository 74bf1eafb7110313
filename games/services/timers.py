"""Turn timers: deadlines stored on the table, fired by a countdown task and a sweeper.

Both call the one idempotent handler `tables.time_out`, which acts only when the table is
still at the version the timer was set for: a timer is never revoked, it just finds the
table moved on. In the embedded mode the in-memory channel layer cannot be reached from a
worker, so the sweeper runs inside the server process and no countdown task is sent.

A countdown task is armed only for a deadline that falls before the sweeper looks again:
by the change that sets it when it is that near, otherwise by the sweep before it. Most
turns are played long before their deadline, so most never cost a task; every deadline
still fires on time, from its countdown.
"""

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

logger = logging.getLogger(__name__)

SWEEP_SECONDS = 1
HEARTBEAT_KEY = "games:sweeper-heartbeat"
# A sweeper silent for longer than this was down: overdue deadlines get this much again.
GAP_SECONDS = 10
GRACE_SECONDS = 20
# A countdown task not run by then is dropped: the sweeper covers its table.
EXPIRES_SECONDS = 60


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
    from games.tasks import time_out_table

    delay = max(0.0, delay)
    time_out_table.apply_async(
        (table_id, version), countdown=delay + 0.05, expires=delay + EXPIRES_SECONDS
    )


def sweep() -> int:
    """Fire every due timer; after a silence (a restart) extend overdue deadlines instead.

    An extension is rung to the table's group, so that the players' clocks show it without
    reconnecting.
    """
    from games.models import Table

    from .fixtures import open_due_fixtures
    from .tables import extend_deadline, time_out

    now = timezone.now()
    last = cache.get(HEARTBEAT_KEY)
    cache.set(HEARTBEAT_KEY, now.timestamp(), timeout=None)
    live = Table.objects.filter(status__in=[Table.Status.PLAYING, Table.Status.BETWEEN])
    if last is None or now.timestamp() - last > GAP_SECONDS:
        grace = now + timedelta(seconds=GRACE_SECONDS)
        due = live.filter(deadline__lt=grace).values_list("pk", flat=True)
        extended = sum(extend_deadline(pk, grace) for pk in due)
        if extended:
            logger.info("sweeper was silent: %d deadlines extended", extended)
        return 0
    fired = 0
    for pk, version in live.filter(deadline__lte=now).values_list("pk", "version"):
        fired += time_out(pk, version)
    if not timers_in_server():
        near = live.filter(deadline__gt=now, deadline__lte=now + timedelta(seconds=arm_ahead()))
        for pk, version, deadline in near.values_list("pk", "version", "deadline"):
            _countdown(pk, version, (deadline - now).total_seconds())
    open_due_fixtures(now)
    return fired
