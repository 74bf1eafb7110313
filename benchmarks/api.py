"""Throughput of the API's standings and fixtures, side by side with a static file.

    .venv/bin/python benchmarks/api.py [--pairs 500] [--rounds 9] [--seconds 5] [--keep]

Needs PostgreSQL (and Redis for the cache, as in production): BENCH_DATABASE_URL (default
postgres://postgres@127.0.0.1:5432/capicua_bench_api) names a database that the script creates
and drops (`--keep` leaves it, and the next run reuses it); BENCH_REDIS_URL (default
redis://127.0.0.1:6379/9) is flushed. The event is a Swiss tournament of `pairs` pairs with
`rounds` published rounds, all but the last played, and its tables ANALYZEd (as autovacuum
keeps a server's: freshly bulk-filled tables are otherwise planned as if empty).

It times the server's first standings answer (cold: a fresh server), then the first answer
after each of five results on the warm server (the standings bumped as the result services
do, the kept answer forgotten, so the next reader's request computes and keeps it): the last
line gives the first and the median of the others (issue #28: <= 100 ms).

The production server (granian, 2 workers, DEBUG off) serves on loopback, connecting to
PostgreSQL per request. In the same run and on the same server an asyncio client keeps 1, 8
and 32 connections busy for `seconds` on each of: a static file (WhiteNoise, in the same
processes), the standings (after the first request, from the cache: an anonymous read is
answered by api.http.CachedAnswersMiddleware before authentication and DRF), the
standings revalidated with `If-None-Match` (304), and the fixtures of the last round (250
matches in one page, kept and answered the same way). It prints each one's
requests per second, p50 and p99 latency, and its throughput as a share of the static
file's. The server's rate limits are off (API_RATE_ANON empty), so the benchmark never
measures its own 429s. The server's process group is stopped whatever happens (SIGTERM
and SIGHUP included).

Measured on 2026-12-03 on this 2-core machine, quiet (load average under 1), share of the
static file's req/s at 1 / 8 / 32 clients:

    standings      83% / 101% / 92%
    standings 304  98% / 110% / 102%
    fixtures 250   84% /  93% / 79%

Before, each kept answer read the event's generation and its validators from Redis (one
MGET): on two cores busy with the server and the client, waiting for Redis to be scheduled
was most of a kept answer's time, and the 304 made 35-45% of the static file's rate at 8
clients. Each process now mirrors those keys (core.cache.TrackedKeys, which Redis's key
tracking keeps fresh), so a kept answer makes no round trip at all; the same run with the
round trip, as before: standings 43%, 304 43%, fixtures 42% at 8 clients.

First (alone with `--reads`) it compares, in its own process, the ways a kept answer's keys
can be read: a Redis MGET, TrackedKeys's copy, and redis-py's client-side caching
(`CacheConfig` over RESP3), which would replace TrackedKeys's 150 lines if it held the same
figures. On 2026-12-06 it could not run: redis-py 8.1 enables it only on Redis 7.4 or later
(it refuses Valkey too), and Debian 12, this machine and CI have Redis 7.0.15. TrackedKeys
read 10x as fast as the MGET that run (load average 17). So TrackedKeys stays, and needs
only Redis 6.
"""

import argparse
import asyncio
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _server import free_port, granian  # noqa: E402

from core.processes import end_group, start_group  # noqa: E402

DATABASE_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/capicua_bench_api"
)
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/9")
CONCURRENCY = (1, 8, 32)


