"""The production channel layer, against a real Redis: pipelined publishing, and one
installation's groups kept from another's on the same server."""

import asyncio
import uuid
from urllib.parse import urlsplit, urlunsplit

import redis
from django.conf import settings

from core.layers import PipelinedPubSubChannelLayer
from tests.conftest import run_async
from tests.platform.test_settings import PRODUCTION, show


def make_layer(address: str | None = None, prefix: str = "") -> PipelinedPubSubChannelLayer:
    host = {"address": address or settings.REDIS_URL, "socket_timeout": 5}
    return PipelinedPubSubChannelLayer(
        hosts=[host], prefix=prefix or f"test-{uuid.uuid4().hex[:8]}"
    )


def test_concurrent_group_messages_all_arrive_in_the_order_sent(redis_layer):
    async def scenario() -> list[int]:
        layer = make_layer()
        channel = await layer.new_channel()
        await layer.group_add("table-1", channel)
        # Many tasks of one process sending at once, as a web process's consumers do.
        await asyncio.gather(
            *(layer.group_send("table-1", {"type": "t", "n": n}) for n in range(300))
        )
        received = [(await layer.receive(channel))["n"] for _ in range(300)]
        await layer.flush()
        return received

    assert run_async(scenario()) == list(range(300))


def test_a_sender_waits_until_redis_has_its_message(redis_layer):
    async def scenario() -> dict:
        prefix = f"test-{uuid.uuid4().hex[:8]}"
        sender, receiver = make_layer(prefix=prefix), make_layer(prefix=prefix)
        channel = await receiver.new_channel()
        await receiver.group_add("table-2", channel)
        await sender.group_send("table-2", {"type": "t", "n": 7})
        message = await asyncio.wait_for(receiver.receive(channel), timeout=5)
        await sender.flush()
        await receiver.flush()
        return message

    assert run_async(scenario()) == {"type": "t", "n": 7}


def test_a_failed_publish_reaches_its_sender_and_does_not_stall_the_next(redis_layer):
    async def scenario() -> list[BaseException]:
        layer = make_layer("redis://127.0.0.1:1/0")  # nothing listens there
        errors = []
        for n in range(2):
            try:
                await asyncio.wait_for(layer.group_send("table-3", {"n": n}), timeout=10)
            except Exception as error:  # noqa: BLE001 - the test looks at what arrived
                errors.append(error)
        await layer.flush()
        return errors

    errors = run_async(scenario())
    assert [type(e) for e in errors] == [redis.exceptions.ConnectionError] * 2


def test_installations_on_other_databases_of_one_redis_do_not_hear_each_other(redis_layer):
    """Redis's pub/sub ignores the database: the settings' default prefix names it."""
    url = urlsplit(settings.REDIS_URL)
    database = int(url.path.strip("/") or 0)
    prefixes = [
        show(
            "s.CHANNEL_LAYERS['default']['CONFIG']['prefix']",
            PRODUCTION | {"REDIS_URL": urlunsplit(url._replace(path=f"/{n}"))},
        )
        for n in (database, (database + 1) % 16)
    ]
    assert prefixes[0] != prefixes[1]

    async def scenario() -> list[bool]:
        ours, theirs = make_layer(prefix=prefixes[0]), make_layer(prefix=prefixes[1])
        heard = []
        for listener in (ours, theirs):
            channel = await listener.new_channel()
            await listener.group_add("table-4", channel)
            await make_layer(prefix=prefixes[0]).group_send("table-4", {"type": "t"})
            try:
                await asyncio.wait_for(listener.receive(channel), timeout=1)
                heard.append(True)
            except TimeoutError:
                heard.append(False)
            await listener.flush()
        return heard

    assert run_async(scenario()) == [True, False]
