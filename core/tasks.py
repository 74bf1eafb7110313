"""Queuing Celery tasks by name, so that a service and the task that calls it back never
import each other."""

import threading
from typing import Any

from celery import Task, current_app
from django.db import transaction

# Celery's task discovery returns at once, having imported nothing, while another thread of
# the process is discovering (its guard against recursion): the second thread would find no
# task by the name. One thread discovers at a time here; the others wait for it.
_discovering = threading.Lock()


def queue_on_commit(
    name: str, *args: Any, countdown: float | None = None, expires: float | None = None
) -> None:
    """Queue the task registered as `name` once the current transaction commits (at once
    outside a transaction), to run after `countdown` seconds and be dropped if not started
    `expires` seconds from now.

    The change is committed by then: a task that cannot be queued (the broker down, say) is
    logged, and the commit's other hooks still run (a live table's update still reaches its
    sockets)."""
    given = {"countdown": countdown, "expires": expires}
    options: dict[str, Any] = {key: value for key, value in given.items() if value is not None}
    transaction.on_commit(lambda: task(name).apply_async(args, **options), robust=True)


def task(name: str) -> Task:
    """The task registered as `name`. A worker imports every app's tasks module when it
    starts; another process (a web server) on its first call."""
    app = current_app
    if name not in app.tasks:
        with _discovering:
            if name not in app.tasks:
                app.loader.import_default_modules()
    return app.tasks[name]
