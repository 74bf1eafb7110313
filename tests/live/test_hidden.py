"""Hidden information: no viewer ever gets a tile of another seat before the hand ends."""

import random
from dataclasses import replace

import pytest

from games.models import Hand, Table
from games.services.messages import snapshot, viewer_message
from tests.conftest import run_async

from .conftest import (
    TableSocket,
    assert_no_hidden_tiles,
    full_table,
    make_players,
    play_match,
    play_step,
)

pytestmark = pytest.mark.django_db(transaction=True)

RULE_SETS = [
    {"preset": "dominican", "target": 60},
    {"preset": "brazilian", "target": 40},
    {"preset": "latin", "target": 40},
    {"preset": "tournament", "target": 40},
    {"preset": "vog", "boneyard": True, "tiles_per_hand": 5, "target": 40},
]


def test_the_sweep_would_catch_a_leak(players):
    table = full_table(players, "dominican")
    message = viewer_message("update", snapshot(table.pk, players[0]))
    records = {table.hand_number: table.state}
    assert_no_hidden_tiles(message, records)
    message["hand"]["partner"] = table.state["deal"][2]
    with pytest.raises(AssertionError):
        assert_no_hidden_tiles(message, records)


def test_service_layer_sweep(players):
    """Many complete random games through the services: every viewer's message after
    every action is built and checked against the hand's record."""
    rng = random.Random(7)
    checked = hands = matches = 0
    while checked < 1000:  # the deals are the server's own: as many matches as it takes
        for rules in RULE_SETS:
            matches += 1
            table = full_table(players, rules)
            live: dict[int, dict] = {}
            while table.status != Table.Status.FINISHED:
                live[table.hand_number] = table.state
                snap = snapshot(table.pk, None)
                for seat in [0, 1, 2, 3, None]:
                    message = viewer_message("update", replace(snap, seat=seat))
                    assert_no_hidden_tiles(message, live)
                    checked += 1
                play_step(table, rng)
                table.refresh_from_db()
            for hand in Hand.objects.filter(table=table):
                assert hand.record["deal"] == live[hand.number]["deal"]
                hands += 1
    assert hands > matches  # some matches ran several hands


def test_real_socket_sweep(table_server):
    """Complete matches over real sockets, every message of every socket recorded."""
    rng = random.Random(11)
    received = []
    for rules in RULE_SETS[::2]:
        users = make_players(4)
        table = full_table(users, rules | {"target": 25})

        async def scenario(table=table, users=users):
            sockets = [TableSocket(table_server, table.pk, u) for u in users]
            spectator = TableSocket(table_server, table.pk)
            for s in [*sockets, spectator]:
                await s.connect()
            await play_match(sockets, rng, observers=(spectator,))
            return [*sockets, spectator]

        sockets = run_async(scenario())
        records = {h.number: h.record for h in Hand.objects.filter(table=table)}
        for socket in sockets:
            for message in socket.received:
                assert_no_hidden_tiles(message, records)
            received.extend(socket.received)
    assert len(received) > 300
