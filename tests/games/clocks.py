"""Frozen time for the tests of the turn clock, vacations and notifications."""

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine

T0 = datetime(2025, 6, 2, 9, 0, tzinfo=UTC)
"""A Monday morning: the moment the tests' games start."""
HOUR = timedelta(hours=1)
DAY = timedelta(days=1)


@pytest.fixture
def at(django_capture_on_commit_callbacks: Any) -> Any:
    """``with at(moment):`` frozen time, with what waits for the commit run at the end."""

    @contextmanager
    def moment(when: datetime) -> Iterator[None]:
        with (
            time_machine.travel(when, tick=False),
            django_capture_on_commit_callbacks(execute=True),
        ):
            yield

    return moment
