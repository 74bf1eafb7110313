"""Shared fixtures: the real services, a running ASGI server, a Celery worker, a browser.

A test that needs a service asks for its fixture; the fixture skips the test when the service
is missing, or fails it when REQUIRE_SERVICES=1 (as CI sets), so nothing is skipped silently.
"""

import asyncio
import concurrent.futures
import contextlib
import gc
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings
from django.db import connection
from django.utils import translation

from config.celery import app as celery_app
from core.processes import end_group, start_group
from core.web import command
from games.models import Presence

# Playwright's sync API keeps an event loop in the test thread; the ORM calls of a test
# are still plain synchronous calls.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

BASE_DIR = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
_running_workers: list[str] = []  # the Celery worker of this test process, once started


def run_async(coroutine):
    """Run a coroutine to the end in its own thread and loop.

    Playwright's sync API keeps an event loop running in the main thread for the session,
    where asyncio.run() would refuse to start.
    """
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def worker_finished(row, what: str, timeout: float = 60, finished=("done", "failed")):
    """Wait until the worker has set `row`'s status to one of `finished`; `row`, re-read."""
    deadline = time.monotonic() + timeout
    while True:
        row.refresh_from_db()
        if row.status in finished:
            return row
        assert time.monotonic() < deadline, f"the worker did not {what}"
        time.sleep(0.2)


def in_thread(function, *args, **kwargs):
    """Call `function` in a thread of its own, with its own database connection, and return
    its value (or raise its error). Playwright's sync API keeps an event loop in the test
    thread, where the notifications' async_to_sync refuses to run."""

    def call():
        try:
            return function(*args, **kwargs)
        finally:
            connection.close()

    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(call).result()


def require(available: bool, what: str) -> None:
    if available:
        return
    if os.environ.get("REQUIRE_SERVICES") == "1":
        pytest.fail(f"{what} is required here (REQUIRE_SERVICES=1) but is not available")
    pytest.skip(f"{what} is not available")


def redis_available() -> bool:
    if not settings.REDIS_URL:
        return False
    import redis

    try:
        return bool(redis.Redis.from_url(settings.REDIS_URL, socket_timeout=1).ping())
    except redis.RedisError:
        return False


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix) -> None:
    """No connection pool in the test process itself.

    Tests open connections in many short-lived threads; a pooled connection that such a
    thread never closes is lost to the pool for good. The servers and workers the tests
    start keep the production default (a pool per process).
    """
    from django.db import connections

    connections.settings["default"].get("OPTIONS", {}).pop("pool", None)


@pytest.fixture
def postgres(db) -> None:
    require(connection.vendor == "postgresql", "PostgreSQL (DATABASE_URL)")


@pytest.fixture
def redis_layer() -> None:
    require(redis_available(), "Redis (REDIS_URL)")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(
    url: str, process: subprocess.Popen, log: Path, timeout: float = 120, healthy: bool = True
) -> None:
    """Until `url` answers 200 (or, `healthy` false, answers at all)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited early:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except urllib.error.HTTPError:
            if not healthy:
                return
            time.sleep(0.2)
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"server did not answer {url}:\n{log.read_text()[-3000:]}")


@pytest.fixture(scope="session")
def service_env(django_db_setup, django_db_blocker) -> dict[str, str]:
    """The environment of a process that must see this test session's database."""
    env = os.environ.copy()
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    env.setdefault("ALLOWED_HOSTS", "127.0.0.1,localhost")
    env["SECURE_SSL"] = "0"
    # The tests drive the turn timers themselves: with the Redis layer a server takes over
    # the sweep only in the tests that say so (tests/live/test_timers.py). An embedded server
    # sweeps, as the embedded mode does, but for the session's (`asgi_server`): it lives as
    # long as the session, and would time out and tick the tables and events of every later
    # test on this database.
    env["WEB_SWEEPER"] = "0" if env.get("REDIS_URL") else "1"
    with django_db_blocker.unblock():
        name = str(connection.settings_dict["NAME"])
    if connection.vendor == "sqlite":
        env["SQLITE_PATH"] = name
    else:
        parts = urlsplit(os.environ["DATABASE_URL"])
        env["DATABASE_URL"] = urlunsplit(parts._replace(path="/" + name))
    return env


@pytest.fixture(scope="session")
def log_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("logs")


def start_server(
    env: dict[str, str], log: Path, healthy: bool = True
) -> tuple[subprocess.Popen, str]:
    port = free_port()
    handle = log.open("w")
    process = start_group(
        command("127.0.0.1", port, "--log-level", "warning"),
        cwd=BASE_DIR,
        env=env,
        stdout=handle,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    wait_for(url + "/healthz", process, log, healthy=healthy)
    return process, url


def stop(process: subprocess.Popen) -> None:
    """Stop a process started with start_group, and whatever it left in its group."""
    process.terminate()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=10)
    end_group(process.pid, 5, leader=process)


