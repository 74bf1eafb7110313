"""Live scores of competition matches played at live tables, for club sites: the public
facts of each table (its score, hand number and state), never a tile. Read once, or followed
as Server-Sent Events."""

import asyncio
import json
import math
import time
from collections.abc import AsyncIterator

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache

from games.models import Table
from games.services.messages import table_facts
from league.models import Event, Match

from .serializers import LiveScoreSerializer

PUBLIC = ("status", "hand_number", "scores", "target", "over", "winner")
KEEPALIVE = 15  # seconds between comments that keep proxies from closing a quiet stream


def live_scores(tables) -> list[dict]:
    """Each table's public score, from `table_facts` (the facts every spectator sees)."""
    rows = []
    for table in tables:
        facts = table_facts(table)
        row = {"match": table.fixture_id, "table": table.code, **{k: facts[k] for k in PUBLIC}}
        row |= {"round": table.fixture.round.number, "ends": table.ends}
        rows.append(row)
    return LiveScoreSerializer(rows, many=True).data


def _tables(**where):
    return (
        Table.objects.filter(**where)
        .defer("state")
        .select_related("fixture__round")
        .order_by("fixture__round__number", "fixture__table", "pk")
    )


def event_scores(event: Event) -> list[dict]:
    return live_scores(_tables(fixture__event=event))


def match_score(match: Match) -> dict | None:
    found = live_scores(_tables(fixture=match))
    return found[0] if found else None


def shared_scores(event: Event) -> list[dict]:
    """The event's live scores as its streams read them: one reading for every viewer (in
    every process) each half LIVE_STREAM_POLL, kept in the cache; so a change reaches a
    viewer within a poll and a half, as it did when each viewer read them."""
    key = f"api:live-scores:{event.pk}"
    found = cache.get(key)
    if found is not None and time.time() - found[0] < settings.LIVE_STREAM_POLL / 2:
        return found[1]
    reading = f"{key}:reading"
    mine = cache.add(reading, True, math.ceil(settings.LIVE_STREAM_POLL * 5))
    if not mine and found is not None:
        return found[1]  # another viewer is reading them
    try:
        scores = list(event_scores(event))
        cache.set(key, (time.time(), scores), math.ceil(settings.LIVE_STREAM_POLL * 10))
    finally:
        if mine:
            cache.delete(reading)
    return scores


async def score_stream(event: Event) -> AsyncIterator[str]:
    """`scores` events: the event's live scores at once, then each time they change, for
    LIVE_STREAM_SECONDS (the browser's EventSource then reconnects by itself)."""
    read = sync_to_async(shared_scores)
    yield f"retry: {settings.LIVE_STREAM_RETRY_MS}\n\n"
    last, quiet = None, time.monotonic()
    until = time.monotonic() + settings.LIVE_STREAM_SECONDS
    while True:
        scores = await read(event)
        if scores != last:
            last, quiet = scores, time.monotonic()
            yield f"event: scores\ndata: {json.dumps(scores, separators=(',', ':'))}\n\n"
        elif time.monotonic() - quiet > KEEPALIVE:
            quiet = time.monotonic()
            yield ": keepalive\n\n"
        if time.monotonic() >= until:
            return
        await asyncio.sleep(settings.LIVE_STREAM_POLL)
