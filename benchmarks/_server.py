"""What the benchmarks that start the production web server share."""

import os
import socket
from pathlib import Path

from core.web import command

BASE = Path(__file__).resolve().parent.parent


def production_env(database: str, **extra: str) -> dict[str, str]:
    """The production stack's settings for a benchmark: PostgreSQL on loopback (its own
    `database`), Redis (BENCH_REDIS_URL, by default database 15, which the benchmark flushes)
    and the var folder var/bench."""
    return {
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{database}",
        "REDIS_URL": os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/15"),
        "SECRET_KEY": "benchmark-only-secret-key-0123456789abcdefghijklmnopqrstuvwxyz",
        "SECURE_SSL": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LOG_LEVEL": "WARNING",
        "CAPICUA_VAR_DIR": str(BASE / "var" / "bench"),
        **extra,
    }


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def granian(
    port: int, workers: int, *options: str, preload: bool = True, app: str | None = None
) -> list[str]:
    """The command of the site's web server on loopback with `workers` workers (granian
    alone with `preload=False`; serving another ASGI `app`, given as module:name)."""
    options = ("--workers", str(workers), "--log-level", "warning", *options)
    if app is not None:
        return command("127.0.0.1", port, *options, preload=preload, app=app)
    return command("127.0.0.1", port, *options, preload=preload)
