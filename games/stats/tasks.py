"""Celery tasks of the statistics: thin callers of the services, each with a fixed name.

Two counts of one hand at once: the second one's rows clash with the first's (IntegrityError)
and it runs again, replacing them."""

from collections.abc import Callable

from celery import Task, shared_task
from django.db import IntegrityError, OperationalError

from . import services


# Both tasks retry on a clash or a lost connection, backing off.
def _retrying(name: str) -> Callable[[Callable[[int], int]], Task]:
    return shared_task(
        name=name,
        ignore_result=True,
        autoretry_for=(OperationalError, IntegrityError),
        retry_backoff=True,
        max_retries=5,
    )


@_retrying(services.HAND_TASK)
def count_live_hand(hand_id: int) -> int:
    """Count a finished live hand (again, after a ruling) into its players' statistics."""
    return services.count_live_hand(hand_id)


@_retrying(services.MATCH_TASK)
def count_league_match(match_id: int) -> int:
    """Count a league match's recorded hands (again) once its result is confirmed."""
    return services.count_league_match(match_id)
