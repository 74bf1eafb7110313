"""Exactly once under faults (#34): every automatic step of an online event (its start, each
round paired and its tables opened, each round ended, the finish, ratings queued) happens
once with ticks racing each other, with two Celery beat processes and a worker, with a
worker killed in the middle of a step, and with the web processes' sweeper while no worker
runs. On the real services: PostgreSQL, Redis, Celery worker and beat processes, granian."""

import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from datetime import timedelta
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connection, transaction
from django.utils import timezone

from config.celery import app as celery_app
from games.models import Table
from games.services import autopilot as live_autopilot
from league.models import AuditEntry, Autopilot, Event, Match, Result
from league.ratings.services import feed, global_pool
from tests.conftest import BASE_DIR, run_async, start_server, stop
from tests.conftest import start_worker as worker_process
from tests.live.conftest import TableSocket, play_match

from .conftest import after_start, check_in_all, configure, online_event, play_tables

pytestmark = pytest.mark.django_db(transaction=True)

# a match a hand, and turns long enough that no bot of these tests is timed out
SLOW_TURNS = {"target": 1, "turn_seconds": 60}


def event_for_faults(tag: str, size: int = 4, rounds: int = 2, starts_in: float = 0):
    """An online Swiss, every entry checked in, its start `starts_in` seconds from now."""
    data = online_event(Event.Format.SWISS, size, tag=tag, rounds=rounds)
    Event.objects.filter(pk=data.event.pk).update(rule_overrides=SLOW_TURNS)
    data.event.refresh_from_db()
    feed(data.event, global_pool())
    pilot = configure(data, round_minutes=30)
    check_in_all(data)
    starts = timezone.now() + timedelta(seconds=starts_in)
    Autopilot.objects.filter(pk=pilot.pk).update(starts=starts)
    pilot.refresh_from_db()
    return data, pilot


def assert_each_step_once(event: Event, rounds: int, finished: bool = True) -> None:
    """One round per number, one table per match to play, one result per match, and each
    automatic step once in the audit log."""
    event.refresh_from_db()
    numbers = list(event.rounds.values_list("number", flat=True))
    assert sorted(numbers) == list(range(1, rounds + 1))
    played = Match.objects.filter(event=event, entry_b__isnull=False)
    assert Table.objects.filter(fixture__event=event).count() == played.count()
    assert Result.objects.filter(match__event=event, status="confirmed").count() == (
        played.count() if finished else Result.objects.filter(match__event=event).count()
    )
    log = AuditEntry.objects.filter(event=event)
    starts = [e.after.get("round") for e in log.filter(action="autopilot.round_start")]
    assert log.filter(action="autopilot.start").count() == 1
    assert len(starts) == rounds
    assert log.filter(action="swiss.publish").count() == rounds
    if finished:
        assert event.status == Event.Status.FINISHED
        ends = [e.after["round"] for e in log.filter(action="autopilot.round_end")]
        assert sorted(ends) == list(range(1, rounds + 1))
        assert log.filter(action="autopilot.finish").count() == 1
        assert log.filter(action="autopilot.ratings").count() == 1
        assert log.filter(action="event.status", after__status="finished").count() == 1


def race(calls: int, function, *args) -> list:
    """`function(*args)` run by `calls` threads at once, each with its own connection."""
    barrier = threading.Barrier(calls)
    outcomes: list = [None] * calls

    def run(i: int) -> None:
        barrier.wait()
        try:
            outcomes[i] = function(*args)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def test_ticks_racing_each_other_take_each_step_once(postgres, rng):
    data, pilot = event_for_faults("race", size=5, rounds=3, starts_in=60)
    now = after_start(pilot)
    outcomes = race(4, live_autopilot.tick, data.event.pk, now)
    assert sorted(outcomes, key=len)[-1] == ["started", "round 1 started"]
    assert outcomes.count([]) == 3
    for _number in range(3):
        play_tables(data.event, rng)
        outcomes = race(4, live_autopilot.tick, data.event.pk)
        assert outcomes.count([]) >= 3  # one of them, or the worker told of the last result
    assert_each_step_once(data.event, 3)


def wait_until(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.2)


def start_beat(env: dict, folder, name: str) -> subprocess.Popen:
    log = (folder / f"{name}.log").open("w")
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "beat", "-l", "INFO"]
        + ["-s", str(folder / f"{name}-schedule"), "--pidfile="],
        cwd=BASE_DIR,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def test_two_beat_processes_and_a_worker_run_an_event_once(
    postgres, redis_layer, celery_worker_process, service_env, tmp_path, rng
):
    data, pilot = event_for_faults("beats", size=5, rounds=3, starts_in=3)
    beats = [start_beat(service_env, tmp_path, f"beat{n}") for n in (1, 2)]
    try:
        for number in (1, 2, 3):
            wait_until(
                lambda n=number: (
                    Table.objects.filter(
                        fixture__event=data.event, fixture__round__number=n
                    ).count()
                    == 2
                ),
                90,
                f"the tables of round {number}",
            )
            play_tables(data.event, rng)
        wait_until(
            lambda: Event.objects.get(pk=data.event.pk).status == Event.Status.FINISHED,
            60,
            "the finish",
        )
        time.sleep(3)  # more beats come and find nothing to do
    finally:
        for beat in beats:
            stop(beat)
    assert all(beat.returncode is not None for beat in beats)
    assert_each_step_once(data.event, 3)


