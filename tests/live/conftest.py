"""Helpers of the live-table tests: players, tables and a recording WebSocket client."""

import asyncio
import concurrent.futures
import itertools
import json
import time
import uuid

import pytest
import websockets
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

from games.consumers import BURST, RATE_PER_SECOND
from games.engine import ENDED, legal_actions, state_from_dict
from games.engine.tiles import PARSE
from games.models import Table
from games.services import tables
from games.services.messages import hand_state
from league.models import Player

SHORT = {"preset": "tournament", "target": 1}  # one hand decides the match


def make_players(n: int = 4, prefix: str = "p") -> list:
    """Users with player profiles (no password: they sign in by session cookie)."""
    users = []
    for i in range(n):
        user = get_user_model().objects.create_user(f"{prefix}{i}-{uuid.uuid4().hex[:6]}")
        Player.objects.create(user=user, display_name=f"{prefix.upper()}{i}")
        users.append(user)
    return users


def full_table(users: list, rules: dict | str = SHORT, **kwargs) -> Table:
    """A table with these users seated 0..3 and its first hand dealt."""
    table = tables.create_table(host=users[0], rules=rules, **kwargs)
    tables.seat_players(table, [(u, u.username) for u in users])
    return Table.objects.get(pk=table.pk)


def play_step(table: Table, rng) -> None:
    """One step of a match through the services: between hands every seated player presses
    "next"; in a hand, the seat to act plays a random legal action."""
    if table.status == Table.Status.BETWEEN:
        for seat in table.seats.exclude(user=None):
            tables.press_next(table.pk, seat.user)
        return
    state = hand_state(table)
    if state.status in ENDED:
        return
    tables.act(
        table.pk,
        table.seats.get(number=state.turn).user,
        action=rng.choice(legal_actions(state)),
        version=table.version,
        client_id=f"c{table.version}",
    )


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


def tiles_in(message: dict) -> set[str]:
    """Every tile name anywhere in a message (keys and values)."""
    found: set[str] = set()

    def walk(value) -> None:
        if isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str):
            name = value.split("@")[0].split("!")[0]
            if name in PARSE:
                found.add(PARSE[name][0])

    walk(message)
    return found


class TableSocket:
    """A real WebSocket client of one table that records every message it receives."""

    _ids = itertools.count()

    def __init__(self, base: str, table_id: int, user=None, cookie: str | None = None) -> None:
        self.url = base.replace("http://", "ws://") + f"/ws/tables/{table_id}/"
        self.origin = base
        self.cookie = cookie if cookie is not None else (session_cookie(user) if user else None)
        self.received: list[dict] = []
        self.state: dict | None = None  # the last snapshot/update/missed
        self.socket = None
        # The server closes a socket past its rate limit; this client keeps under it, as a
        # person at the table does (a flood test writes to `self.socket` itself).
        self._tokens, self._stamp = float(BURST - 2), time.monotonic()

    async def __aenter__(self) -> "TableSocket":
        await self.connect()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.socket.close()

    async def connect(self, version: int = 0) -> dict:
        headers = {"Cookie": self.cookie} if self.cookie else {}
        self.socket = await websockets.connect(
            self.url, origin=self.origin, additional_headers=headers
        )
        await self.send({"type": "hello", "version": version})
        return await self.expect("snapshot", "missed")

    async def send(self, message: dict) -> None:
        rate = RATE_PER_SECOND * 0.9
        now = time.monotonic()
        self._tokens = min(BURST - 2, self._tokens + (now - self._stamp) * rate)
        self._stamp = now
        if self._tokens < 1:
            await asyncio.sleep((1 - self._tokens) / rate)
            self._tokens, self._stamp = 1.0, time.monotonic()
        self._tokens -= 1
        await self.socket.send(json.dumps(message))

    async def recv(self, timeout: float = 10) -> dict:
        message = json.loads(await asyncio.wait_for(self.socket.recv(), timeout))
        self.received.append(message)
        if message["type"] in ("snapshot", "update", "missed"):
            self.state = message
        return message

    async def expect(self, *kinds: str, timeout: float = 10) -> dict:
        while True:
            message = await self.recv(timeout)
            if message["type"] in kinds:
                return message

    async def until_version(self, version: int, timeout: float = 10) -> dict:
        while self.state is None or self.state["version"] < version:
            await self.recv(timeout)
        return self.state

    async def until_next_state(self, version: int, timeout: float = 10) -> dict:
        """Wait past `version` and past the pause between hands."""
        while self.state["version"] <= version or self.state["table"]["status"] == "between":
            await self.recv(timeout)
        return self.state

    @property
    def version(self) -> int:
        return self.state["version"]

    async def play(self, action: str, version: int | None = None, client_id: str | None = None):
        client_id = client_id or f"c{next(self._ids)}-{uuid.uuid4().hex[:8]}"
        await self.send(
            {
                "type": "play",
                "action": action,
                "id": client_id,
                "version": self.version if version is None else version,
            }
        )
        return client_id

    async def answer(self, client_id: str, timeout: float = 10) -> dict:
        while True:
            message = await self.recv(timeout)
            if message["type"] in ("ack", "error") and message.get("id") == client_id:
                return message


