"""Live tables under load: N tables of four bot clients over real WebSockets.

The production setup on this machine: PostgreSQL, the Redis channel layer, granian with two
worker processes and a Celery worker. Each table makes a move every 2 seconds. Prints, per
table count: actions per second, p50/p99 latency from sending an action to the last seat
receiving it, and lost and duplicated actions; then the table count at which it breaks
(p99 over 200 ms, or any loss). Loopback only, bounded in time.

    python benchmarks/live.py [--tables 50,100,200,300] [--seconds 20] [--timeline 5]
                              [--floor] [--refine 25]

With --floor the same levels then run against the bare stack (benchmarks/live_floor.py: the
same granian workers and Redis channel layer, a consumer that writes one row per action and
sends the update to the table's four sockets, its messages as long as the site's were), and
it prints each stack's capacity (the most tables below the smallest level that broke), its
p99 at 200 and 500 tables, and last the figure issue #28 improves:
`live-floor: capicua C tables, bare stack B tables = R%`. Fixed levels place a capacity
only between two of them; --refine N runs more levels on each stack, each halfway between
its capacity and the smallest level that broke, until the two are N tables apart. Issue
#28's run: `--tables 100,200,300,400,500,600,700 --seconds 60 --floor --refine 25` (on a
quiet two-core machine the bare stack has held at 500 tables).

Needs PostgreSQL on 127.0.0.1:5432 (user postgres; its database `capicua_bench`, or
BENCH_DATABASE, is made afresh) and Redis on 127.0.0.1:6379; its database
15 (or BENCH_REDIS_URL) is flushed, away from the suite's databases.
"""

import argparse
import asyncio
import collections
import json
import os
import random
import resource
import signal
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE))

from _server import free_port, granian, production_env  # noqa: E402

DB = os.environ.get("BENCH_DATABASE", "capicua_bench")
ENV = production_env(DB)
os.environ.update(ENV)

from core.processes import PROC, end_group, members, start_group, stat_fields  # noqa: E402

RULES = {"preset": "dominican", "target": 5000, "turn_seconds": 120}
MOVE_EVERY = 2.0
P99_LIMIT = 0.200


def prepare_database() -> None:
    for sql in (f"DROP DATABASE IF EXISTS {DB}", f"CREATE DATABASE {DB}"):
        psql = ["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", sql]
        subprocess.run(psql, check=True, capture_output=True)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=BASE, check=True)
    import redis

    redis.Redis.from_url(ENV["REDIS_URL"]).flushdb()


def start_services(log_dir: Path) -> tuple[list[subprocess.Popen], str]:
    port = free_port()
    log_dir.mkdir(parents=True, exist_ok=True)
    server = start_group(
        granian(port, workers=2),
        cwd=BASE,
        stdout=(log_dir / "server.log").open("w"),
        stderr=subprocess.STDOUT,
    )
    worker_log = log_dir / "worker.log"
    worker = start_group(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "-P",
            "threads",
            "-c",
            "4",
            "-l",
            "WARNING",
            "--without-gossip",
            "--without-mingle",
            "-n",
            f"bench-{os.getpid()}@%h",
        ],
        cwd=BASE,
        stdout=worker_log.open("w"),
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    wait_for(url, server, [server, worker])
    return [server, worker], url


def wait_for(url: str, server: subprocess.Popen, processes: list[subprocess.Popen]) -> None:
    """Until the server answers /healthz (else `processes` stopped and RuntimeError)."""
    deadline = time.monotonic() + 120
    while True:
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2):
                return
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                stop_services(processes)
                raise RuntimeError("the server did not start") from None
            time.sleep(0.2)


def stop_services(processes: list[subprocess.Popen]) -> None:
    """Each process's whole group: granian's workers too, even when its main process is slow
    to stop (killing the main process alone left a worker serving)."""
    for process in processes:
        process.send_signal(signal.SIGTERM)
    for process in processes:
        end_group(process.pid, 15, leader=process)


