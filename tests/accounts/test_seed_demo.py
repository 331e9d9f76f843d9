import os
import subprocess
import sys
from io import StringIO

import pytest
from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.core.management import call_command
from django.test import override_settings

from accounts.demo import DEMO_ACCOUNTS
from accounts.models import User
from config.runstack import SITE_STEPS, usable_demo_accounts
from moderation.permissions import is_site_moderator
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db


@override_settings(DEBUG=True)
def test_it_creates_the_demo_accounts_with_the_printed_passwords() -> None:
    call_command("seed_demo", stdout=StringIO())

    for account in DEMO_ACCOUNTS:
        user = User.objects.get(username=account.username)
        assert user.display_name == account.display_name
        assert user.check_password(account.password)
        assert sorted(user.groups.values_list("name", flat=True)) == sorted(account.groups)
    assert is_site_moderator(User.objects.get(username="maud"))


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


@override_settings(DEBUG=True, DATABASE_EMBEDDED=True)
def test_if_embedded_creates_them_on_the_embedded_database() -> None:
    call_command("seed_demo", "--if-embedded", stdout=StringIO())

    assert User.objects.count() == len(DEMO_ACCOUNTS)


@override_settings(DEBUG=True, DATABASE_EMBEDDED=False)
def test_if_embedded_creates_nothing_on_a_database_of_ones_own() -> None:
    out = StringIO()

    call_command("seed_demo", "--if-embedded", stdout=out)

    assert not User.objects.exists()
    assert "Not the embedded database" in out.getvalue()


def test_the_embedded_flag_is_read_from_the_environment_and_off_by_default() -> None:
    def embedded(**environ: str) -> str:
        env = {k: v for k, v in os.environ.items() if k != "DATABASE_EMBEDDED"}
        code = "from django.conf import settings; print(settings.DATABASE_EMBEDDED)"
        done = subprocess.run(
            [sys.executable, "-c", code],
            env={**env, "DJANGO_SETTINGS_MODULE": "config.settings", **environ},
            cwd=settings.BASE_DIR,
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout.strip()

    assert embedded() == "False"
    assert embedded(DATABASE_EMBEDDED="true") == "True"


def test_make_run_asks_for_them_only_on_the_embedded_database() -> None:
    assert ("seed_demo", "--if-embedded") in SITE_STEPS
    assert ("seed_demo",) not in SITE_STEPS


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

    assert shown == ["alice", "carol", "maud"]
