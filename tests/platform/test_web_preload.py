"""config.web loads the application in granian's main process, which then forks every
worker: what it loads must hold no connection and no thread that a fork would share or lose."""

import json
import os
import subprocess
import sys

from tests.conftest import BASE_DIR

PROBE = """
import contextvars, json, os, threading
from config.web import preload
preload()
import sys
from django.db import connections
from django.urls import get_resolver
from celery import current_app
fds = []
for fd in os.listdir("/proc/self/fd"):
    try:
        fds.append(os.readlink(f"/proc/self/fd/{fd}"))
    except OSError:
        pass
print(json.dumps({
    "connections": [c.connection is not None for c in connections.all()],
    "threads": [t.name for t in threading.enumerate()],
    "sockets": [fd for fd in fds if fd.startswith("socket:")],
    "views_loaded": "api.views" in sys.modules and "games.views" in sys.modules,
    "urls_resolved": "url_patterns" in get_resolver().__dict__,
    "tasks_registered": "stats.count_live_hand" in current_app.tasks,
    "context": [var.name for var in contextvars.copy_context()],
}))
"""


def test_the_preloaded_application_holds_no_connection_thread_or_socket():
    env = os.environ | {"DJANGO_SETTINGS_MODULE": "config.settings"}
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=BASE_DIR, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert loaded["connections"] and not any(loaded["connections"])
    assert loaded["threads"] == ["MainThread"]
    assert loaded["sockets"] == []
    assert loaded["views_loaded"] and loaded["urls_resolved"]
    assert loaded["tasks_registered"]
    # What loading set stays in its own context: a worker's tasks start from an empty one.
    assert loaded["context"] == []