def make_tables(count: int, tag: str) -> list[tuple[int, list[str]]]:
    """Tables with four seated users each; (table id, session cookies by seat)."""
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.sessions.backends.db import SessionStore

    from games.services import tables
    from league.models import Player

    User = get_user_model()
    users = User.objects.bulk_create(User(username=f"b{tag}-{i}") for i in range(count * 4))
    Player.objects.bulk_create(Player(user=u, display_name=u.username) for u in users)
    out = []
    for t in range(count):
        seated = users[t * 4 : t * 4 + 4]
        table = tables.create_table(host=seated[0], rules=RULES)
        tables.seat_players(table, [(u, u.username) for u in seated])
        cookies = []
        for user in seated:
            session = SessionStore()
            session[SESSION_KEY] = str(user.pk)
            session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.create()
            cookies.append(f"{settings.SESSION_COOKIE_NAME}={session.session_key}")
        out.append((table.pk, cookies))
    return out


class Stats:
    def __init__(self) -> None:
        self.sent: dict[tuple[int, int], float] = {}  # (table, version after) -> send time
        self.received: dict[tuple[int, int], dict[int, float]] = {}
        self.acked: set[tuple[int, int]] = set()
        self.ack_latency: list[float] = []
        self.refused_sockets = 0
        self.duplicates = 0
        self.errors = 0
        self.stopped = 0.0  # when the moves stopped (the clients read 5 s more)
        self.sizes: dict[str, list[int]] = {"snapshot": [], "update": []}  # message lengths


class Table:
    def __init__(self, pk: int) -> None:
        self.pk = pk
        self.next_move = 0.0  # set when every socket is connected: see run_level
        self.moved_at = -1  # the last version a move was made against


async def seat_client(
    url: str,
    table: Table,
    seat: int,
    cookie: str,
    stats: Stats,
    stop: asyncio.Event,
    done: asyncio.Event,
    ready: asyncio.Barrier,
) -> None:
    import websockets

    ws_url = url.replace("http://", "ws://") + f"/ws/tables/{table.pk}/"
    rng = random.Random(table.pk * 10 + seat)
    try:
        ws = await websockets.connect(
            ws_url,
            origin=url,
            additional_headers={"Cookie": cookie},
            max_queue=None,
            open_timeout=60,
        )
    except (OSError, websockets.InvalidHandshake, TimeoutError):
        stats.refused_sockets += 1
        await ready.wait()
        return
    async with ws:
        await ws.send(json.dumps({"type": "hello", "version": 0}))
        seen: set[int] = set()
        recent = collections.deque(maxlen=8)
        state = None
        sent_next = -1
        await ready.wait()

        async def move(view: dict) -> None:
            await asyncio.sleep(max(0.0, table.next_move - time.perf_counter()))
            if stop.is_set():
                return
            version = view["version"]
            action = rng.choice(view["hand"]["legal_actions"])
            stats.sent[(table.pk, version + 1)] = time.perf_counter()
            table.next_move = time.perf_counter() + MOVE_EVERY
            await ws.send(
                json.dumps(
                    {
                        "type": "play",
                        "action": action,
                        "version": version,
                        "id": f"{table.pk}-{version}",
                    }
                )
            )

        async def read() -> None:
            nonlocal state, sent_next
            async for raw in ws:
                now = time.perf_counter()
                message = json.loads(raw)
                kind = message["type"]
                if kind in stats.sizes:
                    stats.sizes[kind].append(len(raw))
                recent.append(
                    (kind, message.get("version"), message.get("last"), message.get("code"))
                )
                if kind == "ack":
                    key = (table.pk, message["version"])
                    stats.acked.add(key)
                    if key in stats.sent:
                        stats.ack_latency.append(now - stats.sent[key])
                    continue
                if kind == "error":
                    stats.errors += 1
                    continue
                if kind not in ("snapshot", "update", "missed"):
                    continue
                version = message["version"]
                if kind == "update":
                    if version in seen:
                        # A moved deadline or a seat's presence comes without a new version
                        # and without an action: not a second delivery of one.
                        if "last" in message:
                            stats.duplicates += 1
                            print(
                                f"  duplicate at table {table.pk} seat {seat}: {message['type']} "
                                f"{version} {message.get('last')}; before: {list(recent)}",
                                flush=True,
                            )
                        continue
                    seen.add(version)
                    stats.received.setdefault((table.pk, version), {})[seat] = now
                elif state is not None:
                    # A snapshot (after a new deal, say) brings every version up to its own:
                    # those actions reached this seat now, inside it.
                    for caught in range(state["version"] + 1, version + 1):
                        if caught not in seen:
                            seen.add(caught)
                            stats.received.setdefault((table.pk, caught), {})[seat] = now
                if state is not None and version < state["version"]:
                    continue
                state = message
                facts = message["table"]
                # "next" once a hand, as a player presses it once (not again for every
                # update that arrives before its own "ready").
                if (
                    facts["status"] == "between"
                    and seat not in facts["ready"]
                    and sent_next != facts["hand_number"]
                ):
                    sent_next = facts["hand_number"]
                    await ws.send(json.dumps({"type": "next", "id": f"n{version}"}))
                hand = message["hand"]
                if (
                    facts["status"] == "playing"
                    and hand["turn"] == seat
                    and hand["legal_actions"]
                    and version > table.moved_at
                    and not stop.is_set()
                ):
                    table.moved_at = version
                    asyncio.ensure_future(move(message))

        # Moves stop at `stop`; answers are read until `done`.
        reader = asyncio.ensure_future(read())
        await asyncio.wait(
            [reader, asyncio.ensure_future(done.wait())], return_when=asyncio.FIRST_COMPLETED
        )
        reader.cancel()


