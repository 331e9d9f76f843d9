import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User

HOME = reverse("home")

pytestmark = pytest.mark.django_db


def test_a_visitor_is_welcomed_and_offered_to_sign_up_or_log_in(client: Client) -> None:
    response = client.get(HOME)

    assert response.status_code == 200
    assert "Play Rummikub with friends" in response.text
    assert f'href="{reverse("signup")}"' in response.text
    assert f'href="{reverse("login")}"' in response.text


def test_a_member_is_greeted_by_display_name(alice_client: Client, bob: User) -> None:
    response = alice_client.get(HOME)

    assert response.status_code == 200
    assert "Good to see you, Alice." in response.text
    assert "alice@example.com" in response.text
    assert "bob@example.com" not in response.text
    assert f'href="{reverse("signup")}"' not in response.text


def test_the_page_loads_htmx_and_its_websocket_extension_from_our_static_files(
    client: Client,
) -> None:
    response = client.get(HOME)

    assert 'src="/static/vendor/htmx/htmx.min.js"' in response.text
    assert 'src="/static/vendor/htmx/ext/ws.js"' in response.text


@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_the_home_page_rejects_other_http_methods(client: Client, method: str) -> None:
    response = getattr(client, method)(HOME)

    assert response.status_code == 405