@pytest.fixture
def players(db) -> list:
    return make_players()


async def play_match(sockets: list[TableSocket], rng, observers: tuple = ()) -> None:
    """Seated sockets play random legal actions and press "next" until the match ends."""
    while True:
        state = sockets[0].state
        status = state["table"]["status"]
        if status == "finished":
            return
        if status == "between":
            for s in sockets:
                if s.state["seat"] not in s.state["table"]["ready"]:
                    await s.send({"type": "next", "id": f"next-{s.version}"})
                    await s.expect("ok", "error")
            await sockets[0].until_next_state(state["version"])
            continue
        mover = sockets[state["hand"]["turn"]]
        await mover.until_version(state["version"])
        sent = mover.version
        client_id = await mover.play(rng.choice(mover.state["hand"]["legal_actions"]))
        answer = await mover.answer(client_id)
        if answer["type"] == "error" and answer["code"] == "stale":
            # The table moved on before the move reached it (a turn timed out on a loaded
            # machine): the newer table comes with the refusal, or the wait fails the test.
            await mover.until_version(sent + 1)
            continue
        assert answer["type"] == "ack", answer
        for s in (*sockets, *observers):
            await s.until_version(answer["version"])


def tile_id(name: str) -> int:
    return PARSE[name.split("@")[0].split("!")[0]][0]


def undrawn(record: dict, actions: int) -> set[int]:
    """The boneyard tiles nobody had drawn after the first `actions` actions."""
    drawn = sum(a.startswith("draw") for a in record["actions"][:actions])
    return {tile_id(t) for t in record.get("boneyard", [])[drawn:]}


def assert_no_hidden_tiles(message: dict, records: dict[int, dict]) -> None:
    """A viewer's message shows no tile still in the boneyard, and, until the hand ends, no
    tile outside the line and the viewer's own hand: the tiles that seat holds at that point
    of the record (its drawn tiles included, nobody else's)."""
    hand = message.get("hand")
    if not hand:
        return
    record = records[hand["hand_number"]]
    seen = tiles_in({k: v for k, v in hand.items() if k != "rules"})
    seen |= tiles_in({k: v for k, v in message.items() if k not in ("hand", "table")})
    assert not seen & undrawn(record, len(hand["actions"])), "a boneyard tile was shown"
    if hand["status"] in ENDED:
        return
    line = {tile_id(piece["tile"]) for piece in hand["line"]}
    own: set[int] = set()
    if message["seat"] is not None:
        steps = {"actions": hand["actions"], "declarations": hand["declarations"]}
        held = state_from_dict(record | steps).hands[message["seat"]]
        own = {t for t in range(28) if held >> t & 1}
        assert {tile_id(t) for t in hand["hand"]} == own
    assert seen <= line | own, (message["seat"], seen - line - own)
    assert hand["boneyard"] == len(undrawn(record, len(hand["actions"])))


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    """Run each test without a browser in a thread of its own.

    The table services ring the channel layer through async_to_sync, which cannot run in
    the thread where Playwright keeps its event loop once a browser test has started.
    """
    if "chromium" in pyfuncitem.fixturenames:
        return None
    names = pyfuncitem._fixtureinfo.argnames
    kwargs = {name: pyfuncitem.funcargs[name] for name in names}

    def run():
        try:
            pyfuncitem.obj(**kwargs)
        finally:
            connection.close()

    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(run).result()
    return True
