"""The fair-play check of a finished hand: a thin caller of the service, with a fixed name.
It returns nothing, so that no worker log line carries a figure."""

from celery import shared_task
from django.db import IntegrityError, OperationalError

from . import services


@shared_task(
    name=services.TASK,
    ignore_result=True,
    autoretry_for=(OperationalError, IntegrityError),
    retry_backoff=True,
    max_retries=5,
)
def check_hand(hand_id: int, on_request: bool = False) -> None:
    """Value a finished hand's decisions for fair play (again, after a ruling)."""
    services.check_hand(hand_id, on_request)
