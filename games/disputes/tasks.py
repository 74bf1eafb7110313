from celery import shared_task

from . import batches
from .models import Batch


@shared_task(name="games.disputes.tasks.adjudicate_batch")
def adjudicate_batch(batch_id: int) -> None:
    try:
        batches.run(batch_id)
    except Exception:
        Batch.objects.filter(pk=batch_id).update(status=Batch.Status.FAILED)
        raise
