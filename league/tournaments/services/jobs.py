"""Rounds whose pairing takes longer than a request: computed by the worker, with progress.

Pairing a Swiss round or seating an individual round first runs in the organiser's request
with a bounded number of search steps (`settings.PAIRING_REQUEST_STEPS`, 40,000 by default:
a step takes 5-25 µs, so about a second on a loaded server).
When the search needs more, nothing is written: a `PairingJob` is queued instead, and the
Celery worker runs the very same service with no bound, writing its progress as it goes, so
the round is the same wherever it was computed. While a job is queued or running, the
event's rounds cannot be paired, published or withdrawn.
"""

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from core.tasks import queue_on_commit

from ...models import Event
from ...pairing import Effort, SearchTooLong
from ...services.errors import ServiceError
from ..models import PairingJob
from . import individual, swiss
from .common import lock_event

STALE_AFTER = timedelta(minutes=30)  # the lookahead's and the exact search's bounds take less
TASK = "league.tournaments.run_pairing_job"
ROUND_ACTIONS: dict[str, Callable[..., Any]] = {
    PairingJob.Kind.PAIR: swiss.pair_round,
    PairingJob.Kind.SEAT: individual.seat_round,
}


def active_job(event: Event) -> PairingJob | None:
    """The event's job still queued or running; one left so by a lost worker for longer
    than `STALE_AFTER` is marked failed instead."""
    job = PairingJob.objects.filter(
        event=event, status__in=[PairingJob.Status.QUEUED, PairingJob.Status.RUNNING]
    ).first()
    if job is not None and timezone.now() - job.created > STALE_AFTER:
        PairingJob.objects.filter(pk=job.pk).update(
            status=PairingJob.Status.FAILED, message=_("The pairing was lost. Try again.")
        )
        return None
    return job


def require_idle(event: Event) -> None:
    """Refuse to change the event's rounds while the worker is pairing one."""
    if active_job(event) is not None:
        raise ServiceError(
            "pairing_under_way", _("The round is still being paired: wait until it is ready.")
        )


def start(user, event: Event, kind: str) -> PairingJob | None:
    """Pair or seat the next round now if that fits in a request (None), else queue it for
    the worker (the job)."""
    require_idle(event)
    try:
        ROUND_ACTIONS[kind](user, event, Effort(allowed=settings.PAIRING_REQUEST_STEPS))
    except SearchTooLong:
        pass
    else:
        return None
    with transaction.atomic():
        lock_event(user, event)  # one at a time: the second waits here, then is refused
        require_idle(event)
        job = PairingJob.objects.create(
            event=event, kind=kind, requested_by=user, language=translation.get_language() or ""
        )
        queue_on_commit(TASK, job.pk)
    return job


def run(job_id: int) -> None:
    """Compute a queued job's round (the Celery task's work); a second delivery does
    nothing."""
    claimed = PairingJob.objects.filter(pk=job_id, status=PairingJob.Status.QUEUED).update(
        status=PairingJob.Status.RUNNING
    )
    if not claimed:
        return
    job = PairingJob.objects.select_related("event", "requested_by").get(pk=job_id)

    def progress(done: int, total: int) -> None:
        PairingJob.objects.filter(pk=job_id).update(done=done, total=total)

    status, message = PairingJob.Status.DONE, ""
    with translation.override(job.language or None):
        try:
            ROUND_ACTIONS[job.kind](job.requested_by, job.event, Effort(progress=progress))
        except ServiceError as error:
            status, message = PairingJob.Status.FAILED, str(error.message)
        except Exception:
            PairingJob.objects.filter(pk=job_id).update(
                status=PairingJob.Status.FAILED,
                message=_("The pairing failed. Try again; if it fails again, tell us."),
            )
            raise
    PairingJob.objects.filter(pk=job_id).update(status=status, message=message)


def progress_of(job: PairingJob) -> dict[str, Any]:
    """What the organiser's page polls: the job's state and how far it has come."""
    return {"status": job.status, "done": job.done, "total": job.total, "percent": job.percent}
