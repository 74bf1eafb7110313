"""The table socket: a thin caller of the table services (see docs/live-protocol.md)."""

import asyncio
import json
import logging
import time
from collections.abc import Callable
from typing import Any

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

from games.engine import EngineError
from games.models import BotLevel
from games.services import presence, tables, timers
from games.services.errors import TableError, error_answer
from games.services.messages import (
    call_service,
    missed,
    off_loop,
    snapshot,
    table_group,
    viewer_message,
)
from league.notifications import user_group

logger = logging.getLogger(__name__)

# Frames a socket may send: BURST at once, then RATE_PER_SECOND, counted as they arrive.
RATE_PER_SECOND = 10
BURST = 20
POLICY_VIOLATION = 1008
NO_TABLE = 4404
# The largest id a table can have (a 64-bit primary key): a longer number names no table,
# and the databases refuse it as a parameter (SQLite raises OverflowError).
LAST_ID = 2**63 - 1
# The longest frame read: the longest message of the protocol is well under 200 characters.
MESSAGE_MAX = 4096


def read_frame(text: str | None) -> dict | None:
    """A client frame as the JSON object it holds, or None when it holds none: a binary or
    empty frame, one over MESSAGE_MAX characters, or anything but a JSON object."""
    if not text or len(text) > MESSAGE_MAX:
        return None
    try:
        content = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return content if isinstance(content, dict) else None


def language_of(scope: dict) -> str:
    """The viewer's language: the language cookie, else Accept-Language, else the default."""
    supported = {code for code, _ in settings.LANGUAGES}
    cookie = scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME, "").lower()
    if cookie in supported:
        return cookie
    headers = dict(scope.get("headers", []))
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for code, _ in parse_accept_lang_header(accept):
        for candidate in (code.lower(), code.lower().split("-")[0]):
            if candidate in supported:
                return candidate
    return settings.LANGUAGE_CODE


