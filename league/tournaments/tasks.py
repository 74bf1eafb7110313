from celery import shared_task

from .services import jobs


@shared_task(name="league.tournaments.run_pairing_job")
def run_pairing_job(job_id: int) -> None:
    """Pair or seat a round that needs longer than a request (services/jobs.py)."""
    jobs.run(job_id)
