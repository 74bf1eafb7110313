"""The Redis cache, with one redis-py client per connection pool.

Django's Redis cache makes a new `redis.Redis` for every call, which rebuilds its table of
some 170 response callbacks each time: about as long as the round trip itself on loopback,
on every throttle check, cached page and kept standings. A client is thread-safe and
fork-safe (its pool reconnects in a new process), so one per pool serves every call.
"""

from typing import Any

from django.core.cache.backends import redis


class RedisCacheClient(redis.RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients.setdefault(index, super().get_client(key, write=write))
        return client


class RedisCache(redis.RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
