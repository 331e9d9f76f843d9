import pytest
from django.test import Client

from accounts.models import User
from tests.conftest import client_as


@pytest.fixture
def member_client(django_user_model: type[User]) -> Client:
    return client_as(django_user_model.objects.create_user("alice", password="x"))


def test_a_page_varies_on_htmx_and_a_fragment_is_never_stored(member_client: Client) -> None:
    page = member_client.get("/games/")
    fragment = member_client.get("/games/mine/", headers={"HX-Request": "true"})

    assert "HX-Request" in page["Vary"]
    assert "no-store" not in page.get("Cache-Control", "")
    assert "HX-Request" in fragment["Vary"]
    assert "no-store" in fragment["Cache-Control"]
