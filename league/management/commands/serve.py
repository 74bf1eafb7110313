"""Serve Capicúa: the ASGI server and its background workers, stopped together by Ctrl-C."""

import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand

DEMO_LOGINS = [
    ("organiser", "the club's organiser and referee"),
    ("ana", "a player"),
    ("admin", "staff, for /admin/"),
]


class Command(BaseCommand):
    help = "Run the web server with its Celery worker (and beat), as one supervised group."

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
        server = [
            python,
            "-m",
            "granian",
            "--interface",
            "asginl",
            "--host",
            host,
            "--port",
            str(port),
            "config.asgi:application",
        ]
        worker = [python, "-m", "celery", "-A", "config", "worker", "-l", "INFO"]
        beat_schedule = str(settings.VAR_DIR / "celerybeat-schedule")
        commands = {}
        if production:
            commands["web"] = server + ["--workers", str(web)]
            commands["worker"] = worker + ["--concurrency", "2"]
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
            commands["worker"] = worker + [
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

        processes = {
            name: subprocess.Popen(cmd, env=os.environ.copy()) for name, cmd in commands.items()
        }
        url = f"http://{host}:{port}/"
        self.stdout.write(self.style.SUCCESS(f"\nCapicúa is running at {url}"))
        if settings.DEBUG:
            self.stdout.write("Demo logins (password: capicua):")
            for username, who in DEMO_LOGINS:
                self.stdout.write(f"  {username:<10} {who}")
        self.stdout.write("Press Ctrl-C to stop.\n")

        stopping = False

        def stop(signum, frame) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        try:
            while not stopping:
                for name, process in processes.items():
                    if process.poll() is not None:
                        self.stderr.write(f"{name} exited with {process.returncode}; stopping.")
                        stopping = True
                time.sleep(0.3)
        finally:
            for process in processes.values():
                if process.poll() is None:
                    process.send_signal(signal.SIGTERM)
            deadline = time.monotonic() + 15
            for process in processes.values():
                try:
                    process.wait(timeout=max(0.1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    process.kill()
            self.stdout.write("Stopped.")
