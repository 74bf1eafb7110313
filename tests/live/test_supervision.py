"""`manage.py serve --production` keeps the stack alive: kill a granian worker and the
Celery worker, and the processes come back and the tables go on."""

import asyncio
import contextlib
import os
import random
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from games.models import Action, Table
from games.services import timers
from tests.conftest import BASE_DIR, free_port, redis_available, require, run_async, wait_for

from .conftest import SHORT, TableSocket, full_table, make_players, play_match

pytestmark = pytest.mark.django_db(transaction=True)


def children(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return [int(p) for p in found.stdout.split()]


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except FileNotFoundError:
        return ""


def child_running(serve: subprocess.Popen, words: tuple[str, ...]) -> int | None:
    """The pid of serve's child whose command line has all these words."""
    for pid in children(serve.pid):
        if all(word in command_line(pid) for word in words):
            return pid
    return None


def kill_tree(pid: int) -> None:
    """SIGKILL a process and its children at once: a crash, no clean shutdown."""
    for victim in [pid, *children(pid)]:
        with contextlib.suppress(ProcessLookupError):
            os.kill(victim, signal.SIGKILL)


def stop_serve(serve: subprocess.Popen) -> None:
    """SIGTERM, as systemd or Ctrl-C would; a serve that does not stop in time fails."""
    serve.send_signal(signal.SIGTERM)
    try:
        serve.wait(timeout=60)
    except subprocess.TimeoutExpired:
        kill_tree(serve.pid)
        raise


def until(condition, timeout: float = 90, what: str = "") -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := condition():
            return value
        time.sleep(0.3)
    raise AssertionError(f"timed out waiting for {what}")


async def connect_all(sockets: list[TableSocket], version: int = 0) -> None:
    """Connect every socket, trying again while a (re)started web worker is still loading."""
    for socket in sockets:
        for attempt in range(5):
            try:
                await socket.connect(version=version)
                break
            except (TimeoutError, OSError):
                if attempt == 4:
                    raise
                await asyncio.sleep(2)


def test_serve_production_restarts_what_dies_and_the_tables_go_on(service_env, log_dir, players):
    require(redis_available(), "Redis (REDIS_URL)")
    port = free_port()
    log = log_dir / "serve.log"
    serve = subprocess.Popen(
        [
            sys.executable,
            "manage.py",
            "serve",
            "--production",
            "--port",
            str(port),
            "--web",
            "2",
        ],
        cwd=BASE_DIR,
        env=service_env,  # WEB_SWEEPER=0: only the Celery worker plays timed-out turns
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(url + "/healthz", serve, log, timeout=300)
        web = until(lambda: child_running(serve, ("config.web",)), what="granian")
        # the live queue's worker: the one that plays a timed-out turn
        live = ("celery", "worker", "live@")
        worker = until(lambda: child_running(serve, live), what="worker")
        web_workers = until(lambda: children(web) if len(children(web)) == 2 else None)
        table = full_table(players, SHORT)
        rng = random.Random(5)

        async def before() -> int:
            sockets = [TableSocket(url, table.pk, u) for u in players]
            await connect_all(sockets)
            mover = sockets[sockets[0].state["hand"]["turn"]]
            answer = await mover.answer(
                await mover.play(rng.choice(mover.state["hand"]["legal_actions"]))
            )
            assert answer["type"] == "ack", answer
            return answer["version"]

        version = run_async(before())
        kill_tree(web_workers[0])
        kill_tree(worker)
        killed_at = len(log.read_text())

        # granian replaces its worker; serve starts a new Celery worker.
        until(
            lambda: len(set(children(web)) - set(web_workers)) == 1 and len(children(web)) == 2,
            what="a new granian worker",
        )
        until(
            lambda: (pid := child_running(serve, live)) and pid != worker,
            what="a new Celery worker",
        )
        assert serve.poll() is None
        wait_for(url + "/healthz", serve, log)

        async def after() -> None:
            sockets = [TableSocket(url, table.pk, u) for u in players]
            await connect_all(sockets, version)
            await play_match(sockets, rng)

        run_async(after())
        assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED

        # The new worker, once ready, plays a silent seat's turn when its timer runs out
        # (after the grace its first sweep gives: nobody swept while it was down).
        until(lambda: " ready." in log.read_text()[killed_at:], timeout=300, what="worker ready")
        timed = full_table(make_players(prefix="t"), SHORT | {"turn_seconds": 1})
        until(
            lambda: Action.objects.filter(table=timed, auto=True).exists(),
            timeout=timers.GRACE_SECONDS + 60,
            what="the new worker's timeout",
        )
    finally:
        stop_serve(serve)
    output = log.read_text()
    assert "live exited with" in output and "restarting in" in output
    assert serve.returncode == 0
    assert not Path(f"/proc/{web}").exists()  # everything stopped with it


def listeners(port: int) -> set[int]:
    """The processes holding a socket that listens on the port (from /proc)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[1].endswith(f":{port:04X}") and fields[3] == "0A":  # 0A: LISTEN
                inodes.add(f"socket:[{fields[9]}]")
    holders = set()
    for process in Path("/proc").iterdir():
        if not process.name.isdigit():
            continue
        with contextlib.suppress(OSError):  # it may end while it is read
            if any(os.readlink(fd) in inodes for fd in (process / "fd").iterdir()):
                holders.add(int(process.name))
    return holders


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def web_server(serve: subprocess.Popen) -> tuple[int, set[int]]:
    """serve's granian: its main process, and the main process with its two workers."""
    web = until(lambda: child_running(serve, ("config.web",)), what="granian")
    workers = until(lambda: children(web) if len(children(web)) == 2 else None, what="workers")
    return web, {web, *workers}


def serve_web(service_env: dict, port: int, log: Path) -> subprocess.Popen:
    """serve --production with its web server only (two granian workers)."""
    return subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--production", "--no-worker", "--port", str(port)],
        cwd=BASE_DIR,
        env=service_env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )


def test_a_killed_web_server_leaves_no_worker_serving(service_env, log_dir):
    """kill -9 of granian's main process, twice: its workers go with it each time, the
    restarted server is the only one on the port, and stopping leaves nobody there."""
    port = free_port()
    log = log_dir / "serve-web.log"
    serve = serve_web(service_env, port, log)
    url = f"http://127.0.0.1:{port}"
    seen: set[int] = set()
    try:
        for _ in range(2):
            wait_for(url + "/healthz", serve, log, timeout=300)
            main, serving = web_server(serve)
            assert listeners(port) and listeners(port) <= serving
            seen |= serving
            os.kill(main, signal.SIGKILL)
            gone = frozenset(seen)
            until(lambda gone=gone: not any(map(alive, gone)), timeout=30, what="no orphan")
        wait_for(url + "/healthz", serve, log, timeout=300)
        assert listeners(port) and not listeners(port) & seen  # the third server alone
    finally:
        stop_serve(serve)
    assert serve.returncode == 0
    assert listeners(port) == set()
    assert "stopping them" in log.read_text()


def answers(url: str) -> int | None:
    """The status the server answers with, or None when nobody answers the connection."""
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return None


def test_the_port_keeps_answering_while_a_dead_web_worker_is_replaced(service_env, log_dir):
    """SIGKILL of one of granian's two workers: from that moment until its replacement is
    serving, every request is answered by the other one; the port never goes without a
    listener."""
    port = free_port()
    log = log_dir / "serve-one-worker.log"
    serve = serve_web(service_env, port, log)
    url = f"http://127.0.0.1:{port}/healthz"
    try:
        wait_for(url, serve, log, timeout=300)
        main, serving = web_server(serve)
        victim, survivor = sorted(serving - {main})
        os.kill(victim, signal.SIGKILL)
        statuses = []
        # Until granian has started the replacement, and through the first requests after
        # (while it loads the application), each request gets its answer.
        after = 0
        while after < 20:
            assert listeners(port), "nobody listens on the port"
            statuses.append(answers(url))
            workers = set(children(main))
            if len(workers) == 2 and victim not in workers:
                after += 1
            assert serve.poll() is None and alive(main)
        assert set(statuses) == {200}, statuses
        assert alive(survivor)
    finally:
        stop_serve(serve)
    assert serve.returncode == 0
