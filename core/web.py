"""The command that starts the site's web server (config.web: granian with the application
loaded before it forks its workers), for the process supervisor, the tests and the benchmarks."""

import sys


def command(
    host: str, port: int, *options: str, preload: bool = True, app: str = "config.asgi:application"
) -> list[str]:
    """The command that serves the site (or another ASGI `app`) on host:port, with more of
    granian's options (`preload=False`: granian alone, each worker loading the application
    itself)."""
    return [
        sys.executable,
        "-m",
        "config.web" if preload else "granian",
        "--interface",
        "asginl",
        "--host",
        host,
        "--port",
        str(port),
        *options,
        app,
    ]