class TableConsumer(AsyncJsonWebsocketConsumer):
    """One viewer of one table: a seated player, or a spectator who can never act."""

    flooded = False

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        """Frames are counted against the rate limit as they arrive, not when the consumer
        gets to them: the consumer handles one message at a time, and a busy server that
        took longer than a frame's share of the rate for each would refill the bucket as
        fast as a flood spends it. A socket past the limit is closed with 1008 at once,
        and nothing more is sent on it nor read from it."""
        inbox: asyncio.Queue = asyncio.Queue()

        async def send_unless_flooded(message: dict) -> None:
            if not self.flooded:
                await send(message)

        arrivals = asyncio.ensure_future(self._arrivals(receive, send, inbox))
        try:
            await super().__call__(scope, inbox.get, send_unless_flooded)
        finally:
            arrivals.cancel()
            await asyncio.gather(arrivals, return_exceptions=True)

    async def _arrivals(self, receive: Callable, send: Callable, inbox: asyncio.Queue) -> None:
        """Read the server's messages as soon as they come, charging each frame."""
        tokens, stamp = float(BURST), time.monotonic()
        try:
            while True:
                message = await receive()
                if message["type"] == "websocket.receive":
                    if self.flooded:
                        continue
                    now = time.monotonic()
                    tokens = min(BURST, tokens + (now - stamp) * RATE_PER_SECOND) - 1
                    stamp = now
                    if tokens < 0:
                        self.flooded = True
                        await send({"type": "websocket.close", "code": POLICY_VIOLATION})
                        continue
                inbox.put_nowait(message)
                if message["type"] == "websocket.disconnect":
                    return
        except Exception:
            logger.exception("table socket: reading from the server failed")
            inbox.put_nowait({"type": "websocket.disconnect", "code": 1011})

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope.get("user")
        self.language = language_of(self.scope)
        self.synced = False
        self.snap = None
        if self.table_id > LAST_ID:
            await self.accept()
            await self.close(code=NO_TABLE)
            return
        self.joined = [table_group(self.table_id)]
        if self.user is not None and self.user.is_authenticated:
            self.joined.append(user_group(self.user.pk))
        for group in self.joined:
            await self.channel_layer.group_add(group, self.channel_name)
        # Present before the snapshot, so that it shows this user's seat online already.
        self.present = self.user is not None and self.user.is_authenticated
        if self.present:
            await call_service(presence.arrive, self.table_id, self.user, self.channel_name)
        self.snap = await off_loop(snapshot)(self.table_id, self.user)
        await self.accept()
        if self.snap is None:  # after the handshake, so that the client reads the code
            await self.close(code=NO_TABLE)
            return
        timers.start_web_sweeper()
        presence.start_heartbeat()

    async def dispatch(self, message: dict) -> None:
        """Handle a message without channels' per-message hop to a thread.

        Channels' dispatch first runs `close_old_connections` in its one thread-sensitive
        thread for every message, so every socket's every update queued behind every
        other's. No handler here touches the database on the event loop: each database
        call goes through `database_sync_to_async`, which closes old connections itself.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        if getattr(self, "present", False):
            await call_service(presence.leave, self.table_id, self.channel_name)

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs
    ) -> None:
        """One frame (counted against the rate limit on arrival, by `_arrivals`); an
        unreadable frame (not a JSON object in a text frame of at most MESSAGE_MAX
        characters) is `bad_message`."""
        if self.flooded or self.snap is None:
            return  # closing already
        content = read_frame(text_data)
        if content is None:
            await self._refuse("bad_message", None)
            return
        await self.receive_json(content)

    async def receive_json(self, content: dict, **kwargs) -> None:
        kind = content.get("type")
        if kind == "hello":
            await self._hello(content)
            return
        handler = {
            "play": self._play,
            "next": self._next,
            "sit": self._sit,
            "bot": self._bot,
            "back": self._back,
        }
        if kind not in handler:
            await self._refuse("bad_message", content)
            return
        if self.user is None or not self.user.is_authenticated:
            await self._refuse("not_seated", content)
            return
        await handler[kind](content)

    # ------------------------------------------------------------ client requests

    async def _hello(self, content: dict) -> None:
        """A (re)connecting client's last version: the missed events, or a snapshot."""
        version = content.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version < 0:
            await self._refuse("bad_message", content)
            return
        self.synced = True
        events = None
        if 0 < version <= self.snap.version:
            events = await off_loop(missed)(
                self.table_id, version, self.snap.version, self.snap.facts["hand_number"]
            )
        if events is None:
            await self.send_json(viewer_message("snapshot", self.snap))
        else:
            await self.send_json(viewer_message("missed", self.snap, events=events))

    async def _play(self, content: dict) -> None:
        await self._call(
            content,
            tables.act,
            self.table_id,
            self.user,
            action=content.get("action"),
            version=content.get("version"),
            client_id=content.get("id"),
        )

    async def _next(self, content: dict) -> None:
        await self._call(content, tables.press_next, self.table_id, self.user)

    async def _sit(self, content: dict) -> None:
        await self._call(content, tables.sit, self.table_id, self.user, content.get("seat"))

    async def _bot(self, content: dict) -> None:
        level = content.get("level", BotLevel.MEDIUM)
        await self._call(
            content, tables.add_bot, self.table_id, self.user, content.get("seat"), level
        )

    async def _back(self, content: dict) -> None:
        await self._call(content, tables.take_back, self.table_id, self.user)

    async def _call(self, content: dict, service: Callable, *args: Any, **kwargs: Any) -> None:
        client_id = content.get("id") if isinstance(content.get("id"), str) else None
        try:
            answer = await call_service(service, *args, **kwargs)
        except TableError as error:
            await self._refuse(error.code, content)
            return
        await self.send_json(
            answer if isinstance(answer, dict) else {"type": "ok", "id": client_id}
        )

    async def _refuse(self, code: str, content: Any) -> None:
        client_id = content.get("id") if isinstance(content, dict) else None
        with translation.override(self.language):
            await self.send_json(
                error_answer(code, client_id if isinstance(client_id, str) else None)
            )
        if code == "stale":
            await self._reload()

    async def _reload(self) -> None:
        fresh = await off_loop(snapshot)(self.table_id, self.user)
        if fresh is not None:
            self.snap = fresh
            if self.synced:
                await self.send_json(viewer_message("snapshot", self.snap))

    # ------------------------------------------------------------ group messages

    async def table_changed(self, message: dict) -> None:
        version, event = message["version"], message["event"]
        if event["kind"] in ("deadline", "presence"):  # the version stays
            if version == self.snap.version:
                self.snap.facts = message["facts"]
                await self._send_update(event)
            return
        if version <= self.snap.version:
            return
        step = version == self.snap.version + 1 and self.snap.state is not None
        if step and event["kind"] == "action":
            try:
                self.snap.state = tables.engine_step(
                    self.snap.state, event["seat"], event["action"]
                )
            except EngineError:
                await self._reload()
                return
        elif not (step and event["kind"] == "ready"):
            await self._reload()
            return
        self.snap.version, self.snap.facts = version, message["facts"]
        await self._send_update(event)

    async def _send_update(self, event: dict) -> None:
        if self.synced:
            last = {"seat": event["seat"], "action": event["action"]} if "seat" in event else None
            await self.send_json(viewer_message("update", self.snap, last=last))

    async def session_ended(self, message: dict) -> None:
        await self.close(code=4401)
