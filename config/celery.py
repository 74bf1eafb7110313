"""The Celery app: Redis in production, a file-system transport in the embedded mode."""

import os

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("capicua")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
def warm_up_worker(**kwargs) -> None:
    """Load what the first pairing and the first link would (core/warmup.py) in the worker's
    parent, before it forks its children."""
    import logging

    from core.warmup import warm_up

    logging.getLogger(__name__).info("worker warmed up in %.1f s", warm_up())