def start_worker(env: dict, log, name: str, queue: str) -> subprocess.Popen:
    """A worker of one thread reading only `queue`, the test's own."""
    return worker_process(env, log, name, threads=1, queues=queue)


BLOCKED_INSERT = (
    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
    " AND wait_event_type = 'Lock' AND query LIKE 'INSERT INTO \"games_table\"%%'"
)


def blocked_inserts() -> int:
    with connection.cursor() as cursor:
        cursor.execute(BLOCKED_INSERT)
        return cursor.fetchone()[0]


def test_a_worker_killed_mid_step_leaves_nothing_and_the_next_takes_it_once(
    postgres, redis_layer, service_env, tmp_path
):
    data, pilot = event_for_faults("kill", size=5, rounds=2)
    queue = f"online-faults-{os.getpid()}"
    host = socket.gethostname()
    first = start_worker(service_env, tmp_path / "first.log", f"first-{os.getpid()}@{host}", queue)
    release, held = threading.Event(), threading.Event()

    def hold_the_tables_table() -> None:
        """New tables wait: the step stops at its first table, the round paired."""
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("LOCK TABLE games_table IN SHARE MODE")
                held.set()
                release.wait(120)
        finally:
            connection.close()

    holder = threading.Thread(target=hold_the_tables_table)
    holder.start()
    try:
        held.wait(30)
        celery_app.send_task(live_autopilot.TICK_TASK, [data.event.pk], queue=queue)
        wait_until(lambda: blocked_inserts() == 1, 60, "the step to reach its first table")
        os.kill(first.pid, signal.SIGKILL)  # in the middle of the step
        first.wait(30)
    finally:
        release.set()
        holder.join()
    wait_until(lambda: blocked_inserts() == 0, 60, "the dead worker's transaction to end")
    pilot.refresh_from_db()
    assert pilot.started is None and pilot.round == 0
    assert not data.event.rounds.exists() and not Table.objects.filter(fixture__event=data.event)
    assert not AuditEntry.objects.filter(event=data.event, action__startswith="autopilot.start")
    # the worker that takes over, told by the next beat
    second = start_worker(
        service_env, tmp_path / "second.log", f"second-{os.getpid()}@{host}", queue
    )
    try:
        celery_app.send_task(live_autopilot.TICK_TASK, [data.event.pk], queue=queue)
        celery_app.send_task(live_autopilot.TICK_TASK, [data.event.pk], queue=queue)
        wait_until(
            lambda: Table.objects.filter(fixture__event=data.event).count() == 2,
            90,
            "the first round's tables",
        )
        time.sleep(2)
    finally:
        stop(second)
    assert_each_step_once(data.event, 1, finished=False)


def quiet_redis(url: str) -> str:
    """A Redis database of this server that no worker and no beat reads."""
    parts = urlsplit(url)
    number = (int(parts.path.strip("/") or 0) + 8) % 16
    return urlunsplit(parts._replace(path=f"/{number}"))


def test_the_web_sweeper_runs_an_event_while_no_worker_does(
    postgres, redis_layer, service_env, log_dir
):
    """A web process whose Redis no worker reads: its sweeper takes every step, and the
    players' moves at their tables' sockets end the matches."""
    import redis

    from tests.live.conftest import full_table, make_players

    env = service_env | {"WEB_SWEEPER": "1", "REDIS_URL": quiet_redis(service_env["REDIS_URL"])}
    redis.Redis.from_url(env["REDIS_URL"]).flushdb()
    data, pilot = event_for_faults("web", size=4, rounds=2, starts_in=2)
    lobby = full_table(
        make_players(4, "w")
    )  # a spectator's socket here starts the process's sweeper
    process, url = start_server(env, log_dir / "web-autopilot.log")
    rng = random.Random(7)

    async def scenario() -> None:
        watcher = TableSocket(url, lobby.pk)
        await watcher.connect()
        for number in (1, 2):
            await play_round_at(url, data.event, number, rng)
        await asyncio.to_thread(
            wait_until,
            lambda: Event.objects.get(pk=data.event.pk).status == Event.Status.FINISHED,
            60,
            "the finish",
        )
        await watcher.socket.close()

    try:
        run_async(scenario())
    finally:
        stop(process)
    assert_each_step_once(data.event, 2)


async def play_round_at(url: str, event: Event, number: int, rng: random.Random) -> None:
    """Round `number`'s two tables played to their end by their players' sockets at the
    web server at `url`, one table after the other."""
    for table in await asyncio.to_thread(_tables_of, event, number):
        users = await asyncio.to_thread(_seated_users, table)
        sockets = [TableSocket(url, table.pk, user) for user in users]
        for s in sockets:
            await s.connect()
        await play_match(sockets, rng)
        for s in sockets:
            await s.socket.close()


def _tables_of(event: Event, number: int) -> list[Table]:
    try:
        wait_until(
            lambda: (
                Table.objects.filter(fixture__event=event, fixture__round__number=number).count()
                == 2
            ),
            90,
            f"the tables of round {number}",
        )
        return list(Table.objects.filter(fixture__event=event, fixture__round__number=number))
    finally:
        connection.close()


def _seated_users(table: Table) -> list:
    try:
        return [seat.user for seat in table.seats.order_by("number").select_related("user")]
    finally:
        connection.close()