async def run_level(url: str, made: list[tuple[int, list[str]]], seconds: float) -> dict:
    stats = Stats()
    stop, done = asyncio.Event(), asyncio.Event()
    ready = asyncio.Barrier(len(made) * 4 + 1)
    clients, tables = [], [Table(pk) for pk, _ in made]
    for table, (_, cookies) in zip(tables, made, strict=True):
        for seat, cookie in enumerate(cookies):
            clients.append(
                asyncio.create_task(seat_client(url, table, seat, cookie, stats, stop, done, ready))
            )
    await ready.wait()
    started = time.perf_counter()
    # Independent tables: each its own phase in the 2-second cycle, not all moving at once
    # when the last socket has connected.
    for table in tables:
        table.next_move = started + random.uniform(0, MOVE_EVERY)
    await asyncio.sleep(seconds)
    stop.set()
    stats.stopped = time.perf_counter()
    elapsed = time.perf_counter() - started
    await asyncio.sleep(5)  # let the last actions arrive
    done.set()
    await asyncio.gather(*clients, return_exceptions=True)
    latencies, lost, sent_at = [], 0, []
    for key in stats.acked:
        receivers = stats.received.get(key, {})
        if len(receivers) < 4:
            lost += 1
        elif key in stats.sent:
            latencies.append(max(receivers.values()) - stats.sent[key])
            sent_at.append((stats.sent[key] - started, latencies[-1]))
    latencies.sort()
    return {
        "actions": len(stats.acked),
        "per_second": len(stats.acked) / elapsed,
        "p50": statistics.median(latencies) if latencies else float("nan"),
        "p99": p99(latencies),
        "ack_p50": statistics.median(stats.ack_latency) if stats.ack_latency else float("nan"),
        "refused_sockets": stats.refused_sockets,
        "lost": lost,
        "duplicated": stats.duplicates,
        "errors": stats.errors,
        "stats": stats,
        "sent_at": sorted(sent_at),
    }


def cpu_seconds(pids: list[int]) -> float:
    """The CPU time (user and system) the running processes `pids` have used so far."""
    total = 0
    for pid in pids:
        fields = stat_fields(pid)
        if fields is not None:
            total += int(fields[11]) + int(fields[12])  # utime and stime, in clock ticks
    return total / os.sysconf("SC_CLK_TCK")


def database_pids() -> list[int]:
    """PostgreSQL's processes (the server runs on this machine)."""
    pids = []
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() in ("postgres", "postmaster"):
                    pids.append(int(entry.name))
            except OSError:
                continue
    return pids


