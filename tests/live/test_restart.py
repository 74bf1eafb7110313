"""A server restart mid-hand loses nothing: kill the server, start it again, play on."""

import os
import random
import signal
import subprocess

import pytest

from games.models import Action, Hand
from tests.conftest import run_async, start_server, stop

from .conftest import SHORT, TableSocket, full_table, play_match

pytestmark = pytest.mark.django_db(transaction=True)


def crash(process: subprocess.Popen) -> None:
    """Kill the server and its worker processes at once: no clean shutdown."""
    found = subprocess.run(["pgrep", "-P", str(process.pid)], capture_output=True, text=True)
    for pid in [process.pid, *map(int, found.stdout.split())]:
        os.kill(pid, signal.SIGKILL)
    process.wait()


def test_a_server_restart_mid_hand_loses_nothing(service_env, log_dir, players):
    table = full_table(players, SHORT)
    rng = random.Random(2)
    process, url = start_server(service_env, log_dir / "restart-1.log")
    try:

        async def before():
            sockets = [TableSocket(url, table.pk, u) for u in players]
            for s in sockets:
                await s.connect()
            played = []
            for _ in range(6):
                mover = sockets[sockets[0].state["hand"]["turn"]]
                await mover.until_version(sockets[0].version)
                action = rng.choice(mover.state["hand"]["legal_actions"])
                answer = await mover.answer(await mover.play(action))
                played.append(action)
                for s in sockets:
                    await s.until_version(answer["version"])
            return played, sockets[0].version

        played, version = run_async(before())
    finally:
        crash(process)
    assert list(Action.objects.filter(table=table).values_list("action", flat=True)) == played

    process, url = start_server(service_env, log_dir / "restart-2.log")
    try:

        async def after():
            sockets = [TableSocket(url, table.pk, u) for u in players]
            resumed = [await s.connect(version=version) for s in sockets]
            await play_match(sockets, rng)
            return resumed

        resumed = run_async(after())
    finally:
        stop(process)
    assert all(m["type"] == "missed" and m["version"] == version for m in resumed)
    # The hand that was in play (a tied block, where nobody scores, deals a second one).
    record = Hand.objects.get(table=table, number=1).record
    assert record["actions"][: len(played)] == played
    assert len(record["actions"]) == Action.objects.filter(table=table, hand=1).count()
