from celery import shared_task
from django.db import OperationalError

from . import services


@shared_task(
    name="ratings.recalculate_pool",
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
)
def recalculate_pool(pool_id: int) -> int:
    """Replay the pool from its marker; 0 when a running task took this request over."""
    return services.recalculate(pool_id)