@pytest.fixture(scope="session")
def asgi_server(service_env, log_dir) -> str:
    """A real ASGI server (granian) on this session's database, which never sweeps; yields
    its base URL."""
    process, url = start_server(service_env | {"WEB_SWEEPER": "0"}, log_dir / "asgi.log")
    yield url
    stop(process)


SERVERS = ("asgi_server", "embedded_server", "own_server")


@pytest.fixture(autouse=True)
def server_done(request, django_db_blocker):
    """After a test that ran a server, wait until the server is done with the test's
    database, whose teardown (a TRUNCATE of every table) deadlocks with a statement still
    running: an answer still on its way, or the departure of a socket (deleting its
    presence row), which comes after the client saw the close. Torn down before the
    database is flushed (its fixtures are set up before this one); a server of the test's
    own has stopped by then, the session's (`asgi_server`) still serves its sockets."""
    yield
    if any(name in request.fixturenames for name in SERVERS):
        with django_db_blocker.unblock():
            wait_until_quiet(sockets="asgi_server" in request.fixturenames)


def wait_until_quiet(*, sockets: bool, seconds: float = 30) -> None:
    """Until no other session on this database is running a statement or inside a
    transaction and, with `sockets`, no socket is open (no presence row), on three polls in
    a row (or `seconds`)."""
    busy = (
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
        " AND backend_type = 'client backend' AND pid <> pg_backend_pid()"
        " AND state IN ('active', 'idle in transaction')"
    )
    gc.collect()  # a test's unclosed client sockets close when their objects go
    deadline, quiet = time.monotonic() + seconds, 0
    while quiet < 3 and time.monotonic() < deadline:
        idle = not (sockets and Presence.objects.exists())
        if idle and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(busy)
                idle = not cursor.fetchone()[0]
        quiet = quiet + 1 if idle else 0
        time.sleep(0.05)


def embedded_env(env: dict[str, str], var_dir: Path) -> dict[str, str]:
    """`env` in the embedded mode, whatever this session's REDIS_URL: the in-memory channel
    layer, the file cache and broker in `var_dir`, and the server's own sweeper."""
    env = {k: v for k, v in env.items() if k != "REDIS_URL"}
    return env | {"CAPICUA_VAR_DIR": str(var_dir), "WEB_SWEEPER": "1"}


@pytest.fixture
def embedded_server(service_env, log_dir, tmp_path_factory) -> str:
    """A real ASGI server with the embedded mode's in-memory channel layer (and its sweeper
    in the server process), whatever this session's REDIS_URL; yields its base URL."""
    env = embedded_env(service_env, tmp_path_factory.mktemp("embedded"))
    process, url = start_server(env, log_dir / "embedded.log")
    yield url
    stop(process)


@pytest.fixture
def own_server(service_env, log_dir, tmp_path_factory):
    """Start real ASGI servers with settings of the test's own (`start(embedded, **env)`):
    their own cache prefix, so that counters and kept answers start empty (the broker's
    stays the session's: its worker runs their tasks), or with `embedded` the embedded
    mode's in-memory layer and file cache; `healthy` false for one whose health check
    fails (its database unreachable). Stopped after the test."""
    started: list[subprocess.Popen] = []
    broker = service_env.get("CELERY_PREFIX", service_env.get("CACHE_PREFIX", "capicua"))

    def start(embedded: bool = False, healthy: bool = True, **settings: str) -> str:
        own = f"own-{os.getpid()}-{time.monotonic_ns()}"
        env = service_env | {"CACHE_PREFIX": own, "CELERY_PREFIX": broker}
        if embedded:
            env = embedded_env(env, tmp_path_factory.mktemp("own"))
        log = log_dir / f"own-{len(started)}.log"
        process, url = start_server(env | settings, log, healthy=healthy)
        started.append(process)
        return url

    yield start
    for process in started:
        stop(process)


@pytest.fixture(params=["redis", "embedded"])
def table_server(request) -> str:
    """The live-table server, once with the Redis channel layer, once with the in-memory one."""
    if request.param == "redis":
        request.getfixturevalue("redis_layer")
        return request.getfixturevalue("asgi_server")
    return request.getfixturevalue("embedded_server")


@pytest.fixture(scope="session")
def mail_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("mail")


