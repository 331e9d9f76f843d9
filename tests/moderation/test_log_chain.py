"""The moderation log's hash chain: each entry is sealed at commit into one line of
digests; ``verify_moderation_log`` and the log page say whether the chain holds and name
the first entry that does not fit; the migration chains the entries written before it;
the admin neither adds nor changes entries or cases."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
from django.apps import apps
from django.core.management import CommandError, call_command
from django.db import ProgrammingError, connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Game
from moderation import log_chain
from moderation.models import Case, Category, LogEntry
from moderation.selectors.log_chain import verify
from moderation.tasks import check_log_chain
from tests.conftest import client_as
from tests.moderation.conftest import open_case

pytestmark = pytest.mark.django_db


def write(summary: str, minutes_ago: int = 0, case: Case | None = None) -> LogEntry:
    return LogEntry.objects.create(
        at=timezone.now() - timedelta(minutes=minutes_ago),
        action=LogEntry.Action.FILED,
        case=case,
        summary=summary,
        reason="Ünïcode, too.",
        changes={"ruling": 3, "weight": 0.5, "seats": ["a", "b"]},
    )


def seal() -> None:
    """What a commit does: the deferred seal runs (the test's transaction never commits)."""
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")


@contextmanager
def as_the_owner_behind_the_apps_back() -> Iterator[None]:
    """The tables' owner with the log's triggers off: what the review did. (A table with
    seals still to run cannot be altered: they run first.)"""
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("ALTER TABLE moderation_logentry DISABLE TRIGGER USER")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("ALTER TABLE moderation_logentry ENABLE TRIGGER USER")
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")


@pytest.fixture
def three() -> list[LogEntry]:
    entries = [write("First.", 3), write("Second.", 2), write("Third.", 1)]
    seal()
    for entry in entries:
        entry.refresh_from_db()
    return entries


def test_each_entry_is_sealed_in_order_with_the_digest_of_the_one_before(
    three: list[LogEntry],
) -> None:
    assert [entry.position for entry in three] == [1, 2, 3]
    previous = ""
    for entry in three:
        assert entry.content_digest == log_chain.content_digest(entry)
        assert entry.digest == log_chain.link(previous, entry.content_digest)
        previous = entry.digest
    state = verify()
    assert state.intact and state.entries == 3 and state.head == three[2].digest
    assert state.sentence() == "The log's chain is intact, 3 entries."


@pytest.mark.as_owner  # the owner meets the seal; the app's role has no right to try
def test_the_seal_neither_lets_the_content_change_nor_a_sealed_entry_move(
    three: list[LogEntry],
) -> None:
    from tests.moderation.test_models import refused

    with refused():
        LogEntry.objects.filter(pk=three[0].pk).update(summary="Nothing happened.")
    with refused():
        LogEntry.objects.filter(pk=three[0].pk).update(position=7)
    with refused():
        LogEntry.objects.filter(pk=three[0].pk).update(digest="0" * 64)


def test_the_command_says_the_chain_is_intact_and_prints_its_head(
    three: list[LogEntry], capsys: pytest.CaptureFixture[str]
) -> None:
    call_command("verify_moderation_log")
    out = capsys.readouterr().out
    assert "The log's chain is intact, 3 entries." in out
    assert f"Head digest: {three[2].digest}" in out


@pytest.mark.as_owner  # rewrites the log: the app's role may not
def test_the_command_names_the_entry_the_owner_changed_and_fails(
    three: list[LogEntry],
) -> None:
    with as_the_owner_behind_the_apps_back():
        LogEntry.objects.filter(pk=three[1].pk).update(summary="Nothing happened.")
    with pytest.raises(CommandError, match=f"broken at entry {three[1].pk} ") as raised:
        call_command("verify_moderation_log")
    assert raised.value.returncode == 1
    assert "its content, its digest or an entry before it was changed" in str(raised.value)


@pytest.mark.as_owner  # rewrites the log: the app's role may not
def test_a_deleted_entry_breaks_the_chain_at_the_one_after_it(three: list[LogEntry]) -> None:
    with as_the_owner_behind_the_apps_back():
        LogEntry.objects.filter(pk=three[1].pk).delete()
    state = verify()
    assert state.broken == three[2] and state.entries == 1
    assert "an entry before it is gone" in state.sentence()


@pytest.mark.as_owner  # rewrites the log: the app's role may not
def test_an_entry_slipped_in_with_the_seal_off_is_named(three: list[LogEntry]) -> None:
    with as_the_owner_behind_the_apps_back():
        slipped = write("Made up.")
    seal()
    state = verify()
    assert state.broken == slipped and state.entries == 3
    assert "never sealed into the chain" in state.sentence()


def test_an_entry_is_written_with_its_content_digest_or_not_at_all() -> None:
    entry = write("First.")
    with (
        pytest.raises(ProgrammingError, match="written with its content digest"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(
            "INSERT INTO moderation_logentry (at, action, summary, reason, changes,"
            " content_digest, digest) VALUES (now(), 'filed', 'Raw.', '', '{}', '', '')"
        )
        seal()
    assert entry.content_digest
    assert LogEntry.objects.count() == 1


@pytest.mark.as_owner  # rewrites the log: the app's role may not
def test_the_migration_chains_the_entries_written_before_the_chain() -> None:
    with as_the_owner_behind_the_apps_back():
        older = [write("Older.", 5), write("Old.", 4)]
        LogEntry.objects.update(content_digest="")
    migration = importlib.import_module("moderation.migrations.0003_log_chain")
    migration.seal_the_entries_so_far(apps, None)
    newer = write("New.")
    seal()
    assert [e.position for e in LogEntry.objects.order_by("pk")] == [1, 2, 3]
    state = verify()
    assert state.intact and state.entries == 3
    assert LogEntry.objects.get(pk=newer.pk).digest == state.head
    assert older[0].pk < newer.pk


@pytest.mark.as_owner  # rewrites the log: the app's role may not
def test_the_log_page_shows_the_chain_intact_then_where_it_broke(
    three: list[LogEntry], site_moderator: User
) -> None:
    client = client_as(site_moderator)
    page = client.get(reverse("moderation:log")).content.decode()
    assert 'data-log-chain="unchecked"' in page
    check_log_chain.delay()
    page = client.get(reverse("moderation:log")).content.decode()
    assert 'data-log-chain="intact"' in page
    assert "The log&#x27;s chain is intact, 3 entries." in page
    with as_the_owner_behind_the_apps_back():
        LogEntry.objects.filter(pk=three[0].pk).update(reason="Nobody said why.")
    # The page shows the last walk of the chain, not a walk of its own.
    with CaptureQueriesContext(connection) as queries:
        page = client.get(reverse("moderation:log")).content.decode()
    assert 'data-log-chain="intact"' in page
    walks = [q["sql"] for q in queries.captured_queries if '"position" ASC NULLS LAST' in q["sql"]]
    assert walks == []
    check_log_chain.delay()
    page = client.get(reverse("moderation:log")).content.decode()
    assert 'data-log-chain="broken"' in page
    assert f"broken at entry {three[0].pk} (" in page


def test_the_admin_neither_adds_nor_changes_log_entries_or_cases(
    admin_client: Client, casual_game: Game, alice: User, three: list[LogEntry]
) -> None:
    case = open_case(casual_game, alice, Category.ABUSE)
    Case.objects.filter(pk=case.pk).update(status=Case.Status.DECIDED)
    assert admin_client.get(reverse("admin:moderation_logentry_add")).status_code == 403
    assert admin_client.get(reverse("admin:moderation_case_add")).status_code == 403
    changed = admin_client.post(
        reverse("admin:moderation_case_change", args=[case.pk]),
        {"status": "open", "category": "other"},
    )
    assert changed.status_code == 403
    entry = reverse("admin:moderation_logentry_change", args=[three[0].pk])
    assert admin_client.post(entry, {"summary": "Nothing."}).status_code == 403
    # Reading stays possible.
    assert admin_client.get(reverse("admin:moderation_case_changelist")).status_code == 200
    case.refresh_from_db()
    assert case.status == Case.Status.DECIDED and case.category == Category.ABUSE
