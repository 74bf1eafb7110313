"""The Redis pub/sub channel layer, publishing in pipelines.

channels_redis's pub/sub layer publishes one message per round trip, under one lock per
Redis host, so every group message of a web process waits for the reply to the one before
it. Each reply needs a turn of the busy event loop: under benchmarks/live.py's 200 tables
that queue grew past a second in the wave of hand ends, and the process never caught up.
Here every message waiting is published in one pipeline, in the order sent, and each sender
still waits until Redis has its message.
"""

import asyncio

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close, decode_hosts


class PipelinedShardConnection(RedisSingleShardConnection):
    def __init__(self, host: dict, channel_layer: RedisPubSubLoopLayer) -> None:
        super().__init__(host, channel_layer)
        self._waiting: list[tuple[str, bytes, asyncio.Future]] = []
        self._publisher: asyncio.Task | None = None

    async def publish(self, channel: str, message: bytes) -> None:
        sent = asyncio.get_running_loop().create_future()
        self._waiting.append((channel, message, sent))
        if self._publisher is None or self._publisher.done():
            self._publisher = asyncio.ensure_future(self._publish_waiting())
        await sent

    async def _publish_waiting(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting, []
            try:
                async with self._lock:
                    self._ensure_redis()
                    async with self._redis.pipeline(transaction=False) as pipe:
                        for channel, message, _ in batch:
                            pipe.publish(channel, message)
                        await pipe.execute()
            except Exception as error:
                _settle(batch, error)
            else:
                _settle(batch, None)


def _settle(batch: list[tuple[str, bytes, asyncio.Future]], error: Exception | None) -> None:
    """Wake the senders of a batch: published, or with the error that stopped it."""
    for *_, sent in batch:
        if sent.done():  # its sender was cancelled
            continue
        if error is None:
            sent.set_result(None)
        else:
            sent.set_exception(error)


class PipelinedLoopLayer(RedisPubSubLoopLayer):
    def __init__(self, hosts: list | None = None, *args, **kwargs) -> None:
        super().__init__(hosts, *args, **kwargs)
        self._shards = [PipelinedShardConnection(host, self) for host in decode_hosts(hosts)]


class PipelinedPubSubChannelLayer(RedisPubSubChannelLayer):
    def _get_layer(self) -> PipelinedLoopLayer:
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = PipelinedLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)
        return layer
