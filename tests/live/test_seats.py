"""Seats under races: players sitting down at once, through real sockets on two servers.

Each web process lets one of a table's requests at a time through (an asyncio lock per
table), so the race is between processes: the sockets of a table are spread over two
servers, as players behind a load balancer are.
"""

import asyncio

import pytest
from django.db import IntegrityError, transaction

from games.models import Seat, Table
from games.services import tables
from tests.conftest import redis_available, require, run_async, start_server, stop

from .conftest import TableSocket, make_players

pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS = 20


@pytest.fixture(scope="module")
def two_servers(asgi_server, service_env, log_dir):
    """Two web processes on the same database and Redis layer."""
    require(redis_available(), "Redis (REDIS_URL)")
    process, url = start_server(service_env, log_dir / "seats.log")
    yield [asgi_server, url]
    stop(process)


async def sit_together(sockets: list[TableSocket], seats: list[int]) -> list[dict]:
    """Every socket sends its `sit` at once; their answers, in order."""
    pairs = zip(sockets, seats, strict=True)
    await asyncio.gather(*(s.send({"type": "sit", "seat": n, "id": f"sit-{n}"}) for s, n in pairs))
    return list(await asyncio.gather(*(s.expect("ok", "error") for s in sockets)))


def test_four_players_sitting_at_once_start_the_hand_once(two_servers):
    for _ in range(ROUNDS):
        users = make_players()
        table = tables.create_table(host=users[0], rules="dominican")

        async def scenario(table=table, users=users):
            sockets = [TableSocket(two_servers[i % 2], table.pk, u) for i, u in enumerate(users)]
            for socket in sockets:
                await socket.connect()
            answers = await sit_together(sockets, [0, 1, 2, 3])
            for socket in sockets:
                while socket.state["table"]["status"] != "playing":
                    await socket.recv()
            for socket in sockets:
                await socket.socket.close()
            return answers, [s.state for s in sockets]

        answers, states = run_async(scenario())
        assert [a["type"] for a in answers] == ["ok"] * 4, answers
        table.refresh_from_db()
        assert (table.status, table.hand_number) == (Table.Status.PLAYING, 1)
        assert table.version == 4  # three seat changes and one deal: nothing dealt twice
        seated = dict(Seat.objects.filter(table=table).values_list("number", "user_id"))
        assert seated == {n: u.pk for n, u in enumerate(users)}
        assert [s["seat"] for s in states] == [0, 1, 2, 3]
        assert all(len(s["hand"]["hand"]) == 7 for s in states)


def test_two_players_sitting_on_one_seat_get_ok_and_seat_taken(two_servers):
    for _ in range(ROUNDS):
        users = make_players(2)
        table = tables.create_table(host=users[0], rules="dominican")

        async def scenario(table=table, users=users):
            sockets = [TableSocket(two_servers[i], table.pk, u) for i, u in enumerate(users)]
            for socket in sockets:
                await socket.connect()
            answers = await sit_together(sockets, [2, 2])
            for socket in sockets:
                await socket.socket.close()
            return answers

        answers = run_async(scenario())
        kinds = sorted((a["type"], a.get("code")) for a in answers)
        assert kinds == [("error", "seat_taken"), ("ok", None)], answers
        winner = users[[a["type"] for a in answers].index("ok")]
        assert Seat.objects.get(table=table, number=2).user_id == winner.pk
        assert Seat.objects.filter(table=table, user__isnull=False).count() == 1


def test_the_database_keeps_two_users_off_one_seat(players):
    """A seat goes from one user to another only through empty, whatever the code does."""
    table = tables.create_table(host=players[0], rules="dominican")
    tables.sit(table.pk, players[0], 1)
    seat = Seat.objects.get(table=table, number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.filter(pk=seat.pk).update(user=players[1])
    tables.add_bot(table.pk, players[0], 2)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.filter(table=table, number=2).update(user=players[1])
    tables.sit(table.pk, players[0], 3)  # moving seats is still one step: free, then take
    tables.sit(table.pk, players[1], 1)
    held = dict(Seat.objects.filter(table=table).values_list("number", "user_id"))
    assert held == {0: None, 1: players[1].pk, 2: None, 3: players[0].pk}
