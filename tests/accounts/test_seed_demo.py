from io import StringIO

import pytest
from django.core.management import call_command
from django.test import override_settings

from accounts.demo import DEMO_ACCOUNTS
from accounts.models import User

pytestmark = pytest.mark.django_db


@override_settings(DEBUG=True)
def test_it_creates_the_demo_accounts_with_the_printed_passwords() -> None:
    call_command("seed_demo", stdout=StringIO())

    for account in DEMO_ACCOUNTS:
        user = User.objects.get(username=account.username)
        assert user.display_name == account.display_name
        assert user.check_password(account.password)


@override_settings(DEBUG=True)
def test_running_it_again_keeps_one_account_each_and_restores_the_passwords() -> None:
    call_command("seed_demo", stdout=StringIO())
    alice = User.objects.get(username="alice")
    alice.set_password("changed-by-hand-1")
    alice.save()

    call_command("seed_demo", stdout=StringIO())

    assert User.objects.count() == len(DEMO_ACCOUNTS)
    alice.refresh_from_db()
    assert alice.check_password(DEMO_ACCOUNTS[0].password)


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
