"""Only one recalculation runs per pool; a request made meanwhile is merged into it."""

import threading

import pytest
from django.db import connection

from league.ratings import services, tasks
from league.ratings.models import Rating, RatingChange

from .conftest import build_pool, by_openskill
from .test_recalculation import play_random, stored


def in_thread(target, *args):
    """Run `target` in a thread with its own database connection; returns (thread, results)."""
    found = []

    def run():
        try:
            found.append(target(*args))
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, found


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_triggers_never_apply_an_update_twice(postgres, eager):
    pool = build_pool()
    play_random(pool, 150)
    expected = by_openskill(pool)
    for attempt in range(4):
        barrier = threading.Barrier(2)

        def trigger(start, barrier=barrier):
            barrier.wait()
            services.mark_dirty(pool.pool.pk, start)
            return tasks.recalculate_pool.apply(args=[pool.pool.pk]).get()

        starts = [services.FROM_START, pool.played[40 + attempt][0].scheduled]
        runs = [in_thread(trigger, start) for start in starts]
        for thread, _found in runs:
            thread.join()
        replays = [found[0] for _thread, found in runs]
        assert sum(replays) >= 1
        assert stored(pool) == expected
        assert RatingChange.objects.filter(pool=pool.pool).count() == 150 * 4
        assert set(Rating.objects.filter(pool=pool.pool).values_list("matches", flat=True)) <= {
            sum(1 for _m, four, *_ in pool.played if p in four) for p in range(8)
        }


@pytest.mark.django_db(transaction=True)
def test_a_request_during_a_replay_is_merged_into_it(postgres, eager, monkeypatch):
    pool = build_pool()
    play_random(pool, 20)
    started, go = threading.Event(), threading.Event()
    real_replay = services.replay

    def slow_replay(pool_id, start):
        started.set()
        assert go.wait(30)
        return real_replay(pool_id, start)

    monkeypatch.setattr(services, "replay", slow_replay)
    services.mark_dirty(pool.pool.pk, services.FROM_START)
    holder, holder_runs = in_thread(services.recalculate, pool.pool.pk)
    assert started.wait(30)
    # A new result meanwhile: its task (run here, eagerly) finds the pool busy and leaves.
    pool.play((0, 1, 2, 3), 2, 0)
    assert services.recalculate(pool.pool.pk) == 0
    go.set()
    holder.join()
    assert holder_runs == [2]  # the holder took the new request up before it let go
    assert stored(pool) == by_openskill(pool)
    assert RatingChange.objects.filter(pool=pool.pool).count() == 21 * 4
