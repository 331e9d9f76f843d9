import pytest
from django.db import IntegrityError

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_member_is_shown_by_display_name() -> None:
    assert str(UserFactory(username="dora", display_name="Dora")) == "Dora"


def test_a_member_without_display_name_is_shown_by_username() -> None:
    assert str(UserFactory(username="dora", display_name="")) == "dora"


def test_the_database_refuses_one_email_for_two_accounts_in_any_letter_case() -> None:
    UserFactory(email="same@example.com")

    with pytest.raises(IntegrityError):
        UserFactory(email="SAME@example.com")


def test_several_accounts_may_have_no_email() -> None:
    UserFactory(email="")
    UserFactory(email="")
