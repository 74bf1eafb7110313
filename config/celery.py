"""The Celery app: Redis in production, a file-system transport in the embedded mode."""

import os
from typing import Any

from celery import Celery, Task

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("capicua")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def queue_on_commit(
    name: str, *args: Any, countdown: float | None = None, expires: float | None = None
) -> None:
    """Queue the task registered as `name` once the current transaction commits (at once
    outside a transaction), to run after `countdown` seconds and be dropped if not started
    `expires` seconds from now. Services queue their own tasks by name, so that a service
    and the task that calls it back do not import each other."""
    from django.db import transaction

    options = {"countdown": countdown, "expires": expires}
    options = {key: value for key, value in options.items() if value is not None}
    transaction.on_commit(lambda: task(name).apply_async(args, **options))


def task(name: str) -> Task:
    """The task registered as `name`. A worker imports every app's tasks module when it
    starts; another process (a web server) on its first call."""
    if name not in app.tasks:
        app.loader.import_default_modules()
    return app.tasks[name]
