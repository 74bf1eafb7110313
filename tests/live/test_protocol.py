"""The table protocol against a running server, with real WebSocket clients."""

import asyncio
import json
import random
import time

import pytest
import websockets
from django.db import connection, transaction

from games.consumers import MESSAGE_MAX
from games.engine import legal_actions
from games.models import Action, Hand, Presence, Table
from games.services import tables
from games.services.errors import ECHO_MAX
from games.services.messages import hand_state
from tests.conftest import run_async

from .conftest import TableSocket, full_table, play_step

pytestmark = pytest.mark.django_db(transaction=True)


async def play_hand(sockets: list[TableSocket]) -> None:
    """Each seat plays its first legal action on its turn until the hand ends."""
    while True:
        state = sockets[0].state
        if state["hand"]["status"] in ("domino", "block", "redeal"):
            return
        turn = state["hand"]["turn"]
        mover = sockets[turn]
        await mover.until_version(state["version"])
        action = mover.state["hand"]["legal_actions"][0]
        client_id = await mover.play(action)
        answer = await mover.answer(client_id)
        assert answer["type"] == "ack", answer
        for s in sockets:
            await s.until_version(answer["version"])


def test_four_players_play_a_hand_and_a_spectator_watches(table_server, players):
    table = full_table(players)

    async def scenario():
        sockets = [TableSocket(table_server, table.pk, u) for u in players]
        spectator = TableSocket(table_server, table.pk)
        for s in [*sockets, spectator]:
            await s.connect()
        assert [s.state["seat"] for s in sockets] == [0, 1, 2, 3]
        assert spectator.state["seat"] is None and "hand" not in spectator.state["hand"]
        await play_hand(sockets)
        await spectator.until_version(sockets[0].version)
        refused = await spectator.answer(await spectator.play("pass"))
        return sockets, spectator, refused

    sockets, spectator, refused = run_async(scenario())
    assert refused["code"] == "not_seated" and refused["message"]
    table.refresh_from_db()
    assert Hand.objects.filter(table=table).count() == 1
    hand = Hand.objects.get(table=table)
    # One hand decides the match, but for a tied block, where nobody scores (a random deal).
    decided = any(hand.ruling["points"])
    assert table.status == (Table.Status.FINISHED if decided else Table.Status.BETWEEN)
    record = hand.record
    assert record["format"] == "domino-hand/1"
    assert len(record["actions"]) == Action.objects.filter(table=table).count()
    final = spectator.state["hand"]
    assert final["result"]["ended"] in ("domino", "block") and len(final["hands"]) == 4


def turn_socket(sockets: list[TableSocket]) -> TableSocket:
    return sockets[sockets[0].state["hand"]["turn"]]


def test_two_tabs_sending_the_same_move_apply_it_once(table_server, players):
    table = full_table(players, "dominican")

    async def scenario():
        sockets = [TableSocket(table_server, table.pk, u) for u in players]
        for s in sockets:
            await s.connect()
        mover = turn_socket(sockets)
        twin = TableSocket(table_server, table.pk, cookie=mover.cookie)
        await twin.connect()
        action = mover.state["hand"]["legal_actions"][0]
        first, second = await mover.play(action), await twin.play(action)
        return await asyncio.gather(mover.answer(first), twin.answer(second))

    answers = run_async(scenario())
    assert sorted(a["type"] for a in answers) == ["ack", "error"]
    assert next(a for a in answers if a["type"] == "error")["code"] == "stale"
    assert Action.objects.filter(table=table).count() == 1


def test_a_message_resent_after_a_reconnect_gets_the_first_answer(table_server, players):
    table = full_table(players, "dominican")

    async def scenario():
        sockets = [TableSocket(table_server, table.pk, u) for u in players]
        for s in sockets:
            await s.connect()
        mover = turn_socket(sockets)
        seen = mover.version
        action = mover.state["hand"]["legal_actions"][0]
        client_id = await mover.play(action)
        await mover.socket.close()  # the answer is lost with the connection
        await sockets[(mover.state["seat"] + 1) % 4].until_version(seen + 1)
        resumed = await mover.connect(version=seen)
        await mover.play(action, version=seen, client_id=client_id)
        return resumed, await mover.answer(client_id)

    resumed, answer = run_async(scenario())
    assert resumed["type"] == "missed" and len(resumed["missed"]) == 1
    assert answer == {"type": "ack", "id": answer["id"], "version": resumed["version"]}
    assert Action.objects.filter(table=table).count() == 1


