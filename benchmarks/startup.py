"""How soon a web worker is ready: the time a replaced granian worker keeps the port short.

    nice -n 10 .venv/bin/python benchmarks/startup.py [--runs 5]

Measured in fresh processes, in the environment given (the embedded mode without one; with
DATABASE_URL and REDIS_URL, the production stack), each `--runs` times, the median kept:

- `import django`: the peer, a bare interpreter that loads Django's package;
- `import config.asgi`: what a granian worker does before it accepts a connection (Django
  set up, every app's models, signals and middleware, the Channels router), with the
  processor time it took (user + system, which the machine's load does not inflate much);
- a worker ready: the web server started with one worker, until its first answer to
  /healthz (any status: the check's own verdict depends on the services);
- a replacement ready: the one worker killed (SIGKILL) once it answered, until the worker
  granian forks in its place answers; the peer is plain granian, whose replacement loads
  the application itself, where `config.web` loaded it before forking (the site's server).

It prints each figure with its ratio to the peer, and ends with one JSON line.
"""

import argparse
import json
import os
import resource
import signal
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _server import free_port, granian  # noqa: E402

from core.processes import end_group, start_group  # noqa: E402


def environment() -> dict[str, str]:
    env = os.environ.copy()
    env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    env.setdefault("ALLOWED_HOSTS", "127.0.0.1,localhost")
    env["PYTHONPATH"] = str(ROOT)
    return env


def timed_import(module: str, env: dict[str, str]) -> tuple[float, float]:
    """Seconds of a fresh `python -c "import module"`: the wall clock and the processor."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", f"import {module}"], cwd=ROOT, env=env, check=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def answered(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=120):
            return True
    except urllib.error.HTTPError:
        return True  # an answer all the same (503 when a service is missing)
    except OSError:
        return False


def until_answered(url: str, process: subprocess.Popen, since: float, timeout: float) -> float:
    """Wait for the server's first answer; the seconds since `since`."""
    while not answered(url):
        if process.poll() is not None or time.perf_counter() - since > timeout:
            raise RuntimeError(f"nobody answered (granian's exit status {process.poll()})")
        time.sleep(0.02)
    return time.perf_counter() - since


def worker_ready(env: dict[str, str], timeout: float = 300) -> float:
    """Seconds from starting the server with one worker to its first answer."""
    port = free_port()
    started = time.perf_counter()
    process = start_group(granian(port, 1), cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    try:
        return until_answered(f"http://127.0.0.1:{port}/healthz", process, started, timeout)
    finally:
        process.terminate()
        end_group(process.pid, 10, leader=process)


def replacement_ready(env: dict[str, str], preload: bool, timeout: float = 300) -> float:
    """Seconds from SIGKILL of the server's only worker to its replacement's first answer
    (a request waits on the port until a worker takes it)."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/healthz"
    command = granian(port, 1, "--respawn-failed-workers", preload=preload)
    process = start_group(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    try:
        until_answered(url, process, time.perf_counter(), timeout)
        [worker] = workers(process.pid)
        os.kill(worker, signal.SIGKILL)
        return until_answered(url, process, time.perf_counter(), timeout)
    finally:
        process.terminate()
        end_group(process.pid, 10, leader=process)


def workers(main: int) -> list[int]:
    """granian's worker processes: the children of its main process."""
    tasks = Path(f"/proc/{main}/task")
    return [int(pid) for task in tasks.iterdir() for pid in (task / "children").read_text().split()]


def main() -> None:
    # SIGTERM and SIGHUP end the script through its `finally`, which stops the server's group.
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, lambda signum, frame: sys.exit(128 + signum))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    env = environment()
    subprocess.run([sys.executable, "-c", "import config.asgi"], cwd=ROOT, env=env, check=True)
    peer, app, app_cpu, ready, replaced, replaced_plain = [], [], [], [], [], []
    for _ in range(args.runs):  # interleaved, so that a change in the load meets them all
        peer.append(timed_import("django", env)[0])
        wall, cpu = timed_import("config.asgi", env)
        app.append(wall)
        app_cpu.append(cpu)
        ready.append(worker_ready(env))
        replaced.append(replacement_ready(env, preload=True))
        replaced_plain.append(replacement_ready(env, preload=False))
    figures = {
        "load": round(os.getloadavg()[0], 1),
        "runs": args.runs,
        "import_django_s": round(statistics.median(peer), 3),
        "import_config_asgi_s": round(statistics.median(app), 3),
        "import_config_asgi_cpu_s": round(statistics.median(app_cpu), 3),
        "worker_ready_s": round(statistics.median(ready), 3),
        "replacement_ready_s": round(statistics.median(replaced), 3),
        "replacement_ready_plain_granian_s": round(statistics.median(replaced_plain), 3),
    }
    base = figures["import_django_s"]
    figures["import_ratio"] = round(figures["import_config_asgi_s"] / base, 1)
    figures["ready_ratio"] = round(figures["worker_ready_s"] / base, 1)
    print(f"machine load (1 min): {figures['load']}, medians of {args.runs} runs")
    print(f"import django (peer)     {base:7.2f} s")
    print(
        f"import config.asgi       {figures['import_config_asgi_s']:7.2f} s "
        f"{figures['import_ratio']:6.1f}x  (processor {figures['import_config_asgi_cpu_s']:.2f} s)"
    )
    print(
        f"worker ready (/healthz)  {figures['worker_ready_s']:7.2f} s "
        f"{figures['ready_ratio']:6.1f}x"
    )
    replacement = figures["replacement_ready_s"]
    plain = figures["replacement_ready_plain_granian_s"]
    figures["replacement_ratio_to_plain"] = round(replacement / plain, 3)
    print(
        f"replacement ready        {replacement:7.2f} s  "
        f"(plain granian {plain:.2f} s: {figures['replacement_ratio_to_plain']:.2f}x)"
    )
    print(json.dumps(figures, separators=(",", ":")))


if __name__ == "__main__":
    main()
