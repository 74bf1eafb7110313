"""Celery tasks of the live tables: thin callers of the timer services."""

from celery import shared_task

from games.services import tables, timers


@shared_task(ignore_result=True)
def time_out_table(table_id: int, version: int) -> bool:
    """The countdown of one turn: a no-op when the table moved on."""
    return tables.time_out(table_id, version)


@shared_task(ignore_result=True)
def sweep_tables() -> int:
    """The periodic sweeper (Celery beat): due timers, and fixtures due to open."""
    return timers.sweep()
