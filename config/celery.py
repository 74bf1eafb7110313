"""The Celery app: Redis in production, a file-system transport in the embedded mode."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("capicua")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
