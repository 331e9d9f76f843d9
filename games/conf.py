"""Settings of the games app, with their defaults (override them in Django settings).

``GAMES_BOT_DELAY_SECONDS``: ``(low, high)``; a bot waits a random time in this range
before its move, so that a human sees the turn pass instead of a blink. Tests set
``(0, 0)``.
"""

from __future__ import annotations

import random

from django.conf import settings

DEFAULT_BOT_DELAY_SECONDS = (1.0, 2.5)


def bot_delay() -> float:
    """Seconds a bot waits before moving."""
    low, high = getattr(settings, "GAMES_BOT_DELAY_SECONDS", DEFAULT_BOT_DELAY_SECONDS)
    return random.uniform(float(low), float(high)) if high > 0 else 0.0
