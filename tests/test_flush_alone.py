"""The flush after a transactional test does not wait for a connection that a live
process left in the middle of a transaction (``tests/conftest.py``, ``_flush_alone``).

The first test leaves such a connection holding a row lock, as a worker might when a test
ends; without the fixture its flush would wait for ever (here: fail after the lock
timeout it sets) and the second test would find its row.
"""

from typing import Any

import psycopg
import pytest
from django.db import connection

from accounts.models import User
from moderation.db_role import owner_connection

pytestmark = pytest.mark.django_db(transaction=True)

LEFT_OPEN: list[Any] = []


def test_a_connection_left_in_a_transaction() -> None:
    User.objects.create(username="left-behind")
    settings = connection.settings_dict
    other = psycopg.connect(
        host=settings["HOST"] or "127.0.0.1",
        port=settings["PORT"] or 5432,
        user=settings["USER"],
        password=settings["PASSWORD"] or None,
        dbname=settings["NAME"],
    )
    other.execute("SELECT * FROM accounts_user FOR UPDATE")
    LEFT_OPEN.append(other)
    # Were the other connection not ended, the flush would fail after this, not hang. The
    # flush is the owner's (the app's role may not TRUNCATE).
    with owner_connection() as owner, owner.cursor() as cursor:
        cursor.execute("SET lock_timeout = '20s'")


def test_the_next_test_starts_empty() -> None:
    with owner_connection() as owner, owner.cursor() as cursor:
        cursor.execute("SET lock_timeout = 0")
    assert not User.objects.filter(username="left-behind").exists()
    assert _ended(LEFT_OPEN[0])


def _ended(other: Any) -> bool:
    try:
        other.execute("SELECT 1")
    except psycopg.OperationalError:
        return True
    return False
