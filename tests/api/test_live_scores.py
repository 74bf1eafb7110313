"""Live scores for club sites: the public score of each live table, read or streamed as
Server-Sent Events, and never a tile."""

import asyncio
import json

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext

from api.live import event_scores, score_stream
from games.models import Table
from tests.live.conftest import full_table, tiles_in

pytestmark = pytest.mark.django_db


def live_table(match) -> Table:
    a, b = match.entry_a, match.entry_b
    users = [a.player_1.user, b.player_1.user, a.player_2.user, b.player_2.user]
    return full_table(users, kind=Table.Kind.FIXTURE, fixture=match)


async def collect(response) -> bytes:
    return b"".join([chunk async for chunk in response.streaming_content])


def events_of(body: str) -> list[tuple[str, object]]:
    found = []
    for block in body.split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "event" in lines:
            found.append((lines["event"], json.loads(lines["data"])))
    return found


def test_a_live_match_shows_its_score_and_no_tile(api, league):
    played, other = league.matches(1)
    table = live_table(played)
    assert table.state and tiles_in(table.state)  # a hand is dealt: tiles exist
    score = api.get(f"/api/v1/matches/{played.pk}/live/").json()
    assert score == {
        "match": played.pk,
        "table": table.code,
        "status": "playing",
        "hand_number": 1,
        "scores": [0, 0],
        "target": 1,
        "over": False,
        "winner": None,
        "round": 1,
        "ends": None,
    }
    assert api.get(f"/api/v1/matches/{other.pk}/live/").status_code == 404
    listed = api.get(f"/api/v1/events/{league.event.slug}/live/").json()
    assert listed == [score]
    assert tiles_in(listed) == set() and tiles_in(score) == set()


def test_live_scores_stream_as_server_sent_events_without_tiles(api, league, settings):
    settings.LIVE_STREAM_SECONDS = 0.3
    settings.LIVE_STREAM_POLL = 0.05
    played = league.matches(1)[0]
    live_table(played)
    url = f"/api/v1/events/{league.event.slug}/live/stream/"
    response = api.get(url, HTTP_ACCEPT="text/event-stream")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    assert response["Access-Control-Allow-Origin"] == "*"
    body = async_to_sync(collect)(response).decode()
    assert body.startswith("retry: ")
    sent = events_of(body)
    assert [name for name, _data in sent] == ["scores"]  # once: nothing changed after
    assert sent[0][1] == api.get(f"/api/v1/events/{league.event.slug}/live/").json()
    assert tiles_in(sent[0][1]) == set()
    assert api.get("/api/v1/events/no-such-event/live/stream/").status_code == 404


def _streamed_queries(event, viewers: int) -> int:
    """The database queries of `viewers` streams of the event's scores, run side by side."""

    async def watch() -> list[bytes]:
        return await asyncio.gather(*(collect_stream(score_stream(event)) for _ in range(viewers)))

    with CaptureQueriesContext(connection) as queries:
        bodies = async_to_sync(watch)()
    assert all(b"event: scores" in body for body in bodies)
    return len(queries)


async def collect_stream(stream) -> bytes:
    return "".join([part async for part in stream]).encode()


def test_viewers_of_an_event_share_one_reading_of_its_scores(league, settings):
    """Measured on 2026-12-02, a second of streams polling every 0.1 s: 1 viewer 11 queries;
    20 viewers 192 (9.6 each) when each read the scores, 10 (0.5 each) sharing them.

    The bound is the readings a second can hold when they are shared (one each half poll),
    whatever the machine's load: a slow machine polls less, and never reads more."""
    settings.LIVE_STREAM_SECONDS = 1
    settings.LIVE_STREAM_POLL = 0.1
    for match in league.matches(1):
        live_table(match)
    with CaptureQueriesContext(connection) as reading:
        event_scores(league.event)
    shared = len(reading) * (settings.LIVE_STREAM_SECONDS / (settings.LIVE_STREAM_POLL / 2) + 2)
    assert _streamed_queries(league.event, 20) <= shared


def test_a_score_that_changes_reaches_every_viewer(league, settings):
    settings.LIVE_STREAM_SECONDS = 1
    settings.LIVE_STREAM_POLL = 0.1
    table = live_table(league.matches(1)[0])

    def score() -> None:
        Table.objects.filter(pk=table.pk).update(match={"scores": [30, 0], "over": False})

    async def watch() -> list[bytes]:
        async def later() -> bytes:
            await asyncio.sleep(0.4)
            await sync_to_async(score)()
            return b""

        streams = [collect_stream(score_stream(league.event)) for _ in range(5)]
        return await asyncio.gather(*streams, later())

    for body in async_to_sync(watch)()[:5]:
        sent = [data[0]["scores"] for _name, data in events_of(body.decode())]
        assert sent == [[0, 0], [30, 0]]
