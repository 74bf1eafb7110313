"""Who is at the table: a seat is offline while its player has no socket open there, across
tabs and web processes; a process that died leaves its sockets to the sweep."""

import asyncio
import time
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from games.models import Presence, Table
from games.services import presence, timers
from tests.conftest import run_async, start_server, stop

from .conftest import TableSocket, full_table

pytestmark = pytest.mark.django_db(transaction=True)

# A turn outlasts the test, however slow the machine: no timeout makes a new version.
LONG = {"preset": "dominican", "target": 500, "turn_seconds": 600}


async def until_offline(socket: TableSocket, seats: list[int], timeout: float = 10) -> dict:
    """Read the socket's messages until the table says exactly these seats are offline."""
    while socket.state is None or socket.state["table"]["offline"] != seats:
        await socket.recv(timeout)
    return socket.state


async def until_rows(user, count: int, timeout: float = 10) -> None:
    """Wait until `user` has `count` open sockets recorded (a close is handled after the
    client's side of it returns)."""
    stop_at = time.monotonic() + timeout
    rows = Presence.objects.filter(user=user).count
    while await asyncio.to_thread(rows) != count:
        assert time.monotonic() < stop_at, "the presence rows never settled"
        await asyncio.sleep(0.05)


def test_a_seat_is_online_while_any_of_its_sockets_is_open(
    redis_layer, asgi_server, service_env, log_dir, players
):
    """Two tabs of one player, served by two web processes: closing one leaves the seat
    online, closing both puts it offline for everyone, reconnecting brings it back. A
    presence change is not a new version."""
    table = full_table(players, LONG)
    assert table.offline == [0, 1, 2, 3]  # nobody has opened the table yet
    process, other = start_server(service_env, log_dir / "presence-second.log")

    async def scenario():
        watcher = TableSocket(asgi_server, table.pk, players[1])
        await watcher.connect()
        await until_offline(watcher, [0, 2, 3])  # the watcher's own seat is online
        first = TableSocket(asgi_server, table.pk, players[0])
        await first.connect()
        seen = [await until_offline(watcher, [2, 3])]
        second = TableSocket(other, table.pk, players[0])  # another tab, another process
        await second.connect()
        await first.socket.close()
        await until_rows(players[0], 1)
        still = await asyncio.to_thread(lambda: Table.objects.get(pk=table.pk).offline)
        await second.socket.close()
        seen.append(await until_offline(watcher, [0, 2, 3]))
        await first.connect(first.version)
        seen.append(await until_offline(watcher, [2, 3]))
        await watcher.socket.close()
        await first.socket.close()
        return still, seen

    try:
        still, seen = run_async(scenario())
    finally:
        stop(process)
    assert still == [2, 3]
    assert [s["version"] for s in seen] == [table.version] * 3
    assert all(s["hand"]["hand"] for s in seen)  # the watcher's own tiles, as before
    assert Table.objects.get(pk=table.pk).offline == [0, 1, 2, 3]
    assert not Presence.objects.filter(table=table).exists()


def test_the_sockets_of_a_dead_process_expire_and_a_live_one_beats(players):
    """A process refreshes its own sockets; the sweep drops those nobody refreshed and puts
    their seats offline."""
    table = full_table(players, LONG)
    presence.arrive(table.pk, players[0], "dead-process-socket")
    presence.arrive(table.pk, players[1], "live-process-socket")
    assert Table.objects.get(pk=table.pk).offline == [2, 3]
    old = timezone.now() - timedelta(seconds=presence.EXPIRY_SECONDS + 5)
    Presence.objects.filter(table=table).update(seen=old)
    Presence.objects.filter(channel="dead-process-socket").update(process="a-dead-process")
    assert presence.beat() == 1  # this process's socket only
    timers.sweep()
    assert list(Presence.objects.values_list("channel", flat=True)) == ["live-process-socket"]
    assert Table.objects.get(pk=table.pk).offline == [0, 2, 3]
    presence.leave(table.pk, "live-process-socket")
    assert Table.objects.get(pk=table.pk).offline == [0, 1, 2, 3]


def test_a_heartbeat_updates_its_rows_in_place(players, postgres):
    """No index covers `seen`: PostgreSQL updates each row in place (heap-only), writing no
    entry in the presence rows' six indexes on every beat."""
    table = full_table(players, LONG)
    for number, user in enumerate(players[:3]):
        presence.arrive(table.pk, user, f"socket-{number}")
    with transaction.atomic(), connection.cursor() as cursor:
        assert presence.beat() == 3
        cursor.execute(
            "SELECT pg_stat_get_xact_tuples_hot_updated(%s::regclass)",
            [Presence._meta.db_table],
        )
        assert cursor.fetchone()[0] == 3
