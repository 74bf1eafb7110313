"""How many requests the API's rate limit lets through when clients ask in parallel.

    nice -n 10 .venv/bin/python benchmarks/limits.py [--limit 120] [--rounds 3]

The production web server (granian, 2 workers) serves on loopback in the environment given
(with REDIS_URL, the counters are Redis's; without, the embedded mode's file cache), with
`API_RATE_ANON=<limit>/min`, a cache prefix of its own (fresh counters) and one trusted
proxy, so that each measurement counts from a client address of its own. For 1 (the peer),
8 and 16 parallel connections it asks `/api/v1/clubs/` `rounds` times the limit in all,
as fast as it can, and counts the answers: 429 refused, any other let through (the
database named must be migrated, or those are 500s). An exact limit passes
the limit and no more at any number of connections (DRF's own throttles passed 170 of 240
against 120/min with 8 threads). It prints each count with its ratio to the limit and to
the peer's, and ends with one JSON line.
"""

import argparse
import collections
import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _server import free_port, granian  # noqa: E402

from core.processes import end_group, start_group  # noqa: E402


def fire(port: int, clients: int, total: int, address: str) -> collections.Counter:
    """`clients` connections at once asking `total` requests between them; the statuses."""
    statuses: collections.Counter = collections.Counter()
    lock, start = threading.Lock(), threading.Barrier(clients)
    headers = {"X-Forwarded-For": address}

    def client(count: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        start.wait()
        for _ in range(count):
            connection.request("GET", "/api/v1/clubs/", headers=headers)
            response = connection.getresponse()
            response.read()
            with lock:
                statuses[response.status] += 1
        connection.close()

    shares = [total // clients + (i < total % clients) for i in range(clients)]
    threads = [threading.Thread(target=client, args=(share,)) for share in shares]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


def main() -> None:
    # SIGTERM and SIGHUP end the script through its `finally`, which stops the server's group.
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, lambda signum, frame: sys.exit(128 + signum))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=120, help="requests per minute")
    parser.add_argument("--rounds", type=int, default=3, help="requests asked, in limits")
    args = parser.parse_args()
    env = os.environ.copy() | {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "API_RATE_ANON": f"{args.limit}/min",
        "TRUSTED_PROXIES": "1",
        "CACHE_PREFIX": f"bench-limits-{os.getpid()}-{time.time_ns()}",
        "PYTHONPATH": str(ROOT),
    }
    env.setdefault("ALLOWED_HOSTS", "127.0.0.1,localhost")
    port = free_port()
    server = start_group(
        granian(port, 2), cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    figures: dict[str, object] = {"limit_per_min": args.limit, "asked": args.rounds * args.limit}
    try:
        deadline = time.monotonic() + 300
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=120).close()
                break
            except urllib.error.HTTPError:
                break  # answering (a failing service does not matter here)
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.2)
        peer = None
        print(f"API_RATE_ANON={args.limit}/min, {args.rounds * args.limit} requests asked each")
        for index, clients in enumerate((1, 8, 16)):
            started = time.perf_counter()
            statuses = fire(port, clients, args.rounds * args.limit, f"198.51.100.{index + 1}")
            took = time.perf_counter() - started
            passed = sum(statuses.values()) - statuses[429]  # let through by the limit
            peer = passed if peer is None else peer
            figures[f"passed_{clients}"] = passed
            figures[f"ratio_{clients}"] = round(passed / args.limit, 3)
            others = {k: v for k, v in statuses.items() if k not in (200, 429)}  # a 500 too
            print(
                f"{clients:>2} connections: {passed:>4} passed, {statuses[429]:>4} refused "
                f"({passed / args.limit:.2f}x the limit, {passed / peer:.2f}x one connection's)"
                f" in {took:.1f} s{f', other answers {others}' if others else ''}"
            )
    finally:
        end_group(server.pid, 10, leader=server)
    figures["load"] = round(os.getloadavg()[0], 1)
    print(json.dumps(figures, separators=(",", ":")))


if __name__ == "__main__":
    main()