class CPU:
    """The CPU seconds each part of a stack spends over a level: the web server's and the
    Celery worker's process groups, and PostgreSQL's processes."""

    def __init__(self, groups: dict[str, int]) -> None:
        self.groups = groups

    def read(self) -> dict[str, float]:
        used = {name: cpu_seconds(members(group)) for name, group in self.groups.items()}
        return used | {"db": cpu_seconds(database_pids())}

    @staticmethod
    def spent(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
        return {name: after[name] - before[name] for name in before}


def p99(ordered: list[float]) -> float:
    """The 99th percentile of sorted values (nan for none)."""
    return ordered[max(0, int(len(ordered) * 0.99) - 1)] if ordered else float("nan")


def print_timeline(sent_at: list[tuple[float, float]], window: float) -> None:
    """p50/p99 of the actions sent in each window of the run (where the hand ends fall)."""
    windows: dict[int, list[float]] = {}
    for at, latency in sent_at:
        windows.setdefault(int(at // window), []).append(latency)
    for index, latencies in sorted(windows.items()):
        latencies.sort()
        print(
            f"    {index * window:>5.0f}-{(index + 1) * window:<5.0f}s {len(latencies):>6} "
            f"actions  p50 {statistics.median(latencies) * 1000:>7.1f} ms  "
            f"p99 {p99(latencies) * 1000:>7.1f} ms"
        )


def compare(stored: set[tuple[int, int]], stats: Stats) -> tuple[int, int]:
    """(acked actions missing from `stored`, stored actions nobody was acked for); each of
    the latter is named, with when it was sent: an ack still on its way when the clients
    closed, or an action stored without an ack."""
    unacked = stored - stats.acked
    for table, version in sorted(unacked):
        sent = stats.sent.get((table, version))
        when = "no client sent it" if sent is None else f"sent {stats.stopped - sent:.2f} s"
        print(f"  stored, no ack read: table {table} version {version}, {when} before the stop")
    return len(stats.acked - stored), len(unacked)


def check_database(made: list[tuple[int, list[str]]], stats: Stats) -> tuple[int, int]:
    """(acked actions missing from the database, stored actions nobody was acked for)."""
    from games.models import Action

    stored = set(
        Action.objects.filter(table_id__in=[pk for pk, _ in made]).values_list(
            "table_id", "version"
        )
    )
    return compare(stored, stats)


HEADS = ("tables", "actions/s", "p50 ms", "p99 ms", "lost", "dup", "refused", "ack p50 ms")
HEADS += ("no socket", "CPU ms an action: web", "worker", "db")
WIDTHS = (6, 10, 8, 8, 5, 4, 8, 10, 8, 22, 6, 5)


def run_levels(
    name: str, url: str, counts: list[int], args, make, check, cpu: CPU
) -> dict[int, dict]:
    """Each level on one stack, then with --refine more levels between the last that held
    and the first that broke: its line, and its result by table count (with "broke")."""
    results: dict[int, dict] = {}
    print(f"{name}:")
    print(" ".join(f"{h:>{w}}" for h, w in zip(HEADS, WIDTHS, strict=True)))
    for count in counts:
        results[count] = run_one(url, count, len(results), args, make, check, cpu)
    while (count := between(results, args.refine)) is not None:
        results[count] = run_one(url, count, len(results), args, make, check, cpu)
    return results


def run_one(url: str, count: int, level: int, args, make, check, cpu: CPU) -> dict:
    """One level's run and its line.

    The CPU each part of the stack spent a stored action is the figure to compare changes
    by: it varies far less from run to run than the latency's tail."""
    made = make(count, f"{level}")
    before = cpu.read()
    result = asyncio.run(run_level(url, made, args.seconds))
    spent = CPU.spent(before, cpu.read())
    missing, unacked = check(made, result["stats"])
    lost, duplicated = result["lost"] + missing, result["duplicated"] + unacked
    each = {part: 1000 * seconds / max(1, result["actions"]) for part, seconds in spent.items()}
    result["cpu"] = each
    print(
        f"{count:>6} {result['per_second']:>10.1f} {result['p50'] * 1000:>8.1f} "
        f"{result['p99'] * 1000:>8.1f} {lost:>5} {duplicated:>4} {result['errors']:>8} "
        f"{result['ack_p50'] * 1000:>10.1f} {result['refused_sockets']:>8} "
        f"{each['web']:>22.2f} {each.get('worker', 0.0):>6.2f} {each['db']:>5.2f}",
        flush=True,
    )
    if args.timeline:
        print_timeline(result["sent_at"], args.timeline)
    failed = lost or duplicated or result["refused_sockets"]
    result["broke"] = bool(result["p99"] > P99_LIMIT or failed)
    return result


def first_break(results: dict[int, dict]) -> int | None:
    """The smallest level that broke (None: every level held)."""
    return min((count for count, result in results.items() if result["broke"]), default=None)


def capacity(results: dict[int, dict]) -> int:
    """The most tables run below the smallest level that broke (0: the smallest broke)."""
    broke = first_break(results)
    return max((count for count in results if broke is None or count < broke), default=0)


def between(results: dict[int, dict], step: int) -> int | None:
    """The next level to run to find the capacity within `step` tables: halfway (in whole
    steps) between the capacity and the smallest level that broke; None when they are
    `step` or fewer tables apart, or nothing broke, or `step` is 0."""
    high = first_break(results)
    if not step or high is None:
        return None
    low = capacity(results)
    if high - low <= step:
        return None
    return low + max(1, (high - low) // step // 2) * step


def mean_size(results: dict[int, dict], kind: str) -> int:
    sizes = [n for result in results.values() for n in result["stats"].sizes[kind]]
    return round(statistics.mean(sizes)) if sizes else 0


def make_floor_tables(count: int, tag: str) -> list[tuple[int, list[str]]]:
    """Table ids for the bare stack (nothing to seat: it has no sessions)."""
    first = (int(tag) + 1) * 100_000
    return [(first + t, [""] * 4) for t in range(count)]


def check_floor(made: list[tuple[int, list[str]]], stats: Stats) -> tuple[int, int]:
    """check_database's figures for the bare stack's rows."""
    from django.db import connection

    from benchmarks.live_floor import TABLE

    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT table_id, version FROM {TABLE} WHERE table_id = ANY(%s)",
            [[pk for pk, _ in made]],
        )
        stored = set(cursor.fetchall())
    return compare(stored, stats)


def start_floor(log_dir: Path, sizes: dict[str, int]) -> tuple[list[subprocess.Popen], str]:
    """The bare stack's server: granian with the same workers, serving live_floor.py."""
    from django.db import connection

    from benchmarks.live_floor import CREATE

    with connection.cursor() as cursor:
        cursor.execute(CREATE)
    port = free_port()
    env = os.environ | {
        "FLOOR_SNAPSHOT_BYTES": str(sizes["snapshot"]),
        "FLOOR_UPDATE_BYTES": str(sizes["update"]),
    }
    server = start_group(
        granian(port, 2, preload=False, app="benchmarks.live_floor:application"),
        cwd=BASE,
        env=env,
        stdout=(log_dir / "floor.log").open("w"),
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    wait_for(url, server, [server])
    return [server], url


def print_stack(name: str, results: dict[int, dict]) -> None:
    at = ", ".join(
        f"at {n} tables {results[n]['p99'] * 1000:.0f} ms" for n in (200, 500) if n in results
    )
    print(f"{name}: capacity {capacity(results)} tables (p99 {at or 'not run at 200 or 500'})")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", default="50,100,200,300")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument(
        "--timeline",
        type=float,
        default=0,
        metavar="SECONDS",
        help="also print p50/p99 of the actions sent in each window",
    )
    parser.add_argument(
        "--floor", action="store_true", help="then the same levels on the bare stack, and the ratio"
    )
    parser.add_argument(
        "--refine",
        type=int,
        default=0,
        metavar="TABLES",
        help="then more levels, halving the gap, until each stack's capacity is known within "
        "TABLES tables",
    )
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    counts = [int(n) for n in args.tables.split(",")]
    prepare_database()
    log_dir = BASE / "var" / "bench" / "logs"
    processes, url = start_services(log_dir)
    cpu = CPU({"web": processes[0].pid, "worker": processes[1].pid})
    try:
        site = run_levels("capicua", url, counts, args, make_tables, check_database, cpu)
    finally:
        stop_services(processes)
    limit = f"p99 over {P99_LIMIT * 1000:.0f} ms, a lost or duplicated action, a refused socket"
    print(f"breaks at: {first_break(site) or 'not reached'} tables ({limit})")
    if not args.floor:
        return
    sizes = {kind: mean_size(site, kind) for kind in ("snapshot", "update")}
    print(f"the site's messages: snapshot {sizes['snapshot']} bytes, update {sizes['update']}")
    processes, url = start_floor(log_dir, sizes)
    try:
        cpu = CPU({"web": processes[0].pid})
        floor = run_levels("bare stack", url, counts, args, make_floor_tables, check_floor, cpu)
    finally:
        stop_services(processes)
    print_stack("capicua", site)
    print_stack("bare stack", floor)
    ours, bare = capacity(site), capacity(floor)
    if first_break(floor) is None:
        print(f"(the bare stack held at every level: its capacity is {bare} tables or more)")
    ratio = f"{100 * ours / bare:.0f}%" if bare else "n/a"
    print(f"live-floor: capicua {ours} tables, bare stack {bare} tables = {ratio}")


if __name__ == "__main__":
    main()
