"""`/healthz`: is this process able to serve? For load balancers and monitors.

Each part the site needs is checked with the cheapest operation that proves it answers: the
database (`SELECT 1`), the cache (a write and a read of one key), the channel layer (a group
message nobody listens to) and the Celery broker (a connection). The answer is JSON, 200
when every part answers and 503 when one does not, naming the parts:

    {"status": "ok", "checks": {"database": "ok", "cache": "ok", "channel_layer": "ok",
     "broker": "ok"}}
    {"status": "failing", "checks": {..., "broker": "failing"}}

Why a part failed goes to the log, not to the public answer. Each check gives up after
`TIMEOUT` seconds, so the endpoint can be polled every few seconds.
"""

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait

from asgiref.sync import async_to_sync
from celery import current_app as celery_app
from channels.layers import get_channel_layer
from django.core.cache import cache
from django.db import connection, connections
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

TIMEOUT = 5.0  # seconds; a check answers in milliseconds once its client is loaded
logger = logging.getLogger(__name__)


def check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def check_cache() -> None:
    cache.set("healthz", 1, 10)
    if cache.get("healthz") != 1:
        raise RuntimeError("the cache did not keep a value")


def check_channel_layer() -> None:
    layer = get_channel_layer()

    async def send() -> None:
        await asyncio.wait_for(layer.group_send("healthz", {"type": "healthz"}), TIMEOUT)

    async_to_sync(send)()


def check_broker() -> None:
    with celery_app.connection_for_write() as broker:
        broker.ensure_connection(max_retries=1, interval_start=0, timeout=int(TIMEOUT))


CHECKS: dict[str, Callable[[], None]] = {
    "database": check_database,
    "cache": check_cache,
    "channel_layer": check_channel_layer,
    "broker": check_broker,
}


def health() -> dict[str, str]:
    """Each part's state, "ok" or "failing" (why is logged). The checks run side by side and
    the answer comes within TIMEOUT: a part that has not answered by then is failing (a
    database pool, for one, would otherwise wait for a connection for its own timeout)."""
    pool = ThreadPoolExecutor(max_workers=len(CHECKS), thread_name_prefix="healthz")
    running = {part: pool.submit(_check, part, check) for part, check in CHECKS.items()}
    pool.shutdown(wait=False)
    done, _ = wait(running.values(), timeout=TIMEOUT)
    states = {}
    for part, future in running.items():
        if future not in done:
            logger.warning("healthz: the %s did not answer within %s s", part, TIMEOUT)
        states[part] = "ok" if future in done and future.result() else "failing"
    return states


def _check(part: str, check: Callable[[], None]) -> bool:
    try:
        check()
    except Exception:
        logger.warning("healthz: the %s is failing", part, exc_info=True)
        return False
    finally:
        connections.close_all()  # this thread's: a pooled connection goes back to its pool
    return True


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    checks = health()
    ok = all(state == "ok" for state in checks.values())
    return JsonResponse(
        {"status": "ok" if ok else "failing", "checks": checks}, status=200 if ok else 503
    )