def wait_for_mails(
    mail_dir: Path, count: int = 1, before: set[Path] | None = None, seconds: float = 30
) -> list[str]:
    """The mails the worker's file backend has finished writing to `mail_dir` (those not in
    `before`), once there are `count` of them or `seconds` have passed. The backend creates a
    mail's file before it writes it: a mail is whole at the line of dashes that closes it.
    Two mails sent in one second by backends at the same address share a file (its name is
    the second and the backend's id), one after the other."""
    closing = "-" * 79 + "\n"
    deadline = time.monotonic() + seconds
    while True:
        texts = [path.read_text() for path in set(mail_dir.iterdir()) - (before or set())]
        whole = [text for text in texts if text.endswith(closing)]
        mails = [mail + closing for text in whole for mail in text.split(closing)[:-1]]
        if (len(mails) >= count and len(whole) == len(texts)) or time.monotonic() > deadline:
            return mails
        time.sleep(0.2)


def start_worker(
    env: dict[str, str], log: Path, name: str, threads: int = 2, queues: str | None = None
) -> subprocess.Popen:
    """A real Celery worker process named `name` (threads pool) reading `queues` (by default
    both: the default and the live one), once it says it is ready."""
    process = start_group(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "-Q",
            queues or f"{settings.CELERY_TASK_DEFAULT_QUEUE},{settings.LIVE_QUEUE}",
            "-P",
            "threads",
            "-c",
            str(threads),
            "-l",
            "INFO",
            "--without-gossip",
            "--without-mingle",
            "-n",
            name,
        ],
        cwd=BASE_DIR,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 180  # a loaded machine starts it slowly
    while "ready." not in log.read_text():
        if process.poll() is not None or time.monotonic() > deadline:
            stop(process)
            raise RuntimeError(f"worker did not start:\n{log.read_text()[-3000:]}")
        time.sleep(0.2)
    return process


@pytest.fixture
def celery_worker_process(service_env, log_dir, mail_dir) -> subprocess.Popen:
    """A real Celery worker process on the configured broker, for one test: a task an earlier
    test left running (a long analysis, a pairing job) never holds this test's tasks back."""
    env = service_env | {
        "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        "EMAIL_FILE_PATH": str(mail_dir),
        # The webhook tests' receivers listen on loopback.
        "WEBHOOKS_ALLOW_PRIVATE": "1",
    }
    name = f"test-{os.getpid()}@{socket.gethostname()}"
    celery_app.control.purge()  # what servers queued while no worker ran (turn countdowns)
    process = start_worker(env, log_dir / "worker.log", name)
    process.log = log_dir / "worker.log"  # type: ignore[attr-defined]
    _running_workers.append(name)
    yield process
    _running_workers.remove(name)
    stop(process)


def worker_said(process: subprocess.Popen) -> str:
    """The end of a worker's log, for a test that waited for it in vain."""
    return "the worker's log ends:\n" + process.log.read_text()[-4000:]  # type: ignore[attr-defined]


def _settle(worker: str, timeout: float = 30) -> None:
    """Empty the queue, drop what the worker holds for later (countdowns), and wait until it
    runs nothing; again until a pass finds nothing new held and nothing running, since a
    running task may queue another."""
    inspect = celery_app.control.inspect(destination=[worker], timeout=5, limit=1)
    revoked: set[str] = set()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        celery_app.control.purge()
        held = [
            *((inspect.scheduled() or {}).get(worker, [])),
            *((inspect.reserved() or {}).get(worker, [])),
        ]
        ids = {task.get("request", task)["id"] for task in held} - revoked
        if ids:
            celery_app.control.revoke(list(ids), destination=[worker])
            revoked |= ids
        busy = (inspect.active() or {}).get(worker)
        if not ids and not busy:
            return
        if busy:
            time.sleep(0.1)


@pytest.fixture(autouse=True)
def _site_language():
    """Each test starts in the site's language: Django's test client leaves the language of
    its last request active in the thread, which would leak into the next test."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _worker_idle_before_flush(request):
    """A test that empties its tables at the end (a transactional test: TRUNCATE) first lets
    this session's Celery worker go idle. A turn's countdown queued by an earlier test and run
    during the TRUNCATE would deadlock with it."""
    marker = request.node.get_closest_marker("django_db")
    transactional = bool(
        {"transactional_db", "live_server"} & set(request.fixturenames)
        or (marker and marker.kwargs.get("transaction"))
    )
    if transactional:
        request.getfixturevalue("_django_db_helper")  # set up first, so torn down after this
    yield
    if transactional:
        for worker in list(_running_workers):
            _settle(worker)


@pytest.fixture
def chromium():
    """Debian's Chromium driven by Playwright, for one test.

    Playwright's sync API runs an event loop in the test's thread while it is open; closing
    it after each test leaves the following tests' synchronous code (async_to_sync in the
    notifications, the ORM's async-safety check) free of it.
    """
    require(Path(CHROMIUM).exists(), "Chromium (/usr/bin/chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(chromium):
    context = chromium.new_context(locale="es-ES", viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()


@pytest.fixture
def eager():
    """Celery tasks run in the calling process, as they are queued (a test of what is
    queued, not of the worker: tests that need a worker ask for `celery_worker_process`)."""
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = False
