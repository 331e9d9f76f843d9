"""The app's database role, apart from the tables' owner: a real second PostgreSQL role,
granted what the app needs (``manage.py grant_app_role``), reads and appends to the
moderation log, whose entries are sealed into the chain, and is refused everything that
rewrote the log in the review: UPDATE, DELETE, TRUNCATE, ALTER TABLE ... DISABLE TRIGGER,
``session_replication_role``. What the owner changes behind the app's back,
``verify_moderation_log`` names. Transactions writing at once still make one chain."""

from __future__ import annotations

import time

import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from moderation.models import LogEntry
from moderation.selectors.log_chain import verify
from tests.moderation.roles import append_as_the_app, connect_as
from tests.races import race

# The tests' own connection is the owner's: it creates the roles and rewrites the log
# behind the app's back; the app's role here is the one each test makes.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.as_owner]

REFUSED = [
    "UPDATE moderation_logentry SET summary = 'Nothing happened.'",
    "DELETE FROM moderation_logentry",
    "TRUNCATE moderation_logentry",
    "ALTER TABLE moderation_logentry DISABLE TRIGGER ALL",
    "SET session_replication_role = replica",
]


def test_the_apps_role_appends_to_the_log_and_cannot_rewrite_it(app_role: str) -> None:
    first = LogEntry.objects.create(
        at=timezone.now(), action=LogEntry.Action.FILED, summary="Written by the owner."
    )
    with connect_as(app_role) as app:
        assert app.execute("SELECT current_user").fetchone() == (app_role,)
        second = append_as_the_app(app, "Written by the app.")
        # Sealed at its commit, with the owner's rights: the role may not UPDATE the log.
        sealed = app.execute(
            "SELECT position FROM moderation_logentry WHERE id = %s", [second]
        ).fetchone()
        assert sealed == (2,)
        for statement in REFUSED:
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                app.execute(statement)
        assert app.execute("SELECT count(*) FROM moderation_logentry").fetchone() == (2,)
    state = verify()
    assert state.intact and state.entries == 2
    first.refresh_from_db()
    assert first.position == 1


def test_the_command_names_an_entry_the_owner_changed_behind_the_apps_back(
    app_role: str,
) -> None:
    with connect_as(app_role) as app:
        entries = [append_as_the_app(app, f"Entry {n}.") for n in range(3)]
    # The owner turns the triggers off and rewrites the second entry.
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE moderation_logentry DISABLE TRIGGER USER")
        cursor.execute(
            "UPDATE moderation_logentry SET reason = 'Nobody asked.' WHERE id = %s", [entries[1]]
        )
        cursor.execute("ALTER TABLE moderation_logentry ENABLE TRIGGER USER")
    with pytest.raises(CommandError, match=f"broken at entry {entries[1]} ") as raised:
        call_command("verify_moderation_log")
    assert raised.value.returncode == 1


def test_the_chain_stays_one_line_when_many_write_at_once() -> None:
    def three_entries() -> None:
        with transaction.atomic():
            for n in range(3):
                LogEntry.objects.create(
                    at=timezone.now(), action=LogEntry.Action.FILED, summary=f"Entry {n}."
                )
                time.sleep(0.01)  # the transactions interleave their inserts

    done = race(*[three_entries] * 6, refusal=DatabaseError, name=str)
    assert done == ["ok"] * 6
    state = verify()
    assert state.intact and state.entries == 18
    positions = sorted(LogEntry.objects.values_list("position", flat=True))
    assert positions == list(range(1, 19))
