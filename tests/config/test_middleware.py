import pytest
from django.test import Client

from accounts.models import User


@pytest.fixture
def member_client(django_user_model: type[User]) -> Client:
    client = Client()
    client.force_login(django_user_model.objects.create_user("alice", password="x"))
    return client


def test_a_page_varies_on_htmx_and_a_fragment_is_never_stored(member_client: Client) -> None:
    page = member_client.get("/games/")
    fragment = member_client.get("/games/mine/", headers={"HX-Request": "true"})

    assert "HX-Request" in page["Vary"]
    assert "no-store" not in page.get("Cache-Control", "")
    assert "HX-Request" in fragment["Vary"]
    assert "no-store" in fragment["Cache-Control"]
