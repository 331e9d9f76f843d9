from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.core.management import call_command
from django.test import override_settings

from accounts.demo import DEMO_ACCOUNTS
from accounts.models import User
from config.runstack import usable_demo_accounts
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db


@override_settings(DEBUG=True)
def test_it_creates_the_demo_accounts_with_the_printed_passwords() -> None:
    call_command("seed_demo", stdout=StringIO())

    for account in DEMO_ACCOUNTS:
        user = User.objects.get(username=account.username)
        assert user.display_name == account.display_name
        assert user.check_password(account.password)


@override_settings(DEBUG=True)
def test_running_it_again_never_changes_an_existing_account() -> None:
    call_command("seed_demo", stdout=StringIO())
    alice = User.objects.get(username="alice")
    alice.set_password("changed-by-hand-1")
    alice.display_name = "Alice Liddell"
    alice.save()
    out = StringIO()

    call_command("seed_demo", stdout=out)

    assert User.objects.count() == len(DEMO_ACCOUNTS)
    alice.refresh_from_db()
    assert alice.check_password("changed-by-hand-1")
    assert not alice.check_password(DEMO_ACCOUNTS[0].password)
    assert alice.display_name == "Alice Liddell"
    assert "alice    (exists: left as it is)" in out.getvalue()


@override_settings(DEBUG=True)
def test_a_members_own_account_with_a_demo_name_keeps_its_password(bob: User) -> None:
    call_command("seed_demo", stdout=StringIO())

    bob.refresh_from_db()
    assert bob.check_password(PASSWORD)
    assert User.objects.get(username="carol").check_password(DEMO_ACCOUNTS[2].password)


@override_settings(DEBUG=True)
def test_if_embedded_creates_them_on_the_embedded_database(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)

    call_command("seed_demo", "--if-embedded", stdout=StringIO())

    assert User.objects.count() == len(DEMO_ACCOUNTS)


@override_settings(DEBUG=True)
def test_if_embedded_creates_nothing_on_a_database_named_by_url(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgres://someone@db.example.com/club")
    out = StringIO()

    call_command("seed_demo", "--if-embedded", stdout=out)

    assert not User.objects.exists()
    assert "DATABASE_URL is set" in out.getvalue()


def test_make_run_asks_for_them_only_on_the_embedded_database() -> None:
    makefile = (Path(settings.BASE_DIR) / "Makefile").read_text()

    assert "manage.py seed_demo --if-embedded\n" in makefile
    assert "manage.py seed_demo\n" not in makefile


@override_settings(DEBUG=False)
def test_it_creates_nothing_on_a_site_without_debug() -> None:
    errors = StringIO()

    call_command("seed_demo", stdout=StringIO(), stderr=errors)

    assert not User.objects.exists()
    assert "DEBUG is off" in errors.getvalue()


@override_settings(DEBUG=False)
def test_force_creates_them_even_without_debug() -> None:
    call_command("seed_demo", "--force", stdout=StringIO())

    assert User.objects.count() == len(DEMO_ACCOUNTS)


@override_settings(DEBUG=True)
def test_start_up_announces_only_demo_accounts_that_keep_their_published_password() -> None:
    call_command("seed_demo", stdout=StringIO())
    User.objects.filter(username="bob").update(password=make_password("bob's own secret"))

    shown = [account.username for account in usable_demo_accounts()]

    assert shown == ["alice", "carol"]
