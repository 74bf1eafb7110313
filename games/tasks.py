"""Celery tasks of the live tables: thin callers of the services, each with a fixed name
(services queue them by name and never import this module)."""

from celery import shared_task
from django.db import OperationalError
from django.utils import timezone

from games.services import autopilot, fixtures, reviews, timers


@shared_task(name="games.tasks.time_out_table", ignore_result=True)
def time_out_table(table_id: int, version: int) -> bool:
    """The countdown of one turn: a no-op when the table moved on."""
    return timers.countdown_due(table_id, version)


@shared_task(name="games.tasks.sweep_tables", ignore_result=True)
def sweep_tables() -> int:
    """The periodic sweep of the turn timers (Celery beat)."""
    return timers.sweep_from_worker()


@shared_task(name="games.tasks.open_due_fixtures", ignore_result=True)
def open_due_fixtures() -> int:
    """The periodic opening of the tables of online fixtures that are due (Celery beat)."""
    return len(fixtures.open_due_fixtures(timezone.now()))


@shared_task(name=reviews.TASK, ignore_result=True)
def review_hand(review_id: int) -> None:
    """Analyse a finished hand (games/services/reviews.py)."""
    reviews.run_review(review_id)


@shared_task(name="games.tasks.run_autopilots", ignore_result=True)
def run_autopilots() -> int:
    """The online events' due steps (Celery beat); the server's sweeper takes them in the
    embedded mode."""
    return 0 if timers.timers_in_server() else autopilot.tick_all()


@shared_task(
    name=autopilot.TICK_TASK,
    ignore_result=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
)
def autopilot_tick(event_id: int) -> list[str]:
    """One event's due steps, at once (a result of its round came in)."""
    return autopilot.tick(event_id)
