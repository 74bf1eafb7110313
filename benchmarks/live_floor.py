"""The bare stack that benchmarks/live.py --floor measures the live tables against.

The same granian workers, Django settings and Redis channel layer as the site, and a
WebSocket consumer at the same address (/ws/tables/<id>/) that does only what no live table
can do without: it answers `hello` with a snapshot, and for a `play` writes one row (the
action's version, in its own table `bench_floor_action`, whose key refuses a version twice),
acknowledges it to its sender and sends the update to the table's four sockets through the
channel layer. No session, no rules, no hand, no timers. Its messages are padded to the sizes
the site's were in the same run (FLOOR_SNAPSHOT_BYTES, FLOOR_UPDATE_BYTES), and say whose turn
it is (the version modulo 4) with one legal action, so live.py's bots play it unchanged.
"""

import json
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.db import connection  # noqa: E402
from django.urls import path  # noqa: E402

from games.services.messages import off_loop  # noqa: E402 (the threads the site's calls use)

TABLE = "bench_floor_action"
CREATE = (
    f"CREATE TABLE IF NOT EXISTS {TABLE} (table_id bigint NOT NULL, version integer NOT NULL, "
    "at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (table_id, version))"
)
SIZES = {
    "snapshot": int(os.environ.get("FLOOR_SNAPSHOT_BYTES", "0")),
    "update": int(os.environ.get("FLOOR_UPDATE_BYTES", "0")),
}


def message(kind: str, version: int) -> str:
    """A snapshot or update at `version`, padded to the site's size for its kind."""
    body = {
        "type": kind,
        "version": version,
        "table": {"status": "playing", "ready": [], "hand_number": 1},
        "hand": {"turn": version % 4, "legal_actions": [{"tile": [6, 6], "end": "left"}]},
    }
    text = json.dumps(body)
    short = SIZES[kind] - len(text) - len(', "pad": ""')
    return json.dumps(body | {"pad": "x" * short}) if short > 0 else text


@off_loop
def last_version(table_id: int) -> int:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT max(version) FROM {TABLE} WHERE table_id = %s", [table_id])
        return cursor.fetchone()[0] or 0


@off_loop
def record(table_id: int, version: int) -> bool:
    """One row for the action (autocommit: one commit); False when it was already played."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {TABLE} (table_id, version) VALUES (%s, %s) ON CONFLICT DO NOTHING",
            [table_id, version],
        )
        return cursor.rowcount == 1


class FloorTable(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["pk"])
        self.group = f"floor-{self.table_id}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None):
        frame = json.loads(text_data or "{}")
        if frame.get("type") == "hello":
            await self.send(message("snapshot", await last_version(self.table_id)))
        elif frame.get("type") == "play":
            version = frame["version"] + 1
            if not await record(self.table_id, version):
                await self.send(json.dumps({"type": "error", "code": "stale", "id": frame["id"]}))
                return
            await self.send(json.dumps({"type": "ack", "id": frame["id"], "version": version}))
            await self.channel_layer.group_send(
                self.group, {"type": "floor.update", "text": message("update", version)}
            )

    async def floor_update(self, event: dict) -> None:
        await self.send(text_data=event["text"])


async def healthz(scope: dict, receive, send) -> None:
    """Any HTTP request: 200, once the worker answers (live.py waits for it)."""
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})


application = ProtocolTypeRouter(
    {
        "http": healthz,
        "websocket": URLRouter([path("ws/tables/<int:pk>/", FloorTable.as_asgi())]),
    }
)
