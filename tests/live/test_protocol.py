"""The table protocol against a running server, with real WebSocket clients."""

import asyncio

import pytest
import websockets

from games.models import Action, Hand, Table
from tests.conftest import run_async

from .conftest import TableSocket, full_table, tiles_in

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


def test_four_players_play_a_hand_and_a_spectator_watches(asgi_server, players):
    table = full_table(players)

    async def scenario():
        sockets = [TableSocket(asgi_server, table.pk, u) for u in players]
        spectator = TableSocket(asgi_server, table.pk)
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
    assert table.status == Table.Status.FINISHED
    assert Hand.objects.filter(table=table).count() == 1
    record = Hand.objects.get(table=table).record
    assert record["format"] == "domino-hand/1"
    assert len(record["actions"]) == Action.objects.filter(table=table).count()
    final = spectator.state["hand"]
    assert final["result"]["ended"] in ("domino", "block") and len(final["hands"]) == 4
