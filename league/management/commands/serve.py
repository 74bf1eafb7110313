"""Serve Capicúa: the ASGI server and its background workers, kept alive together.

A child that exits is started again, after a back-off that doubles while it keeps failing
(1 s, 2 s, 4 s … at most 30 s; a child that ran for a minute starts from 1 s again), and
every exit and restart is logged. Only Ctrl-C or SIGTERM stops everything.

Each child leads a process group of its own, and the whole group is ended when the child
exits and when everything stops: a granian main process that dies leaves no worker of its
own serving beside the ones started after it.
"""

import contextlib
import logging
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.management.base import BaseCommand

from core.processes import end_group, members, start_group
from core.web import command

logger = logging.getLogger("capicua.serve")

DEMO_LOGINS = [
    ("organiser", "the club's organiser and referee"),
    ("ana", "a player"),
    ("admin", "staff, for /admin/"),
]
FIRST_BACKOFF = 1.0
MAX_BACKOFF = 30.0
STABLE_SECONDS = 60.0  # a child that ran this long starts its back-off from the beginning
STOP_SECONDS = 15.0
ORPHAN_SECONDS = 5.0  # what a dead child left in its group has to stop, before SIGKILL


@dataclass
class Child:
    """One supervised process: its command, the running process, its back-off."""

    name: str
    command: list[str]
    process: subprocess.Popen | None = None
    started: float = 0.0
    backoff: float = FIRST_BACKOFF
    restart_at: float | None = None

    def start(self) -> None:
        self.process = start_group(self.command, env=os.environ.copy())
        self.started, self.restart_at = time.monotonic(), None
        logger.info("%s started (pid %s)", self.name, self.process.pid)

    def check(self, now: float) -> None:
        """Schedule a restart when the process exited, ending what it left in its group;
        start it again once it is time."""
        if self.restart_at is None and self.process.poll() is not None:
            left = members(self.process.pid)
            if left:
                logger.error("%s left %s running: stopping them", self.name, left)
                end_group(self.process.pid, ORPHAN_SECONDS)
            if now - self.started >= STABLE_SECONDS:
                self.backoff = FIRST_BACKOFF
            self.restart_at = now + self.backoff
            logger.error(
                "%s exited with %s; restarting in %.0f s",
                self.name,
                self.process.returncode,
                self.backoff,
            )
            self.backoff = min(MAX_BACKOFF, self.backoff * 2)
        elif self.restart_at is not None and now >= self.restart_at:
            self.start()


def supervise(commands: dict[str, list[str]]) -> None:
    """Run the commands, restarting any that exits, until SIGINT or SIGTERM."""
    stopping = False

    def stop(signum, frame) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    children = [Child(name, command) for name, command in commands.items()]
    for child in children:
        child.start()
    try:
        while not stopping:
            now = time.monotonic()
            for child in children:
                child.check(now)
            time.sleep(0.3)
    finally:
        # Each child stops its own processes first (granian its workers, Celery its pool);
        # then whatever is left in a child's group, orphans included, is ended.
        started = [child.process for child in children if child.process is not None]
        for process in started:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_SECONDS
        for process in started:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
        for process in started:
            end_group(process.pid, ORPHAN_SECONDS, leader=process)


class Command(BaseCommand):
    help = "Run the web server with its Celery worker (and beat), restarting any that stops."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument(
            "--production",
            action="store_true",
            help="Several web processes, and Celery beat as a process of its own.",
        )
        parser.add_argument("--web", type=int, default=2, help="web processes (production)")
        parser.add_argument("--no-worker", action="store_true")

    def handle(self, *args, host: str, port: int, production: bool, web: int, **options) -> None:
        python = sys.executable
        server = command(
            host,
            port,
            "--respawn-failed-workers",  # a worker that dies is replaced, its sockets reconnect
            "--respawn-interval",
            "1",
        )
        worker = [python, "-m", "celery", "-A", "config", "worker", "-l", "INFO"]
        beat_schedule = str(settings.VAR_DIR / "celerybeat-schedule")
        # Two workers: the slow work's, and the live queue's (what players wait for).
        slow = settings.CELERY_TASK_DEFAULT_QUEUE
        live = worker + ["-Q", settings.LIVE_QUEUE, "-n", "live@%h"]
        commands = {}
        if production:
            commands["web"] = server + ["--workers", str(web)]
            commands["worker"] = worker + ["-Q", slow, "--concurrency", "2"]
            commands["live"] = live + ["--concurrency", "2"]
            commands["beat"] = [
                python,
                "-m",
                "celery",
                "-A",
                "config",
                "beat",
                "-l",
                "INFO",
                "-s",
                beat_schedule,
            ]
        else:
            # The in-memory channel layer lives in one process: a single web process.
            commands["web"] = server
            commands["live"] = live + ["-P", "threads", "--concurrency", "2"]
            commands["worker"] = worker + [
                "-Q",
                slow,
                "-P",
                "threads",
                "--concurrency",
                "2",
                "-B",
                "-s",
                beat_schedule,
            ]
        if options["no_worker"]:
            commands = {"web": commands["web"]}

        url = f"http://{host}:{port}/"
        self.stdout.write(self.style.SUCCESS(f"\nCapicúa is running at {url}"))
        if settings.EMBEDDED:
            self.stdout.write("Demo logins (password: capicua):")
            for username, who in DEMO_LOGINS:
                self.stdout.write(f"  {username:<10} {who}")
        self.stdout.write("Press Ctrl-C to stop.\n")
        supervise(commands)
        self.stdout.write("Stopped.")
