"""Two installations on one Redis database keep their Celery tasks apart: the broker's and
the results' keys start with each one's prefix (CELERY_PREFIX, by default CACHE_PREFIX), so
a task one queues is run by its own worker and never by the other's."""

import os
import socket
import subprocess
import time
from pathlib import Path

import pytest
import redis
from celery import Celery

from tests.conftest import redis_available, require, start_worker, stop

pytestmark = pytest.mark.django_db(transaction=True)


def installation(prefix: str) -> Celery:
    """A client of the installation whose broker prefix is `prefix`, as its settings make it.
    Not the current app: the site's shared tasks, in the tests after this one in the same
    process, would go to this installation's queue, where no worker of theirs looks."""
    app = Celery(f"client-{prefix}", set_as_current=False)
    options = {"global_keyprefix": f"{prefix}:"}
    app.conf.update(
        broker_url=os.environ["REDIS_URL"],
        result_backend=os.environ["REDIS_URL"],
        broker_transport_options=options,
        result_backend_transport_options=options,
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
    )
    return app


def installation_worker(service_env: dict, prefix: str, log: Path) -> subprocess.Popen:
    """The Celery worker of the installation whose broker prefix is `prefix`."""
    env = service_env | {"CACHE_PREFIX": f"cache-{prefix}", "CELERY_PREFIX": prefix}
    return start_worker(env, log, f"{prefix}@{socket.gethostname()}", threads=1)


def test_two_installations_on_one_redis_database_never_run_each_others_tasks(service_env, log_dir):
    require(redis_available(), "Redis (REDIS_URL)")
    tag = f"{os.getpid()}-{time.monotonic_ns()}"
    a, b = f"inst-a-{tag}", f"inst-b-{tag}"
    client_a, client_b = installation(a), installation(b)
    logs = {a: log_dir / f"broker-{a}.log", b: log_dir / f"broker-{b}.log"}
    workers = [installation_worker(service_env, b, logs[b])]
    try:
        # A's task waits in A's queue while only B's worker runs. B's worker takes its
        # queue in order: had A's task been in it, B's worker would have run it first.
        for_a = client_a.send_task("celery.accumulate", args=["for A"])
        for_b = client_b.send_task("celery.accumulate", args=["for B"])
        assert for_b.get(timeout=120) == ["for B"]
        assert client_a.AsyncResult(for_a.id).state == "PENDING"
        assert client_b.AsyncResult(for_a.id).state == "PENDING"

        # B stops with a task of A's queued and one of its own: neither moves to the other.
        stop(workers.pop())
        late_b = client_b.send_task("celery.accumulate", args=["late B"])
        workers.append(installation_worker(service_env, a, logs[a]))
        assert for_a.get(timeout=120) == ["for A"]
        assert client_a.AsyncResult(late_b.id).state == "PENDING"

        # The queues, kombu's bindings and the results are each installation's own.
        keys = {k.decode() for k in redis.Redis.from_url(os.environ["REDIS_URL"]).keys("inst-*")}
        assert {f"{a}:_kombu.binding.celery", f"{b}:_kombu.binding.celery"} <= keys
        assert f"{a}:celery-task-meta-{for_a.id}" in keys
        assert f"{b}:celery-task-meta-{for_b.id}" in keys
        assert f"{b}:celery" in keys  # late B waits for B's worker
    finally:
        for worker in workers:
            stop(worker)
    assert for_a.id not in logs[b].read_text() and late_b.id not in logs[a].read_text()
    assert for_b.id in logs[b].read_text() and for_a.id in logs[a].read_text()
