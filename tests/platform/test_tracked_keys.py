"""A process's mirror of cache keys (core.cache.TrackedKeys), against real Redis: a key
read once is read again without a round trip, any change by anyone drops it, and nothing is
served from the mirror while its listener is not hearing Redis."""

import itertools
import threading
import time
import uuid

import pytest
import redis
from django.conf import settings
from django.core.cache import cache, caches

from core.cache import TrackedKeys


@pytest.fixture
def tracked(redis_layer):
    keys = TrackedKeys(f"tracked-{uuid.uuid4().hex}")
    keys.ping_every, keys.heard_within, keys.retry_after = 0.2, 1.0, 0.2
    keys.get_many([keys.prefix])  # starts its listener
    wait_for(lambda: keys.live)
    yield keys
    keys.close()
    keys.listener.join(timeout=5)
    assert not keys.listener.is_alive() and not keys.live


def wait_for(condition, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def written(tracked: TrackedKeys, key: str, value) -> None:
    """Set as another process would (not telling the mirror), once Redis has said so."""
    epoch = tracked.epoch
    cache.set(key, value)
    wait_for(lambda: tracked.epoch > epoch)


def mirrored(tracked: TrackedKeys, round_trips: list) -> str:
    """A key written and read twice: once from Redis, then from the mirror."""
    key = f"{tracked.prefix}:generation"
    written(tracked, key, "one")
    assert tracked.get_many([key]) == {key: "one"} == tracked.get_many([key])
    assert len(round_trips) == 1
    return key


@pytest.fixture
def round_trips(monkeypatch) -> list:
    """The reads that went to Redis (the cache's own get_many, called for real)."""
    calls: list = []
    real = caches["default"].get_many

    def counted(keys, *args, **kwargs):
        calls.append(list(keys))
        return real(keys, *args, **kwargs)

    monkeypatch.setattr(caches["default"], "get_many", counted)
    return calls


def test_a_key_read_once_is_read_again_without_a_round_trip(tracked, round_trips):
    present, absent = f"{tracked.prefix}:present", f"{tracked.prefix}:absent"
    written(tracked, present, {"etag": "one"})
    assert tracked.get_many([present, absent]) == {present: {"etag": "one"}}
    assert len(round_trips) == 1
    for _ in range(5):
        assert tracked.get_many([present, absent]) == {present: {"etag": "one"}}
    assert len(round_trips) == 1  # absence is mirrored too


def test_a_change_by_anyone_drops_the_copy(tracked):
    key = f"{tracked.prefix}:generation"
    written(tracked, key, "one")
    assert tracked.get_many([key]) == {key: "one"} == tracked.get_many([key])
    written(tracked, key, "two")
    assert tracked.get_many([key]) == {key: "two"}
    cache.delete(key)
    wait_for(lambda: tracked.get_many([key]) == {})
    # This process's own writes drop its copy at once, before Redis says so.
    tracked.get_many([key])
    tracked.set(key, "three", None)
    assert tracked.get_many([key]) == {key: "three"}


def test_a_value_read_while_it_changed_is_not_kept(tracked, monkeypatch):
    key = f"{tracked.prefix}:validators"
    written(tracked, key, "old")
    real = caches["default"].get_many
    changes = ["new"]

    def read_then_changed(keys, *args, **kwargs):
        found = real(keys, *args, **kwargs)
        if changes:
            written(tracked, key, changes.pop())  # the invalidation comes before the answer
        return found

    monkeypatch.setattr(caches["default"], "get_many", read_then_changed)
    assert tracked.get_many([key]) == {key: "old"}
    assert tracked.get_many([key]) == {key: "new"}


def test_nothing_is_served_from_the_mirror_while_the_listener_is_lost(tracked, round_trips):
    key = mirrored(tracked, round_trips)
    redis.Redis.from_url(settings.REDIS_URL).client_kill_filter(_id=tracked.client_id)
    wait_for(lambda: not tracked.live)
    cache.set(key, "two")  # no tracking now: nobody is told
    assert tracked.get_many([key]) == {key: "two"}
    assert len(round_trips) == 2
    wait_for(lambda: tracked.live)  # it listens again, and mirrors again
    tracked.get_many([key])
    calls = len(round_trips)
    assert tracked.get_many([key]) == {key: "two"} and len(round_trips) == calls


def test_a_listener_that_stops_hearing_redis_stops_serving(tracked, round_trips):
    key = mirrored(tracked, round_trips)
    tracked.heard -= tracked.heard_within  # as if the last pong was that long ago
    tracked.get_many([key])
    assert len(round_trips) == 2


def test_a_listener_that_keeps_failing_waits_twice_as_long_each_time():
    """A Redis that cannot be followed (here: nothing listens on the port) is tried again
    after 1, 2, 4… times `retry_after`, not in a tight loop."""
    keys = TrackedKeys("unreachable")
    keys.retry_after = 0.02
    attempts: list[float] = []
    follow = keys._follow

    def counted(location: str, prefix: str) -> None:
        attempts.append(time.monotonic())
        follow(location, prefix)

    keys._follow = counted
    listener = threading.Thread(target=keys._listen, args=("redis://127.0.0.1:1/0", "x"))
    listener.start()
    wait_for(lambda: len(attempts) >= 5)
    keys.close()
    listener.join(timeout=5)
    assert not listener.is_alive()
    gaps = [later - earlier for earlier, later in itertools.pairwise(attempts)]
    assert all(gap >= 0.02 * 2**n * 0.9 for n, gap in enumerate(gaps[:4])), gaps
    assert not keys.live
