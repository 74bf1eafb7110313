"""Who is at the table: a seated player is online while one of their table sockets is open.

Every open socket of a signed-in user is a `Presence` row in the database, so that several
tabs and several web processes (the Redis channel layer) agree: the row is made when the
socket connects and deleted when it closes, and a seat is offline while its user has no row
at the table (`tables.presence_changed` stores the seats offline on the table and rings a
change to its group). A process that dies closes nothing, so each web process refreshes its
rows' `seen` every BEAT_SECONDS, and the timers' sweep drops rows older than
EXPIRY_SECONDS (`expire`), which puts their seats offline.
"""

import asyncio
import logging
import uuid
from datetime import timedelta

from channels.db import database_sync_to_async
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.models import Presence, Seat

from . import tables

logger = logging.getLogger(__name__)

PROCESS = uuid.uuid4().hex  # this web process, for its heartbeat
BEAT_SECONDS = 10
EXPIRY_SECONDS = 35  # three beats missed, and a margin for a busy process


def _seated(table_id: int, user_id: int) -> bool:
    return Seat.objects.filter(table_id=table_id, user_id=user_id).exists()


def arrive(table_id: int, user: AbstractBaseUser, channel: str) -> None:
    """A socket of `user` opened at the table: their seat, if they hold one, is online."""
    try:
        with transaction.atomic():  # a refused row leaves a caller's transaction usable
            Presence.objects.create(  # a socket's channel name is its own: one row, made once
                channel=channel,
                table_id=table_id,
                user_id=user.pk,
                process=PROCESS,
                seen=timezone.now(),
            )
    except IntegrityError:  # no such table (deleted, or an id past any)
        return
    if _seated(table_id, user.pk):
        tables.presence_changed(table_id)


def leave(table_id: int, channel: str) -> None:
    """A socket closed: its user's seat is offline if it was their last one at the table."""
    row = Presence.objects.filter(channel=channel).values_list("user_id", flat=True).first()
    if row is None:
        return
    Presence.objects.filter(channel=channel).delete()
    if _seated(table_id, row):
        tables.presence_changed(table_id)


def beat() -> int:
    """Refresh the rows of this process's open sockets; how many there are."""
    return Presence.objects.filter(process=PROCESS).update(seen=timezone.now())


def expire() -> int:
    """Drop the rows nobody refreshed for EXPIRY_SECONDS (their process died) and store the
    seats that are offline now; how many tables changed."""
    stale = Presence.objects.filter(seen__lt=timezone.now() - timedelta(seconds=EXPIRY_SECONDS))
    table_ids = set(stale.values_list("table_id", flat=True))
    if not table_ids:
        return 0
    stale.delete()  # filtered again: a row refreshed meanwhile stays
    return sum(tables.presence_changed(pk) for pk in sorted(table_ids))


_heartbeat: asyncio.Task | None = None


def start_heartbeat() -> None:
    """Start this web process's heartbeat once (called on the event loop by table sockets)."""
    global _heartbeat
    if _heartbeat is None or _heartbeat.done():
        _heartbeat = asyncio.get_running_loop().create_task(_beat_forever())


async def _beat_forever() -> None:
    step = database_sync_to_async(beat, thread_sensitive=False)
    while True:
        await asyncio.sleep(BEAT_SECONDS)
        try:
            await step()
        except Exception:
            logger.exception("table presence heartbeat failed")
