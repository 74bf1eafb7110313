"""What the benchmarks that start the production web server share."""

import socket

from core.web import command


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
