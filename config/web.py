"""The web server: granian, with the application loaded in its main process first.

    python -m config.web [granian's options] config.asgi:application

granian forks every worker from its main process. Loaded there once, before the first
fork, the application (Django, every app, the URLs and every view, the catalogues) is in
each worker from the moment it exists: a worker that dies is replaced by one that answers
at once, where a worker that loaded it all itself kept the port short for seconds
(benchmarks/startup.py). Nothing loaded here connects anywhere or starts a thread: the
database, Redis, the channel layer and Celery connect on first use, in each worker.
"""

import contextvars
import gc
import os


def preload() -> None:
    """Load what a worker needs before its first answer, in a context of its own.

    Loading sets context variables (each URL resolver marks itself populating, in an asgiref
    `Local`: 32 of them for our URLs). Set in the main context, they would be in every
    task's copy of it, and asgiref carries each back across every hop to a thread and back
    (a third of a hop's cost, 35 µs of 105).
    """
    contextvars.Context().run(_load)
    gc.collect()  # as config.asgi does, out of the collector's way in every worker
    gc.freeze()


def _load() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import config.asgi  # noqa: F401
    from config.celery import app
    from core.warmup import load_urls_and_catalogues

    load_urls_and_catalogues()
    # Every task, so that a table's first hand end does not discover them (core/tasks.py).
    app.loader.import_default_modules()


if __name__ == "__main__":
    preload()
    from granian.cli import entrypoint

    entrypoint()