def test_a_reused_client_id_gets_its_first_answer_and_changes_nothing(players):
    """A client that sends a new move under an id it already used gets the first ack."""
    table = full_table(players, "dominican")
    seat = hand_state(table).turn

    def move(client_id: str) -> dict:
        table.refresh_from_db()
        state = hand_state(table)
        user = players[state.turn]
        return tables.act(
            table.pk,
            user,
            action=legal_actions(state)[0],
            version=table.version,
            client_id=client_id,
        )

    first = move("once")
    while hand_state(Table.objects.get(pk=table.pk)).turn != seat:
        move(f"other-{table.version}")
    before = Table.objects.get(pk=table.pk).version
    assert move("once") == first
    assert Table.objects.get(pk=table.pk).version == before
    assert Action.objects.filter(table=table, client_id="once").count() == 1


def test_stale_and_bad_input_are_refused_and_change_nothing(asgi_server, players):
    table = full_table(players, "dominican")

    async def scenario():
        sockets = [TableSocket(asgi_server, table.pk, u) for u in players]
        for s in sockets:
            await s.connect()
        mover = turn_socket(sockets)
        other = sockets[(mover.state["seat"] + 1) % 4]
        legal = mover.state["hand"]["legal_actions"][0]
        codes = []
        for socket, message in [
            (mover, {"action": legal, "version": mover.version - 1}),
            (mover, {"action": legal + "!auto"}),
            (mover, {"action": "9-9"}),
            (mover, {"action": ["6-6"]}),
            (mover, {"action": legal, "version": "x"}),
            (other, {"action": legal}),
        ]:
            client_id = f"bad-{len(codes)}"
            await socket.send(
                {"type": "play", "id": client_id, "version": socket.version} | message
            )
            codes.append((await socket.answer(client_id))["code"])
        await mover.send({"type": "shout"})
        codes.append((await mover.expect("error"))["code"])
        return codes, mover.received

    codes, received = run_async(scenario())
    assert codes == [
        "stale",
        "bad_message",
        "illegal",
        "bad_message",
        "bad_message",
        "not_your_turn",
        "bad_message",
    ]
    stale = next(i for i, m in enumerate(received) if m.get("code") == "stale")
    assert received[stale + 1]["type"] == "snapshot"  # the stale client is resynced
    assert Action.objects.filter(table=table).count() == 0
    assert Table.objects.get(pk=table.pk).version == table.version


def test_errors_speak_the_viewers_language(asgi_server, players):
    table = full_table(players, "dominican")

    async def scenario():
        socket = TableSocket(asgi_server, table.pk, players[0])
        socket.cookie += "; django_language=en"
        await socket.connect()
        await socket.send({"type": "shout"})
        return await socket.expect("error")

    assert run_async(scenario())["message"] == "That message could not be read."


def test_a_flood_is_closed_with_1008(asgi_server, players):
    table = full_table(players, "dominican")

    async def scenario():
        socket = TableSocket(asgi_server, table.pk, players[0])
        await socket.connect()
        with pytest.raises(websockets.ConnectionClosed):
            for _ in range(40):  # a burst, then only reading: no data races the close
                await socket.socket.send(json.dumps({"type": "hello", "version": 0}))
            while True:
                await socket.recv()
        return socket.socket.close_code

    assert run_async(scenario()) == 1008


def test_a_flood_is_closed_with_1008_however_busy_the_server_is(postgres, asgi_server, players):
    """A deliberately slowed consumer: this test holds a lock on the actions' table, so the
    server's first answer (the missed actions since version 1) waits on it. The frames are
    counted as they arrive all the same: 60 hellos at once close the socket with 1008
    while the first is still waiting, and none of them is answered."""
    table = full_table(players, "dominican")
    play_step(table, random.Random(1))

    async def flood() -> tuple[int | None, list[dict]]:
        socket = TableSocket(asgi_server, table.pk, players[0])
        await socket.connect()
        assert socket.state["version"] > 1
        before = len(socket.received)
        for _ in range(60):
            await socket.socket.send(json.dumps({"type": "hello", "version": 1}))
        with pytest.raises(websockets.ConnectionClosed):
            while True:
                await socket.recv(timeout=60)
        return socket.socket.close_code, socket.received[before:]

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"LOCK TABLE {Action._meta.db_table} IN ACCESS EXCLUSIVE MODE")
        code, answers = run_async(flood())
    assert code == 1008
    assert answers == []


