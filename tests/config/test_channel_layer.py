"""The channel layer is the Redis one, and messages cross processes through it.

Celery workers publish game updates from their own processes; daphne delivers them. Both
ends only meet in Redis, so these tests use the real server at REDIS_URL.
"""

import asyncio
import os
import subprocess
import sys
import uuid

import pytest
from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer
from django.conf import settings


def unique(name: str) -> str:
    # The Redis server may be shared with other runs: keep names apart.
    return f"test-{name}-{uuid.uuid4().hex[:12]}"


def test_the_default_channel_layer_is_redis() -> None:
    assert isinstance(get_channel_layer(), RedisChannelLayer)


@pytest.mark.asyncio
async def test_a_message_sent_to_a_channel_is_received() -> None:
    layer = get_channel_layer()
    channel = await layer.new_channel(prefix=unique("channel"))

    await layer.send(channel, {"type": "game.changed", "game": 7, "version": 3})

    assert await layer.receive(channel) == {"type": "game.changed", "game": 7, "version": 3}


@pytest.mark.asyncio
async def test_a_receiver_waiting_longer_than_five_seconds_still_gets_its_message() -> None:
    # A quiet game page waits on the layer for minutes; a client-side read timeout equal
    # to the layer's own blocking read (5 s) used to end that wait with an error.
    layer = get_channel_layer()
    channel = await layer.new_channel(prefix=unique("quiet"))

    async def send_later() -> None:
        await asyncio.sleep(6)
        await layer.send(channel, {"type": "game.changed", "version": 1})

    sender = asyncio.create_task(send_later())
    message = await asyncio.wait_for(layer.receive(channel), timeout=20)
    await sender

    assert message == {"type": "game.changed", "version": 1}


@pytest.mark.asyncio
async def test_a_group_message_reaches_every_member_and_no_one_else() -> None:
    layer = get_channel_layer()
    group = unique("group")
    first, second, outsider = [await layer.new_channel() for _ in range(3)]
    await layer.group_add(group, first)
    await layer.group_add(group, second)

    await layer.group_send(group, {"type": "game.changed", "version": 1})
    await layer.send(outsider, {"type": "other"})

    assert (await layer.receive(first))["version"] == 1
    assert (await layer.receive(second))["version"] == 1
    assert (await layer.receive(outsider))["type"] == "other"
    await layer.group_discard(group, first)
    await layer.group_discard(group, second)


@pytest.mark.asyncio
async def test_a_message_published_by_another_process_reaches_the_group() -> None:
    layer = get_channel_layer()
    group = unique("group")
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    publisher = (
        "import django; django.setup();"
        "from asgiref.sync import async_to_sync;"
        "from channels.layers import get_channel_layer;"
        f"async_to_sync(get_channel_layer().group_send)({group!r}, "
        "{'type': 'game.changed', 'version': 42})"
    )

    subprocess.run(
        [sys.executable, "-c", publisher],
        check=True,
        cwd=settings.BASE_DIR,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"},
        timeout=60,
    )

    assert await layer.receive(channel) == {"type": "game.changed", "version": 42}
    await layer.group_discard(group, channel)
