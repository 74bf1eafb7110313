"""WebSocket echo throughput of candidate ASGI servers, serving a Channels consumer.

    .venv/bin/uv pip install daphne hypercorn granian   # the candidates not in requirements
    .venv/bin/python benchmarks/asgi_servers.py [--clients 50] [--messages 400]

Each server runs as one process on this machine; the clients (one asyncio process) keep
`clients` connections open and each sends `messages` messages, one at a time, waiting for the
echo. It prints messages per second and the p50/p99 round trip.
"""

import argparse
import asyncio
import importlib.util
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import websockets

ROOT = Path(__file__).resolve().parent.parent
APP = "benchmarks.asgi_echo:application"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def commands(port: int) -> dict[str, list[str]]:
    python, port_ = sys.executable, str(port)
    uvicorn = [
        python,
        "-m",
        "uvicorn",
        APP,
        "--port",
        port_,
        "--no-access-log",
        "--log-level",
        "warning",
        "--lifespan",
        "off",
        "--ws",
    ]
    return {
        "uvicorn (websockets)": uvicorn + ["websockets"],
        "uvicorn (wsproto)": uvicorn + ["wsproto"],
        "daphne": [python, "-m", "daphne", "-p", port_, "-v", "0", APP],
        "hypercorn": [python, "-m", "hypercorn", "-b", f"127.0.0.1:{port}", APP],
        "granian": [
            python,
            "-m",
            "granian",
            "--interface",
            "asginl",
            "--port",
            port_,
            "--log-level",
            "warning",
            APP,
        ],
    }


MODULES = {
    "uvicorn (websockets)": "uvicorn",
    "uvicorn (wsproto)": "wsproto",
    "daphne": "daphne",
    "hypercorn": "hypercorn",
    "granian": "granian",
}


async def client(url: str, messages: int, latencies: list[float]) -> None:
    async with websockets.connect(url, max_queue=None) as ws:
        payload = '{"type":"play","action":"5-4@left","version":41}'
        for _ in range(messages):
            started = time.perf_counter()
            await ws.send(payload)
            await ws.recv()
            latencies.append(time.perf_counter() - started)


async def wait_open(url: str, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            async with websockets.connect(url):
                return
        except (OSError, websockets.InvalidHandshake):
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.2)


async def measure(url: str, clients: int, messages: int) -> tuple[float, float, float]:
    await wait_open(url)
    latencies: list[float] = []
    started = time.perf_counter()
    await asyncio.gather(*(client(url, messages, latencies) for _ in range(clients)))
    elapsed = time.perf_counter() - started
    quantiles = statistics.quantiles(latencies, n=100)
    return len(latencies) / elapsed, quantiles[49] * 1000, quantiles[98] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--messages", type=int, default=400)
    args = parser.parse_args()
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    print(
        f"{args.clients} connections x {args.messages} echoes, one server process, "
        f"{os.cpu_count()} cores\n"
    )
    print(f"{'server':<22} {'msg/s':>9} {'p50 ms':>8} {'p99 ms':>8}")
    port = free_port()
    for name, command in commands(port).items():
        if importlib.util.find_spec(MODULES[name]) is None:
            print(f"{name:<22} not installed")
            continue
        server = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            rate, p50, p99 = asyncio.run(
                measure(f"ws://127.0.0.1:{port}/echo/", args.clients, args.messages)
            )
            print(f"{name:<22} {rate:>9.0f} {p50:>8.2f} {p99:>8.2f}")
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