def test_foreign_origin_is_refused(asgi_server, players):
    table = full_table(players, "dominican")

    async def scenario():
        socket = TableSocket(asgi_server, table.pk, players[0])
        socket.origin = "http://evil.example"
        with pytest.raises(websockets.InvalidStatus) as refused:
            await socket.connect()
        return refused.value.response.status_code

    assert run_async(scenario()) == 403


def test_logging_out_closes_the_table_sockets(asgi_server, players):
    from tests.platform.test_websocket import log_out

    table = full_table(players, "dominican")

    async def scenario():
        socket = TableSocket(asgi_server, table.pk, players[0])
        await socket.connect()
        await asyncio.to_thread(log_out, asgi_server, socket.cookie)
        with pytest.raises(websockets.ConnectionClosed):
            while True:
                await socket.recv()
        return socket.socket.close_code

    assert run_async(scenario()) == 4401
    # The server records the closed socket's departure; wait for it, so that its transaction
    # does not meet the test's own clean-up (they deadlocked once).
    deadline = time.monotonic() + 10
    while Presence.objects.filter(table=table).exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not Presence.objects.filter(table=table).exists()


def test_unreadable_frames_get_bad_message_and_the_socket_stays_open(asgi_server, players):
    table = full_table(players, "dominican")

    async def scenario():
        socket = TableSocket(asgi_server, table.pk, players[0])
        await socket.connect()
        answers = []
        for frame in ["{not json", "", b"\x00\x01binary", "[1, 2]", '"hello"', "[" * 3000]:
            await socket.socket.send(frame)
            answers.append(await socket.expect("error"))
        await socket.send({"type": "hello", "version": socket.version})
        still_open = await socket.expect("missed")
        return answers, still_open

    answers, still_open = run_async(scenario())
    assert [a["code"] for a in answers] == ["bad_message"] * 6
    assert all(a["id"] is None for a in answers)
    assert still_open["version"] == table.version


def test_messages_over_the_size_limit_are_refused_and_nothing_long_is_echoed(asgi_server, players):
    table = full_table(players, "dominican")
    mover = players[hand_state(table).turn]

    async def scenario():
        socket = TableSocket(asgi_server, table.pk, mover)
        await socket.connect()
        legal = socket.state["hand"]["legal_actions"][0]
        big_id = "x" * 1_000_000
        play = {"type": "play", "action": legal, "version": socket.version}
        await socket.send(play | {"id": big_id})
        too_big = await socket.expect("error")
        await socket.send(play | {"id": "padded", "pad": "y" * MESSAGE_MAX})
        padded = await socket.expect("error")
        await socket.send(play | {"id": "z" * (MESSAGE_MAX - 200)})  # under the limit
        long_id = await socket.expect("error")
        return too_big, padded, long_id

    too_big, padded, long_id = run_async(scenario())
    assert too_big["code"] == padded["code"] == long_id["code"] == "bad_message"
    assert too_big["id"] is None and padded["id"] is None
    assert long_id["id"] == "z" * ECHO_MAX  # a short prefix only
    assert not Action.objects.filter(table=table).exists()


@pytest.mark.parametrize("table_id", [987654321, 10**30])
def test_an_unknown_table_closes_with_4404_after_the_handshake(asgi_server, players, table_id):
    """Also for a signed-in user, whose presence there is refused (an id past any)."""

    async def scenario():
        socket = TableSocket(asgi_server, table_id, players[0])
        with pytest.raises(websockets.ConnectionClosed):
            await socket.connect()  # the handshake succeeds; the close follows
        return socket.socket.close_code

    assert run_async(scenario()) == 4404
    assert not Presence.objects.exists()


def test_hello_with_a_version_that_is_not_a_number_gets_bad_message(asgi_server, players):
    table = full_table(players, "dominican")

    async def scenario():
        socket = TableSocket(asgi_server, table.pk, players[0])
        await socket.connect()
        answers = []
        for version in ["3", None, True, 1.5, -1, [1]]:
            await socket.send({"type": "hello", "version": version, "id": "h"})
            answers.append(await socket.expect("error", "snapshot", "missed"))
        await socket.send({"type": "hello"})
        answers.append(await socket.expect("error", "snapshot", "missed"))
        return answers

    answers = run_async(scenario())
    assert [(a["type"], a.get("code")) for a in answers] == [("error", "bad_message")] * 7
