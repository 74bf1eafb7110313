"""Queuing tasks by name (core/tasks.py): found from any thread of a web process, and a task
that cannot be queued never stops what the commit does next."""

import threading

import pytest
from celery import current_app
from django.db import transaction

from core import tasks


def test_a_task_is_found_while_another_thread_is_discovering_them(monkeypatch):
    """Celery's discovery returns at once, having imported nothing, while another thread is
    discovering (its guard against recursion): a second thread asking for a task then must
    wait for the first, not find nothing. Seen as a hand's last action stored and never
    sent, when two tables of a new web process ended a hand at once."""
    name = "tests.platform.discovered_late"
    started, release = threading.Event(), threading.Event()
    discovering = []

    def late() -> None:
        """The task the discovery registers."""

    def discover() -> None:  # what Celery's loader does, its guard included
        if discovering:
            return
        discovering.append(True)
        started.set()
        release.wait(5)
        current_app.task(name=name)(late)
        discovering.clear()

    monkeypatch.setattr(current_app.loader, "import_default_modules", discover)
    found: dict[str, object] = {}

    def ask(who: str) -> None:
        try:
            found[who] = tasks.task(name).name
        except Exception as error:  # noqa: BLE001 (the failure is the finding)
            found[who] = error

    first = threading.Thread(target=ask, args=("first",))
    first.start()
    assert started.wait(5)
    second = threading.Thread(target=ask, args=("second",))
    second.start()
    second.join(0.3)  # the second thread is waiting for the first, or has already failed
    release.set()
    first.join(5)
    second.join(5)
    try:
        assert found == {"first": name, "second": name}
    finally:
        current_app.tasks.pop(name, None)


@pytest.mark.django_db(transaction=True)
def test_a_task_that_cannot_be_queued_leaves_the_commits_other_hooks(monkeypatch, caplog):
    """The broker down when a hand ends: the hand is stored, the task's failure is logged,
    and the hooks after it still run (the table's update still goes to its sockets)."""

    class Unreachable:
        def apply_async(self, *args, **kwargs):
            raise ConnectionError("the broker is down")

    monkeypatch.setattr(tasks, "task", lambda name: Unreachable())
    ran = []
    with transaction.atomic():
        tasks.queue_on_commit("stats.count_live_hand", 1)
        transaction.on_commit(lambda: ran.append("ring"))
    assert ran == ["ring"]
    assert "the broker is down" in caplog.text
