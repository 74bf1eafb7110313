"""`call_service`: one table's changes from one process run one at a time, others at once."""

import asyncio
import threading
import time

from games.services.messages import call_service
from tests.conftest import run_async


def test_one_tables_services_take_turns_and_other_tables_do_not_wait():
    running: dict[int, int] = {}
    overlap: dict[int, int] = {}
    together = [0, 0]  # calls running now, most ever at once
    guard = threading.Lock()

    def service(table_id: int, pause: float) -> int:
        with guard:
            running[table_id] = running.get(table_id, 0) + 1
            overlap[table_id] = max(overlap.get(table_id, 0), running[table_id])
            together[0] += 1
            together[1] = max(together)
        time.sleep(pause)
        with guard:
            running[table_id] -= 1
            together[0] -= 1
        return table_id

    async def scenario() -> list[int]:
        return await asyncio.gather(
            *(call_service(service, 1, 0.05) for _ in range(4)),
            call_service(service, 2, 0.05),
            call_service(service, 3, 0.05),
        )

    assert run_async(scenario()) == [1, 1, 1, 1, 2, 3]
    assert overlap == {1: 1, 2: 1, 3: 1}  # never two calls of table 1 at once
    assert together[1] == 3  # but tables 2 and 3 ran beside table 1's first call
