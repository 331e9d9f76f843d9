"""The channel layer of the site: channels_redis's, counting what it pushes."""

from __future__ import annotations

import time
from typing import Any

from channels_redis.core import RedisChannelLayer

from config import metrics


class CountedRedisChannelLayer(RedisChannelLayer):  # type: ignore[misc]
    """Every push of every app is a group message through :meth:`group_send` (see
    :mod:`common.publish`): counted here by its type, with the time Redis took, so the
    metrics see all pushes without any app naming them."""

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        started = time.perf_counter()
        try:
            await super().group_send(group, message)
        finally:
            metrics.pushed(str(message.get("type", "")), time.perf_counter() - started)
