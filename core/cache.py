"""The Redis cache, with one redis-py client per connection pool.

Django's Redis cache makes a new `redis.Redis` for every call, which rebuilds its table of
some 170 response callbacks each time: about as long as the round trip itself on loopback,
on every throttle check, cached page and kept standings. A client is thread-safe and
fork-safe (its pool reconnects in a new process), so one per pool serves every call.
"""

import logging
import os
import threading
import time
from typing import Any

import redis as redis_client
from django.core.cache import caches
from django.core.cache.backends import redis

logger = logging.getLogger(__name__)


class RedisCacheClient(redis.RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        index = self._get_connection_pool_index(write)  # type: ignore[attr-defined]
        client = self._clients.get(index)
        if client is None:
            client = self._clients.setdefault(index, super().get_client(key, write=write))
        return client


class RedisCache(redis.RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
        self.location = self._servers[0]  # type: ignore[attr-defined]  # the one written to

    def client(self) -> redis_client.Redis:
        """The redis-py client of the server written to, for what the cache API lacks (the
        rate limits' script, core/limits.py)."""
        return self._cache.get_client(write=True)  # type: ignore[attr-defined]


# A key known to be absent (absence is mirrored too: creating the key invalidates it).
_MISSING = object()
# Redis's invalidation channel for key tracking redirected to a pub/sub connection (RESP2).
INVALIDATE = "__redis__:invalidate"


class TrackedKeys:
    """The cache's keys under one prefix, mirrored in this process: a key read once is
    read again without a round trip, until Redis says it changed.

    Redis tracks the prefix for a listener thread of this process (key tracking in
    broadcast mode, its invalidations sent to the listener's own pub/sub connection), so
    any change by anyone (a write, an expiry, an eviction, a flush) drops the copy. Copies
    are served only while the listener has heard from Redis within `heard_within`
    seconds; a value read while an invalidation came in is not kept. Writes through `set`
    and `add` drop this process's copy at once, so a process never reads its own write
    stale; other processes drop theirs when the invalidation reaches them, a few
    milliseconds later. With any other cache than Redis, every read goes to the cache.
    """

    ping_every = 1.0
    heard_within = 3.0
    retry_after = 1.0
    max_keys = 50_000

    def __init__(self, prefix: str, using: str = "default") -> None:
        self.prefix, self.using = prefix, using
        self.values: dict[bytes, Any] = {}
        self.lock = threading.Lock()
        self.epoch = 0  # moves on every invalidation: a read that spans one is not kept
        self.live = False  # the listener is subscribed and tracking
        self.heard = 0.0  # when the listener last heard from Redis (time.monotonic)
        self.client_id: int | None = None  # the listener's connection, for the tests
        self.pid: int | None = None
        self.closed = threading.Event()
        self.listener: threading.Thread | None = None

    @property
    def cache(self) -> Any:
        return caches[self.using]

    def get_many(self, keys: list[str]) -> dict[str, Any]:
        """As `cache.get_many`."""
        cache = self.cache
        if not isinstance(cache, RedisCache):
            return cache.get_many(keys)
        self._listening(cache)
        raw = [cache.make_and_validate_key(key).encode() for key in keys]
        with self.lock:
            fresh = self.live and time.monotonic() - self.heard < self.heard_within
            if fresh and all(name in self.values for name in raw):
                values = [self.values[name] for name in raw]
                return {k: v for k, v in zip(keys, values, strict=True) if v is not _MISSING}
            epoch = self.epoch
        found = cache.get_many(keys)
        with self.lock:
            if fresh and self.epoch == epoch:  # losing the listener moves the epoch too
                if len(self.values) > self.max_keys:
                    self.values.clear()
                for key, name in zip(keys, raw, strict=True):
                    self.values[name] = found.get(key, _MISSING)
        return found

    def set(self, key: str, value: Any, timeout: float) -> None:
        """As `cache.set`; this process's copy goes now, not when Redis says so."""
        self.cache.set(key, value, timeout)
        self._changed(key)

    def add(self, key: str, value: Any, timeout: float) -> None:
        """As `cache.add`; this process's copy goes now, not when Redis says so."""
        self.cache.add(key, value, timeout)
        self._changed(key)

    def _changed(self, key: str) -> None:
        cache = self.cache
        if isinstance(cache, RedisCache):
            self._drop([cache.make_and_validate_key(key).encode()])

    def _drop(self, names: list[bytes] | None) -> None:
        with self.lock:
            self.epoch += 1
            if names is None:
                self.values.clear()
            for name in names or ():
                self.values.pop(name, None)

    def _listening(self, cache: "RedisCache") -> None:
        """Start this process's listener (again in a forked process, which has no thread)."""
        if self.pid == os.getpid():
            return
        with self.lock:
            if self.pid == os.getpid():
                return
            self.pid, self.live = os.getpid(), False
            self.values.clear()
            prefix = cache.make_key(self.prefix)
            self.listener = threading.Thread(
                target=self._listen, args=(cache.location, prefix), daemon=True
            )
            self.listener.start()

    def close(self) -> None:
        """Stop mirroring: every read goes to the cache, and the listener ends within
        `ping_every` seconds (for a process or a test done with it)."""
        self.closed.set()
        with self.lock:
            self.live = False
        self._drop(None)

    def _listen(self, location: str, prefix: str) -> None:
        """Follow Redis until closed; after each failure in a row, wait twice as long (up to
        a minute), so that a server without key tracking (before Redis 6) costs a log line a
        minute, not a second. The log line has no traceback: formatting one parses source
        (Python 3.11's carets), which is not safe beside another thread's `compile`."""
        failures = 0
        while not self.closed.is_set():
            try:
                self._follow(location, prefix)
            except Exception as error:
                logger.warning("Tracking of %s lost (%r): reading Redis every time", prefix, error)
            with self.lock:
                failures = 0 if self.live else failures + 1
                self.live = False
            self._drop(None)
            self.closed.wait(min(self.retry_after * 2 ** max(failures - 1, 0), 60))

    def _follow(self, location: str, prefix: str) -> None:
        client = redis_client.Redis.from_url(
            location, protocol=2, socket_connect_timeout=self.heard_within
        )
        pubsub = client.pubsub()
        with self.lock:
            self.heard = time.monotonic()
        try:
            pubsub.execute_command("CLIENT", "ID")
            self.client_id = pubsub.parse_response(block=True, timeout=self.heard_within)
            pubsub.execute_command(
                "CLIENT", "TRACKING", "ON", "REDIRECT", self.client_id, "BCAST", "PREFIX", prefix
            )
            pubsub.parse_response(block=True, timeout=self.heard_within)
            pubsub.subscribe(INVALIDATE)
            while not self.closed.is_set():
                message = pubsub.get_message(timeout=self.ping_every)
                now = time.monotonic()
                if message is not None:
                    if message["type"] == "message":
                        self._drop(message["data"])
                    with self.lock:
                        self.heard = now
                        subscribed = message["type"] == "subscribe"
                        self.live = (self.live or subscribed) and not self.closed.is_set()
                elif now - self.heard > self.heard_within:
                    raise redis_client.ConnectionError("Redis did not answer the listener")
                if now - self.heard >= self.ping_every:
                    pubsub.ping()
        finally:
            pubsub.close()
            client.close()
