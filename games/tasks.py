"""Celery tasks of the live tables: thin callers of the services, each with a fixed name
(services queue them by name and never import this module)."""

from celery import shared_task
from django.utils import timezone

from games.services import fixtures, reviews, timers


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