def server_env() -> dict[str, str]:
    return os.environ | {
        "DATABASE_URL": DATABASE_URL,
        "REDIS_URL": REDIS_URL,
        "SECRET_KEY": "benchmark-only-secret-key-0123456789abcdefghijklmnopqrstuvwxyz",
        "DEBUG": "0",
        "SECURE_SSL": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "API_RATE_ANON": "",
        "CAPICUA_VAR_DIR": tempfile.mkdtemp(prefix="capicua-bench-"),
        "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }


def admin(statement: str, *params: str) -> list[tuple]:
    import psycopg

    parts = urlsplit(DATABASE_URL)
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as conn:
        cursor = conn.execute(statement, params or None)
        return cursor.fetchall() if cursor.description else []


def database_name() -> str:
    return urlsplit(DATABASE_URL).path.lstrip("/")


def build(pairs: int, rounds: int) -> str:
    """The event, written in bulk (the data, not the services, is what is measured here);
    an event already there (`--keep`) is reused."""
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.db import connection
    from django.utils import timezone

    from league.models import Entry, Event, Match, Membership, Organisation, Player, Result, Round
    from league.services import events

    cache.clear()
    existing = Event.objects.filter(name="Open 500").first()
    if existing is not None:
        return existing.slug
    club = Organisation.objects.create(name="Club Benchmark", slug="club-benchmark")
    owner = get_user_model().objects.create_user("bench-owner")
    Membership.objects.create(organisation=club, user=owner, role=Membership.Role.OWNER)
    event = events.create_event(
        owner, club, name="Open 500", format=Event.Format.SWISS, rule_preset="tournament"
    )
    players = Player.objects.bulk_create(
        Player(display_name=f"Player {i:04d}", club=club) for i in range(2 * pairs)
    )
    entries = Entry.objects.bulk_create(
        Entry(
            event=event,
            name=f"Pair {i:03d}",
            club=club,
            player_1=players[2 * i],
            player_2=players[2 * i + 1],
            lot=i + 1,
        )
        for i in range(pairs)
    )
    rng = random.Random(7)
    now = timezone.now()
    for number in range(1, rounds + 1):
        round_ = Round.objects.create(event=event, number=number)
        order = entries[:]
        rng.shuffle(order)
        played = number < rounds
        matches = Match.objects.bulk_create(
            Match(
                event=event,
                round=round_,
                entry_a=order[k],
                entry_b=order[k + 1],
                table=k // 2 + 1,
                status=Match.Status.PLAYED if played else Match.Status.SCHEDULED,
            )
            for k in range(0, len(order) - 1, 2)
        )
        if played:
            Result.objects.bulk_create(
                Result(
                    match=m,
                    status=Result.Status.CONFIRMED,
                    games_a=int(a),
                    games_b=int(not a),
                    points_a=150 if a else rng.randrange(0, 150),
                    points_b=rng.randrange(0, 150) if a else 150,
                    confirmed=now,
                )
                for m in matches
                for a in [rng.random() < 0.5]
            )
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
    with connection.cursor() as cursor:
        # The planner's statistics, as autovacuum keeps them on a server in use: without
        # them, tables just filled in bulk are planned as if empty.
        cursor.execute("ANALYZE")
    return event.slug


def start_server(env: dict[str, str]) -> tuple[subprocess.Popen, int]:
    """granian in a process group of its own, so that stopping it stops its workers."""
    port = free_port()
    process = start_group(
        granian(port, workers=2),
        cwd=ROOT,
        env=env,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"the server exited with {process.returncode}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                    return process, port
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("the server did not start")
    except BaseException:
        stop_server(process)
        raise


def stop_server(process: subprocess.Popen) -> None:
    """Stop the server's whole process group: SIGTERM, then SIGKILL after 10 s."""
    end_group(process.pid, 10, leader=process)


async def get(reader, writer, request: bytes) -> int:
    """One keep-alive GET; returns the status."""
    writer.write(request)
    await writer.drain()
    status = int((await reader.readline()).split()[1])
    length, chunked = 0, False
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
        elif name.lower() == "transfer-encoding" and "chunked" in value:
            chunked = True
    if chunked:
        while size := int((await reader.readline()).strip(), 16):
            await reader.readexactly(size + 2)
        await reader.readline()
    else:
        await reader.readexactly(length)
    return status


@dataclass(frozen=True)
class Target:
    label: str
    path: str
    status: int = 200
    headers: str = ""


async def client(port: int, target: Target, until: float, latencies: list[float]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    request = (
        f"GET {target.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n"
        f"{target.headers}\r\n"
    ).encode()
    try:
        while time.perf_counter() < until:
            started = time.perf_counter()
            status = await get(reader, writer, request)
            if status != target.status:
                raise RuntimeError(f"{target.path}: HTTP {status}, expected {target.status}")
            latencies.append(time.perf_counter() - started)
    finally:
        writer.close()


async def measure(
    port: int, target: Target, clients: int, seconds: float
) -> tuple[int, float, float, float]:
    warm = time.perf_counter() + min(1.0, seconds / 2)
    await asyncio.gather(*(client(port, target, warm, []) for _ in range(clients)))
    latencies: list[float] = []
    started = time.perf_counter()
    until = started + seconds
    await asyncio.gather(*(client(port, target, until, latencies) for _ in range(clients)))
    elapsed = time.perf_counter() - started
    cuts = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else latencies * 99
    return len(latencies), len(latencies) / elapsed, cuts[49] * 1000, cuts[98] * 1000


def fetch(port: int, path: str) -> tuple[float, str]:
    """One GET: its milliseconds and the answer's ETag."""
    started = time.perf_counter()
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}") as response:
        etag = response.headers["ETag"]
        response.read()
    return (time.perf_counter() - started) * 1000, etag


def after_results(port: int, slug: str, standings: str, etag: str, count: int = 5) -> list:
    """The first standings answer after each of `count` results, on the warm server: what a
    club site's first reader waits for. A result is what the result services do to the
    standings (`bump_standings`: the kept answer is forgotten); each answer is checked to be
    new (its ETag, a hash of the body, whose results_version moved)."""
    from league.models import Event
    from league.services.events import bump_standings

    event = Event.objects.get(slug=slug)
    waits = []
    for _ in range(count):
        bump_standings(event)
        time.sleep(0.3)  # the workers' copies of the kept keys hear of it (core.cache)
        took, new = fetch(port, standings)
        if new == etag:
            raise RuntimeError("the answer after a result was the kept one")
        waits.append(took)
        etag = new
    return waits


def targets(port: int, slug: str, rounds: int) -> tuple[list[Target], float, list[float]]:
    """What is measured, after the first standings answer of the fresh server (ms) and the
    first after each of five results (ms)."""
    standings = f"/api/v1/events/{slug}/standings/"
    cold, etag = fetch(port, standings)
    print(f"standings, first (cold) request: {cold:.0f} ms")
    waits = after_results(port, slug, standings, etag)
    print(f"standings, first after a result: {' '.join(f'{w:.0f}' for w in waits)} ms")
    _, etag = fetch(port, standings)
    return (
        [
            Target("static", "/static/css/capicua.css"),
            Target("standings", standings),
            Target("standings 304", standings, 304, f"If-None-Match: {etag}\r\n"),
            Target("fixtures 250", f"/api/v1/matches/?event={slug}&round={rounds}&page_size=250"),
        ],
        cold,
        waits,
    )


def stop_on_signals() -> None:
    """SIGTERM and SIGHUP end the run as an exception would, so `finally` stops the server
    (which runs in a session of its own, out of reach of a signal to this process's group)."""

    def stop(signum, frame):
        raise SystemExit(128 + signum)

    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, stop)


def kept_reads(seconds: float) -> None:
    """How a kept answer's keys are read, in this process, one after another: from Redis
    (a round trip), from the copy core.cache.TrackedKeys keeps fresh, and from redis-py's own
    client-side caching (RESP3 `CacheConfig`), which does the same job in the library when
    the server allows it (redis-py asks for Redis 7.4 or later)."""
    import django
    import redis
    from redis.cache import CacheConfig

    django.setup()
    from django.core.cache import cache

    from core.cache import TrackedKeys

    keys = [f"kept-read-{n}" for n in range(2)]
    cache.set_many(dict.fromkeys(keys, "x" * 200), 60)
    tracked = TrackedKeys("kept-read")
    tracked.get_many(keys)  # starts its listener
    time.sleep(1.5)
    raw = redis.Redis.from_url(REDIS_URL)
    names = [cache.make_and_validate_key(key) for key in keys]

    def rate(read) -> float:
        count, until = 0, time.perf_counter() + seconds
        while time.perf_counter() < until:
            for _ in range(100):
                read()
            count += 100
        return count / seconds

    rates = {"Redis MGET": rate(lambda: raw.mget(names))}
    rates["TrackedKeys"] = rate(lambda: tracked.get_many(keys))
    try:
        client = redis.Redis.from_url(REDIS_URL, protocol=3, cache_config=CacheConfig())
        client.mget(names)
        rates["redis-py CacheConfig"] = rate(lambda: client.mget(names))
    except redis.RedisError as refused:
        version = raw.info("server")["redis_version"]
        print(f"redis-py CacheConfig: refused by Redis {version}: {refused}")
    tracked.close()
    for name, value in rates.items():
        print(f"{name:<22} {value:>12,.0f} reads/s  {value / rates['Redis MGET']:>6.1f}x MGET")


def main() -> None:
    stop_on_signals()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--keep", action="store_true", help="keep the database for next time")
    parser.add_argument(
        "--reads", action="store_true", help="only compare the ways kept keys are read"
    )
    args = parser.parse_args()
    env = server_env()
    os.environ.update(env)
    kept_reads(min(args.seconds, 2))
    if args.reads:
        return
    name = database_name()
    if not (args.keep and admin("SELECT 1 FROM pg_database WHERE datname = %s", name)):
        admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin(f'CREATE DATABASE "{name}"')
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()
    process = None
    try:
        started = time.perf_counter()
        slug = build(args.pairs, args.rounds)
        took = time.perf_counter() - started
        print(f"{args.pairs} pairs, {args.rounds} rounds ready in {took:.1f} s")
        process, port = start_server(env)
        measured, cold, waits = targets(port, slug, args.rounds)
        header = ("endpoint", "clients", "requests", "req/s", "p50 ms", "p99 ms", "of static")
        print("{:<14} {:>7} {:>9} {:>8} {:>8} {:>8} {:>9}".format(*header))
        for clients in CONCURRENCY:
            static = None
            for target in measured:
                count, rate, p50, p99 = asyncio.run(measure(port, target, clients, args.seconds))
                static = static or rate
                print(
                    f"{target.label:<14} {clients:>7} {count:>9} {rate:>8.1f} {p50:>8.1f} "
                    f"{p99:>8.1f} {rate / static:>8.0%}"
                )
        print(
            f"standings at {args.pairs} pairs: first answer of a fresh server {cold:.0f} ms, "
            f"first after a result {statistics.median(waits):.0f} ms (median of {len(waits)}; "
            f"issue #28: <= 100 ms)"
        )
    finally:
        if process is not None:
            stop_server(process)
        from django.db import connections

        connections.close_all()
        if not args.keep:
            admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
